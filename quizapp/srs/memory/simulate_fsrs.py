"""The second simulator's truth: py-fsrs's own `Scheduler` decides what a student recalls.

quizapp's memory model (quizapp/srs/memory/model.py) re-implements FSRS-6 for speed, and the plan
and the forecast reason with it; a simulator built on the same code could share its mistakes.
Here each simulated student is a py-fsrs `Scheduler` with that student's parameters (drawn
around py-fsrs's DEFAULT_PARAMETERS by quizapp/srs/memory/simulate.py's `draw_student`, never the
planner's), one py-fsrs `Card` per question moved by `Scheduler.review_card` with what really
happened (recalled: Good, else Again), and `Scheduler.get_card_retrievability` is the chance
of recall: py-fsrs's reading of the clock (whole days) and its state machine (learning steps,
relearning), not quizapp's. No fuzz: the schedule's due dates do not matter here, only the
memory.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from fsrs import Card, Rating, ReviewLog, Scheduler

_UNIX_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def fsrs_datetime(at_ms: int) -> datetime:
    """A moment (ms since the epoch) as py-fsrs takes it, exactly."""
    return _UNIX_EPOCH + timedelta(milliseconds=at_ms)


class PyFsrsTruth:
    """One student's memory as py-fsrs moves it."""

    def __init__(self, parameters: Sequence[float], start_ms: int, forgetting: float = 1.0) -> None:
        self.scheduler = Scheduler(parameters=tuple(parameters), enable_fuzzing=False)
        self.forgetting = forgetting  # c: recall is py-fsrs's retrievability ^ c
        self.start_ms = start_ms
        self.cards: dict[str, Card] = {}
        self.logs: dict[str, list[ReviewLog]] = {}  # what happened to each card, in order

    def recall(self, question_id: str, at_ms: int) -> float | None:
        card = self.cards.get(question_id)
        if card is None:
            return None
        recall = float(self.scheduler.get_card_retrievability(card, fsrs_datetime(at_ms)))
        return recall**self.forgetting

    def review(self, question_id: str, recalled: bool, at_ms: int) -> None:
        when = fsrs_datetime(at_ms)
        card = self.cards.get(question_id) or Card(card_id=len(self.cards) + 1, due=when)
        rating = Rating.Good if recalled else Rating.Again
        self.cards[question_id], log = self.scheduler.review_card(card, rating, when)
        self.logs.setdefault(question_id, []).append(log)


__all__ = ["PyFsrsTruth", "fsrs_datetime"]
