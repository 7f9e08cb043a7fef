"""`quizapp import` from what teachers already have: GIFT, Anki and quizapp's own JSON.

    format      files        read by                  becomes
    gift        .gift, .txt  importers.gift           choice, true/false and numeric questions
    anki-text   .txt         importers.anki_text      flashcards; quizapp's own cards as themselves
    apkg        .apkg        importers.apkg           the same, from an Anki package
    json        .json        importers.quizapp_json   the exported decks, as they were
    moodle-xml  .xml         importers.moodle_xml     a deck per top category: choice,
                                                      true/false, numeric, ordering questions

(CSV stays with quizapp.authoring.csv_import.) The format comes from the file's extension; a
`.txt` file is Anki's when it starts with Anki's `#separator:`/`#html:` headers, GIFT when it
reads like GIFT (`::title::`, `$CATEGORY:`, an answer block), and Anki's again when its lines
hold tabs. `--from` names the format outright.

Each reader reports every item it cannot import, with the reason, and
quizapp.authoring.importers.common builds a deck that passes `quizapp lint`.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from quizapp.authoring.importers.common import (
    BuiltDeck,
    DeckInfo,
    ImportInputError,
    Skipped,
    SourceResult,
    build_deck,
    check_deck,
    default_deck_info,
    read_text_file,
    slugify,
)

IMPORT_FORMATS = ("csv", "gift", "anki-text", "apkg", "json", "moodle-xml")
_BY_SUFFIX = {
    ".csv": "csv",
    ".gift": "gift",
    ".apkg": "apkg",
    ".json": "json",
    ".xml": "moodle-xml",
}
_GIFT_HINT = re.compile(
    r"(?m)^\s*::|^\s*\$CATEGORY:|\{\s*(?:T|F|TRUE|FALSE)\s*(?:#[^{}]*)?\}|\{[^{}]*[=~#][^{}]*\}"
)


def detect_format(path: Path) -> str:
    """The import format of `path`, from its extension (and, for .txt, its first lines)."""
    suffix = path.suffix.lower()
    if suffix in _BY_SUFFIX:
        return _BY_SUFFIX[suffix]
    if suffix == ".txt":
        from quizapp.authoring.importers.anki_text import has_anki_header

        try:
            with path.open("rb") as handle:
                raw = handle.read(65536)
        except OSError as exc:
            raise ImportInputError(f"cannot read {path}: {exc.strerror or exc}") from None
        if raw.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in raw:
            # Excel's "Unicode Text" (UTF-16, tab-separated, with or without its byte-order
            # mark): the CSV importer reads it, or says which --encoding to give.
            return "csv"
        head = raw.decode("utf-8-sig", errors="replace")
        if _looks_like_quizapp_columns(head):
            return "csv"  # a spreadsheet saved as text, with quizapp's column header
        if has_anki_header(head):
            return "anki-text"
        if _GIFT_HINT.search(head):
            return "gift"
        if "\t" in head:
            return "anki-text"
        raise ImportInputError(
            f"{path} reads neither as GIFT nor as an Anki text export; "
            "name the format with --from gift or --from anki-text"
        )
    raise ImportInputError(
        f"{path}: quizapp imports .csv, .gift, .txt (GIFT or Anki notes), .apkg, .json and "
        ".xml (Moodle XML) files; name the format with --from"
    )


def _looks_like_quizapp_columns(head: str) -> bool:
    """True when the first line is a header naming quizapp's own CSV columns."""
    first = head.split("\n", 1)[0].lower()
    cells = {cell.strip().strip('"') for cell in re.split(r"[\t;,]", first)}
    return {"id", "type", "prompt"} <= cells


@dataclass(frozen=True)
class DeckOptions:
    """The deck metadata the command line gives (None: not given)."""

    deck_id: str | None = None
    title: str | None = None
    topic: str | None = None
    domain: str | None = None
    weight: float | None = None

    def given(self) -> list[str]:
        names = {"deck_id": "--deck-id", "title": "--title", "topic": "--topic"}
        names |= {"domain": "--domain", "weight": "--weight"}
        return [flag for key, flag in names.items() if getattr(self, key) is not None]


@dataclass
class PendingDeck:
    """A deck read from the source, not yet checked and built."""

    deck: DeckInfo
    source: SourceResult
    # Where the file gave a metadata field (DeckInfo's name: "id" -> "FILE: decks[0].id"); a
    # field not here came from its option or its default and is named by the option.
    origins: dict[str, str] = field(default_factory=dict)


