"""The partial fit: FSRS's initial stabilities (w[0..3]) from a short history, shrunk toward
py-fsrs's defaults. Pure: no torch, no textual.

FSRS's optimizer (fsrs-rs, and the FSRS benchmark's) starts with a *pre-training* of the four
initial stabilities S0, one per first rating (Again, Hard, Good, Easy): for the cards first
rated r, the recall of their next review a day or more later, at its elapsed time, says how
fast a memory just formed fades, and S0(r) is the stability whose forgetting curve fits those
outcomes best. The other 17 parameters need far more reviews (py-fsrs's optimizer wants 512);
S0 needs only a few dozen, and it is what a short exam preparation is mostly made of.

- **The data**: each card's first review a whole day (24 h) or more after the review before
  it, among the reviews fitted on; its first rating r, whether it was recalled (not Again),
  and its elapsed time. Same-day learning steps between the first review and that one are
  replayed (they move S through FSRS's short-term update), so the prediction is the one the
  scheduler itself would make: py-fsrs's retrievability, whole days, as `fitting.score` judges
  it.
- **The fit**: for each first rating on its own, the S0 that maximises the log-likelihood of
  those outcomes plus a normal prior on ln S0 centred on py-fsrs's default with standard
  deviation `PRIOR_SD` (1: a factor of e either way; different people's fitted S0 spread about
  that much). At a recall chance near 0.9 one review carries about 0.05 of information on
  ln S0 (FSRS-6's flat forgetting curve), so the prior weighs about as much as 20 such reviews:
  with a handful of outcomes S0 stays near the default, with dozens it follows them. A rating
  with no outcome keeps its default.
- **Order**: S0 must not fall as the first rating improves. Where a fitted pair is out of order
  the rating with fewer outcomes takes the other's value (fsrs-rs's `smooth_and_fill` does
  the same).

Whether the fit is used is decided elsewhere (quizapp/srs/memory/optimize.py): only when it beats the
defaults on the held-out reviews.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from fsrs import Rating, ReviewLog

from quizapp.srs.memory.model import DAY_MS, Memory, MemoryModel
from quizapp.srs.times import to_ms

PRIOR_SD = 1.0  # of ln S0 around py-fsrs's default
LOWEST_S0 = 0.01  # days; py-fsrs allows 0.001, but no one forgets within 15 minutes
HIGHEST_S0 = 100.0  # py-fsrs's upper bound
GRID_POINTS = 121  # candidate values of ln S0, evenly spaced (steps of 8 %)
CLIP = 1e-4


@dataclass(frozen=True)
class Outcome:
    """A card's first long-term review: what pre-training learns from."""

    first_rating: int
    steps: tuple[tuple[int, int], ...]  # (rating, ms) of the card's reviews before it, in order
    at_ms: int
    recalled: bool


@dataclass(frozen=True)
class InitialStabilities:
    parameters: tuple[float, ...]  # py-fsrs's defaults with w[0..3] replaced
    outcomes: dict[int, int]  # first rating -> outcomes it was fitted on


def outcomes(logs: Iterable[ReviewLog]) -> list[Outcome]:
    """Each card's first review a whole day or more after its previous review, with the reviews
    before it (its first, then same-day steps)."""
    cards: dict[int, list[ReviewLog]] = {}
    for log in logs:
        cards.setdefault(log.card_id, []).append(log)
    found = []
    for history in cards.values():
        history.sort(key=lambda log: log.review_datetime)
        for index in range(1, len(history)):
            before, after = history[index - 1], history[index]
            if (after.review_datetime - before.review_datetime).days > 0:
                steps = tuple(
                    (int(log.rating), to_ms(log.review_datetime)) for log in history[:index]
                )
                found.append(
                    Outcome(
                        first_rating=steps[0][0],
                        steps=steps,
                        at_ms=to_ms(after.review_datetime),
                        recalled=after.rating != Rating.Again,
                    )
                )
                break
    return found


def fit_initial_stabilities(
    logs: Iterable[ReviewLog],
    defaults: Sequence[float],
    prior_sd: float = PRIOR_SD,
) -> InitialStabilities:
    """`defaults` with w[0..3] fitted to the first long-term reviews among `logs`."""
    by_rating: dict[int, list[Outcome]] = {}
    for outcome in outcomes(logs):
        by_rating.setdefault(outcome.first_rating, []).append(outcome)
    stabilities = [
        _fit_one(rating, by_rating[rating], defaults, prior_sd)
        if rating in by_rating
        else defaults[rating - 1]
        for rating in (1, 2, 3, 4)
    ]
    counts = {rating: len(by_rating.get(rating, ())) for rating in (1, 2, 3, 4)}
    _put_in_order(stabilities, counts)
    return InitialStabilities((*stabilities, *defaults[4:]), counts)


def _fit_one(
    rating: int, found: Sequence[Outcome], defaults: Sequence[float], prior_sd: float
) -> float:
    """The S0 of the least penalised loss on a grid of ln S0 (steps of 8 %: finer than
    anything a few dozen outcomes can tell apart)."""
    centre = math.log(defaults[rating - 1])
    low, high = math.log(LOWEST_S0), math.log(HIGHEST_S0)
    step = (high - low) / (GRID_POINTS - 1)

    def penalised(log_s0: float) -> float:
        w = list(defaults)
        w[rating - 1] = math.exp(log_s0)
        model = MemoryModel(w)
        total = ((log_s0 - centre) / prior_sd) ** 2 / 2
        for outcome in found:
            p = min(1 - CLIP, max(CLIP, _predicted(model, outcome)))
            total -= math.log(p) if outcome.recalled else math.log(1 - p)
        return total

    best = min((low + i * step for i in range(GRID_POINTS)), key=penalised)
    return math.exp(best)


def _predicted(model: MemoryModel, outcome: Outcome) -> float:
    memory: Memory | None = None
    for rating, at_ms in outcome.steps:
        memory = model.review(memory, rating, at_ms)
    assert memory is not None
    # Whole days, as py-fsrs's get_card_retrievability (and so the held-out check) counts them.
    days = (outcome.at_ms - memory.last_review_ms) // DAY_MS
    return model.retrievability_after(memory.stability, days)


def _put_in_order(stabilities: list[float], counts: dict[int, int]) -> None:
    for small, big in ((1, 2), (2, 3), (3, 4), (1, 3), (2, 4), (1, 4)):
        low, high = stabilities[small - 1], stabilities[big - 1]
        if low > high:
            if counts[small] > counts[big]:
                stabilities[big - 1] = low
            else:
                stabilities[small - 1] = high


__all__ = [
    "PRIOR_SD",
    "InitialStabilities",
    "Outcome",
    "fit_initial_stabilities",
    "outcomes",
]
