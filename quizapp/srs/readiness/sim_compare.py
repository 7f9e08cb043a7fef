"""The plan against its baselines, and the forecast against the truth, over simulated students
(quizapp/srs/memory/simulate.py; bench/bench_exam.py prints the figures).

`compare` runs every student under every policy with the same true memory: plain FSRS at 0.9
first, at the day's workload; then the plan, greedy and random order with exactly the number
of reviews FSRS 0.9 gave that student, day by day (equal work); FSRS 0.95 at the day's
workload. For each policy: the mean true exam-day score (the expected score of the exam
`quizapp exam` would sample, from the student's true chances) with its 95 % confidence
interval; plan minus greedy and plan minus FSRS 0.9 paired over students.

Calibration: the students of the policy the app ships (quizapp/srs/readiness/projection.py's
`SHIPPED_POLICY`) also get the app's headline forecast (`plan_forecast`, which assumes that
policy is followed) on the mornings of `config.forecast_days`. Each is checked against the student's exam-day
result, one exam sampled from the truth: the share of results inside the 80 % interval
(coverage; 0.8 is right), the Brier score of the pass chance against pass or fail, and a
reliability table of predicted against actual pass rates.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from quizapp.srs.memory.simulate import DayForecast, Outcome, Simulation, SimulationConfig, mean_ci
from quizapp.srs.readiness.policies import (
    FsrsStrategy,
    GreedyStrategy,
    PlanStrategy,
    RandomStrategy,
)
from quizapp.srs.readiness.projection import SHIPPED_POLICY

POLICIES = ("plan", "greedy", "FSRS 0.9", "FSRS 0.95", "random")
RELIABILITY_BINS = 5


@dataclass(frozen=True)
class PolicyFigures:
    name: str
    mean_truth: float
    ci95: float  # half-width of the 95 % confidence interval of the mean
    mean_reviews: float
    mean_unseen: float  # exam questions never asked, on average


@dataclass(frozen=True)
class CalibrationRow:
    """The forecasts made on one simulated morning, against the exam-day results."""

    day: int
    students: int
    coverage: float  # share of exam-day scores inside the forecast's 80 % interval
    mean_width: float  # of the 80 % interval
    mean_forecast: float
    mean_result: float  # mean exam-day score (sampled exams)
    brier: float  # of the pass chance against pass or fail
    pass_rate: float


@dataclass(frozen=True)
class ReliabilityBin:
    low: float
    high: float
    forecasts: int
    mean_predicted: float
    share_passed: float


@dataclass(frozen=True)
class Comparison:
    config: SimulationConfig
    figures: tuple[PolicyFigures, ...]
    plan_minus_greedy: tuple[float, float]  # paired mean, 95 % CI half-width
    plan_minus_fsrs90: tuple[float, float]
    calibration: tuple[CalibrationRow, ...] = ()
    reliability: tuple[ReliabilityBin, ...] = ()

    def figure(self, name: str) -> PolicyFigures:
        return next(f for f in self.figures if f.name == name)


def coverage(results: Sequence[float], intervals: Sequence[tuple[float, float]]) -> float:
    """The share of results inside their interval (ends included)."""
    inside = [
        low - 1e-9 <= r <= high + 1e-9 for r, (low, high) in zip(results, intervals, strict=True)
    ]
    return statistics.fmean(inside)


def brier(chances: Sequence[float], outcomes: Sequence[bool]) -> float:
    return statistics.fmean((c - o) ** 2 for c, o in zip(chances, outcomes, strict=True))


def reliability(
    chances: Sequence[float], outcomes: Sequence[bool], bins: int = RELIABILITY_BINS
) -> tuple[ReliabilityBin, ...]:
    """Predicted pass chances in `bins` equal-width bins, each with its actual pass rate."""
    grouped: list[list[tuple[float, bool]]] = [[] for _ in range(bins)]
    for chance, passed in zip(chances, outcomes, strict=True):
        grouped[min(bins - 1, int(chance * bins))].append((chance, passed))
    return tuple(
        ReliabilityBin(
            i / bins,
            (i + 1) / bins,
            len(group),
            statistics.fmean(c for c, _ in group),
            statistics.fmean(p for _, p in group),
        )
        for i, group in enumerate(grouped)
        if group
    )


def calibration_rows(
    outcomes: Sequence[Outcome],
) -> tuple[tuple[CalibrationRow, ...], tuple[ReliabilityBin, ...]]:
    by_day: dict[int, list[tuple[DayForecast, Outcome]]] = {}
    for outcome in outcomes:
        for made in outcome.forecasts:
            by_day.setdefault(made.day, []).append((made, outcome))
    rows = []
    for day, pairs in sorted(by_day.items()):
        rows.append(
            CalibrationRow(
                day=day,
                students=len(pairs),
                coverage=coverage(
                    [o.sampled for _, o in pairs], [(f.low, f.high) for f, _ in pairs]
                ),
                mean_width=statistics.fmean(f.high - f.low for f, _ in pairs),
                mean_forecast=statistics.fmean(f.mean for f, _ in pairs),
                mean_result=statistics.fmean(o.sampled for _, o in pairs),
                brier=brier([f.pass_chance for f, _ in pairs], [o.passed for _, o in pairs]),
                pass_rate=statistics.fmean(o.passed for _, o in pairs),
            )
        )
    pooled = [(f.pass_chance, o.passed) for pairs in by_day.values() for f, o in pairs]
    table = reliability([c for c, _ in pooled], [p for _, p in pooled]) if pooled else ()
    return tuple(rows), table


def compare(
    config: SimulationConfig,
    progress: Callable[[int], None] | None = None,
) -> Comparison:
    """Every policy over `config.students` simulated students, at equal work."""
    sim = Simulation(config)
    outcomes: dict[str, list[Outcome]] = {name: [] for name in POLICIES}
    for index in range(config.students):
        student = sim.student(index)
        fsrs90, history90 = sim.run(student, FsrsStrategy(0.9))
        work = history90.reviews_per_day  # the plan and the others get exactly this
        outcomes["FSRS 0.9"].append(fsrs90)
        outcomes["FSRS 0.95"].append(sim.run(student, FsrsStrategy(0.95))[0])
        # The forecast assumes the shipped policy is followed: its students are the check.
        plan = sim.run(student, PlanStrategy(), work, forecast=SHIPPED_POLICY == "plan")
        greedy = sim.run(student, GreedyStrategy(), work, forecast=SHIPPED_POLICY == "greedy")
        outcomes["plan"].append(plan[0])
        outcomes["greedy"].append(greedy[0])
        outcomes["random"].append(sim.run(student, RandomStrategy(student.seed), work)[0])
        if progress is not None:
            progress(index + 1)
    rows, table = calibration_rows(outcomes[SHIPPED_POLICY])
    return Comparison(
        config=config,
        figures=tuple(_figures(name, outcomes[name]) for name in POLICIES),
        plan_minus_greedy=_paired(outcomes["plan"], outcomes["greedy"]),
        plan_minus_fsrs90=_paired(outcomes["plan"], outcomes["FSRS 0.9"]),
        calibration=rows,
        reliability=table,
    )


@dataclass(frozen=True)
class ForecastCalibration:
    """The forecast's calibration alone, on a population of its own (`calibrate_forecast`)."""

    config: SimulationConfig
    calibration: tuple[CalibrationRow, ...]
    reliability: tuple[ReliabilityBin, ...]


