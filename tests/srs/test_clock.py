"""`--now`: the clock moves to another day and runs on from there."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from quizapp.srs import clock
from quizapp.srs.memory.scheduling import utc_now


@pytest.fixture(autouse=True)
def real_clock_after() -> Iterator[None]:
    yield
    clock.reset()


def test_the_clock_moves_and_keeps_running() -> None:
    target = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)
    clock.set_now(target)
    first = utc_now()
    assert abs(first - target) < timedelta(seconds=5)
    assert utc_now() >= first
    clock.reset()
    assert abs(utc_now() - datetime.now(UTC)) < timedelta(seconds=5)


def test_moments_are_read_as_local_times() -> None:
    morning = clock.parse_moment("2026-12-02")
    assert morning.tzinfo is not None
    assert (morning.year, morning.month, morning.day, morning.hour) == (2026, 12, 2, 9)
    evening = clock.parse_moment("2026-12-02T18:30")
    assert evening.hour == 18 and evening.utcoffset() == morning.utcoffset()
    assert clock.parse_moment("2026-12-02T18:30:00+00:00") == datetime(
        2026, 12, 2, 18, 30, tzinfo=UTC
    )
    with pytest.raises(ValueError):
        clock.parse_moment("tomorrow")
    with pytest.raises(ValueError):
        clock.set_now(datetime(2026, 12, 2))  # naive
