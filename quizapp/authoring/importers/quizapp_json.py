"""quizapp's own JSON export (`quizapp export --format json`) read back into deck files.

The export is one object: `{"format": 1, "decks": [deck, ...], "questions": [question, ...]}`
(see quizapp.authoring.export). Each question names its deck; each deck object carries the
deck's metadata (id, title, topic, domain, exam_weight, description), so exporting and
importing gives back the same decks and questions. A bare list of question objects, the
shape of exports before `format` existed, is read too: its decks get default metadata.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from quizapp.authoring.export import JSON_FORMAT_VERSION, json_to_mapping
from quizapp.authoring.importers.common import (
    MAX_ITEMS,
    DeckInfo,
    Draft,
    ImportInputError,
    Skipped,
    SourceResult,
)

_DECK_KEYS = ("id", "title", "topic", "domain", "exam_weight", "description")


@dataclass
class JsonDeck:
    id: str
    info: DeckInfo | None  # None: the file has no metadata for this deck
    source: SourceResult = field(default_factory=SourceResult)
    # Each metadata field the file gave, by DeckInfo name: where it is ("FILE: decks[0].id").
    # json reports no line for a value it parsed, so the key path says where to look.
    origins: dict[str, str] = field(default_factory=dict)


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def parse_quizapp_json(text: str, source: str) -> list[JsonDeck]:
    """The decks of a quizapp JSON export, in file order. Raises ImportInputError."""
    try:
        document = json.loads(text, parse_constant=_no_constants)
    except RecursionError:
        raise ImportInputError(f"{source}: the JSON nests too deeply") from None
    except ValueError as exc:
        raise ImportInputError(f"{source} is not valid JSON: {exc}") from None
    if isinstance(document, list):
        deck_objects: list[Any] = []
        questions = document
    elif isinstance(document, dict):
        version = document.get("format")
        if version != JSON_FORMAT_VERSION:
            raise ImportInputError(
                f"{source}: format {version!r} is not a quizapp JSON export this version reads "
                f"(format {JSON_FORMAT_VERSION})"
            )
        deck_objects = document.get("decks", [])
        questions = document.get("questions")
        if not isinstance(deck_objects, list) or not isinstance(questions, list):
            raise ImportInputError(f"{source}: 'decks' and 'questions' must be lists")
    else:
        raise ImportInputError(f"{source} is not a quizapp JSON export (an object or a list)")
    if len(questions) > MAX_ITEMS:
        raise ImportInputError(f"{source} has more than {MAX_ITEMS:,} questions")

    decks: dict[str, JsonDeck] = {}
    for n, obj in enumerate(deck_objects):
        where = f"{source}: decks[{n}]"
        info = _deck_info(obj, where)
        origins = {key: f"{where}.{key}" for key in _DECK_KEYS if key in obj}
        decks.setdefault(info.id, JsonDeck(info.id, info, origins=origins))
    strays: list[Skipped] = []  # items that name no deck: reported with the first deck
    for n, obj in enumerate(questions, start=1):
        where = f"{source}: question {n}"
        if not isinstance(obj, dict):
            strays.append(Skipped(where, "not a question object"))
            continue
        deck_id = obj.get("deck") if isinstance(obj.get("deck"), str) else ""
        # A deck no deck object describes takes its id from the first question naming it.
        named_by = {"id": f"{source}: questions[{n - 1}].deck"} if deck_id else {}
        deck = decks.setdefault(deck_id, JsonDeck(deck_id, None, origins=named_by))
        if isinstance(obj.get("id"), str):
            where += f" ('{obj['id']}')"
        try:
            mapping = json_to_mapping(obj)
        except (AttributeError, TypeError, KeyError, ValueError) as exc:
            deck.source.skipped.append(Skipped(where, f"not a quizapp question object ({exc})"))
            continue
        if deck.info is not None and mapping.get("topic") == deck.info.topic:
            del mapping["topic"]  # the export writes every question's topic; the bank need not
        deck.source.drafts.append(Draft(where, mapping, str(mapping.get("prompt", ""))))
    found = [d for d in decks.values() if d.source.drafts or d.source.skipped or d.info]
    if strays:
        if not found:
            found.append(JsonDeck("", None))
        found[0].source.skipped.extend(strays)
    return found


def _deck_info(obj: Any, where: str) -> DeckInfo:
    if not isinstance(obj, dict) or not isinstance(obj.get("id"), str):
        raise ImportInputError(f"{where}: a deck needs at least an id")
    values = {key: obj.get(key) for key in _DECK_KEYS}
    defaults = DeckInfo(id=obj["id"], title=obj["id"], topic=obj["id"])
    return DeckInfo(
        id=obj["id"],
        title=values["title"] if values["title"] is not None else defaults.title,
        topic=values["topic"] if values["topic"] is not None else defaults.topic,
        domain=values["domain"] if values["domain"] is not None else defaults.domain,
        exam_weight=(
            values["exam_weight"] if values["exam_weight"] is not None else defaults.exam_weight
        ),
        description=values["description"],
    )
