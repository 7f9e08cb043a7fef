"""`MemoryModel`'s updates over arrays of memory states, for the plan's valuation.

The plan values every exam question every day, and each value asks the model what a review
would do several times over; one card at a time that is most of a simulated student's cost
(bench/bench_exam.py runs thousands). These are the same formulas as
quizapp/srs/memory/model.py, number for number, on numpy arrays: stabilities S, difficulties D and
last-review times L (ms). tests/srs/test_memory_arrays.py checks them against the scalar model.
"""

from __future__ import annotations

import numpy as np

from quizapp.srs.memory.model import (
    DAY_MS,
    MAX_DIFFICULTY,
    MIN_DIFFICULTY,
    STABILITY_MIN,
    MemoryModel,
)
from quizapp.srs.memory.scheduling import Rating


def retrievability_after(model: MemoryModel, stability: np.ndarray, days: np.ndarray) -> np.ndarray:
    return (1 + model.factor * np.maximum(days, 0.0) / stability) ** model.decay


def retrievability(
    model: MemoryModel, stability: np.ndarray, last_ms: np.ndarray, at_ms: int
) -> np.ndarray:
    """Recall at `at_ms` after the real time elapsed, in fractional days."""
    return retrievability_after(model, stability, (at_ms - last_ms) / DAY_MS)


def stability_after(
    model: MemoryModel,
    stability: np.ndarray,
    difficulty: np.ndarray,
    last_ms: np.ndarray,
    rating: Rating,
    at_ms: int,
) -> np.ndarray:
    """The stability a review with `rating` at `at_ms` gives (whole days, as py-fsrs counts)."""
    w = model.w
    rating = int(rating)
    days = (at_ms - last_ms) // DAY_MS
    increase = np.exp(w[17] * (rating - 3 + w[18])) * stability ** -w[19]
    if rating >= Rating.Hard:
        increase = np.maximum(increase, 1.0)
    short_term = np.maximum(stability * increase, STABILITY_MIN)
    r = retrievability_after(model, stability, days.astype(float))
    if rating == Rating.Again:
        long_term = np.minimum(
            w[11] * difficulty ** -w[12] * ((stability + 1) ** w[13] - 1) * np.exp((1 - r) * w[14]),
            stability / np.exp(w[17] * w[18]),
        )
    else:
        hard_penalty = w[15] if rating == Rating.Hard else 1
        easy_bonus = w[16] if rating == Rating.Easy else 1
        long_term = stability * (
            1
            + np.exp(w[8])
            * (11 - difficulty)
            * stability ** -w[9]
            * (np.exp((1 - r) * w[10]) - 1)
            * hard_penalty
            * easy_bonus
        )
    return np.where(days < 1, short_term, np.maximum(long_term, STABILITY_MIN))


def next_difficulty(model: MemoryModel, difficulty: np.ndarray, rating: Rating) -> np.ndarray:
    w = model.w
    delta = -(w[6] * (int(rating) - 3))
    damped = difficulty + (10.0 - difficulty) * delta / 9.0
    easy = w[4] - np.exp(w[5] * (int(Rating.Easy) - 1)) + 1
    reverted = w[7] * easy + (1 - w[7]) * damped
    return np.clip(reverted, MIN_DIFFICULTY, MAX_DIFFICULTY)


__all__ = ["next_difficulty", "retrievability", "retrievability_after", "stability_after"]
