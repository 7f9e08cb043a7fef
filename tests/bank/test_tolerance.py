"""A numeric answer is right within its question's tolerance and wrong outside it: absolute
(`tolerance`) and relative (`relative_tolerance`), checked on the bare rule and through questions
loaded from a bank file, as the app grades them. (A `within_tolerance` that ignored the absolute
tolerance, treating every answer as exact, once survived the whole suite.)"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from quizapp.bank import load_file
from quizapp.bank.answers import NumericAnswerText
from quizapp.bank.grading import grade, within_tolerance
from quizapp.bank.model import NumericAnswer, NumericQuestion

BANK = """\
format: 1
deck:
  id: tolerances
  title: Tolerances
  topic: testing
  domain: Test domain
  exam_weight: 0.25
questions:
  - id: absolute
    type: numeric
    prompt: About how many?
    explanation: Ten, give or take half.
    difficulty: easy
    tags: [arithmetic]
    answer: {value: 10, tolerance: 0.5}
  - id: relative
    type: numeric
    prompt: About how many, to one percent?
    explanation: Two hundred, give or take two.
    difficulty: easy
    tags: [arithmetic]
    answer: {value: 200, relative_tolerance: 0.01}
  - id: exact
    type: numeric
    prompt: Exactly how many?
    explanation: Ten.
    difficulty: easy
    tags: [arithmetic]
    answer: {value: 10, tolerance: 0}
"""


@pytest.fixture(scope="module")
def questions(tmp_path_factory: pytest.TempPathFactory) -> dict[str, NumericQuestion]:
    path = tmp_path_factory.mktemp("bank") / "tolerances.yaml"
    path.write_text(BANK)
    deck, problems = load_file(path)
    assert deck is not None, problems
    assert not [p for p in problems if p.severity == "error"], problems
    loaded = {q.id: q for q in deck.questions}
    assert sorted(loaded) == ["absolute", "exact", "relative"]
    assert all(isinstance(q, NumericQuestion) for q in loaded.values())
    return loaded  # type: ignore[return-value]


@pytest.fixture(scope="module")
def numeric(questions: dict[str, NumericQuestion]) -> Callable[..., NumericQuestion]:
    """A bank question with the key and tolerances given instead of its own."""

    def with_key(value: float, **tolerances: float) -> NumericQuestion:
        key = NumericAnswer(value=value, from_value=None, **tolerances)
        return replace(questions["exact"], answer=key)

    return with_key


@pytest.mark.parametrize(
    ("given", "right"),
    [(10.0, True), (10.4, True), (9.6, True), (10.5, True), (10.6, False), (9.4, False)],
)
def test_an_absolute_tolerance_takes_answers_that_close_and_no_closer(
    numeric, given: float, right: bool
) -> None:
    assert within_tolerance(numeric(10, tolerance=0.5), given, 10.0) is right


@pytest.mark.parametrize(
    ("given", "right"),
    [(200.0, True), (201.5, True), (198.5, True), (202.5, False), (197.0, False)],
)
def test_a_relative_tolerance_scales_with_the_key(numeric, given: float, right: bool) -> None:
    assert within_tolerance(numeric(200, relative_tolerance=0.01), given, 200.0) is right


def test_a_relative_tolerance_of_a_large_key_is_wider_than_of_a_small_one(numeric) -> None:
    one_percent = numeric(0, relative_tolerance=0.01)
    assert within_tolerance(one_percent, 1_005_000, 1_000_000)  # 5,000 off: 0.5%
    assert not within_tolerance(one_percent, 15, 10)  # 5 off: 50%


def test_tolerance_zero_is_exact(numeric) -> None:
    exact = numeric(10, tolerance=0)
    assert within_tolerance(exact, 10.0, 10.0)
    assert not within_tolerance(exact, 10.001, 10.0)


@pytest.mark.parametrize(
    ("question_id", "typed", "right"),
    [
        ("absolute", "10.4", True),
        ("absolute", "9.6", True),
        ("absolute", "10.6", False),
        ("absolute", "9.4", False),
        ("relative", "201.5", True),
        ("relative", "198.5", True),
        ("relative", "203", False),
        ("relative", "197", False),
        ("exact", "10", True),
        ("exact", "10.4", False),
    ],
)
def test_a_bank_question_grades_typed_answers_by_its_tolerance(
    questions: dict[str, NumericQuestion], question_id: str, typed: str, right: bool
) -> None:
    graded = grade(questions[question_id], NumericAnswerText(typed))
    assert graded.correct is right, (question_id, typed, graded)


def test_a_bank_file_keeps_the_tolerances_it_was_given(questions) -> None:
    assert questions["absolute"].answer.tolerance == 0.5
    assert questions["relative"].answer.relative_tolerance == 0.01


def test_bank_tolerances_are_read_from_a_real_file(tmp_path: Path) -> None:
    # Widening a question's tolerance in its file turns the same typed answer right.
    path = tmp_path / "wider.yaml"
    path.write_text(BANK.replace("tolerance: 0.5", "tolerance: 1.5"))
    deck, _ = load_file(path)
    assert deck is not None
    absolute = next(q for q in deck.questions if q.id == "absolute")
    assert grade(absolute, NumericAnswerText("11.2")).correct
