"""Anki's "Notes in Plain Text" export (.txt): one note per line, fields separated.

The file starts with header lines Anki writes and reads (keys are case-insensitive):

    #separator:tab          tab, comma, semicolon, space, pipe or colon (or the character)
    #html:true              the fields are HTML (false: plain text)
    #tags column:4          the column holding the note's tags, space-separated
    #deck column:3          ... its deck        (#deck:NAME for every note)
    #notetype column:2      ... its note type   (#notetype:NAME for every note)
    #guid column:1          ... its guid (not needed here)
    #columns:Front<tab>Back column names, which place the Front and Back fields
    #tags:a b               tags for every note

Columns are numbered from 1; the columns that are not tags, deck, note type or guid are the
note's fields, in order. Fields may be quoted with `"` (a quote inside doubled), which lets
them hold the separator or span lines. A line starting with `#` between notes is a comment.
Without `#separator` the first of tab, semicolon and comma found in the file separates;
without `#html` the fields are HTML when any of them looks like HTML, as in Anki.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from quizapp.authoring.importers.anki_notes import AnkiNote, deck_title, note_result
from quizapp.authoring.importers.common import (
    MAX_ITEMS,
    ImportInputError,
    SourceResult,
)
from quizapp.authoring.importers.html_text import looks_like_html
from quizapp.bank.bounded import Bound, OutOfRange

SEPARATORS = {
    "tab": "\t",
    "comma": ",",
    "semicolon": ";",
    "space": " ",
    "pipe": "|",
    "colon": ":",
}
HEADER_KEYS = frozenset(
    {
        "separator",
        "html",
        "tags",
        "columns",
        "notetype",
        "deck",
        "notetype column",
        "deck column",
        "tags column",
        "guid column",
    }
)
_HEADER = re.compile(r"^#([^:\n]+):(.*)$")


@dataclass
class Header:
    separator: str | None = None
    html: bool | None = None
    tags: list[str] = field(default_factory=list)
    columns: list[str] = field(default_factory=list)
    notetype: str | None = None
    deck: str | None = None
    notetype_column: int = 0
    deck_column: int = 0
    tags_column: int = 0
    guid_column: int = 0
    lines: int = 0  # how many lines the header takes


def has_anki_header(text: str) -> bool:
    """Whether the text starts like an Anki text export (a `#key:value` line Anki knows)."""
    first = text.lstrip("\ufeff").split("\n", 1)[0]
    match = _HEADER.match(first)
    return bool(match and match.group(1).strip().lower() in HEADER_KEYS) or first.startswith(
        "tags:"
    )


# A note type has a few dozen fields at most; the number is read through the bounded reader,
# so neither '²' (which isdigit() accepts) nor 5,000 digits reaches int().
_COLUMN = Bound(1, 1000, whole=True)


def _column(value: str, key: str, source: str) -> int:
    try:
        return int(_COLUMN.parse(value))
    except OutOfRange as exc:
        shown = value.strip() if len(value.strip()) <= 40 else value.strip()[:39] + "…"
        raise ImportInputError(f"{source}: #{key}:{shown} is not a column number ({exc})") from None


def read_header(lines: list[str], source: str) -> Header:
    header = Header()
    if lines and lines[0].startswith("tags:"):
        header.tags = lines[0][len("tags:") :].split()
        header.lines = 1
    raw_columns: str | None = None
    for line in lines[header.lines :]:
        if not line.startswith("#"):
            break
        header.lines += 1
        match = _HEADER.match(line)
        if not match:
            continue
        key, value = match.group(1).strip().lower(), match.group(2)
        if key == "separator":
            name = value.strip().lower()
            if name in SEPARATORS:
                header.separator = SEPARATORS[name]
            elif len(value) == 1 and value in SEPARATORS.values():
                header.separator = value
            else:
                raise ImportInputError(
                    f"{source}: #separator:{value} is not one Anki writes ({', '.join(SEPARATORS)})"
                )
        elif key == "html":
            if value.strip().lower() not in ("true", "false"):
                raise ImportInputError(f"{source}: #html:{value} is neither true nor false")
            header.html = value.strip().lower() == "true"
        elif key == "tags":
            header.tags = value.split()
        elif key == "columns":
            raw_columns = value
        elif key in ("notetype", "deck"):
            setattr(header, key, value.strip() or None)
        elif key.endswith(" column"):
            setattr(header, key.replace(" ", "_"), _column(value, key, source))
    if raw_columns is not None:
        header.columns = next(csv.reader([raw_columns], delimiter=header.separator or "\t"), [])
    return header


def _guess_separator(body: str) -> str:
    for separator in ("\t", ";", ","):
        if separator in body[:8192]:
            return separator
    return "\t"


def _records(lines: list[str], first_line: int, separator: str) -> Iterator[tuple[int, list[str]]]:
    """(line, fields) per note. A `#` line is a comment only where a note would start."""
    state = {"start": True, "line": first_line, "record_line": first_line}

    def feed() -> Iterator[str]:
        for offset, line in enumerate(lines):
            number = first_line + offset
            if state["start"]:
                if line.startswith("#") or not line.strip():
                    continue
                state["record_line"] = number
                state["start"] = False
            yield line + "\n"

    reader = csv.reader(feed(), delimiter=separator, quotechar='"', doublequote=True, strict=False)
    try:
        for record in reader:
            yield int(state["record_line"]), record
            state["start"] = True
    except csv.Error as exc:
        raise ImportInputError(f"line {state['record_line']}: not readable: {exc}") from None


def parse_anki_text(text: str, source: str) -> SourceResult:
    return notes_result(read_notes(text, source))


def read_notes(text: str, source: str) -> list[AnkiNote]:
    """The notes of an Anki text export, as Anki itself reads them. Raises ImportInputError."""
    lines = text.split("\n")
    header = read_header(lines, source)
    body_lines = lines[header.lines :]
    separator = header.separator or _guess_separator("\n".join(body_lines))
    records = list(_records(body_lines, header.lines + 1, separator))
    if len(records) > MAX_ITEMS:
        raise ImportInputError(f"{source} has more than {MAX_ITEMS:,} notes")
    html = header.html
    if html is None:
        html = any(looks_like_html(cell) for _, record in records for cell in record)
    meta = {header.tags_column, header.deck_column, header.notetype_column, header.guid_column}
    meta.discard(0)

    def cell(record: list[str], column: int) -> str | None:
        return record[column - 1] if 0 < column <= len(record) else None

    notes: list[AnkiNote] = []
    for line, record in records:
        fields = [c for n, c in enumerate(record, start=1) if n not in meta]
        names: list[str | None] = []
        if header.columns:
            names = [c for n, c in enumerate(header.columns, start=1) if n not in meta]
        notes.append(
            AnkiNote(
                where=f"{source}:{line}",
                fields=fields,
                field_names=names,
                notetype=cell(record, header.notetype_column) or header.notetype,
                tags=[*header.tags, *(cell(record, header.tags_column) or "").split()],
                deck=cell(record, header.deck_column) or header.deck,
                html=html,
            )
        )
    return notes


def notes_result(notes: list[AnkiNote]) -> SourceResult:
    """Drafts from Anki notes; with several decks, each note is tagged with its deck."""
    result = SourceResult()
    decks = sorted({n.deck for n in notes if n.deck})
    if len(decks) == 1:
        result.title = deck_title(decks[0])
    elif len(decks) > 1:
        for note in notes:
            if note.deck:
                note.extra_tags.append(deck_title(note.deck))
    for note in notes:
        made = note_result(note)
        if made.skipped is not None:
            result.skipped.append(made.skipped)
        result.drafts.extend(made.drafts)
        result.notes.extend(made.notes)
    return result
