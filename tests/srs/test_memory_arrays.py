"""The plan's array valuation agrees with the scalar memory model, card by card."""

from __future__ import annotations

import random

import numpy as np
import pytest

from quizapp.srs.memory import arrays
from quizapp.srs.memory.model import DAY_MS, Memory, MemoryModel, default_parameters
from quizapp.srs.memory.scheduling import Rating
from quizapp.srs.readiness.exam_model import DeckPool, blueprint_of
from quizapp.srs.readiness.plan import Valuation

NOW = 200 * DAY_MS


def random_memories(rng: random.Random, n: int) -> list[Memory]:
    return [
        Memory(
            rng.choice([0.05, 0.4, 1.0, 3.0, 20.0, 200.0]) * rng.uniform(0.5, 2),
            rng.uniform(1, 10),
            NOW - rng.randint(0, 40 * 24) * 3_600_000,  # hours: same-day reviews too
        )
        for _ in range(n)
    ]


@pytest.mark.parametrize("seed", [1, 2])
def test_array_updates_match_the_scalar_model(seed: int) -> None:
    rng = random.Random(seed)
    w = [p * rng.uniform(0.8, 1.2) for p in default_parameters()]
    model = MemoryModel(w)
    memories = random_memories(rng, 60)
    s = np.array([m.stability for m in memories])
    d = np.array([m.difficulty for m in memories])
    last = np.array([m.last_review_ms for m in memories], dtype=np.int64)
    for rating in Rating:
        got = arrays.stability_after(model, s, d, last, rating, NOW)
        want = [model.stability_after(m, rating, NOW) for m in memories]
        assert got == pytest.approx(want, rel=1e-12)
        moved = arrays.next_difficulty(model, d, rating)
        assert moved == pytest.approx([model.review(m, rating, NOW).difficulty for m in memories])
    assert arrays.retrievability(model, s, last, NOW) == pytest.approx(
        [model.retrievability(m, NOW) for m in memories]
    )


@pytest.mark.parametrize("days_to_exam", [0.5, 1.5, 12])
def test_review_gains_match_the_scalar_gain(days_to_exam: float) -> None:
    rng = random.Random(3)
    ids = [f"q{i}" for i in range(40)]
    blueprint = blueprint_of(
        [DeckPool("d", "d", 1.0, [(q, rng.choice([0.0, 0.25, 0.5]), "d") for q in ids])], 10
    )
    memories = random_memories(rng, len(ids))
    valuation = Valuation(MemoryModel(), NOW, NOW + int(days_to_exam * DAY_MS))
    got = valuation.review_gains(blueprint.items, memories)
    want = [valuation._gain(i, m, 0.3) for i, m in zip(blueprint.items, memories, strict=True)]
    assert got == pytest.approx(want, rel=1e-9, abs=1e-15)
