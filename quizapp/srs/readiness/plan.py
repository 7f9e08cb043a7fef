"""The study plan to an exam date: which cards today, in which order, to raise the predicted
exam-day score the most per minute.

Every exam question gets a value for today: the expected rise of the exam-day score if it
is asked now, divided by the minutes a card takes,
    w · [R · V(after Good) + (1 - R) · V(after Again) - V(as it is)]
where w is the question's share of the exam score (so topics count by exam weight), R its
recall probability now (for an unseen question: the chance its first answer is right) and
V the worth of a memory state on exam day (`Valuation`: its chance after one more review on
the day before the exam; from that day on, its exam-day chance). As the exam comes closer a
review done now counts more and more directly, so reviews move toward the exam date.

The day's cards are the highest values that fit the day's budget, asked from each deck in
turn (each deck's best first) so that topics are mixed. New questions follow two rules the
values alone would not: each day brings in at least its share of the unseen questions left,
spread over the days before the last `CONSOLIDATION_DAYS`, so that all are seen in time to
be learned; and in those last days (when a first sight can no longer be consolidated by
reviews on later days) no new question comes in.

This is the valuation plan. The app ships greedy ordering instead (quizapp/srs/readiness/projection.py's
`SHIPPED_POLICY`; docs/forecast.md has the figures): this plan did not beat it by the 2 points
asked. Past the exam neither is used: the drill is plain FSRS again (quizapp/srs/study/queue.py).
Pure: numbers in, question ids out.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass

import numpy as np

from quizapp.srs.memory import arrays
from quizapp.srs.memory.model import DAY_MS, Memory, MemoryModel
from quizapp.srs.memory.scheduling import Rating
from quizapp.srs.readiness.exam_model import ExamBlueprint, ExamItem
from quizapp.srs.readiness.forecast import Student, recall_chance

CONSOLIDATION_DAYS = 3  # no new question in the last days before the exam


@dataclass(frozen=True, slots=True)
class PlanChoice:
    question_id: str
    gain: float  # expected rise of the exam-day score (a fraction of the whole score)
    minutes: float
    new: bool

    @property
    def value(self) -> float:
        return self.gain / self.minutes


class Valuation:
    """What a card's memory state is worth on exam day, and what a review now adds.

    Looking only at the exam-day recall of a review done now would put every new question
    off to the last days (a fresh memory fades) and spend the early days re-reviewing what
    was just learned. So a state is valued as it will stand after one more review on the day
    before the exam, which every card is assumed to get: a state recalled then gets a strong
    final review, one forgotten then a weak one. Early reviews are then worth what they do
    for that final review, and a question first seen early is worth more than one first seen
    late. From the day before the exam on, a state is valued by its exam-day chance alone.
    """

    def __init__(self, model: MemoryModel, now_ms: int, exam_ms: int) -> None:
        self.model = model
        self.now_ms = now_ms
        self.exam_ms = exam_ms
        self.final_ms = exam_ms - DAY_MS
        self.lookahead = self.final_ms - now_ms >= DAY_MS
        self._new: dict[tuple[float, float, float], float] = {}

    def exam_chance(self, item: ExamItem, memory: Memory) -> float:
        return recall_chance(self.model.retrievability(memory, self.exam_ms), item.guess)

    def worth(self, item: ExamItem, memory: Memory | None, first_chance: float) -> float:
        """The state's expected exam-day chance (None: unseen, right first with first_chance)."""
        model = self.model
        if not self.lookahead:
            return first_chance if memory is None else self.exam_chance(item, memory)
        final = self.final_ms
        recall = first_chance if memory is None else model.retrievability(memory, final)
        # After the final review the exam is one day away.
        good = model.retrievability_after(model.stability_after(memory, Rating.Good, final), 1)
        again = model.retrievability_after(model.stability_after(memory, Rating.Again, final), 1)
        return recall * recall_chance(good, item.guess) + (1 - recall) * recall_chance(
            again, item.guess
        )

    def gain(self, item: ExamItem, memory: Memory | None, first_chance: float) -> float:
        """The rise in the exam score (a fraction of it) from a review now."""
        if memory is None:  # the same for every unseen question of a kind: computed once
            key = (item.weight, item.guess, first_chance)
            if key not in self._new:
                self._new[key] = self._gain(item, None, first_chance)
            return self._new[key]
        return self._gain(item, memory, first_chance)

    def review_gains(self, items: Sequence[ExamItem], memories: Sequence[Memory]) -> np.ndarray:
        """`gain` for reviewed cards, all at once (the same formulas on arrays: the plan values
        every card every day, and one at a time that is most of its cost)."""
        model, now = self.model, self.now_ms
        stability = np.array([m.stability for m in memories], dtype=float)
        difficulty = np.array([m.difficulty for m in memories], dtype=float)
        last = np.array([m.last_review_ms for m in memories], dtype=np.int64)
        guess = np.array([item.guess for item in items], dtype=float)
        weight = np.array([item.weight for item in items], dtype=float)
        recall = arrays.retrievability(model, stability, last, now)
        current = self._worth_arrays(stability, difficulty, last, guess)
        after = np.zeros_like(recall)
        for rating, share in ((Rating.Good, recall), (Rating.Again, 1 - recall)):
            reviewed = arrays.stability_after(model, stability, difficulty, last, rating, now)
            moved = arrays.next_difficulty(model, difficulty, rating)
            after += share * self._worth_arrays(reviewed, moved, np.full_like(last, now), guess)
        return weight * (after - current)

    def _worth_arrays(
        self, stability: np.ndarray, difficulty: np.ndarray, last: np.ndarray, guess: np.ndarray
    ) -> np.ndarray:
        model = self.model
        if not self.lookahead:
            return np.maximum(arrays.retrievability(model, stability, last, self.exam_ms), guess)
        final = self.final_ms
        recall = arrays.retrievability(model, stability, last, final)
        one_day = np.ones_like(stability)
        good = arrays.retrievability_after(
            model,
            arrays.stability_after(model, stability, difficulty, last, Rating.Good, final),
            one_day,
        )
        again = arrays.retrievability_after(
            model,
            arrays.stability_after(model, stability, difficulty, last, Rating.Again, final),
            one_day,
        )
        return recall * np.maximum(good, guess) + (1 - recall) * np.maximum(again, guess)

    def _gain(self, item: ExamItem, memory: Memory | None, first_chance: float) -> float:
        model = self.model
        now = self.now_ms
        recall = first_chance if memory is None else model.retrievability(memory, now)
        good = self.worth(item, model.review(memory, Rating.Good, now), first_chance)
        again = self.worth(item, model.review(memory, Rating.Again, now), first_chance)
        after = recall * good + (1 - recall) * again
        return item.weight * (after - self.worth(item, memory, first_chance))


