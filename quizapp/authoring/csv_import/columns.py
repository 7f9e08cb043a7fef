"""The header row: which spreadsheet column holds which field.

Column names are case-insensitive; spaces and `-` read as `_` (`Deck title` is `deck_title`). A column quizapp does not use
(a teacher's "Notes" or "Chapter") is ignored, and the import warns once, listing them. A
name close to a quizapp column (`promt`, `tolerence`) is refused instead, with a
did-you-mean: ignoring it would silently drop what the author meant to import.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from quizapp.authoring.csv_import.problems import CsvInputError
from quizapp.authoring.csv_import.reading import DELIMITERS, describe_delimiter, first_record

COLUMNS: tuple[str, ...] = (
    "id",
    "type",
    "prompt",
    "explanation",
    "difficulty",
    "tags",
    "topic",
    "source",
    "pairs_with",
    "choices",
    "correct",
    "whys",
    "answer",
    "tolerance",
    "relative_tolerance",
    "unit",
    "steps",
    "back",
    "compute",
    "why_true",
    "why_false",
    "answer_from",
    "traps",
    "trap_whys",
    "shuffle",
    "vary",
    "expect",
    # The deck's settings, the same on every row (quizapp.authoring.csv_import.settings).
    "deck_id",
    "deck_title",
    "deck_topic",
    "deck_domain",
    "deck_exam_weight",
    "deck_description",
)
REQUIRED_COLUMNS: tuple[str, ...] = ("id", "type", "prompt", "explanation", "difficulty", "tags")
# How close an unknown name must be to a column to be taken for a misspelling of it. At 0.8,
# `promt`, `tolerence` and `answers` are; `notes` (0.6 to `steps`) and `comments` are not.
MISSPELLING_CUTOFF = 0.8
_LISTED = 10  # ignored columns named in the warning; a hostile header may have thousands


@dataclass(frozen=True)
class Header:
    names: list[str | None]  # per spreadsheet column: the field it holds, None if ignored
    ignored: list[str] = field(
        default_factory=list
    )  # the ignored columns, as the header names them
    unnamed: list[int] = field(default_factory=list)  # indexes of columns with an empty header


def normalize_column(name: str) -> str:
    return re.sub(r"[\s\-]+", "_", name.strip().lower())


def column_letter(index: int) -> str:
    """The spreadsheet's name of a 0-based column: A, B, ... Z, AA."""
    letters = ""
    index += 1
    while index:
        index, remainder = divmod(index - 1, 26)
        letters = chr(ord("A") + remainder) + letters
    return letters


def misspelled_column(name: str) -> str | None:
    """The column `name` is probably a misspelling of, if any. Only a name starting `deck`
    is taken for a deck column's: a sheet's own "Description" column, as close to
    `deck_description`, was ignored before those columns existed, and still is."""
    candidates = [c for c in COLUMNS if name.startswith("deck") or not c.startswith("deck_")]
    close = difflib.get_close_matches(name, candidates, n=1, cutoff=MISSPELLING_CUTOFF)
    return close[0] if close else None


def sniff_delimiter(text: str) -> str:
    """The delimiter (of DELIMITERS) that splits the header into the most known column names,
    then the most cells; a comma when nothing tells."""
    best, best_score = ",", (-1, -1)
    for delimiter in DELIMITERS:
        names = [normalize_column(cell) for cell in first_record(text, delimiter) if cell.strip()]
        score = (sum(name in COLUMNS for name in names), len(names))
        if score > best_score:
            best, best_score = delimiter, score
    return best


def read_header(cells: list[str], path: str, delimiter: str = ",") -> Header:
    """The header's columns. Raises CsvInputError when the header cannot be used."""
    normalized = [normalize_column(c) for c in cells]
    present = [n for n in normalized if n]
    if not present:
        raise CsvInputError(
            f"{path} has no header row (expected columns like {', '.join(REQUIRED_COLUMNS)})"
        )
    if not any(n in COLUMNS for n in present):
        if len(present) == 1:
            raise CsvInputError(
                f"{path}: the header has a single column {cells[0].strip()[:40]!r} when split "
                f"at each {describe_delimiter(delimiter)}; name the file's delimiter with "
                "--delimiter (e.g. --delimiter ';')"
            )
        raise CsvInputError(
            f"{path}: the first row is not a header: it names no known column "
            f"(expected columns like {', '.join(REQUIRED_COLUMNS)})"
        )
    misspelled = [(n, m) for n in present if n not in COLUMNS and (m := misspelled_column(n))]
    if misspelled:
        described = ", ".join(f"'{n}' (did you mean '{m}'?)" for n, m in misspelled)
        raise CsvInputError(
            f"{path}: unknown column{'s' if len(misspelled) > 1 else ''} {described}; "
            "rename it to the quizapp column, or to a name quizapp does not use to have it "
            f"ignored (the columns are: {', '.join(COLUMNS)})"
        )
    seen: set[str] = set()
    names: list[str | None] = []
    ignored: list[str] = []
    unnamed: list[int] = []
    for index, (cell, name) in enumerate(zip(cells, normalized, strict=True)):
        if name in COLUMNS:
            if name in seen:
                raise CsvInputError(f"{path}: column '{name}' appears twice in the header")
            seen.add(name)
            names.append(name)
            continue
        names.append(None)
        if name:
            ignored.append(" ".join(cell.split())[:40])
        else:
            unnamed.append(index)
    missing = [c for c in REQUIRED_COLUMNS if c not in seen]
    if missing:
        raise CsvInputError(
            f"{path}: missing required column{'s' if len(missing) > 1 else ''}: {', '.join(missing)}"
        )
    return Header(names, ignored, unnamed)


def ignored_columns_warning(path: str, header: Header, used_unnamed: list[int]) -> str | None:
    """One line listing the columns the import leaves out, or None when it reads them all."""
    parts = [f"'{name}'" for name in header.ignored]
    parts += [f"column {column_letter(i)} (no name in the header)" for i in used_unnamed]
    if not parts:
        return None
    listed = ", ".join(parts[:_LISTED])
    if len(parts) > _LISTED:
        listed += f" and {len(parts) - _LISTED} more"
    return (
        f"{path}: ignoring {'a column' if len(parts) == 1 else f'{len(parts)} columns'} "
        f"quizapp does not use: {listed}"
    )


__all__ = [
    "COLUMNS",
    "REQUIRED_COLUMNS",
    "Header",
    "column_letter",
    "ignored_columns_warning",
    "misspelled_column",
    "normalize_column",
    "read_header",
    "sniff_delimiter",
]
