"""What an import reports: a file it cannot use, a row it leaves out, and the result."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from quizapp.authoring.csv_import.render import DeckInfo


class CsvInputError(Exception):
    """The CSV cannot be used at all (exit 2). The message is one line."""


class DeckSettingError(CsvInputError):
    """A deck setting the CSV gives (a `deck_*` cell) conflicts with another row's or is
    refused by the loader: nothing is written (exit 1). The message starts `FILE.csv:LINE:`."""


class RowError(Exception):
    """One row cannot become a question. The message is one line."""


@dataclass(frozen=True)
class RowProblem:
    """A row left out. `line` is the file line the row starts on; a spreadsheet row also has
    its `row` number (what the spreadsheet shows beside it, which differs from the line once a
    cell above spans lines) and, when it has one, its question id."""

    line: int
    message: str
    row: int | None = None
    question_id: str | None = None

    def format(self, path: str) -> str:
        message = _one_line(self.message)
        if self.row is None:
            return f"{path}:{self.line}: {message}"
        where = f"row {self.row}"
        if self.question_id:
            where += f", question '{_one_line(self.question_id)[:60]}'"
        return f"{path}: {where}: {message}"


def _one_line(text: str) -> str:
    return text.replace("\r", "\\r").replace("\n", "\\n")


@dataclass
class ImportResult:
    text: str | None  # the deck file; None when no row survived
    imported: list[str] = field(default_factory=list)  # question ids, in CSV order
    problems: list[RowProblem] = field(default_factory=list)
    rows: int = 0  # non-blank data rows read
    warnings: list[str] = field(default_factory=list)  # one line each, about the whole file
    deck: DeckInfo | None = None  # the deck written: the options, the CSV's settings, defaults
    # The deck's fields neither the options nor the CSV gave (DeckInfo names, in its order).
    defaulted: list[str] = field(default_factory=list)


__all__ = ["CsvInputError", "DeckSettingError", "ImportResult", "RowError", "RowProblem"]
