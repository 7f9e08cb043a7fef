"""CSV export guards formula cells (OWASP) and import takes the guard off: a lossless trip."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from quizapp.authoring.csv_cells import FORMULA_TRIGGERS, guard_cell, unguard_cell
from quizapp.authoring.csv_import import DeckInfo, import_csv, render_deck
from quizapp.authoring.export import export_csv
from quizapp.bank import Flashcard, bundled_bank_path, load_bank, load_file
from quizapp.bank.text_checks import normal_text
from tests.authoring.helpers import comparable

DECK = DeckInfo("d", "D", "d")
HYPERLINK = '=HYPERLINK("http://evil.example","click")'


@pytest.mark.parametrize(
    ("text", "cell"),
    [
        ("= 1 + 1", "'= 1 + 1"),
        ("+1", "'+1"),
        ("-3", "'-3"),
        ("- a list", "'- a list"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"),
        ("'=x", "''=x"),
        ("''-x", "'''-x"),
        ("'quoted'", "'quoted'"),
        ("'", "'"),
        ("plain = text", "plain = text"),
        (" =x", " =x"),
        ("", ""),
    ],
)
def test_guard_examples(text: str, cell: str) -> None:
    assert guard_cell(text) == cell
    assert unguard_cell(cell) == text


@given(st.text())
def test_guard_then_unguard_is_the_identity_for_every_string(text: str) -> None:
    cell = guard_cell(text)
    assert unguard_cell(cell) == text
    assert not cell.startswith(FORMULA_TRIGGERS)  # no spreadsheet runs it


@given(st.text(alphabet="'=+-@\t\rab", max_size=6))
def test_guard_then_unguard_is_the_identity_near_the_edge(text: str) -> None:
    # The same property, on the strings where the rule has something to decide.
    assert unguard_cell(guard_cell(text)) == text


def exported_cells(text: str, column: str) -> list[str]:
    return [row[column] for row in csv.DictReader(io.StringIO(text))]


def round_trip(questions: list, tmp_path: Path):
    """export_csv, then the importer, then the loader: the questions that come back."""
    result = import_csv(export_csv(questions), deck=DECK)
    assert result.problems == [], result.problems
    path = tmp_path / "again.yaml"
    path.write_text(result.text or "", encoding="utf-8")
    deck, diagnostics = load_file(path)
    assert deck is not None, diagnostics
    return deck.questions


def load_mappings(mappings: list[dict], tmp_path: Path):
    path = tmp_path / "deck.yaml"
    path.write_text(render_deck(DECK, mappings), encoding="utf-8")
    deck, diagnostics = load_file(path)
    assert deck is not None and not [d for d in diagnostics if d.severity == "error"], diagnostics
    return deck.questions


def test_a_hyperlink_formula_is_exported_as_text_and_imported_unchanged(tmp_path: Path) -> None:
    card = {"id": "q", "type": "flashcard", "difficulty": "easy", "tags": ["t"]}
    card |= {"prompt": HYPERLINK, "back": "@x", "explanation": "'=y"}
    questions = load_mappings([card], tmp_path)
    exported = export_csv(questions)
    assert exported_cells(exported, "prompt") == ["'" + HYPERLINK]
    assert exported_cells(exported, "back") == ["'@x"]
    assert exported_cells(exported, "explanation") == ["''=y"]
    (again,) = round_trip(questions, tmp_path)
    assert (again.prompt, again.back, again.explanation) == (HYPERLINK, "@x", "'=y")


def test_negative_numbers_are_guarded_and_read_back_as_numbers(tmp_path: Path) -> None:
    numeric = {"id": "n", "type": "numeric", "difficulty": "easy", "tags": ["t"], "prompt": "P"}
    numeric |= {"answer": {"value": -0.5, "tolerance": 0.01}, "explanation": "E"}
    numeric["traps"] = [{"value": -1, "why": "- sign dropped"}, {"value": 2, "why": "x"}]
    questions = load_mappings([numeric], tmp_path)
    exported = export_csv(questions)
    assert exported_cells(exported, "answer") == ["'-0.5"]
    assert exported_cells(exported, "traps") == ["'-1|2"]
    assert [comparable(q) for q in round_trip(questions, tmp_path)] == [
        comparable(q) for q in questions
    ]


def test_the_bundled_markdown_list_backs_round_trip_unchanged(tmp_path: Path) -> None:
    bank = load_bank([bundled_bank_path()])
    lists = [q for q in bank.questions.values() if isinstance(q, Flashcard)]
    lists = [q for q in lists if q.back.startswith("- ")]
    assert lists, "the bundled bank has flashcards whose back is a Markdown list"
    exported = export_csv(lists)
    assert exported_cells(exported, "back") == ["'" + q.back for q in lists]
    again = round_trip(lists, tmp_path)
    assert [q.back for q in again] == [q.back for q in lists]
    # Field by field, apart from the deck they were imported into.
    assert [comparable(q) | {"deck_id": None} for q in again] == [
        comparable(q) | {"deck_id": None} for q in lists
    ]


# Text the loader accepts, often starting with a guard or a trigger.
EDGE = st.text(alphabet="'=+-@\t", max_size=3)
BODY = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\ufeff"),
    max_size=20,
)
TEXT = st.builds(lambda edge, body: edge + body, EDGE, BODY).filter(lambda s: s.strip() != "")


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(prompt=TEXT, back=TEXT, explanation=TEXT)
@example(prompt="cafe\u0301", back="B", explanation="E")  # NFD text is read in NFC
def test_export_then_import_is_the_identity_for_any_text(
    tmp_path_factory: pytest.TempPathFactory, prompt: str, back: str, explanation: str
) -> None:
    tmp_path = tmp_path_factory.mktemp("cells")
    card = {"id": "q", "type": "flashcard", "difficulty": "easy", "tags": ["t"]}
    card |= {"prompt": prompt, "back": back, "explanation": explanation}
    questions = load_mappings([card], tmp_path)
    prompt, back, explanation = [normal_text(t) for t in (prompt, back, explanation)]  # as read
    assert (questions[0].prompt, questions[0].back) == (prompt, back)
    for cell in next(csv.reader(io.StringIO(export_csv(questions).split("\n", 1)[1]))):
        assert not cell.startswith(FORMULA_TRIGGERS)
    (again,) = round_trip(questions, tmp_path)
    assert (again.prompt, again.back, again.explanation) == (prompt, back, explanation)
