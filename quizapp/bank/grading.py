"""Grading an answer against a question's key. Pure: the TUI, the exam and the tests share it."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass

from quizapp.bank.model import (
    ChoiceQuestion,
    Flashcard,
    NumericQuestion,
    OrderingQuestion,
    Question,
    TrueFalseQuestion,
)

# Anki's grades, which flashcards use directly.
AGAIN, HARD, GOOD, EASY = 1, 2, 3, 4
RATING_NAMES = {AGAIN: "Again", HARD: "Hard", GOOD: "Good", EASY: "Easy"}

_NUMBER = re.compile(r"^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$")
_GROUPED = re.compile(r"^[-+]?\d{1,3}(,\d{3})+(\.\d*)?$")


class NumberFormatError(ValueError):
    pass


def parse_number(text: str) -> float:
    """What a student types: `1048576`, `1,048,576`, `1_048_576`, `1.05e6`, `2^20`."""
    cleaned = text.strip().replace("_", "").replace(" ", "").replace("\u202f", "")
    if not cleaned:
        raise NumberFormatError("type a number")
    power = re.fullmatch(r"(\d+)\^(\d{1,3})", cleaned)
    if power:
        return float(int(power.group(1)) ** int(power.group(2)))
    if "," in cleaned:
        if not _GROUPED.match(cleaned):
            raise NumberFormatError(f"{text.strip()!r}: commas only separate thousands (1,048,576)")
        cleaned = cleaned.replace(",", "")
    if not _NUMBER.match(cleaned):
        raise NumberFormatError(f"{text.strip()!r} is not a number")
    value = float(cleaned)
    if not math.isfinite(value):
        raise NumberFormatError("the number must be finite")
    return value


@dataclass(frozen=True)
class ChoiceAnswer:
    selected: frozenset[int]  # indices into question.choices, in the file's order


@dataclass(frozen=True)
class TrueFalseAnswer:
    value: bool


@dataclass(frozen=True)
class NumericAnswerText:
    text: str


@dataclass(frozen=True)
class OrderingAnswer:
    order: tuple[int, ...]  # step indices (file order = correct order) as the student arranged them


@dataclass(frozen=True)
class FlashcardRating:
    rating: int  # AGAIN..EASY


Answer = ChoiceAnswer | TrueFalseAnswer | NumericAnswerText | OrderingAnswer | FlashcardRating


@dataclass(frozen=True)
class Grade:
    correct: bool
    expected: str  # the key, written for the student
    given: str  # what the student answered, written back
    trap: str | None = None  # the why of a known wrong answer they gave (numeric traps)
    rating: int | None = None  # flashcards: the student's own grade


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


def format_number(value: float) -> str:
    if float(value).is_integer() and abs(value) < 1e15:
        return f"{int(value):,}"
    return f"{value:.6g}"


def grade(question: Question, answer: Answer, derived: Mapping[str, object] | None = None) -> Grade:
    """Raises NumberFormatError for unreadable numeric input, MissingKey for an unknown key."""
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
        given = parse_number(answer.text)
        key = numeric_key(question, derived)
        unit = f" {question.answer.unit}" if question.answer.unit else ""
        ok = within_tolerance(question, given, key)
        trap = None
        if not ok:
            trap = next(
                (t.why for t in question.traps if math.isclose(t.value, given, rel_tol=1e-6)), None
            )
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