def calibrate_forecast(
    config: SimulationConfig, progress: Callable[[int], None] | None = None
) -> ForecastCalibration:
    """Only what the calibration needs: each student under FSRS 0.9 for the day's work, then
    the shipped policy at that work with the app's forecast on `config.forecast_days`, as
    `compare` does (same students, same seeds), without the other baselines."""
    sim = Simulation(config)
    shipped = []
    for index in range(config.students):
        student = sim.student(index)
        work = sim.run(student, FsrsStrategy(0.9))[1].reviews_per_day
        policy = PlanStrategy() if SHIPPED_POLICY == "plan" else GreedyStrategy()
        shipped.append(sim.run(student, policy, work, forecast=True)[0])
        if progress is not None:
            progress(index + 1)
    rows, table = calibration_rows(shipped)
    return ForecastCalibration(config, rows, table)


def _paired(first: Sequence[Outcome], second: Sequence[Outcome]) -> tuple[float, float]:
    return mean_ci([a.truth - b.truth for a, b in zip(first, second, strict=True)])


def _figures(name: str, outcomes: Sequence[Outcome]) -> PolicyFigures:
    mean, ci = mean_ci([o.truth for o in outcomes])
    return PolicyFigures(
        name=name,
        mean_truth=mean,
        ci95=ci,
        mean_reviews=statistics.fmean(o.reviews for o in outcomes),
        mean_unseen=statistics.fmean(o.unseen for o in outcomes),
    )


__all__ = [
    "POLICIES",
    "CalibrationRow",
    "Comparison",
    "ForecastCalibration",
    "PolicyFigures",
    "ReliabilityBin",
    "brier",
    "calibrate_forecast",
    "calibration_rows",
    "compare",
    "coverage",
    "reliability",
]
