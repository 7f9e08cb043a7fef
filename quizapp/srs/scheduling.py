"""From an answer to an FSRS rating, and from a rating to the card's next due date (py-fsrs).

We never schedule by hand: py-fsrs owns the algorithm. This module only decides which of
its four ratings an answer earns.

Auto-graded answers:
- wrong → Again;
- right and fast (under `fast_seconds`) → Easy;
- right and slow (over `slow_seconds`) → Hard;
- right otherwise → Good.
Flashcards take the student's own grade, 1–4, as Anki does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from fsrs import Card, Rating, ReviewLog, Scheduler, State

from quizapp.bank.grading import Grade
from quizapp.srs import clock

DEFAULT_FAST_SECONDS = 10.0
DEFAULT_SLOW_SECONDS = 60.0


@dataclass(frozen=True)
class RatingPolicy:
    fast_seconds: float = DEFAULT_FAST_SECONDS
    slow_seconds: float = DEFAULT_SLOW_SECONDS

    def rating_for(self, grade: Grade, seconds: float) -> Rating:
        if grade.rating is not None:  # a flashcard: the student's own grade
            return Rating(grade.rating)
        if not grade.correct:
            return Rating.Again
        if seconds < self.fast_seconds:
            return Rating.Easy
        if seconds > self.slow_seconds:
            return Rating.Hard
        return Rating.Good


def utc_now() -> datetime:
    """Now, in UTC, on the clock `--now` may have moved (quizapp/srs/clock.py)."""
    return datetime.now(UTC) + clock.offset()


def require_aware(moment: datetime) -> datetime:
    """py-fsrs refuses naive datetimes; so do we, before they reach it or the database."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError("timestamps must be timezone-aware (UTC)")
    return moment.astimezone(UTC)


def make_scheduler(
    desired_retention: float = 0.9,
    *,
    fuzz: bool = True,
    parameters: Sequence[float] | None = None,
) -> Scheduler:
    """py-fsrs's scheduler. `parameters`: a set fitted to this history (quizapp/srs/fit_store.py,
    `active_parameters`); None, py-fsrs's defaults."""
    if not 0.7 <= desired_retention <= 0.99:
        raise ValueError(f"desired retention must be between 0.7 and 0.99, not {desired_retention}")
    if parameters is None:
        return Scheduler(desired_retention=desired_retention, enable_fuzzing=fuzz)
    return Scheduler(
        parameters=tuple(parameters), desired_retention=desired_retention, enable_fuzzing=fuzz
    )


def review(
    scheduler: Scheduler, card: Card | None, rating: Rating, when: datetime, duration_ms: int | None
) -> tuple[Card, ReviewLog]:
    card = card if card is not None else Card(due=require_aware(when))
    return scheduler.review_card(
        card, rating, review_datetime=require_aware(when), review_duration=duration_ms
    )


__all__ = [
    "Card",
    "Rating",
    "RatingPolicy",
    "ReviewLog",
    "Scheduler",
    "State",
    "make_scheduler",
    "require_aware",
    "review",
    "utc_now",
]
