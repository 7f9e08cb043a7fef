"""A small simulation: fast, seeded, and the plan beats plain FSRS when the workload is tight."""

from __future__ import annotations

import time

import pytest

from quizapp.srs.exam_model import DeckPool
from quizapp.srs.simulate import (
    FsrsStrategy,
    PlanStrategy,
    Simulation,
    SimulationConfig,
    compare,
    simulated_bank,
)

SMALL = SimulationConfig(
    students=8,
    days=12,
    reviews_per_day=5,
    midway_students=2,
    pools=tuple(simulated_bank(((6, 0.25), (4, 0.5), (2, 0.0)))),  # 3 decks of 12
)


def test_the_plan_beats_plain_fsrs_at_equal_work_and_the_forecast_is_close() -> None:
    start = time.perf_counter()
    result = compare(SMALL)
    assert time.perf_counter() - start < 15
    plan, fsrs90 = result.figure("plan"), result.figure("FSRS 0.9")
    assert plan.mean_reviews == fsrs90.mean_reviews  # equal work, by construction
    assert result.plan_minus_fsrs90 > 0.03
    assert result.plan_minus_fsrs90 - result.plan_minus_fsrs90_ci95 > 0
    for figures in result.figures:
        assert abs(figures.forecast_bias) < 0.06 and figures.forecast_mae < 0.08
        assert 0.0 < figures.mean_truth < 1.0
    assert plan.midway_mae is not None and plan.midway_mae < 0.1
    assert fsrs90.mean_unseen > plan.mean_unseen  # FSRS leaves questions unseen


def test_the_same_configuration_gives_the_same_figures() -> None:
    config = SimulationConfig(
        students=2, days=5, reviews_per_day=4, midway_students=0, pools=SMALL.pools
    )
    assert compare(config) == compare(config)


def test_students_differ_from_the_defaults_and_from_each_other() -> None:
    sim = Simulation(SMALL)
    first, second = sim.student(0), sim.student(1)
    assert first.true_model.w != sim.model.w and first.true_model.w != second.true_model.w
    assert set(first.knowledge) == {"attention", "normalization", "positions"}


def test_no_strategy_asks_more_than_the_days_workload() -> None:
    sim = Simulation(SMALL)
    student = sim.student(3)
    for strategy in (FsrsStrategy(0.9), FsrsStrategy(0.95), PlanStrategy()):
        _, history = sim.run(student, strategy)
        assert all(n <= SMALL.reviews_per_day for n in history.reviews_per_day)
        assert sum(history.reviews_per_day) > 0


def test_the_simulated_bank_is_shaped_like_the_bundled_one() -> None:
    pools = simulated_bank()
    assert len(pools) == 3 and sum(len(p.questions) for p in pools) == 120
    assert sorted(p.weight for p in pools) == pytest.approx([0.3, 0.35, 0.35])
    assert all(isinstance(p, DeckPool) for p in pools)
