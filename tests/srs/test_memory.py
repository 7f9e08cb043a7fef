"""The forecast's memory model agrees with py-fsrs, number for number, except that it reads
recall in real time: fractional days, where py-fsrs floors to whole days."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from quizapp.srs.memory.model import DAY_MS, MemoryModel, memory_of
from quizapp.srs.memory.scheduling import Card, Rating, Scheduler
from quizapp.srs.times import to_ms

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
            # py-fsrs floors the elapsed time to whole days: at the whole days, both agree.
            whole_days = when
            if card.last_review is not None:
                whole_days = card.last_review + timedelta(days=(when - card.last_review).days)
            assert model.retrievability(memory, to_ms(whole_days)) == pytest.approx(
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


def test_a_review_an_hour_ago_is_not_certain_recall() -> None:
    """Recall at a moment counts the real time since the review (here 1/24 day), not whole
    days: floored, an hour would be t = 0 and R exactly 1, and cramming would look perfect."""
    scheduler = Scheduler(enable_fuzzing=False)
    reviewed = datetime(2026, 1, 1, 8, tzinfo=UTC)
    card, _ = scheduler.review_card(Card(card_id=1, due=reviewed), Rating.Good, reviewed)
    model = MemoryModel()
    memory = memory_of(card)
    assert memory is not None and card.stability is not None
    an_hour_later = reviewed + timedelta(hours=1)
    recall = model.retrievability(memory, to_ms(an_hour_later))
    fsrs_at_an_hour = (1 + scheduler._FACTOR * (1 / 24) / card.stability) ** scheduler._DECAY
    assert recall < 1.0
    assert recall == pytest.approx(fsrs_at_an_hour, rel=1e-12)
    # py-fsrs's whole days would say certain recall.
    assert scheduler.get_card_retrievability(card, an_hour_later) == 1.0
    half_day = model.retrievability(memory, to_ms(reviewed + timedelta(hours=12)))
    assert recall > half_day > model.retrievability(memory, to_ms(reviewed + timedelta(days=1)))


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
