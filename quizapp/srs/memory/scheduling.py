"""From an answer to an FSRS rating, and from a rating to the card's next due date (py-fsrs).

We never schedule by hand: py-fsrs owns the algorithm. This module only decides which of
its four ratings an answer earns.

Auto-graded answers:
- wrong → Again;
- right and fast (under `fast_seconds`) → Easy;
- right and slow (over `slow_seconds`) → Hard;
- right otherwise → Good.
Flashcards take the student's own grade, 1–4, as Anki does. On the feedback screen the student
may change any of these ratings before moving on, as with Anki's answer buttons.

py-fsrs draws its interval fuzz from the global random generator. `review` draws it instead
from the question, the time of the answer and the rating, so the same answer to the same card
always gets the same due date: the one the feedback announces is the one the history saves,
even though the history's writer computes it again, later, on its own thread.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from fsrs import Card, Rating, ReviewLog, Scheduler, State
from fsrs.scheduler import FUZZ_RANGES

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
    """py-fsrs's scheduler. `parameters`: a set fitted to this history (quizapp/srs/store/fits.py,
    `active_parameters`); None, py-fsrs's defaults."""
    if not 0.7 <= desired_retention <= 0.99:
        raise ValueError(f"desired retention must be between 0.7 and 0.99, not {desired_retention}")
    if parameters is None:
        return Scheduler(desired_retention=desired_retention, enable_fuzzing=fuzz)
    return Scheduler(
        parameters=tuple(parameters), desired_retention=desired_retention, enable_fuzzing=fuzz
    )


def review(
    scheduler: Scheduler,
    card: Card | None,
    rating: Rating,
    when: datetime,
    duration_ms: int | None,
    *,
    fuzz_key: str = "",
) -> tuple[Card, ReviewLog]:
    """The card after this answer. With fuzzing on, the fuzz comes from `fuzz_key` (the
    question's id), the time and the rating: the same inputs always give the same card."""
    when = require_aware(when)
    # A new card's id is its first answer's time (py-fsrs would take the clock and sleep 1 ms).
    card = card if card is not None else Card(card_id=_epoch_ms(when), due=when)
    plain = scheduler
    if scheduler.enable_fuzzing:
        plain = Scheduler.from_dict({**scheduler.to_dict(), "enable_fuzzing": False})
    after, log = plain.review_card(card, rating, review_datetime=when, review_duration=duration_ms)
    if scheduler.enable_fuzzing and after.state == State.Review:
        seed = f"{fuzz_key}|{_epoch_ms(when)}|{int(rating)}"
        interval = fuzzed_interval(
            after.due - when, random.Random(seed), scheduler.maximum_interval
        )
        after.due = when + interval
    return after, log


def fuzzed_interval(interval: timedelta, rng: random.Random, maximum_days: int) -> timedelta:
    """py-fsrs's fuzz ranges (Scheduler._get_fuzzed_interval), from a generator we seed: a
    whole number of days between the range's ends, both included."""
    days = interval.days
    if days < 2.5:  # py-fsrs leaves short intervals alone
        return interval
    delta = 1.0
    for band in FUZZ_RANGES:
        delta += band["factor"] * max(min(float(days), band["end"]) - band["start"], 0.0)
    low, high = max(2, round(days - delta)), min(round(days + delta), maximum_days)
    low = min(low, high)
    return timedelta(days=rng.randint(low, high))


def _epoch_ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


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
