"""How far to trust the forecast: its predictions for past reviews against what happened.

For every past review of a card that had a memory state, the chance the forecast would have
given just before it (FSRS recall probability from the state before the review, at least the
question's guessing floor) is set against whether the answer was right. As in the FSRS
benchmark, a card's first review is left out (there was no state to predict from), and so are
reviews less than a day after the card's previous one (learning steps measure short-term
memory; an exam is days away).

- log-loss: the mean of -[y·ln p + (1-y)·ln(1-p)], p clipped to [0.0001, 0.9999];
- RMSE (bins): predictions put in 20 equal-width bins of p; the root of the count-weighted
  mean of (mean p - share right)² over the bins (the FSRS benchmark's original RMSE(bins));
- a reliability table: ten bins, each with its count, mean prediction and share right.

Below `MIN_REVIEWS` such reviews there is too little to say, and the report says so instead of
giving numbers.

Interval coverage (`interval_coverage`): the forecast's figure is an 80 % interval, so the
history is also asked how often an 80 % interval built the same way held. Each day (UTC) with
at least `MIN_DAY_REVIEWS` checkable reviews is a small exam: from the chances predicted for
them, the exact distribution of the number right (each answer its own Bernoulli), its 80 %
interval as the forecast takes it, and whether the day's actual count fell inside.
About 80 % of days should; far fewer says the predictions are off for this student (or too
confident), far more that they are too cautious. Shown once `MIN_CHECK_DAYS` days can be
checked. Pure: pairs of numbers in, figures out.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from quizapp.srs.memory.model import DAY_MS, Memory, MemoryModel
from quizapp.srs.readiness.exam_model import count_interval as interval_of_counts
from quizapp.srs.readiness.forecast import recall_chance

MIN_REVIEWS = 50
MIN_DAY_REVIEWS = 5  # checkable reviews that make a day a small exam for interval coverage
MIN_CHECK_DAYS = 10  # such days before the coverage is shown
RMSE_BINS = 20
TABLE_BINS = 10
CLIP = 1e-4


@dataclass(frozen=True)
class ReliabilityBin:
    low: float
    high: float
    count: int
    mean_predicted: float | None
    share_right: float | None


@dataclass(frozen=True)
class IntervalCheck:
    """How often 80 % intervals for past days' reviews held the day's actual number right."""

    days: int  # days that could be checked
    held: int  # of them, days whose count right fell inside the interval

    @property
    def enough(self) -> bool:
        return self.days >= MIN_CHECK_DAYS

    @property
    def coverage(self) -> float | None:
        return self.held / self.days if self.enough else None

    @property
    def text(self) -> str:
        if not self.enough:
            return (
                f"interval coverage not yet checked ({self.days} of {MIN_CHECK_DAYS} days with "
                f"{MIN_DAY_REVIEWS}+ checkable reviews)"
            )
        return (
            f"80% intervals held on {self.held} of {self.days} past days "
            f"({100 * self.held / self.days:.0f}%; 80% is right)"
        )

    def as_json(self) -> dict[str, object]:
        return {
            "days": self.days,
            "held": self.held,
            "coverage": self.coverage,
            "enough": self.enough,
            "min_days": MIN_CHECK_DAYS,
            "min_reviews_a_day": MIN_DAY_REVIEWS,
        }


NO_CHECK = IntervalCheck(0, 0)


@dataclass(frozen=True)
class Calibration:
    reviews: int  # reviews the figures are computed over
    log_loss: float | None  # None below MIN_REVIEWS
    rmse_bins: float | None
    mean_predicted: float | None
    share_right: float | None
    table: tuple[ReliabilityBin, ...]
    intervals: IntervalCheck = NO_CHECK

    @property
    def enough(self) -> bool:
        return self.log_loss is not None

    def verdict(self) -> str:
        if not self.enough:
            return (
                f"Too little history to check the forecast: {self.reviews} review(s) a day or "
                f"more after the previous one; it needs {MIN_REVIEWS}."
            )
        assert self.rmse_bins is not None and self.log_loss is not None
        return (
            f"Checked on {self.reviews:,} past reviews: predictions off by "
            f"{100 * self.rmse_bins:.1f} points on average (RMSE over bins), "
            f"log-loss {self.log_loss:.3f}; {self.intervals.text}."
        )

    def as_json(self) -> dict[str, object]:
        return {
            "reviews": self.reviews,
            "enough_history": self.enough,
            "min_reviews": MIN_REVIEWS,
            "log_loss": self.log_loss,
            "rmse_bins": self.rmse_bins,
            "mean_predicted": self.mean_predicted,
            "share_right": self.share_right,
            "interval_coverage": self.intervals.as_json(),
            "reliability": [
                {
                    "from": b.low,
                    "to": b.high,
                    "reviews": b.count,
                    "mean_predicted": b.mean_predicted,
                    "share_right": b.share_right,
                }
                for b in self.table
            ]
            if self.enough
            else [],
        }


@dataclass(frozen=True, slots=True)
class PastReview:
    question_id: str
    reviewed_ms: int
    correct: bool
    memory_before: Memory | None  # None: the card's first review


def review_predictions(
    reviews: Iterable[PastReview], model: MemoryModel, guesses: Mapping[str, float]
) -> Iterator[tuple[float, bool]]:
    """(the chance predicted just before, right) for each review that can be checked.

    `guesses`: guessing floors by question id (a question no longer in the bank has none)."""
    for review, chance in _checkable(reviews, model, guesses):
        yield chance, review.correct


def _checkable(
    reviews: Iterable[PastReview], model: MemoryModel, guesses: Mapping[str, float]
) -> Iterator[tuple[PastReview, float]]:
    for review in reviews:
        memory = review.memory_before
        if memory is None or review.reviewed_ms - memory.last_review_ms < DAY_MS:
            continue
        recall = model.retrievability(memory, review.reviewed_ms)
        yield review, recall_chance(recall, guesses.get(review.question_id, 0.0))


def interval_coverage(
    reviews: Iterable[PastReview], model: MemoryModel, guesses: Mapping[str, float]
) -> IntervalCheck:
    """Past days as small exams: how often the 80 % interval of the day's number right held."""
    by_day: dict[int, list[tuple[float, bool]]] = {}
    for review, chance in _checkable(reviews, model, guesses):
        by_day.setdefault(review.reviewed_ms // DAY_MS, []).append((chance, review.correct))
    days = held = 0
    for day_pairs in by_day.values():
        if len(day_pairs) < MIN_DAY_REVIEWS:
            continue
        low, high = count_interval([p for p, _ in day_pairs])
        days += 1
        held += low <= sum(y for _, y in day_pairs) <= high
    return IntervalCheck(days, held)


def count_interval(chances: Sequence[float]) -> tuple[int, int]:
    """The 80 % interval of the number right among independent answers with these chances,
    taken as the forecast takes it (quizapp/srs/readiness/exam_model.py's `count_interval`) from the
    exact distribution."""
    distribution = [1.0]
    for p in chances:
        p = min(1.0, max(0.0, p))
        grown = [0.0] * (len(distribution) + 1)
        for k, mass in enumerate(distribution):
            grown[k] += mass * (1 - p)
            grown[k + 1] += mass * p
        distribution = grown
    return interval_of_counts(distribution)


def _bin(p: float, bins: int) -> int:
    return min(bins - 1, int(p * bins))


def calibrate(pairs: Iterable[tuple[float, bool]]) -> Calibration:
    """Calibration of (predicted chance, right) pairs."""
    pairs = [(min(1.0, max(0.0, p)), bool(y)) for p, y in pairs]
    n = len(pairs)
    if n < MIN_REVIEWS:
        return Calibration(n, None, None, None, None, ())
    loss = 0.0
    for p, y in pairs:
        q = min(1 - CLIP, max(CLIP, p))
        loss -= math.log(q) if y else math.log(1 - q)
    sums = [[0, 0.0, 0] for _ in range(RMSE_BINS)]
    for p, y in pairs:
        s = sums[_bin(p, RMSE_BINS)]
        s[0] += 1
        s[1] += p
        s[2] += y
    squared = sum(c * (ps / c - ys / c) ** 2 for c, ps, ys in sums if c)
    table = []
    for b in range(TABLE_BINS):
        inside = [(p, y) for p, y in pairs if _bin(p, TABLE_BINS) == b]
        count = len(inside)
        table.append(
            ReliabilityBin(
                low=b / TABLE_BINS,
                high=(b + 1) / TABLE_BINS,
                count=count,
                mean_predicted=sum(p for p, _ in inside) / count if count else None,
                share_right=sum(y for _, y in inside) / count if count else None,
            )
        )
    return Calibration(
        reviews=n,
        log_loss=loss / n,
        rmse_bins=math.sqrt(squared / n),
        mean_predicted=sum(p for p, _ in pairs) / n,
        share_right=sum(y for _, y in pairs) / n,
        table=tuple(table),
    )


__all__ = [
    "MIN_REVIEWS",
    "Calibration",
    "IntervalCheck",
    "PastReview",
    "ReliabilityBin",
    "calibrate",
    "count_interval",
    "interval_coverage",
    "review_predictions",
]
