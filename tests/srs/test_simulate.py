"""A small simulation: fast, seeded, every policy at equal work, both simulators."""

from __future__ import annotations

import time

import pytest

from quizapp.srs.memory.simulate import SIMULATORS, Simulation, SimulationConfig, simulated_bank
from quizapp.srs.readiness.exam_model import DeckPool
from quizapp.srs.readiness.policies import (
    FsrsStrategy,
    GreedyStrategy,
    PlanStrategy,
    RandomStrategy,
)
from quizapp.srs.readiness.sim_compare import POLICIES, compare

SMALL = SimulationConfig(
    students=6,
    days=12,
    reviews_per_day=5,
    pools=tuple(simulated_bank(((6, 0.25), (4, 0.5), (2, 0.0)))),  # 3 decks of 12
)


def test_the_plan_and_greedy_beat_plain_fsrs_at_equal_work() -> None:
    start = time.perf_counter()
    result = compare(SMALL)
    assert time.perf_counter() - start < 15
    assert [f.name for f in result.figures] == list(POLICIES)
    plan, greedy, fsrs90 = (result.figure(n) for n in ("plan", "greedy", "FSRS 0.9"))
    assert plan.mean_reviews == greedy.mean_reviews == fsrs90.mean_reviews  # equal work
    gain, ci = result.plan_minus_fsrs90
    assert gain > 0.03 and gain - ci > 0
    assert greedy.mean_truth > fsrs90.mean_truth
    assert fsrs90.mean_unseen > plan.mean_unseen  # FSRS leaves questions unseen
    assert all(0.0 < f.mean_truth < 1.0 for f in result.figures)
    assert result.calibration == ()  # no forecast days asked for


def test_the_same_configuration_gives_the_same_figures() -> None:
    config = SimulationConfig(students=2, days=5, reviews_per_day=4, pools=SMALL.pools)
    assert compare(config) == compare(config)


def test_students_differ_from_the_defaults_and_from_each_other() -> None:
    sim = Simulation(SMALL)
    first, second = sim.student(0), sim.student(1)
    assert first.true_model.w != sim.model.w and first.true_model.w != second.true_model.w
    assert set(first.knowledge) == {"attention", "normalization", "positions"}


@pytest.mark.parametrize("simulator", SIMULATORS)
def test_no_policy_asks_more_than_the_days_workload(simulator: str) -> None:
    config = SimulationConfig(
        students=1, days=12, reviews_per_day=5, simulator=simulator, pools=SMALL.pools
    )
    sim = Simulation(config)
    student = sim.student(3)
    policies = (
        FsrsStrategy(0.9),
        FsrsStrategy(0.95),
        PlanStrategy(),
        GreedyStrategy(),
        RandomStrategy(1),
    )
    for policy in policies:
        _, history = sim.run(student, policy)
        assert all(n <= config.reviews_per_day for n in history.reviews_per_day)
        assert sum(history.reviews_per_day) > 0


def test_sessions_spread_over_the_day_are_the_same_under_every_policy() -> None:
    sim = Simulation(SimulationConfig(session_spread_hours=12, pools=SMALL.pools))
    student = sim.student(0)
    times = sim.session_times(student)
    assert times == sim.session_times(student)
    offsets = [(t - sim.start_ms) % (24 * 3_600_000) for t in times]
    assert all(0 <= o < 12 * 3_600_000 for o in offsets) and len(set(offsets)) > 1


def test_the_simulated_bank_is_shaped_like_the_bundled_one() -> None:
    pools = simulated_bank()
    assert len(pools) == 3 and sum(len(p.questions) for p in pools) == 120
    assert sorted(p.weight for p in pools) == pytest.approx([0.3, 0.35, 0.35])
    assert all(isinstance(p, DeckPool) for p in pools)
