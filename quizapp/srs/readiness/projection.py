"""What following the daily plan to the exam leads to: simulated futures, and the headline
forecast they make (`plan_forecast`, what `quizapp forecast` and the Readiness screen show).

Which daily policy the app follows is decided here (`SHIPPED_POLICY`), from the figures of
bench/bench_exam.py recorded in docs/forecast.md: the valuation plan (quizapp/srs/readiness/plan.py's
`plan_day`) had to beat greedy ordering (quizapp/srs/readiness/greedy.py) by at least 2 points at every
daily budget on both simulators; it did not, so the drill and the forecast follow greedy.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

import numpy as np

from quizapp.srs.memory.model import DAY_MS, MemoryModel
from quizapp.srs.memory.scheduling import Rating
from quizapp.srs.readiness import interrupt
from quizapp.srs.readiness.exam_model import ExamBlueprint
from quizapp.srs.readiness.forecast import ScoreForecast, Student
from quizapp.srs.readiness.greedy import greedy_day
from quizapp.srs.readiness.plan import PlanChoice, plan_day
from quizapp.srs.readiness.uncertainty import (
    DRAWS,
    SEED,
    Belief,
    Evidence,
    chance_matrix,
    draw_belief,
    mean_by_moment,
    score_forecast_of,
)

PROJECTION_RUNS = 8  # simulated futures (students drawn from the uncertainty) in `project_plan`
PROJECTION_SEED = 20270115

DayPolicy = Callable[..., list[PlanChoice]]  # plan_day's signature
POLICIES: dict[str, DayPolicy] = {"plan": plan_day, "greedy": greedy_day}
SHIPPED_POLICY = "greedy"


def todays_plan(
    blueprint: ExamBlueprint,
    student: Student,
    model: MemoryModel,
    now_ms: int,
    exam_ms: int,
    **options: Any,
) -> list[PlanChoice]:
    """Today's cards by the policy the app ships (arguments as `plan_day`'s)."""
    return POLICIES[SHIPPED_POLICY](blueprint, student, model, now_ms, exam_ms, **options)


@dataclass(frozen=True)
class Projection:
    """Expected exam score by day from now to the exam, with the plan and with no study, and
    the plan's simulated futures at the exam."""

    moments_ms: tuple[int, ...]  # now, then one a day, then the exam
    with_plan: tuple[float, ...]
    no_study: tuple[float, ...]
    exam_chances: dict[str, float]  # each question's chance at the exam with the plan followed
    cards_today: int
    exam_draws: np.ndarray  # (futures, questions): each future's chances at the exam


def project_plan(
    blueprint: ExamBlueprint,
    student: Student,
    model: MemoryModel,
    now_ms: int,
    exam_ms: int,
    *,
    minutes_today: float,
    minutes_per_day: float,
    minutes_per_card: float,
    available: Collection[str] | None = None,
    max_new: int | None = None,
    max_new_today: int | None = None,
    runs: int = PROJECTION_RUNS,
    seed: int = PROJECTION_SEED,
    evidence: Evidence | None = None,
    no_study_belief: Belief | None = None,
    policy: DayPolicy | None = None,
) -> Projection:
    """Follow the plan day by day in `runs` simulated futures. Each future is a student drawn
    from what the forecast does not know (quizapp/srs/readiness/uncertainty.py, stratified so that a
    few futures span it): their ability on unseen questions and how fast they forget. Each
    planned answer is right with that student's chance, never certainly; the plan itself
    sees only the answers, as it would. Day d's point is the expected score of an exam taken
    at that moment, before that day's study, averaged over the futures. `evidence`: what the
    history holds (None: one answer behind each memory state, none checked);
    `no_study_belief`: the draws behind the no-study curve (None: drawn here)."""
    policy = policy or todays_plan
    sessions = [now_ms + d * DAY_MS for d in range(max(0, -(-(exam_ms - now_ms) // DAY_MS)))]
    moments = (*sessions, exam_ms)
    evidence = evidence if evidence is not None else Evidence.assumed(student.memories)
    rng = np.random.default_rng(seed)
    if no_study_belief is None:
        no_study_belief = draw_belief(blueprint, student.first_attempts, evidence, DRAWS, rng)
    no_study = mean_by_moment(blueprint, student.memories, model, moments, no_study_belief)
    runs = max(1, runs)
    futures = draw_belief(blueprint, student.first_attempts, evidence, runs, rng, stratified=True)
    weights = np.array([item.weight for item in blueprint.items])
    position = {item.question_id: j for j, item in enumerate(blueprint.items)}
    totals = np.zeros(len(moments))
    exam_draws = np.empty((runs, len(blueprint.items)))
    cards_today = 0
    for run in range(runs):
        memories = dict(student.memories)
        future = Student(memories, student.first_attempts)
        for d, at in enumerate(moments):
            interrupt.check()  # a cancelled worker ends here (quizapp/srs/readiness/interrupt.py)
            chances = chance_matrix(blueprint, memories, model, at, futures, run)
            totals[d] += float(chances @ weights)
            if at == exam_ms:
                exam_draws[run] = chances
                break
            plan = policy(
                blueprint,
                future,
                model,
                at,
                exam_ms,
                budget_minutes=minutes_today if d == 0 else minutes_per_day,
                minutes_per_card=minutes_per_card,
                available=available if d == 0 else None,
                max_new=max_new_today if d == 0 and max_new_today is not None else max_new,
            )
            if d == 0:
                cards_today = len(plan)
            for choice in plan:
                right = rng.random() < chances[position[choice.question_id]]
                rating = Rating.Good if right else Rating.Again
                memories[choice.question_id] = model.review(
                    memories.get(choice.question_id), rating, at
                )
    mean_exam = exam_draws.mean(axis=0)
    return Projection(
        moments_ms=moments,
        with_plan=tuple(float(t) / runs for t in totals),
        no_study=no_study,
        exam_chances={
            item.question_id: float(mean_exam[j]) for j, item in enumerate(blueprint.items)
        },
        cards_today=cards_today,
        exam_draws=exam_draws,
    )


def plan_forecast(
    blueprint: ExamBlueprint,
    student: Student,
    model: MemoryModel,
    now_ms: int,
    exam_ms: int,
    *,
    threshold: float,
    evidence: Evidence,
    no_study_belief: Belief | None = None,
    runs: int = PROJECTION_RUNS,
    **plan_options: Any,
) -> tuple[Projection, ScoreForecast]:
    """The headline forecast with the plan followed: the projection (`project_plan`, with
    `plan_options`) and the score distribution its futures make at the exam. What
    `quizapp forecast` shows and what bench/bench_exam.py checks against simulated students."""
    if no_study_belief is None:
        no_study_belief = draw_belief(
            blueprint, student.first_attempts, evidence, DRAWS, np.random.default_rng(SEED)
        )
    projection = project_plan(
        blueprint,
        student,
        model,
        now_ms,
        exam_ms,
        runs=runs,
        evidence=evidence,
        no_study_belief=no_study_belief,
        **plan_options,
    )
    forecast = score_forecast_of(
        blueprint, projection.exam_draws, threshold, np.random.default_rng(SEED)
    )
    return projection, forecast


__all__ = [
    "POLICIES",
    "PROJECTION_RUNS",
    "SHIPPED_POLICY",
    "DayPolicy",
    "Projection",
    "plan_forecast",
    "project_plan",
    "todays_plan",
]
