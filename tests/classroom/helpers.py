"""Small questions and answers for the class-report tests: every figure can be worked out by
hand."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from quizapp.bank.model import (
    Choice,
    ChoiceQuestion,
    Deck,
    Difficulty,
    Flashcard,
    Location,
    NumericAnswer,
    NumericQuestion,
    Question,
    QuestionType,
    Trap,
    TrueFalseQuestion,
)
from quizapp.classroom.item_analysis import Answer

START = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)


def _common(qid: str, deck: str, topic: str) -> dict:
    return dict(
        id=qid,
        prompt=f"prompt {qid}",
        explanation=f"explanation of {qid}",
        topic=topic,
        tags=(),
        difficulty=Difficulty.MEDIUM,
        deck_id=deck,
        location=Location(f"{deck}.yaml", 1, 1),
    )


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


def deck(deck_id: str, questions: list[Question], topic: str = "t") -> Deck:
    return Deck(
        id=deck_id,
        title=f"Deck {deck_id}",
        topic=topic,
        domain="test",
        exam_weight=1.0,
        path=f"{deck_id}.yaml",
        questions=tuple(questions),
    )


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
