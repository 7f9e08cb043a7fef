"""The deck an import writes: its metadata from the options, held to the loader's rules."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from quizapp.authoring.csv_import.problems import CsvInputError
from quizapp.authoring.csv_import.render import (
    DEFAULT_DOMAIN,
    DEFAULT_WEIGHT,
    DeckInfo,
    deck_header,
    dump_question,
    lint_text,
)
from quizapp.bank import fields as F
from quizapp.bank.yaml12 import MappingNode, compose

_PROBE_QUESTION = {
    "id": "probe",
    "type": "flashcard",
    "difficulty": "easy",
    "tags": ["probe"],
    "prompt": "P",
    "back": "B",
    "explanation": "E",
}
_DECK_OPTIONS = {
    "id": "--deck-id",
    "title": "--title",
    "topic": "--topic",
    "domain": "--domain",
    "exam_weight": "--weight",
    "description": "the description",
}


def check_deck(
    deck: DeckInfo,
    scratch: Path,
    taken_decks: Mapping[str, str] | None = None,
    origins: Mapping[str, str] | None = None,
) -> None:
    """Hold the deck metadata to the loader's rules. Raises CsvInputError naming where the
    value came from: the option, or its entry in `origins` (a field's file and key, for a
    value read from the imported file)."""
    named = {**_DECK_OPTIONS, **(origins or {})}
    header = deck_header(deck)
    _, errors = lint_text(header + "questions:\n" + dump_question(_PROBE_QUESTION), scratch)
    header_lines = header.count("\n")
    errors = [e for e in errors if e.line <= header_lines]
    if errors:
        root = compose(header)
        assert isinstance(root, MappingNode)
        deck_node = next(v for k, v in root.value if k.value == "deck")
        lines = [(k.start_mark.line + 1, k.value) for k, _ in deck_node.value]
        first = errors[0]
        key = next((k for line, k in reversed(lines) if line <= first.line), "id")
        raise CsvInputError(f"{named.get(key, key)}: {first.message}")
    if taken_decks and deck.id in taken_decks:
        where = named["id"]
        advice = (
            "choose another with --deck-id"
            if where == _DECK_OPTIONS["id"]
            else "rename the deck in the file, or import into another bank with "
            "--bank/--no-default-bank"
        )
        raise CsvInputError(
            f"{where}: deck id '{deck.id}' is already used by {taken_decks[deck.id]}; {advice}"
        )


def default_deck_info(
    csv_path: str | Path,
    *,
    deck_id: str | None = None,
    title: str | None = None,
    topic: str | None = None,
    domain: str | None = None,
    weight: float | None = None,
) -> DeckInfo:
    """Deck metadata from the options, with defaults drawn from the CSV's file name."""
    stem = Path(csv_path).stem
    slug = re.sub(r"[^a-z0-9]+", "-", stem.lower()).strip("-")[: F.ID_MAX_LENGTH].strip("-")
    chosen_id = deck_id if deck_id is not None else (slug or "imported")
    if title is None:
        words = re.sub(r"[-_]+", " ", stem).strip() or chosen_id
        title = words[:1].upper() + words[1:]
    return DeckInfo(
        id=chosen_id,
        title=title,
        topic=topic if topic is not None else chosen_id,
        domain=domain if domain is not None else DEFAULT_DOMAIN,
        exam_weight=weight if weight is not None else DEFAULT_WEIGHT,
    )


# Where default_deck_info takes each setting the options and the CSV leave out, and what sets
# it instead: said on stderr, one line each, so that a sheet without deck columns does not
# silently become a deck named after its file.
_DEFAULT_FROM = {
    "id": ("from the file name", "--deck-id"),
    "title": ("from the file name", "--title"),
    "topic": ("the deck id", "--topic"),
    "domain": ("the default", "--domain"),
    "exam_weight": ("the default", "--weight"),
    "description": ("", ""),
}


def default_notes(deck: DeckInfo, defaulted: list[str]) -> list[str]:
    """One line per setting in `defaulted` (DeckInfo names): its value and where it came
    from, e.g. `deck title: 'My deck' (from the file name; the CSV gives none: ...)`."""
    lines = []
    for key in defaulted:
        source, option = _DEFAULT_FROM[key]
        column = "deck_" + key
        if key == "description":
            lines.append(
                f"deck description: none (the CSV gives none: set it in a {column} column)"
            )
            continue
        value = getattr(deck, key)
        shown = repr(value) if isinstance(value, str) else f"{value:g}"
        lines.append(
            f"deck {key.replace('_', ' ')}: {shown} ({source}; the CSV gives none: set it with "
            f"{option} or a {column} column)"
        )
    return lines


__all__ = ["check_deck", "default_deck_info", "default_notes"]
