"""A tiny bank and history for the readiness tests: the numbers can be worked out by hand."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from quizapp.bank.answers import Answer
from quizapp.bank.grading import grade
from quizapp.bank.model import (
    Choice,
    ChoiceQuestion,
    Deck,
    Difficulty,
    Location,
    NumericAnswer,
    NumericQuestion,
    Question,
    QuestionType,
    TrueFalseQuestion,
)
from quizapp.srs.memory.scheduling import Rating, make_scheduler
from quizapp.srs.store.sqlite.store import ReviewStore

SCHEDULER = make_scheduler(fuzz=False)


def _common(qid: str, deck: str, topic: str) -> dict:
    return dict(
        id=qid,
        prompt=f"prompt {qid}",
        explanation="because",
        topic=topic,
        tags=(),
        difficulty=Difficulty.MEDIUM,
        deck_id=deck,
        location=Location(f"{deck}.yaml", 1, 1),
    )


def true_false(qid: str, deck: str = "d", topic: str = "t") -> Question:
    return TrueFalseQuestion(type=QuestionType.TRUE_FALSE, answer=True, **_common(qid, deck, topic))


def numeric(qid: str, deck: str = "d", topic: str = "t") -> Question:
    return NumericQuestion(
        type=QuestionType.NUMERIC,
        answer=NumericAnswer(value=1.0, from_value=None),
        **_common(qid, deck, topic),
    )


def single(qid: str, options: int = 4, deck: str = "d", topic: str = "t") -> Question:
    choices = tuple(Choice(f"o{i}", i == 0, None) for i in range(options))
    return ChoiceQuestion(
        type=QuestionType.SINGLE_CHOICE, choices=choices, **_common(qid, deck, topic)
    )


def deck(deck_id: str, questions: list[Question], weight: float = 1.0) -> Deck:
    return Deck(
        id=deck_id,
        title=f"Deck {deck_id}",
        topic=questions[0].topic,
        domain="test",
        exam_weight=weight,
        path=f"{deck_id}.yaml",
        questions=tuple(questions),
    )


def answer(
    store: ReviewStore,
    question: Question,
    when: datetime,
    right: bool,
    *,
    rating: Rating | None = None,
    seconds: float = 30.0,
    kind: str = "drill",
    response: Mapping[str, object] | None = None,
) -> None:
    store.record_answer(
        question_id=question.id,
        deck_id=question.deck_id,
        topic=question.topic,
        rating=rating or (Rating.Good if right else Rating.Again),
        correct=right,
        when=when,
        duration_ms=int(seconds * 1000),
        kind=kind,
        scheduler=SCHEDULER,
        response=response,
    )


def answer_given(
    store: ReviewStore, question: Question, given: Answer, when: datetime, kind: str = "drill"
) -> None:
    """Grade `given` as the app does and record it with its response."""
    result = grade(question, given)
    answer(store, question, when, result.correct, kind=kind, response=result.response)
