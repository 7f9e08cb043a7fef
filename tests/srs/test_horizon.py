"""The optimal retention for the days left to the exam (quizapp/srs/memory/horizon.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from fsrs import Rating, ReviewLog
from fsrs.scheduler import DEFAULT_PARAMETERS

from quizapp.srs.memory.horizon import (
    RETENTIONS,
    ReviewCosts,
    optimal_retention,
    review_costs,
    seconds_per_card_recalled,
)

T0 = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)
# Forgetting is dear (a minute), recalling cheap: the sort of student for whom the horizon
# decides how much reviewing pays.
COSTS = ReviewCosts(
    first_shares=(0.3, 0.1, 0.5, 0.1),
    first_seconds=(30.0, 20.0, 15.0, 10.0),
    recalled_shares=(0.1, 0.8, 0.1),
    later_seconds=(60.0, 8.0, 5.0, 4.0),
)


def test_costs_are_the_students_own_shares_and_durations() -> None:
    day = timedelta(days=1)
    logs = [
        ReviewLog(1, Rating.Again, T0, 9000),
        ReviewLog(2, Rating.Good, T0, 3000),
        ReviewLog(3, Rating.Good, T0, 5000),
        ReviewLog(4, Rating.Easy, T0, None),  # no duration: not counted
        ReviewLog(1, Rating.Good, T0 + day, 6000),
        ReviewLog(2, Rating.Again, T0 + day, 12000),
        ReviewLog(3, Rating.Hard, T0 + day, 7000),
        ReviewLog(3, Rating.Good, T0 + 2 * day, 2000),
    ]
    costs = review_costs(logs)
    assert costs is not None
    assert costs.first_shares == pytest.approx((1 / 3, 0, 2 / 3, 0))
    assert costs.first_seconds == pytest.approx((9.0, 0.0, 4.0, 0.0))
    assert costs.recalled_shares == pytest.approx((1 / 3, 2 / 3, 0))
    assert costs.later_seconds == pytest.approx((12.0, 7.0, 4.0, 0.0))
    # Nothing recalled after a first review: no shares to simulate with.
    assert review_costs([*logs[:4], logs[5]]) is None


def test_an_exam_a_moment_away_leaves_time_for_the_first_review_only() -> None:
    """The simulation stops at the exam: a card due after it is not reviewed, and what counts
    is its recall at the exam moment (here a second after its first review: certain)."""
    first_review = sum(
        share * seconds
        for share, seconds in zip(COSTS.first_shares, COSTS.first_seconds, strict=True)
    )
    for retention in RETENTIONS:
        cost = seconds_per_card_recalled(
            DEFAULT_PARAMETERS, COSTS, retention, T0, T0 + timedelta(seconds=1), cards=400
        )
        assert cost == pytest.approx(first_review, rel=0.1)


@pytest.mark.parametrize("retention", [0.7, 0.9])
def test_a_farther_exam_costs_more_per_card_recalled(retention: float) -> None:
    """Keeping a card until a later exam takes more reviews: the horizon is really used."""
    costs = [
        seconds_per_card_recalled(
            DEFAULT_PARAMETERS, COSTS, retention, T0, T0 + timedelta(days=days), cards=150
        )
        for days in (3, 30, 365)
    ]
    assert costs == sorted(costs) and costs[0] < costs[-1]


def test_the_optimal_retention_is_a_candidate_and_needs_an_exam_ahead() -> None:
    best = optimal_retention(DEFAULT_PARAMETERS, COSTS, T0, T0 + timedelta(days=20), cards=100)
    assert best in RETENTIONS
    with pytest.raises(ValueError):
        optimal_retention(DEFAULT_PARAMETERS, COSTS, T0, T0)