def read_decks(path: Path, fmt: str, options: DeckOptions) -> list[PendingDeck]:
    """The decks in the file (one, except for a JSON export of several). Raises
    ImportInputError for a file that cannot be imported at all."""
    name = str(path)
    if fmt == "json":
        return _json_decks(path, options)
    if fmt == "moodle-xml":
        return _moodle_decks(path, options)
    if fmt == "gift":
        from quizapp.authoring.importers.gift import parse_gift

        source = parse_gift(read_text_file(path, "GIFT"), name)
    elif fmt == "anki-text":
        from quizapp.authoring.importers.anki_text import parse_anki_text

        source = parse_anki_text(read_text_file(path, "Anki text"), name)
    elif fmt == "apkg":
        from quizapp.authoring.importers.apkg import read_apkg

        source = read_apkg(path, name)
    else:
        raise ImportInputError(f"unknown import format {fmt!r}")
    deck_id = options.deck_id
    if deck_id is None and source.title:
        deck_id = slugify(source.title) or None
    deck = default_deck_info(
        path,
        deck_id=deck_id,
        title=options.title if options.title is not None else source.title,
        topic=options.topic,
        domain=options.domain,
        weight=options.weight,
    )
    return [PendingDeck(deck, source)]


def _json_decks(path: Path, options: DeckOptions) -> list[PendingDeck]:
    from quizapp.authoring.importers.quizapp_json import parse_quizapp_json

    decks = parse_quizapp_json(read_text_file(path, "JSON"), str(path))
    if len(decks) > 1 and options.given():
        raise ImportInputError(
            f"{path} holds {len(decks)} decks ({', '.join(d.id or '?' for d in decks)}); "
            f"{', '.join(options.given())} set one deck's metadata: import a file of one deck"
        )
    pending: list[PendingDeck] = []
    for found in decks:
        base = found.info or default_deck_info(f"{found.id}.json" if found.id else path)
        given = {
            key: value
            for key, value in (
                ("id", options.deck_id),
                ("title", options.title),
                ("topic", options.topic),
                ("domain", options.domain),
                ("exam_weight", options.weight),
            )
            if value is not None
        }
        origins = {key: where for key, where in found.origins.items() if key not in given}
        pending.append(PendingDeck(replace(base, **given), found.source, origins))
    return pending


def _moodle_decks(path: Path, options: DeckOptions) -> list[PendingDeck]:
    """A deck per top-level category (importers.moodle_xml); the options set the metadata
    of a file of one deck only, as for JSON."""
    from quizapp.authoring.importers.moodle_xml import read_moodle_xml

    found = read_moodle_xml(path, str(path))
    if len(found) > 1 and options.given():
        names = ", ".join(d.deck_id or d.title or "?" for d in found)
        raise ImportInputError(
            f"{path} holds {len(found)} categories ({names}); {', '.join(options.given())} "
            "set one deck's metadata: import a file of one category"
        )
    pending: list[PendingDeck] = []
    for deck in found:
        info = default_deck_info(
            path,
            deck_id=options.deck_id if options.deck_id is not None else deck.deck_id,
            title=options.title if options.title is not None else deck.title,
            topic=options.topic,
            domain=options.domain,
            weight=options.weight,
        )
        if deck.description and info.description is None:
            info = replace(info, description=deck.description)
        pending.append(PendingDeck(info, deck.source))
    return pending


def build(
    pending: PendingDeck,
    *,
    taken_ids: Mapping[str, str] | None = None,
    taken_decks: Mapping[str, str] | None = None,
) -> BuiltDeck:
    """Check the deck's metadata (raises CsvInputError naming the option, or the file and
    key the value came from), then build it."""
    with tempfile.TemporaryDirectory(prefix="quizapp-import-") as scratch:
        check_deck(pending.deck, Path(scratch), taken_decks, pending.origins)
    return build_deck(pending.source, pending.deck, taken_ids=taken_ids)


__all__ = [
    "IMPORT_FORMATS",
    "BuiltDeck",
    "DeckOptions",
    "ImportInputError",
    "PendingDeck",
    "Skipped",
    "build",
    "detect_format",
    "read_decks",
]
