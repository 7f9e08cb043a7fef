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
giving numbers. Pure: pairs of numbers in, figures out.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from quizapp.srs.forecast import recall_chance
from quizapp.srs.memory import DAY_MS, Memory, MemoryModel

MIN_REVIEWS = 50
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
class Calibration:
    reviews: int  # reviews the figures are computed over
    log_loss: float | None  # None below MIN_REVIEWS
    rmse_bins: float | None
    mean_predicted: float | None
    share_right: float | None
    table: tuple[ReliabilityBin, ...]

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
            f"log-loss {self.log_loss:.3f}."
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
    for review in reviews:
        memory = review.memory_before
        if memory is None or review.reviewed_ms - memory.last_review_ms < DAY_MS:
            continue
        recall = model.retrievability(memory, review.reviewed_ms)
        yield recall_chance(recall, guesses.get(review.question_id, 0.0)), review.correct


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
    "PastReview",
    "ReliabilityBin",
    "calibrate",
    "review_predictions",
]
