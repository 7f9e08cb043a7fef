"""The calibration figures on constructed cases: coverage, Brier score, reliability table."""

from __future__ import annotations

import pytest

from quizapp.srs.memory.simulate import DayForecast, Outcome
from quizapp.srs.readiness.sim_compare import brier, calibration_rows, coverage, reliability


def test_coverage_counts_results_inside_their_interval_ends_included() -> None:
    results = [0.5, 0.8, 0.9, 0.3, 0.65]
    intervals = [(0.4, 0.6), (0.6, 0.8), (0.5, 0.85), (0.35, 0.9), (0.65, 0.65)]
    # inside: 0.5, 0.8 (upper end), 0.65 (a point interval); outside: 0.9, 0.3
    assert coverage(results, intervals) == pytest.approx(3 / 5)


def test_brier_and_reliability_on_a_known_case() -> None:
    chances = [0.9, 0.9, 0.1, 0.5]
    passed = [True, False, False, True]
    assert brier(chances, passed) == pytest.approx((0.01 + 0.81 + 0.01 + 0.25) / 4)
    table = reliability(chances, passed, bins=5)
    assert [(b.low, b.forecasts, b.share_passed) for b in table] == [
        (0.0, 1, 0.0),
        (0.4, 1, 1.0),
        (0.8, 2, 0.5),
    ]
    assert table[2].mean_predicted == pytest.approx(0.9)


def test_calibration_rows_group_forecasts_by_day() -> None:
    def outcome(sampled: float, *made: DayForecast) -> Outcome:
        return Outcome(0.7, sampled, sampled >= 0.7, 10, 0, made)

    outcomes = [
        outcome(0.8, DayForecast(0, 0.6, 0.2, 0.9, 0.5), DayForecast(7, 0.7, 0.6, 0.75, 0.6)),
        outcome(0.5, DayForecast(0, 0.6, 0.2, 0.9, 0.5), DayForecast(7, 0.7, 0.6, 0.75, 0.6)),
    ]
    rows, table = calibration_rows(outcomes)
    assert [r.day for r in rows] == [0, 7]
    assert [r.coverage for r in rows] == [1.0, 0.0]
    assert rows[1].brier == pytest.approx((0.4**2 + 0.6**2) / 2)
    assert sum(b.forecasts for b in table) == 4


def test_the_calibration_alone_gives_the_rows_the_full_comparison_gives() -> None:
    """Same students, same seeds: running only the shipped policy changes nothing."""
    from quizapp.srs.memory.simulate import SimulationConfig
    from quizapp.srs.readiness.sim_compare import calibrate_forecast, compare

    config = SimulationConfig(
        students=2, days=6, reviews_per_day=4, forecast_days=(0, 3, 5), forgetting_spread=1.5
    )
    alone = calibrate_forecast(config)
    assert [row.day for row in alone.calibration] == [0, 3, 5]
    assert alone.calibration == compare(config).calibration
