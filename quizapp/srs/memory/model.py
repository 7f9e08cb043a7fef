"""FSRS memory states as plain numbers: what the forecast, the plan and the simulator reason with.

py-fsrs owns scheduling (quizapp/srs/memory/scheduling.py). To ask "what if this card were reviewed
today?" a thousand times a day, the forecast needs the same memory model without py-fsrs's
Card objects, copies and datetimes. `MemoryModel` is that model, number for number:

- a card's memory is its stability S (days), difficulty D and the time of its last review;
- recall probability after t days: R = (1 + F·t/S)^(-decay), with F = 0.9^(-1/decay) - 1.
  `retrievability` takes t in real time, fractional days (an hour is 1/24): the forecast asks
  about a moment (the exam at 09:00), and a card reviewed that morning is not certain recall.
  py-fsrs's `get_card_retrievability` floors t to whole days; the two agree at whole days;
- a review sets S and D as `Scheduler.review_card` does: the initial S and D on a card's
  first review, the short-term update when less than a whole day has passed since the last
  review, else the long-term recall or forgetting update; D moves on every later review.
  The update counts whole days, as py-fsrs and its optimizer do (the parameters are fitted
  that way): it is the model's rule, not a reading of the clock.

In py-fsrs those updates do not depend on the card's Learning/Review/Relearning state (that
only decides the next due date), so S, D and the last review are the whole memory.
tests/srs/test_memory.py replays random review sequences through both and checks they agree.

Times are integer milliseconds since the epoch (as the store keeps them), so the update's whole
days are counted exactly as `timedelta.days` counts them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from quizapp.srs.memory.scheduling import Card, Rating
from quizapp.srs.times import to_ms

DAY_MS = 86_400_000
STABILITY_MIN = 0.001  # py-fsrs's floor on stability
MIN_DIFFICULTY = 1.0
MAX_DIFFICULTY = 10.0


def default_parameters() -> tuple[float, ...]:
    from fsrs.scheduler import DEFAULT_PARAMETERS

    return tuple(DEFAULT_PARAMETERS)


@dataclass(frozen=True, slots=True)
class Memory:
    stability: float  # days until recall falls to 90 %
    difficulty: float  # 1 (easy) to 10 (hard)
    last_review_ms: int


def memory_of(card: Card | None) -> Memory | None:
    """A py-fsrs card's memory, or None for a card that has no memory state yet."""
    if card is None or card.stability is None or card.difficulty is None:
        return None
    if card.last_review is None:
        return None
    return Memory(float(card.stability), float(card.difficulty), to_ms(card.last_review))


class MemoryModel:
    """FSRS-6's memory model with the given 21 parameters (py-fsrs's defaults if none)."""

    def __init__(self, parameters: Sequence[float] | None = None) -> None:
        w = tuple(parameters) if parameters is not None else default_parameters()
        if len(w) != 21:
            raise ValueError(f"FSRS-6 takes 21 parameters, not {len(w)}")
        self.w = w
        self.decay = -w[20]
        self.factor = 0.9 ** (1 / self.decay) - 1
        # Constants of the updates, worked out once (the plan calls `review` very often).
        self._easy_difficulty = self._initial_difficulty(Rating.Easy)
        self._recall_scale = math.e ** w[8]
        self._short_term_forget = math.e ** (w[17] * w[18])
        self._initial = {
            int(r): (max(w[r - 1], STABILITY_MIN), self._clamp(self._initial_difficulty(r)))
            for r in Rating
        }

    # -- recall ---------------------------------------------------------------------------

    def retrievability(self, memory: Memory | None, at_ms: int) -> float:
        """The chance of recall at `at_ms`, after the real time elapsed in fractional days
        (0 for a card never reviewed, as py-fsrs says)."""
        if memory is None:
            return 0.0
        return self.retrievability_after(memory.stability, (at_ms - memory.last_review_ms) / DAY_MS)

    def retrievability_after(self, stability: float, days: float) -> float:
        return (1 + self.factor * max(0.0, days) / stability) ** self.decay

    # -- reviewing ------------------------------------------------------------------------

    def review(self, memory: Memory | None, rating: Rating | int, at_ms: int) -> Memory:
        """The memory after a review with `rating` at `at_ms`."""
        rating = int(rating)
        if memory is None:
            stability, difficulty = self._initial[rating]
            return Memory(stability, difficulty, at_ms)
        stability = self.stability_after(memory, rating, at_ms)
        return Memory(stability, self._next_difficulty(memory.difficulty, rating), at_ms)

    def stability_after(self, memory: Memory | None, rating: Rating | int, at_ms: int) -> float:
        """Only the stability `review` would give (the plan's look-ahead needs no more)."""
        rating = int(rating)
        if memory is None:
            return self._initial[rating][0]
        days = (at_ms - memory.last_review_ms) // DAY_MS
        if days < 1:
            return self._short_term(memory.stability, rating)
        r = self.retrievability_after(memory.stability, days)
        if rating == Rating.Again:
            stability = self._forget(memory.difficulty, memory.stability, r)
        else:
            stability = self._recall(memory.difficulty, memory.stability, r, rating)
        return max(stability, STABILITY_MIN)

    def _initial_difficulty(self, rating: int) -> float:
        return self.w[4] - math.e ** (self.w[5] * (rating - 1)) + 1

    @staticmethod
    def _clamp(difficulty: float) -> float:
        return min(max(difficulty, MIN_DIFFICULTY), MAX_DIFFICULTY)

    def _short_term(self, stability: float, rating: int) -> float:
        w = self.w
        increase = math.e ** (w[17] * (rating - 3 + w[18])) * stability ** -w[19]
        if rating >= Rating.Hard:
            increase = max(increase, 1.0)
        return max(stability * increase, STABILITY_MIN)

    def _next_difficulty(self, difficulty: float, rating: int) -> float:
        w = self.w
        delta = -(w[6] * (rating - 3))
        damped = difficulty + (10.0 - difficulty) * delta / 9.0
        reverted = w[7] * self._easy_difficulty + (1 - w[7]) * damped
        return MIN_DIFFICULTY if reverted < MIN_DIFFICULTY else min(reverted, MAX_DIFFICULTY)

    def _forget(self, difficulty: float, stability: float, r: float) -> float:
        w = self.w
        long_term = (
            w[11]
            * difficulty ** -w[12]
            * ((stability + 1) ** w[13] - 1)
            * math.e ** ((1 - r) * w[14])
        )
        short_term = stability / self._short_term_forget
        return min(long_term, short_term)

    def _recall(self, difficulty: float, stability: float, r: float, rating: int) -> float:
        w = self.w
        hard_penalty = w[15] if rating == Rating.Hard else 1
        easy_bonus = w[16] if rating == Rating.Easy else 1
        return stability * (
            1
            + self._recall_scale
            * (11 - difficulty)
            * stability ** -w[9]
            * (math.e ** ((1 - r) * w[10]) - 1)
            * hard_penalty
            * easy_bonus
        )


__all__ = ["DAY_MS", "Memory", "MemoryModel", "default_parameters", "memory_of"]
