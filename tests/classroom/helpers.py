"""Small questions and answers for the class-report tests: every figure can be worked out by
hand."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from quizapp.bank.model import (
    Choice,
    ChoiceQuestion,
    Flashcard,
    NumericAnswer,
    NumericQuestion,
    Question,
    QuestionType,
    Trap,
    TrueFalseQuestion,
)
from quizapp.classroom.item_analysis import Answer
from tests.srs.readiness_helpers import _common, deck

__all__ = ["START", "answer", "deck", "flashcard", "multiple", "numeric", "single", "true_false"]

START = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)


def single(qid: str, options: int = 4, key: int = 0, deck: str = "d", topic: str = "t"):
    choices = tuple(Choice(f"option {i}", i == key, None) for i in range(options))
    return ChoiceQuestion(
        type=QuestionType.SINGLE_CHOICE, choices=choices, **_common(qid, deck, topic)
    )


def multiple(qid: str, keys: tuple[int, ...], options: int = 4, deck: str = "d", topic: str = "t"):
    choices = tuple(Choice(f"option {i}", i in keys, None) for i in range(options))
    return ChoiceQuestion(
        type=QuestionType.MULTIPLE_CHOICE, choices=choices, **_common(qid, deck, topic)
    )


def true_false(qid: str, answer: bool = True, deck: str = "d", topic: str = "t"):
    return TrueFalseQuestion(
        type=QuestionType.TRUE_FALSE, answer=answer, **_common(qid, deck, topic)
    )


def numeric(qid: str, traps: tuple[float, ...] = (), deck: str = "d", topic: str = "t"):
    return NumericQuestion(
        type=QuestionType.NUMERIC,
        answer=NumericAnswer(value=8.0, from_value=None),
        traps=tuple(Trap(value, f"why {value}") for value in traps),
        **_common(qid, deck, topic),
    )


def flashcard(qid: str, deck: str = "d", topic: str = "t"):
    return Flashcard(type=QuestionType.FLASHCARD, back="back", **_common(qid, deck, topic))


def answer(
    student: str,
    question: Question,
    correct: bool,
    response: dict | None = None,
    *,
    minutes: float = 0,
) -> Answer:
    return Answer(
        student=student,
        question_id=question.id,
        deck_id=question.deck_id,
        topic=question.topic,
        reviewed_at=START + timedelta(minutes=minutes),
        kind="drill",
        correct=correct,
        response=response,
    )
