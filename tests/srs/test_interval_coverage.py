"""Interval coverage on the student's own history: past days as small exams, and how often
the 80 % interval of the day's number right held."""

from __future__ import annotations

import pytest

from quizapp.srs.memory.model import DAY_MS, Memory, MemoryModel
from quizapp.srs.readiness.calibration import (
    MIN_CHECK_DAYS,
    MIN_DAY_REVIEWS,
    PastReview,
    count_interval,
    interval_coverage,
)

MODEL = MemoryModel()


def test_the_interval_of_a_count_holds_nearest_80_percent() -> None:
    # 20 answers at 0.9: the 10th-90th percentiles 16-20 hold 0.957; 17-20 hold 0.867,
    # 16-19 hold 0.835 (nearest 0.8), 17-19 hold 0.745.
    assert count_interval([0.9] * 20) == (16, 19)
    # Binomial(4, 1/2): percentiles 1-3 hold 0.875, nearer 0.8 than any range a score shorter.
    assert count_interval([0.5] * 4) == (1, 3)
    assert count_interval([1.0] * 4) == (4, 4)
    assert count_interval([0.0, 0.0, 1.0]) == (1, 1)


def day_of_reviews(day: int, right: int, count: int = MIN_DAY_REVIEWS) -> list[PastReview]:
    """`count` reviews on `day`, each of a card last seen 3 days before with stability 3 days
    (recall 0.9: the interval of 5 such answers is 4 to 5 right), `right` of them right."""
    at = day * DAY_MS
    memory = Memory(3.0, 5.0, at - 3 * DAY_MS)
    return [PastReview(f"q{day}-{i}", at, i < right, memory) for i in range(count)]


def test_days_whose_count_falls_outside_the_interval_lower_the_coverage() -> None:
    chance = MODEL.retrievability(Memory(3.0, 5.0, 0), 3 * DAY_MS)
    assert chance == pytest.approx(0.9)
    assert count_interval([chance] * MIN_DAY_REVIEWS) == (4, 5)
    reviews = []
    for day in range(1, 9):
        reviews += day_of_reviews(day, right=5)  # held
    for day in range(9, 13):
        reviews += day_of_reviews(day, right=2)  # not held: far fewer right than predicted
    reviews += day_of_reviews(13, right=1, count=MIN_DAY_REVIEWS - 1)  # too few to check
    checked = interval_coverage(reviews, MODEL, {})
    assert (checked.days, checked.held) == (12, 8)
    assert checked.enough and checked.coverage == pytest.approx(8 / 12)
    assert "held on 8 of 12 past days" in checked.text
    assert checked.as_json()["coverage"] == pytest.approx(8 / 12)


def test_below_the_minimum_of_days_no_coverage_is_claimed() -> None:
    reviews = [r for day in range(1, MIN_CHECK_DAYS) for r in day_of_reviews(day, right=5)]
    checked = interval_coverage(reviews, MODEL, {})
    assert checked.days == MIN_CHECK_DAYS - 1 and not checked.enough
    assert checked.coverage is None and "not yet checked" in checked.text
