"""The optimal retention for the days left to the exam. Pure: no torch, no pandas, no textual.

py-fsrs's `Optimizer.compute_optimal_retention` simulates a year of reviews at each desired
retention and keeps the one with the least review time per card remembered. A student
preparing for an exam in three weeks has no year: what matters is what is recalled on the
exam morning, and what it cost to get there. `optimal_retention` is py-fsrs's simulation with
that horizon:

- **Costs**, from the student's own reviews (`review_costs`), as py-fsrs estimates them: how
  a card's first review is rated (the share of Again, Hard, Good, Easy) and how long each
  rating takes; how a later review that was recalled is rated, and how long each takes.
- **The simulation**: `SIMULATED_CARDS` new cards, all first seen now, scheduled by py-fsrs's
  `Scheduler` (learning steps included, no fuzz) at the desired retention, with the
  parameters under test; each is reviewed whenever due before the exam moment. A later review
  is recalled with the card's retrievability at that time under the same parameters (py-fsrs
  draws it with the desired retention instead, which holds only for reviews on their due day
  in the long run); a recalled review is rated Hard, Good or Easy in the student's shares. The
  generator is seeded once per retention, so every retention meets the same luck.
- **The figure of merit**: review seconds per card recalled *at the exam moment*: the total
  time spent, divided by the sum of the cards' recall probabilities at the exam (real time,
  fractional days, as the forecast counts it). py-fsrs divides by desired retention × cards,
  the share remembered on any day of a long steady state; an exam is one day.
- **The candidates**: py-fsrs's, 0.70 to 0.95 in steps of 0.05.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from fsrs import Card, Rating, ReviewLog, Scheduler

from quizapp.srs.memory.model import MemoryModel

RETENTIONS = (0.70, 0.75, 0.80, 0.85, 0.90, 0.95)  # py-fsrs's candidates
SIMULATED_CARDS = 300
MIN_TIMED_REVIEWS = 50  # fewer say little about how long each rating takes
SEED = 42  # py-fsrs's
RECALLED = (Rating.Hard, Rating.Good, Rating.Easy)


@dataclass(frozen=True)
class ReviewCosts:
    first_shares: tuple[float, float, float, float]  # Again, Hard, Good, Easy on a first review
    first_seconds: tuple[float, float, float, float]  # their mean duration
    recalled_shares: tuple[float, float, float]  # Hard, Good, Easy on a later recalled review
    later_seconds: tuple[float, float, float, float]  # Again, Hard, Good, Easy on a later review


def review_costs(logs: Iterable[ReviewLog]) -> ReviewCosts | None:
    """The student's rating shares and durations, from the reviews with a duration; None when
    there is no first review or no recalled later review to estimate them from."""
    seen: set[int] = set()
    first: dict[int, list[float]] = {int(r): [] for r in Rating}
    later: dict[int, list[float]] = {int(r): [] for r in Rating}
    for log in sorted(logs, key=lambda log: log.review_datetime):
        is_first = log.card_id not in seen
        seen.add(log.card_id)
        if log.review_duration is None:
            continue
        (first if is_first else later)[int(log.rating)].append(log.review_duration / 1000)
    first_count = sum(len(times) for times in first.values())
    recalled_count = sum(len(later[int(r)]) for r in RECALLED)
    if not first_count or not recalled_count:
        return None
    return ReviewCosts(
        first_shares=_four(len(first[int(r)]) / first_count for r in Rating),
        first_seconds=_four(_mean(first[int(r)]) for r in Rating),
        recalled_shares=(
            len(later[Rating.Hard]) / recalled_count,
            len(later[Rating.Good]) / recalled_count,
            len(later[Rating.Easy]) / recalled_count,
        ),
        later_seconds=_four(_mean(later[int(r)]) for r in Rating),
    )


def optimal_retention(
    parameters: Sequence[float],
    costs: ReviewCosts,
    start: datetime,
    exam_at: datetime,
    cards: int = SIMULATED_CARDS,
) -> float:
    """The candidate retention with the least review time per card recalled at `exam_at`."""
    if exam_at <= start:
        raise ValueError("the exam moment must be after the start")
    cost = {
        retention: seconds_per_card_recalled(parameters, costs, retention, start, exam_at, cards)
        for retention in RETENTIONS
    }
    return min(RETENTIONS, key=lambda retention: cost[retention])


def seconds_per_card_recalled(
    parameters: Sequence[float],
    costs: ReviewCosts,
    retention: float,
    start: datetime,
    exam_at: datetime,
    cards: int = SIMULATED_CARDS,
) -> float:
    rng = random.Random(SEED)
    scheduler = Scheduler(
        parameters=tuple(parameters), desired_retention=retention, enable_fuzzing=False
    )
    model = MemoryModel(parameters)
    seconds, recalled_at_exam = 0.0, 0.0
    for card_id in range(1, cards + 1):
        card = Card(card_id=card_id, due=start)
        first = True
        while card.due < exam_at:
            when = card.due
            if first:
                rating = rng.choices(list(Rating), weights=costs.first_shares)[0]
                seconds += costs.first_seconds[rating - 1]
                first = False
            else:
                if rng.random() < scheduler.get_card_retrievability(card, when):
                    rating = rng.choices(RECALLED, weights=costs.recalled_shares)[0]
                else:
                    rating = Rating.Again
                seconds += costs.later_seconds[rating - 1]
            card, _ = scheduler.review_card(card, rating, review_datetime=when)
        if card.stability is not None and card.last_review is not None:
            elapsed = (exam_at - card.last_review) / timedelta(days=1)
            recalled_at_exam += model.retrievability_after(card.stability, elapsed)
    return seconds / recalled_at_exam if recalled_at_exam else float("inf")


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _four(values: Iterable[float]) -> tuple[float, float, float, float]:
    a, b, c, d = values
    return a, b, c, d


__all__ = [
    "MIN_TIMED_REVIEWS",
    "RETENTIONS",
    "SIMULATED_CARDS",
    "ReviewCosts",
    "optimal_retention",
    "review_costs",
    "seconds_per_card_recalled",
]