def days_left(now_ms: int, exam_ms: int) -> int:
    """Whole days from now to the exam (0 on the exam day itself)."""
    return max(0, (exam_ms - now_ms) // DAY_MS)


def new_quota(unseen: int, now_ms: int, exam_ms: int) -> int:
    """New questions today so that every unseen one is in before the last days."""
    open_days = days_left(now_ms, exam_ms) - CONSOLIDATION_DAYS
    if open_days <= 0 or unseen <= 0:
        return 0
    return math.ceil(unseen / open_days)


def card_slots(budget_minutes: float, minutes_per_card: float, now_ms: int, exam_ms: int) -> int:
    """How many cards today's budget holds (0 once the exam moment has come)."""
    if minutes_per_card <= 0:
        raise ValueError("minutes per card must be positive")
    slots = int(budget_minutes / minutes_per_card + 1e-9)
    return max(0, slots) if now_ms < exam_ms else 0


def plan_day(
    blueprint: ExamBlueprint,
    student: Student,
    model: MemoryModel,
    now_ms: int,
    exam_ms: int,
    *,
    budget_minutes: float,
    minutes_per_card: float,
    available: Collection[str] | None = None,
    max_new: int | None = None,
) -> list[PlanChoice]:
    """Today's cards, best value first, within the budget.

    `available`: the question ids that may be asked today (None: every exam question), e.g.
    without suspended or buried cards; `max_new`: a cap on new questions (the daily limit).
    """
    slots = card_slots(budget_minutes, minutes_per_card, now_ms, exam_ms)
    if slots == 0:
        return []
    valuation = Valuation(model, now_ms, exam_ms)
    reviews: list[PlanChoice] = []
    new: list[PlanChoice] = []
    reviewed: list[tuple[ExamItem, Memory]] = []
    for item in blueprint.items:
        if available is not None and item.question_id not in available:
            continue
        memory = student.memories.get(item.question_id)
        if memory is not None:
            reviewed.append((item, memory))
            continue
        gain = valuation.gain(item, None, student.unseen_chance(item))
        new.append(PlanChoice(item.question_id, gain, minutes_per_card, True))
    if reviewed:
        gains = valuation.review_gains([i for i, _ in reviewed], [m for _, m in reviewed])
        reviews = [
            PlanChoice(item.question_id, float(gain), minutes_per_card, False)
            for (item, _), gain in zip(reviewed, gains, strict=True)
        ]
    by_value = _best_first
    new_allowed = len(new) if max_new is None else max(0, max_new)
    if days_left(now_ms, exam_ms) <= CONSOLIDATION_DAYS:
        new_allowed = 0
    new = by_value(new)[:new_allowed]
    quota = min(new_quota(len(new), now_ms, exam_ms), new_allowed, slots)
    chosen = new[:quota]
    rest = by_value([c for c in new[quota:] + reviews if c.gain > 0])
    chosen += rest[: slots - len(chosen)]
    decks = {item.question_id: item.deck_id for item in blueprint.items}
    return mixed(by_value(chosen), decks)


def mixed(choices: Sequence[PlanChoice], decks: dict[str, str]) -> list[PlanChoice]:
    """The day's cards taken from each deck in turn, each deck's best first: a drill mixes
    topics (as the plain drill queue does) and still starts with the most valuable cards."""
    lanes: dict[str, list[PlanChoice]] = {}
    for choice in choices:  # best first, so the first lane holds the best card
        lanes.setdefault(decks[choice.question_id], []).append(choice)
    order: list[PlanChoice] = []
    depth = 0
    while len(order) < len(choices):
        order.extend(lane[depth] for lane in lanes.values() if depth < len(lane))
        depth += 1
    return order


def _best_first(choices: Sequence[PlanChoice]) -> list[PlanChoice]:
    return sorted(choices, key=lambda c: (-c.value, c.question_id))


__all__ = [
    "CONSOLIDATION_DAYS",
    "PlanChoice",
    "Valuation",
    "days_left",
    "mixed",
    "new_quota",
    "plan_day",
]
