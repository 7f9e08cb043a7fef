"""The deck's settings a CSV carries: the `deck_*` columns, repeated on every row.

    column              the deck's
    deck_id             id
    deck_title          title
    deck_topic          topic (the default topic of its questions)
    deck_domain         exam domain
    deck_exam_weight    exam weight (> 0, at most 1000)
    deck_description    description (Markdown)

`quizapp export --format csv` fills them on every row, so a deck exports and imports back
whole. Columns rather than leading `#deck` rows, because a spreadsheet keeps a column with
its row: sorting, filtering, moving or copying rows (or pasting rows from another export)
never separates a question from its deck's settings. An empty cell gives nothing (a row an
instructor adds may leave them empty); the cells that are filled in must agree. Two rows
that give a setting different values are a located error (`FILE.csv:LINE: deck_title ...`),
as is a value the bank's loader refuses (the deck header is checked by that loader, in
`quizapp.authoring.csv_import.deck.check_deck`, so the limits are the bank's). A file with
none of these columns is a sheet in the older layout: it imports as before, with the deck's
settings from the command line or their defaults.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from quizapp.authoring.csv_import.cells import cell_text
from quizapp.authoring.csv_import.columns import Header
from quizapp.authoring.csv_import.numbers import spreadsheet_number
from quizapp.authoring.csv_import.problems import DeckSettingError, RowError
from quizapp.authoring.csv_import.reading import Record

# Each deck column, and the DeckInfo field it sets (in DeckInfo's order).
DECK_COLUMNS: dict[str, str] = {
    "deck_id": "id",
    "deck_title": "title",
    "deck_topic": "topic",
    "deck_domain": "domain",
    "deck_exam_weight": "exam_weight",
    "deck_description": "description",
}
# The option that sets the same field for every row, named in a conflict's advice.
DECK_OPTIONS: dict[str, str] = {
    "id": "--deck-id",
    "title": "--title",
    "topic": "--topic",
    "domain": "--domain",
    "exam_weight": "--weight",
}
_SHOWN = 40  # characters of a value quoted in a message


@dataclass
class SheetSettings:
    """The settings the rows give, by DeckInfo field, and where each was first given
    (`FILE.csv:LINE: deck_title`), for check_deck's messages."""

    values: dict[str, str | int | float] = field(default_factory=dict)
    origins: dict[str, str] = field(default_factory=dict)


def read_settings(
    header: Header,
    rows: Iterable[Record],
    path: str,
    delimiter: str = ",",
    skip: Iterable[str] = (),
) -> SheetSettings:
    """The deck settings of the rows. Raises DeckSettingError, naming the file and line, for
    two rows that disagree or a weight that is not a number. The fields in `skip` (set by an
    option) are not read."""
    skipped = set(skip)
    columns = [
        (index, name)
        for index, name in enumerate(header.names)
        if name in DECK_COLUMNS and DECK_COLUMNS[name] not in skipped
    ]
    settings = SheetSettings()
    first: dict[str, tuple[Record, str | int | float]] = {}
    for record in rows:
        for index, column in columns:
            raw = cell_text(record.cells[index]) if index < len(record.cells) else ""
            if not raw.strip():
                continue
            key = DECK_COLUMNS[column]
            where = f"{path}:{record.line}: {column}"
            value = _value(column, raw, delimiter, where)
            if key not in first:
                first[key] = (record, value)
                settings.values[key] = value
                settings.origins[key] = where
            elif _compared(value) != _compared(first[key][1]):
                raise DeckSettingError(_conflict(where, column, value, first[key]))
    return settings


def _value(column: str, raw: str, delimiter: str, where: str) -> str | int | float:
    if column in ("deck_id", "deck_topic"):
        return raw.strip()  # ids: a space a spreadsheet left around one is no part of it
    if column != "deck_exam_weight":
        return (
            raw  # texts are kept as written, as a prompt is (a description's last line break too)
        )
    try:
        if raw.strip().endswith("%"):
            percent = spreadsheet_number(column, raw.strip()[:-1], delimiter)
            raise DeckSettingError(
                f"{where}: '{_short(raw.strip())}' is a percentage; an exam weight is a plain "
                f"number (the bundled decks' weights sum to 1): write {percent / 100:g}"
            )
        return spreadsheet_number(column, raw, delimiter)
    except RowError as exc:
        message = str(exc).removeprefix(column).lstrip(": ")
        raise DeckSettingError(f"{where}: {message}") from None


def _compared(value: str | int | float) -> str | int | float:
    """What two cells must share: spreadsheets may add or trim spaces around a text."""
    return value.strip() if isinstance(value, str) else value


def _conflict(
    where: str, column: str, value: str | int | float, first: tuple[Record, str | int | float]
) -> str:
    record, first_value = first
    key = DECK_COLUMNS[column]
    if key == "id":
        advice = (
            "the CSV holds the rows of more than one deck: export and import one deck file "
            "at a time, or delete the deck_* columns to import every row into one deck"
        )
    else:
        advice = f"a deck has one {column.removeprefix('deck_').replace('_', ' ')}: "
        advice += "make the cells the same, or leave all but one empty"
        if key in DECK_OPTIONS:
            advice += f" (or give {DECK_OPTIONS[key]} to set it for every row)"
    return (
        f"{where}: {_shown(value)} differs from {_shown(first_value)} on row {record.row} "
        f"(line {record.line}); {advice}"
    )


def _shown(value: str | int | float) -> str:
    if not isinstance(value, str):
        return repr(value)
    return "'" + _short(" ".join(value.split())) + "'"


def _short(text: str) -> str:
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


__all__ = ["DECK_COLUMNS", "DECK_OPTIONS", "SheetSettings", "read_settings"]
