"""The greedy baseline: the lowest projected exam-day chance first, weighted by exam weight,
new questions brought in as the plan brings them."""

from __future__ import annotations

import random

from quizapp.srs.memory.model import DAY_MS, Memory, MemoryModel
from quizapp.srs.readiness.exam_model import DeckPool, blueprint_of
from quizapp.srs.readiness.forecast import FirstAttempts, Student, recall_chance
from quizapp.srs.readiness.greedy import exam_day_priority, greedy_day
from quizapp.srs.readiness.plan import CONSOLIDATION_DAYS

MODEL = MemoryModel()
NOW = 100 * DAY_MS
EXAM = NOW + 20 * DAY_MS
NOBODY = FirstAttempts.tally([])


def pool(deck_id: str, ids: list[str], weight: float = 1.0, guess: float = 0.0) -> DeckPool:
    return DeckPool(deck_id, deck_id, weight, [(q, guess, deck_id) for q in ids])


def chosen(blueprint, memories, *, budget: int, exam_ms: int = EXAM, **kw) -> list[str]:
    choices = greedy_day(
        blueprint,
        Student(memories, NOBODY),
        MODEL,
        NOW,
        exam_ms,
        budget_minutes=budget,
        minutes_per_card=1.0,
        **kw,
    )
    return [c.question_id for c in choices]


def test_the_cards_with_the_lowest_weighted_exam_day_chance_are_picked() -> None:
    rng = random.Random(5)
    ids = [f"q{i}" for i in range(12)]
    blueprint = blueprint_of([pool("heavy", ids[:6], 0.7), pool("light", ids[6:], 0.3)], 12)
    memories = {
        q: Memory(rng.uniform(0.5, 60), rng.uniform(2, 8), NOW - rng.randint(1, 20) * DAY_MS)
        for q in ids
    }
    picked = chosen(blueprint, memories, budget=5)
    weights = {item.question_id: item.weight for item in blueprint.items}
    lost = {
        q: weights[q] * (1 - recall_chance(MODEL.retrievability(m, EXAM), 0.0))
        for q, m in memories.items()
    }
    expected = sorted(ids, key=lambda q: -lost[q])[:5]
    assert sorted(picked) == sorted(expected)
    assert exam_day_priority(blueprint, Student(memories, NOBODY), MODEL, EXAM) == lost


def test_of_equal_memories_the_heavier_topic_goes_first() -> None:
    light, heavy = [f"a{i}" for i in range(5)], [f"z{i}" for i in range(5)]  # ties: light first
    blueprint = blueprint_of([pool("light", light, 0.2), pool("heavy", heavy, 0.8)], 5)
    same = Memory(3.0, 5.0, NOW - 2 * DAY_MS)
    assert sorted(chosen(blueprint, dict.fromkeys(light + heavy, same), budget=5)) == heavy


def test_a_fading_card_beats_a_firm_one() -> None:
    blueprint = blueprint_of([pool("d", ["firm", "fading"])], 2)
    memories = {
        "firm": Memory(300.0, 3.0, NOW - DAY_MS),
        "fading": Memory(2.0, 7.0, NOW - 5 * DAY_MS),
    }
    assert chosen(blueprint, memories, budget=1) == ["fading"]


def test_new_questions_come_in_at_the_plans_pace_and_not_in_the_last_days() -> None:
    ids = [f"n{i}" for i in range(34)]
    blueprint = blueprint_of([pool("d", [*ids, "seen"])], 5)
    fading = {"seen": Memory(0.2, 9.0, NOW - 10 * DAY_MS)}  # low chance: beats a new one
    # 20 days left, 17 before the last 3: 34 unseen need at least 2 a day.
    picked = chosen(blueprint, fading, budget=3)
    assert "seen" in picked and sum(q.startswith("n") for q in picked) == 2
    late = chosen(blueprint, fading, budget=3, exam_ms=NOW + CONSOLIDATION_DAYS * DAY_MS)
    assert late == ["seen"]
    assert sum(q.startswith("n") for q in chosen(blueprint, {}, budget=10, max_new=4)) == 4
