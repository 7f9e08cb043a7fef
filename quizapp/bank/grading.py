"""Grading an answer against a question's key. Pure: the TUI, the exam and the tests share it."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace

from quizapp.bank.answers import (
    AGAIN,
    RATING_NAMES,
    Answer,
    ChoiceAnswer,
    FlashcardRating,
    NumericAnswerText,
    OrderingAnswer,
    TrueFalseAnswer,
    matching_trap,
    parse_number,
)
from quizapp.bank.model import (
    ChoiceQuestion,
    Flashcard,
    NumericQuestion,
    OrderingQuestion,
    Question,
    TrueFalseQuestion,
)
from quizapp.bank.responses import encode
from quizapp.wording import format_number


@dataclass(frozen=True)
class Grade:
    correct: bool
    expected: str  # the key, written for the student
    given: str  # what the student answered, written back
    trap: str | None = None  # the why of a known wrong answer they gave (numeric traps)
    rating: int | None = None  # flashcards: the student's own grade
    # What they answered, as the history keeps it (quizapp/bank/responses.py); None: nothing
    # was answered (an exam question left blank).
    response: Mapping[str, object] | None = None


class MissingKey(Exception):
    """A derived numeric key is not known yet (its computation has not run)."""


def numeric_key(question: NumericQuestion, derived: Mapping[str, object] | None) -> float:
    if question.answer.value is not None:
        return question.answer.value
    values = derived or {}
    value = values.get(question.answer.from_value or "")
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise MissingKey(question.answer.from_value)
    return float(value)


def within_tolerance(question: NumericQuestion, given: float, key: float) -> bool:
    answer = question.answer
    if answer.tolerance is not None:
        return abs(given - key) <= answer.tolerance + 1e-12 * abs(key)
    if answer.relative_tolerance is not None:
        return abs(given - key) <= answer.relative_tolerance * abs(key)
    return math.isclose(given, key, rel_tol=1e-9, abs_tol=1e-12)


def grade(question: Question, answer: Answer, derived: Mapping[str, object] | None = None) -> Grade:
    """Raises NumberFormatError for unreadable numeric input, MissingKey for an unknown key.
    The grade carries the response the history keeps for the answer."""
    return replace(_grade(question, answer, derived), response=encode(question, answer))


def _grade(question: Question, answer: Answer, derived: Mapping[str, object] | None) -> Grade:
    if isinstance(question, ChoiceQuestion):
        assert isinstance(answer, ChoiceAnswer)
        correct = question.correct_indices
        expected = "; ".join(question.choices[i].text for i in sorted(correct))
        given = "; ".join(question.choices[i].text for i in sorted(answer.selected)) or "(nothing)"
        return Grade(answer.selected == correct, expected, given)
    if isinstance(question, TrueFalseQuestion):
        assert isinstance(answer, TrueFalseAnswer)
        return Grade(answer.value == question.answer, _tf(question.answer), _tf(answer.value))
    if isinstance(question, NumericQuestion):
        assert isinstance(answer, NumericAnswerText)
        given = parse_number(answer.text, question.answer.unit)
        key = numeric_key(question, derived)
        unit = f" {question.answer.unit}" if question.answer.unit else ""
        ok = within_tolerance(question, given, key)
        trap = None
        if not ok:
            index = matching_trap(question, given)
            trap = None if index is None else question.traps[index].why
        return Grade(ok, format_number(key) + unit, format_number(given) + unit, trap=trap)
    if isinstance(question, OrderingQuestion):
        assert isinstance(answer, OrderingAnswer)
        expected = " → ".join(step.text for step in question.steps)
        given = " → ".join(question.steps[i].text for i in answer.order)
        return Grade(answer.order == tuple(range(len(question.steps))), expected, given)
    if isinstance(question, Flashcard):
        assert isinstance(answer, FlashcardRating)
        if answer.rating not in RATING_NAMES:
            raise ValueError(f"a flashcard grade is 1-4, not {answer.rating}")
        # As in Anki, only Again counts as forgotten; Hard is a successful, effortful recall.
        return Grade(
            answer.rating != AGAIN, question.back, RATING_NAMES[answer.rating], rating=answer.rating
        )
    raise TypeError(f"cannot grade {type(question).__name__}")


def _tf(value: bool) -> str:
    return "True" if value else "False"
