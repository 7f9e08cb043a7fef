"""The greedy policy: review the cards with the lowest projected exam-day chance first,
weighted by exam weight.

A card's priority is w · (1 - p): w its share of the exam score, p its chance of a right answer
on exam day if it is not reviewed again (a reviewed card: max(R at the exam, g); an unseen
one: the chance its first answer is right, from the first attempts). New questions come in
as the plan brings them in (quizapp/srs/readiness/plan.py): each day at least its share of the unseen
questions left, spread over the days before the last `CONSOLIDATION_DAYS`, none in those
last days, and never more than `max_new`; the rest of the day goes to the highest priorities,
reviews and new questions alike. The day's cards are then mixed across decks, best first.

It is the baseline the plan has to beat (bench/bench_exam.py): one line of reasoning, no
look-ahead. Pure: numbers in, question ids out.
"""

from __future__ import annotations

from collections.abc import Collection

from quizapp.srs.memory.model import MemoryModel
from quizapp.srs.readiness.exam_model import ExamBlueprint
from quizapp.srs.readiness.forecast import Student, recall_chance
from quizapp.srs.readiness.plan import (
    CONSOLIDATION_DAYS,
    PlanChoice,
    card_slots,
    days_left,
    mixed,
    new_quota,
)


def exam_day_priority(
    blueprint: ExamBlueprint, student: Student, model: MemoryModel, exam_ms: int
) -> dict[str, float]:
    """w · (1 - p) per exam question: the score it is projected to lose on exam day."""
    priorities = {}
    for item in blueprint.items:
        memory = student.memories.get(item.question_id)
        if memory is None:
            chance = student.unseen_chance(item)
        else:
            chance = recall_chance(model.retrievability(memory, exam_ms), item.guess)
        priorities[item.question_id] = item.weight * (1 - chance)
    return priorities


def greedy_day(
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
    """Today's cards by greedy priority, within the budget (arguments as `plan_day`'s; a
    choice's `gain` is its priority)."""
    slots = card_slots(budget_minutes, minutes_per_card, now_ms, exam_ms)
    if slots == 0:
        return []
    priority = exam_day_priority(blueprint, student, model, exam_ms)
    new: list[PlanChoice] = []
    reviews: list[PlanChoice] = []
    for item in blueprint.items:
        qid = item.question_id
        if available is not None and qid not in available:
            continue
        unseen = qid not in student.memories
        (new if unseen else reviews).append(
            PlanChoice(qid, priority[qid], minutes_per_card, unseen)
        )
    new_allowed = len(new) if max_new is None else max(0, max_new)
    if days_left(now_ms, exam_ms) <= CONSOLIDATION_DAYS:
        new_allowed = 0
    new = _highest_first(new)[:new_allowed]
    quota = min(new_quota(len(new), now_ms, exam_ms), new_allowed, slots)
    chosen = new[:quota]
    chosen += _highest_first(new[quota:] + reviews)[: slots - len(chosen)]
    decks = {item.question_id: item.deck_id for item in blueprint.items}
    return mixed(_highest_first(chosen), decks)


def _highest_first(choices: list[PlanChoice]) -> list[PlanChoice]:
    return sorted(choices, key=lambda c: (-c.gain, c.question_id))


__all__ = ["exam_day_priority", "greedy_day"]
