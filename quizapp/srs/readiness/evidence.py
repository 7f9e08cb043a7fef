"""Which answers are evidence of exam-day recall, and what the forecast makes of them.

An answer is **evidence** when it is the first answer to its question on its local day, was
given unaided (before that question's answer or explanation had been shown in its session)
and is not a repeat within its session. Everything else is **practice**: kept in the history
and counted in the statistics and the drill's schedule, but not fed to the forecast.

Each answer carries how it came in its session (`attempt`, stored from schema step 4 on):
- `first`: the question's first answer in the session;
- `repeat`: asked again in the same session after an answer that stood (a drill's learning
  step coming back), so after its feedback was shown;
- `aided`: given after the answer was shown and the earlier answer taken back (undo).
Whether it was the first of its day is not stored: it is read from the times. An older row
(`attempt` NULL, from before step 4) counts as evidence when it is the first answer to its
question that day, which also rules out its session's repeats, except for a session that ran
past midnight; a re-answer after an undo cannot be told apart there (the undone row is gone).

From the evidence alone come the forecast's inputs (`replay`): each question's memory state, by
FSRS over its evidence answers in order; the first attempts (a question's first answer ever,
when it is evidence); and the past predictions the calibration checks. Pure: rows in, numbers out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING

from quizapp.bank.session import AIDED, FIRST, REPEAT
from quizapp.srs.memory.model import Memory, MemoryModel
from quizapp.srs.memory.scheduling import Rating
from quizapp.srs.readiness.calibration import PastReview
from quizapp.srs.times import from_ms

if TYPE_CHECKING:
    from quizapp.srs.store.history import AnswerRow

ATTEMPTS = (FIRST, REPEAT, AIDED)


@dataclass(frozen=True, slots=True)
class Answer:
    """One stored answer, as the forecast reads it."""

    question_id: str
    topic: str
    reviewed_ms: int
    correct: bool
    rating: int
    attempt: str | None  # FIRST, REPEAT, AIDED; None: written before it was recorded


def local_day(ms: int) -> date:
    """The student's day (local time), as the drill's days are counted."""
    return from_ms(ms).astimezone().date()


def evidence_flags(
    answers: Sequence[Answer], day_of: Callable[[int], date] = local_day
) -> list[bool]:
    """For answers in time order, whether each is evidence (see the module docstring)."""
    answered_on: set[tuple[str, date]] = set()
    flags = []
    for answer in answers:
        key = (answer.question_id, day_of(answer.reviewed_ms))
        first_of_day = key not in answered_on
        answered_on.add(key)
        flags.append(first_of_day and answer.attempt in (FIRST, None))
    return flags


@dataclass(frozen=True)
class Evidence:
    """The forecast's inputs, from the evidence answers only."""

    memories: dict[str, Memory]  # question id -> memory state after its evidence answers
    past_reviews: tuple[PastReview, ...]  # each evidence answer with the memory before it
    first_attempts: tuple[tuple[str, bool], ...]  # (question id, right): first answers ever
    answers: int  # evidence answers
    practice: int  # the other answers


def replay(
    answers: Sequence[Answer],
    model: MemoryModel,
    day_of: Callable[[int], date] = local_day,
) -> Evidence:
    """FSRS over each question's evidence answers, in time order, with their stored ratings."""
    memories: dict[str, Memory] = {}
    past: list[PastReview] = []
    firsts: list[tuple[str, bool]] = []
    answered: set[str] = set()
    flags = evidence_flags(answers, day_of)
    for answer, evidence in zip(answers, flags, strict=True):
        first_ever = answer.question_id not in answered
        answered.add(answer.question_id)
        if not evidence:
            continue
        if first_ever:
            firsts.append((answer.question_id, answer.correct))
        before = memories.get(answer.question_id)
        past.append(PastReview(answer.question_id, answer.reviewed_ms, answer.correct, before))
        memories[answer.question_id] = model.review(before, _rating(answer), answer.reviewed_ms)
    evidence_count = sum(flags)
    return Evidence(
        memories, tuple(past), tuple(firsts), evidence_count, len(flags) - evidence_count
    )


def _rating(answer: Answer) -> Rating:
    try:
        return Rating(answer.rating)
    except ValueError:  # another program's row: right is Good, wrong is Again
        return Rating.Good if answer.correct else Rating.Again


def answers_of(rows: Iterable[AnswerRow]) -> list[Answer]:
    """`HistoryStore.answer_rows()` as answers."""
    return [
        Answer(qid, topic, ms, bool(correct), int(rating), attempt)
        for qid, topic, ms, correct, _duration, _before, rating, attempt in rows
    ]


__all__ = ["ATTEMPTS", "Answer", "Evidence", "answers_of", "evidence_flags", "local_day", "replay"]
