"""The forecast's memory model agrees with py-fsrs, number for number."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from quizapp.srs.memory import DAY_MS, MemoryModel, memory_of
from quizapp.srs.scheduling import Card, Rating, Scheduler
from quizapp.srs.store import to_ms

GAPS_MINUTES = (1, 10, 300, 1439, 1440, 3000, 10_000, 40_000, 90_000)


@pytest.mark.parametrize("seed", range(6))
def test_random_review_sequences_match_py_fsrs(seed: int) -> None:
    rng = random.Random(seed)
    scheduler = Scheduler(enable_fuzzing=False)
    model = MemoryModel()
    for _ in range(40):
        when = datetime(2026, 1, 1, 9, tzinfo=UTC)
        card = Card(card_id=1, due=when)
        memory = None
        for _ in range(10):
            when += timedelta(minutes=rng.choice(GAPS_MINUTES))
            rating = Rating(rng.randint(1, 4))
            assert model.retrievability(memory, to_ms(when)) == pytest.approx(
                scheduler.get_card_retrievability(card, when), abs=1e-12
            )
            card, _ = scheduler.review_card(card, rating, when)
            memory = model.review(memory, rating, to_ms(when))
            expected = memory_of(card)
            assert expected is not None
            assert memory.stability == pytest.approx(expected.stability, rel=1e-12)
            assert memory.difficulty == pytest.approx(expected.difficulty, rel=1e-12)
            assert memory.last_review_ms == expected.last_review_ms
            assert model.stability_after(memory, rating, to_ms(when) + 3 * DAY_MS) > 0


def test_other_parameters_give_other_memories() -> None:
    from fsrs.scheduler import DEFAULT_PARAMETERS

    slower = list(DEFAULT_PARAMETERS)
    slower[2] *= 2  # the first stability after Good
    mine, default = MemoryModel(slower), MemoryModel()
    first = mine.review(None, Rating.Good, 0)
    assert first.stability == pytest.approx(2 * default.review(None, Rating.Good, 0).stability)
    scheduler = Scheduler(parameters=slower, enable_fuzzing=False)
    card, _ = scheduler.review_card(
        Card(card_id=1, due=datetime(2026, 1, 1, tzinfo=UTC)),
        Rating.Good,
        datetime(2026, 1, 1, tzinfo=UTC),
    )
    assert card.stability == pytest.approx(first.stability)


def test_a_card_never_reviewed_has_no_memory_and_no_recall() -> None:
    model = MemoryModel()
    assert memory_of(Card(card_id=1, due=datetime(2026, 1, 1, tzinfo=UTC))) is None
    assert model.retrievability(None, 0) == 0.0


def test_twenty_one_parameters_are_required() -> None:
    with pytest.raises(ValueError, match="21"):
        MemoryModel([0.1] * 19)
