"""The import itself: CSV text in, a deck file and a report of every row left out.

Every row becomes bank YAML and is checked by quizapp's own loader and lint registry checks,
so the rules cannot drift from `quizapp lint`. A row that fails is reported as
`FILE.csv: row N, question 'ID': reason` (N is the spreadsheet's row number) and left out;
the other rows are still written. An id used twice in the CSV, or already used in the bank
the questions will join, rejects the row. The deck's settings come from the options, then
the CSV's `deck_*` cells (quizapp.authoring.csv_import.settings), then the defaults.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path

from quizapp.authoring.csv_import.cells import cell_text
from quizapp.authoring.csv_import.columns import (
    Header,
    ignored_columns_warning,
    read_header,
    sniff_delimiter,
)
from quizapp.authoring.csv_import.deck import check_deck
from quizapp.authoring.csv_import.problems import (
    CsvInputError,
    DeckSettingError,
    ImportResult,
    RowError,
    RowProblem,
)
from quizapp.authoring.csv_import.reading import (
    DEFAULT_MAX_ROWS,
    Record,
    describe_delimiter,
    filled_records,
)
from quizapp.authoring.csv_import.render import DeckInfo, deck_header, dump_question, lint_text
from quizapp.authoring.csv_import.rows import row_mapping
from quizapp.authoring.csv_import.settings import DECK_COLUMNS, read_settings
from quizapp.authoring.csv_import.wording import sheet_message


def import_csv(
    text: str,
    *,
    deck: DeckInfo,
    path: str = "input.csv",
    taken_ids: Mapping[str, str] | None = None,
    taken_decks: Mapping[str, str] | None = None,
    delimiter: str | None = None,
    max_rows: int = DEFAULT_MAX_ROWS,
    given: Iterable[str] = (),
) -> ImportResult:
    """Turn CSV text into a deck file. Raises CsvInputError for unusable input, and its
    DeckSettingError for a deck setting in the CSV that conflicts or is refused.

    `deck` is the deck's settings from the options and the defaults: the CSV's `deck_*` cells
    (quizapp.authoring.csv_import.settings) replace each one whose field is not in `given`
    (the DeckInfo fields the options set). The result names the deck written and the fields
    left at their defaults. `taken_ids` maps question ids already in the bank to where they
    are; such rows are rejected, as are ids repeated within the CSV. `delimiter` None guesses
    it from the header. More than `max_rows` rows is a CsvInputError, raised before any row
    is imported.
    """
    with tempfile.TemporaryDirectory(prefix="quizapp-import-") as scratch:
        sheet = _SheetImport(deck, path, taken_ids or {}, Path(scratch), delimiter)
        return sheet.run(text, taken_decks or {}, max_rows, frozenset(given))


class _SheetImport:
    def __init__(
        self,
        deck: DeckInfo,
        path: str,
        taken: Mapping[str, str],
        scratch: Path,
        delimiter: str | None,
    ) -> None:
        self.deck = deck
        self.path = path
        self.taken = taken
        self.scratch = scratch
        self.delimiter = delimiter
        self.header_yaml = deck_header(deck)
        self.first_row: dict[str, int] = {}

    def run(
        self, text: str, taken_decks: Mapping[str, str], max_rows: int, given: frozenset[str]
    ) -> ImportResult:
        text = text.removeprefix("\ufeff")
        delimiter = self.delimiter or sniff_delimiter(text)
        found = filled_records(text, delimiter, max_rows, self.path)
        if not found:
            raise CsvInputError(f"{self.path} is empty: it has no header row")
        header = read_header(found[0].cells, self.path, delimiter)
        settings = read_settings(header, found[1:], self.path, delimiter, skip=given)
        values = dict(settings.values)
        if "id" in values and "topic" not in values and "topic" not in given:
            values["topic"] = values["id"]  # the default topic is the deck id, the CSV's too
        self.deck = replace(self.deck, **values)
        self.header_yaml = deck_header(self.deck)
        try:
            check_deck(self.deck, self.scratch, taken_decks, settings.origins)
        except CsvInputError as exc:
            if any(str(exc).startswith(f"{o}:") for o in settings.origins.values()):
                raise DeckSettingError(str(exc)) from None
            raise
        result = ImportResult(text=None, deck=self.deck)
        result.defaulted = [
            key for key in DECK_COLUMNS.values() if key not in given and key not in settings.values
        ]
        chunks: list[str] = []
        unnamed_in_use: set[int] = set()
        for record in found[1:]:
            result.rows += 1
            unnamed_in_use.update(i for i in header.unnamed if _value_at(record, i))
            qid, outcome = self._question(record, header, delimiter)
            if isinstance(outcome, RowProblem):
                result.problems.append(outcome)
                continue
            chunks.append(outcome)
            result.imported.append(qid)
        warning = ignored_columns_warning(self.path, header, sorted(unnamed_in_use))
        if warning:
            result.warnings.append(warning)
        if chunks:
            result.text = self.header_yaml + "questions:\n" + "\n".join(chunks)
            self._check_whole(result)
        return result

    def _question(
        self, record: Record, header: Header, delimiter: str
    ) -> tuple[str, str | RowProblem]:
        """The row's question id, and its question as YAML or the problem that stops it."""
        cells = {
            name: cell_text(cell)
            for name, cell in zip(header.names, record.cells, strict=False)
            if name
        }
        qid = cells.get("id", "").strip()

        def problem(message: str) -> tuple[str, RowProblem]:
            return qid, RowProblem(record.line, message, row=record.row, question_id=qid or None)

        if len(record.cells) > len(header.names) and any(
            cell.strip() for cell in record.cells[len(header.names) :]
        ):
            return problem(
                f"the row has {len(record.cells)} cells but the header has "
                f"{len(header.names)} (a {describe_delimiter(delimiter)} inside a cell needs "
                "the cell in quotes)"
            )
        if qid in self.first_row:
            return problem(f"duplicate id (first on row {self.first_row[qid]})")
        if qid in self.taken:
            return problem(f"the id is already used in {self.taken[qid]}")
        if qid:
            self.first_row[qid] = record.row
        try:
            chunk = dump_question(row_mapping(cells, self.deck.topic, delimiter))
        except RowError as exc:
            return problem(str(exc))
        message = self._check_chunk(chunk)
        return (qid, chunk) if message is None else problem(message)

    def _check_chunk(self, chunk: str) -> str | None:
        deck, errors = lint_text(self.header_yaml + "questions:\n" + chunk, self.scratch)
        if not errors and (deck is None or not deck.questions):
            return "the row did not make a question"
        messages = list(dict.fromkeys(sheet_message(d.message) for d in errors))
        return "; ".join(messages) if messages else None

    def _check_whole(self, result: ImportResult) -> None:
        """Each row passed alone; together they must too."""
        assert result.text is not None
        loaded, errors = lint_text(result.text, self.scratch)
        ids = [q.id for q in loaded.questions] if loaded else []
        if errors or ids != result.imported:
            raise RuntimeError(
                "the imported deck does not load: "
                + ("; ".join(d.message for d in errors) or "questions went missing")
            )


def _value_at(record: Record, index: int) -> bool:
    return index < len(record.cells) and bool(record.cells[index].strip())


__all__ = ["import_csv"]
