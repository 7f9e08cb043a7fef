"""docs/coverage.md: the lesson claims, the questions that cover them, and the checks on both."""

from __future__ import annotations

from pathlib import Path

import pytest

from quizapp.authoring import coverage
from quizapp.authoring.messages import example_deck
from quizapp.bank.loader import load_bank

QUESTIONS = """\
  - id: q-choice
    type: single_choice
    difficulty: easy
    tags: [t]
    prompt: P
    explanation: E
    choices:
      - {text: A, correct: true}
      - {text: B}
  - id: q-card
    type: flashcard
    difficulty: easy
    tags: [t]
    prompt: P
    back: B
    explanation: E
"""


def _claims(folder: Path, covered_by: str) -> None:
    folder.mkdir(exist_ok=True)
    (folder / "topic.yaml").write_text(
        "topic: T\nclaims:\n"
        f"  - {{id: c1, lesson: A, kind: claim, text: 'One claim', covered_by: {covered_by}}}\n",
        encoding="utf-8",
    )


@pytest.fixture
def bank(tmp_path: Path):
    deck = tmp_path / "deck.yaml"
    deck.write_text(example_deck(QUESTIONS), encoding="utf-8")
    loaded = load_bank([deck])
    assert not loaded.errors, loaded.errors
    return loaded


@pytest.mark.parametrize(
    ("covered_by", "problem"),
    [
        ("[q-choice]", None),
        ("[q-card]", "q-card is a flashcard"),
        ("[q-missing]", "no question 'q-missing'"),
        ("[]", "no exam-eligible question covers it"),
    ],
)
def test_a_claim_is_covered_only_by_existing_exam_eligible_questions(
    tmp_path: Path, bank, covered_by: str, problem: str | None
) -> None:
    _claims(tmp_path / "sources", covered_by)
    found = coverage.problems(coverage.load_claims(tmp_path / "sources"), bank)
    if problem is None:
        assert found == []
    else:
        assert any(problem in p for p in found), found


def test_the_rendered_page_lists_each_claim_with_its_questions(tmp_path: Path, bank) -> None:
    _claims(tmp_path / "sources", "[q-choice]")
    page = coverage.render(coverage.load_claims(tmp_path / "sources"), bank)
    assert "## T" in page
    assert "| One claim | claim | A | `q-choice` |" in page


def test_a_source_without_a_claims_list_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "bad.yaml").write_text("topic: T\n", encoding="utf-8")
    with pytest.raises(coverage.CoverageError, match="claims"):
        coverage.load_claims(tmp_path)


def test_every_lesson_claim_is_covered_and_the_page_is_current(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The bundled bank covers every claim of both lessons with an exam-eligible question, and
    docs/coverage.md is what the generator makes of it now."""
    from tests.conftest import REPO

    monkeypatch.chdir(REPO)
    code = coverage.main(["--check"])
    assert (code, capsys.readouterr().err) == (0, "")
