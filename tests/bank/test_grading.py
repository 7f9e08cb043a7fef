"""Grading: every type, numeric input as students type it, derived keys, traps."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quizapp.bank import load_file
from quizapp.bank.grading import (
    AGAIN,
    EASY,
    HARD,
    ChoiceAnswer,
    FlashcardRating,
    MissingKey,
    NumberFormatError,
    NumericAnswerText,
    OrderingAnswer,
    TrueFalseAnswer,
    grade,
    parse_number,
)
from tests.conftest import CORPUS


@pytest.fixture(scope="module")
def q():
    deck, _ = load_file(CORPUS / "good" / "every_type.yaml")
    return {question.id: question for question in deck.questions}


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1048576", 1048576),
        ("1,048,576", 1048576),
        ("1_048_576", 1048576),
        (" 1 048 576 ", 1048576),
        ("1.05e6", 1.05e6),
        ("1.05E+6", 1.05e6),
        ("2^20", 1048576),
        ("-3.5", -3.5),
        (".5", 0.5),
    ],
)
def test_parse_number_accepts_what_students_type(text: str, value: float) -> None:
    assert parse_number(text) == value


@pytest.mark.parametrize("text", ["", "abc", "1,04,8576", "1.2.3", "1e", "nan", "inf", "12,34"])
def test_parse_number_rejects_with_a_message(text: str) -> None:
    with pytest.raises(NumberFormatError):
        parse_number(text)


@given(st.integers(min_value=-(10**12), max_value=10**12))
def test_thousands_grouping_round_trips(n: int) -> None:
    assert parse_number(f"{n:,}") == n


def test_single_choice(q) -> None:
    question = q["t-single"]
    assert grade(question, ChoiceAnswer(frozenset({0}))).correct
    wrong = grade(question, ChoiceAnswer(frozenset({1})))
    assert not wrong.correct and wrong.expected == "Right" and wrong.given == "Wrong"


def test_multiple_choice_needs_exactly_the_correct_set(q) -> None:
    question = q["t-multi"]
    assert grade(question, ChoiceAnswer(frozenset({0, 1}))).correct
    assert not grade(question, ChoiceAnswer(frozenset({0}))).correct
    assert not grade(question, ChoiceAnswer(frozenset({0, 1, 2}))).correct


def test_true_false(q) -> None:
    assert grade(q["t-tf"], TrueFalseAnswer(False)).correct
    assert not grade(q["t-tf"], TrueFalseAnswer(True)).correct


def test_numeric_literal_key_and_trap(q) -> None:
    question = q["t-numeric"]
    for typed in ("1048576", "1,048,576", "2^20"):
        assert grade(question, NumericAnswerText(typed)).correct
    trapped = grade(question, NumericAnswerText("131,072"))
    assert not trapped.correct and trapped.trap == "Divided by the head count."
    assert trapped.expected == "1,048,576 parameters"


def test_numeric_relative_tolerance_with_a_derived_key(q) -> None:
    question = q["t-numeric-derived"]  # from: params_multi_head, relative_tolerance 1e-3
    with pytest.raises(MissingKey):
        grade(question, NumericAnswerText("1048576"))
    derived = {"params_multi_head": 1048576}
    assert grade(question, NumericAnswerText("1.048e6"), derived).correct
    assert not grade(question, NumericAnswerText("1.05e6"), derived).correct  # 0.14% off


def test_ordering(q) -> None:
    question = q["t-order"]
    assert grade(question, OrderingAnswer((0, 1, 2))).correct
    wrong = grade(question, OrderingAnswer((1, 0, 2)))
    assert not wrong.correct and wrong.given == "Then → First → Last"


def test_flashcard_only_again_is_a_miss(q) -> None:
    card = q["t-card"]
    assert not grade(card, FlashcardRating(AGAIN)).correct
    assert grade(card, FlashcardRating(HARD)).correct and grade(card, FlashcardRating(EASY)).correct
    assert grade(card, FlashcardRating(EASY)).rating == EASY
    with pytest.raises(ValueError):
        grade(card, FlashcardRating(5))
