"""Simulated students, to test the plan and the forecast against a known truth.

Each simulated student has a true memory that follows FSRS-6 with parameters of their own,
drawn around py-fsrs's defaults (each multiplied by exp(N(0, spread²)), kept inside py-fsrs's
bounds): the scheduler and the forecast never see them and use the defaults, as the app does.
The student also knows some questions before studying: per topic, an unseen question is
known with a chance drawn from Beta(2, 4) (a third, on average).

Every day at 09:00 the student answers the cards a strategy picks, up to the day's workload:
- a question seen before is recalled with its true FSRS retrievability; an unseen one is
  known with the topic's chance;
- a question not recalled is still answered right by a lucky guess with its guessing floor;
- the true memory moves with what really happened (recalled: Good, else Again); the app sees
  only right (Good) or wrong (Again), and its memory states move with those, under the
  default parameters.

On the exam morning, day `days`, the truth is the expected score of the exam
`quizapp exam` would sample (each question's true chance, weighted by its share), and the
forecast is what quizapp/srs/forecast.py predicts from the app's side of the history.

Strategies:
- `FsrsStrategy(0.9)`, `FsrsStrategy(0.95)`: plain py-fsrs (no fuzz) at that desired
  retention, the drill queue's rules: due cards, most overdue first, then new cards across
  decks in turn, up to `new_per_day`, all within the day's workload;
- `PlanStrategy()`: quizapp/srs/plan.py's plan, with the day's workload as its budget.

`compare` runs each student under every strategy with the same true parameters, the plan at
exactly the daily number of reviews plain FSRS at 0.9 gave that student, so they are compared
at equal work. Pure and seeded: the same configuration gives the same figures.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Protocol

from quizapp.srs.exam_model import DeckPool, ExamBlueprint, blueprint_of, summarize
from quizapp.srs.exam_model import correct_distribution as exam_distribution
from quizapp.srs.forecast import FirstAttempts, Student, chances_at, expected_score, with_guess
from quizapp.srs.memory import DAY_MS, Memory, MemoryModel, default_parameters
from quizapp.srs.plan import plan_day, project_plan
from quizapp.srs.scheduling import Card, Rating, Scheduler
from quizapp.srs.store import to_ms
from quizapp.srs.uncertainty import Evidence

START = datetime(2027, 1, 1, 9, 0, tzinfo=UTC)

# The bundled bank's shape: three decks of about 40 exam questions, weighted 0.35/0.30/0.35,
# with its mix of types (guessing floors: 4-option single choice, true/false, 5-option
# multiple choice, numeric, 4-step ordering).
DECK_WEIGHTS = {"attention": 0.35, "normalization": 0.30, "positions": 0.35}
TYPE_MIX = ((13, 1 / 4), (10, 1 / 2), (7, 1 / 31), (6, 0.0), (4, 1 / 24))


def simulated_bank(questions_per_type: Sequence[tuple[int, float]] = TYPE_MIX) -> list[DeckPool]:
    pools = []
    for deck, weight in DECK_WEIGHTS.items():
        entries = []
        for kind, (count, guess) in enumerate(questions_per_type):
            entries.extend((f"{deck}-{kind}-{i}", guess, deck) for i in range(count))
        pools.append(DeckPool(deck, deck, weight, entries))
    return pools


@dataclass(frozen=True)
class SimulationConfig:
    students: int = 200
    days: int = 30
    reviews_per_day: int = 12
    new_per_day: int = 20
    parameter_spread: float = 0.2
    exam_questions: int = 20
    threshold: float = 0.7
    seed: int = 2027
    midway_students: int = 50  # for the first N students, also forecast from day days/2
    pools: tuple[DeckPool, ...] = field(default_factory=lambda: tuple(simulated_bank()))


@dataclass(frozen=True)
class SimStudent:
    index: int
    seed: int
    true_model: MemoryModel
    knowledge: dict[str, float]  # topic -> chance an unseen question is already known


def draw_student(index: int, seed: int, topics: Sequence[str], spread: float) -> SimStudent:
    from fsrs.scheduler import LOWER_BOUNDS_PARAMETERS, UPPER_BOUNDS_PARAMETERS

    rng = random.Random(seed)
    params = []
    for w, low, high in zip(
        default_parameters(), LOWER_BOUNDS_PARAMETERS, UPPER_BOUNDS_PARAMETERS, strict=True
    ):
        params.append(min(high, max(low, w * math.exp(rng.gauss(0, spread)))))
    knowledge = {t: rng.betavariate(2, 4) for t in sorted(topics)}
    return SimStudent(index, seed, MemoryModel(params), knowledge)


@dataclass
class History:
    """One student's run under one strategy: both sides of the memory, and the answers."""

    true_memory: dict[str, Memory] = field(default_factory=dict)
    seen_memory: dict[str, Memory] = field(default_factory=dict)  # the app's (default model)
    first_attempts: list[tuple[str, bool, float]] = field(default_factory=list)
    answers: list[tuple[str, bool]] = field(default_factory=list)  # (question, had a memory)
    reviews_per_day: list[int] = field(default_factory=list)

    def student_view(self) -> Student:
        return Student(dict(self.seen_memory), FirstAttempts.tally(self.first_attempts))


class Strategy(Protocol):
    name: str

    def choose(
        self, day: int, now_ms: int, capacity: int, history: History, sim: Simulation
    ) -> list[str]: ...

    def answered(self, question_id: str, correct: bool, now_ms: int) -> None: ...


class FsrsStrategy:
    """Plain FSRS at one desired retention, as the drill queue would ask."""

    def __init__(self, desired_retention: float) -> None:
        self.name = f"FSRS {desired_retention:g}"
        self.scheduler = Scheduler(desired_retention=desired_retention, enable_fuzzing=False)
        self.cards: dict[str, Card] = {}

    def choose(
        self, day: int, now_ms: int, capacity: int, history: History, sim: Simulation
    ) -> list[str]:
        due = sorted((to_ms(c.due), qid) for qid, c in self.cards.items() if to_ms(c.due) <= now_ms)
        chosen = [qid for _, qid in due][:capacity]
        lanes = [[q for q in d.question_ids if q not in self.cards] for d in sim.blueprint.draws]
        depth = 0
        new: list[str] = []
        room = min(sim.config.new_per_day, capacity - len(chosen))
        while len(new) < room and any(depth < len(lane) for lane in lanes):
            for lane in lanes:
                if depth < len(lane) and len(new) < room:
                    new.append(lane[depth])
            depth += 1
        return chosen + new

    def answered(self, question_id: str, correct: bool, now_ms: int) -> None:
        when = START + timedelta(milliseconds=now_ms - to_ms(START))
        card = self.cards.get(question_id) or Card(card_id=len(self.cards) + 1, due=when)
        rating = Rating.Good if correct else Rating.Again
        self.cards[question_id], _ = self.scheduler.review_card(card, rating, when)


class PlanStrategy:
    """quizapp's plan to the exam, with the day's workload as its budget."""

    name = "plan"

    def choose(
        self, day: int, now_ms: int, capacity: int, history: History, sim: Simulation
    ) -> list[str]:
        plan = plan_day(
            sim.blueprint,
            history.student_view(),
            sim.model,
            now_ms,
            sim.exam_ms,
            budget_minutes=capacity,
            minutes_per_card=1.0,
            max_new=sim.config.new_per_day,
        )
        return [c.question_id for c in plan]

    def answered(self, question_id: str, correct: bool, now_ms: int) -> None:
        pass


@dataclass(frozen=True)
class Outcome:
    """One student under one strategy on the exam morning."""

    truth: float  # the true expected exam score
    forecast: float  # predicted on the exam morning from the app's history
    low: float  # the forecast's 80 % interval
    high: float
    sampled: float  # the score of one exam drawn from the truth
    reviews: int
    unseen: int  # exam questions never asked before the exam
    seen_truth: float | None  # mean true chance on the questions that were asked
    midway_forecast: float | None = None  # predicted at day days/2, the plan followed


class Simulation:
    def __init__(self, config: SimulationConfig = SimulationConfig()) -> None:
        self.config = config
        self.blueprint: ExamBlueprint = blueprint_of(config.pools, config.exam_questions)
        self.items = self.blueprint.item_map()
        self.model = MemoryModel()  # the app's: py-fsrs defaults
        self.start_ms = to_ms(START)
        self.exam_ms = self.start_ms + config.days * DAY_MS

    def student(self, index: int) -> SimStudent:
        return draw_student(
            index,
            self.config.seed * 100_003 + index,
            self.blueprint.topics,
            self.config.parameter_spread,
        )

    def run(
        self, student: SimStudent, strategy: Strategy, capacities: Sequence[int] | None = None
    ) -> tuple[Outcome, History]:
        """Study `config.days` days under `strategy`, then sit the exam."""
        config = self.config
        rng = random.Random(student.seed * 7 + 1)
        history = History()
        midway = None
        for day in range(config.days):
            now_ms = self.start_ms + day * DAY_MS
            if (
                student.index < config.midway_students
                and isinstance(strategy, PlanStrategy)
                and day == config.days // 2
            ):
                midway = self.midway_forecast(history, now_ms, capacities, day)
            capacity = capacities[day] if capacities is not None else config.reviews_per_day
            chosen = strategy.choose(day, now_ms, capacity, history, self)[:capacity]
            for qid in chosen:
                correct = self.answer(student, history, qid, now_ms, rng)
                strategy.answered(qid, correct, now_ms)
            history.reviews_per_day.append(len(chosen))
        return self.outcome(student, history, rng, midway), history

    def answer(
        self, student: SimStudent, history: History, qid: str, now_ms: int, rng: random.Random
    ) -> bool:
        item = self.items[qid]
        true_memory = history.true_memory.get(qid)
        if true_memory is None:
            recall = student.knowledge[item.topic]
        else:
            recall = student.true_model.retrievability(true_memory, now_ms)
        recalled = rng.random() < recall
        correct = recalled or rng.random() < item.guess
        if qid not in history.seen_memory:
            history.first_attempts.append((item.topic, correct, item.guess))
        history.answers.append((qid, qid in history.seen_memory))
        history.true_memory[qid] = student.true_model.review(
            true_memory, Rating.Good if recalled else Rating.Again, now_ms
        )
        history.seen_memory[qid] = self.model.review(
            history.seen_memory.get(qid), Rating.Good if correct else Rating.Again, now_ms
        )
        return correct

    def true_chances(self, student: SimStudent, history: History) -> dict[str, float]:
        chances = {}
        for item in self.blueprint.items:
            memory = history.true_memory.get(item.question_id)
            if memory is None:
                recall = student.knowledge[item.topic]
            else:
                recall = student.true_model.retrievability(memory, self.exam_ms)
            chances[item.question_id] = with_guess(recall, item.guess)
        return chances

    def outcome(
        self,
        student: SimStudent,
        history: History,
        rng: random.Random,
        midway: float | None,
    ) -> Outcome:
        truth_chances = self.true_chances(student, history)
        seen = [c for q, c in truth_chances.items() if q in history.seen_memory]
        predicted = chances_at(self.blueprint, history.student_view(), self.model, self.exam_ms)
        summary = summarize(exam_distribution(self.blueprint, predicted), self.config.threshold)
        return Outcome(
            truth=expected_score(self.blueprint, truth_chances),
            forecast=summary.mean,
            low=summary.low,
            high=summary.high,
            sampled=self.sample_exam(truth_chances, rng),
            reviews=sum(history.reviews_per_day),
            unseen=sum(1 for i in self.blueprint.items if i.question_id not in history.seen_memory),
            seen_truth=statistics.fmean(seen) if seen else None,
            midway_forecast=midway,
        )

    def sample_exam(self, chances: dict[str, float], rng: random.Random) -> float:
        right = 0
        for draw in self.blueprint.draws:
            for qid in rng.sample(draw.question_ids, draw.count):
                right += rng.random() < chances[qid]
        return right / self.blueprint.questions

    def midway_forecast(
        self, history: History, now_ms: int, capacities: Sequence[int] | None, day: int
    ) -> float:
        per_day = statistics.fmean(capacities[day:]) if capacities else self.config.reviews_per_day
        projection = project_plan(
            self.blueprint,
            history.student_view(),
            self.model,
            now_ms,
            self.exam_ms,
            minutes_today=capacities[day] if capacities else per_day,
            minutes_per_day=per_day,
            minutes_per_card=1.0,
            max_new=self.config.new_per_day,
            runs=2,
            evidence=Evidence.tally(history.answers),
        )
        return projection.with_plan[-1]


# -- comparing strategies -----------------------------------------------------------------------


@dataclass(frozen=True)
class StrategyFigures:
    name: str
    mean_truth: float
    ci95: float  # half-width of the 95 % confidence interval of the mean
    mean_reviews: float
    forecast_bias: float  # mean (forecast - truth)
    forecast_mae: float  # mean |forecast - truth|
    interval_coverage: float  # share of sampled exam scores inside the 80 % interval
    mean_unseen: float  # exam questions never asked, on average
    seen_truth: float | None  # mean true chance on the questions that were asked
    midway_mae: float | None = None


@dataclass(frozen=True)
class Comparison:
    config: SimulationConfig
    figures: tuple[StrategyFigures, ...]
    plan_minus_fsrs90: float
    plan_minus_fsrs90_ci95: float

    def figure(self, name: str) -> StrategyFigures:
        return next(f for f in self.figures if f.name == name)


def _mean_ci(values: Sequence[float]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.nan
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def _figures(name: str, outcomes: Sequence[Outcome]) -> StrategyFigures:
    mean, ci = _mean_ci([o.truth for o in outcomes])
    midway = [abs(o.midway_forecast - o.truth) for o in outcomes if o.midway_forecast is not None]
    seen = [o.seen_truth for o in outcomes if o.seen_truth is not None]
    return StrategyFigures(
        name=name,
        mean_truth=mean,
        ci95=ci,
        mean_reviews=statistics.fmean(o.reviews for o in outcomes),
        forecast_bias=statistics.fmean(o.forecast - o.truth for o in outcomes),
        forecast_mae=statistics.fmean(abs(o.forecast - o.truth) for o in outcomes),
        interval_coverage=statistics.fmean(o.low <= o.sampled <= o.high for o in outcomes),
        mean_unseen=statistics.fmean(o.unseen for o in outcomes),
        seen_truth=statistics.fmean(seen) if seen else None,
        midway_mae=statistics.fmean(midway) if midway else None,
    )


def compare(
    config: SimulationConfig = SimulationConfig(),
    progress: Callable[[int], None] | None = None,
) -> Comparison:
    """Plan vs plain FSRS 0.9 and 0.95 over `config.students` simulated students."""
    sim = Simulation(config)
    outcomes: dict[str, list[Outcome]] = {"FSRS 0.9": [], "FSRS 0.95": [], "plan": []}
    for index in range(config.students):
        student = sim.student(index)
        fsrs90, history90 = sim.run(student, FsrsStrategy(0.9))
        fsrs95, _ = sim.run(student, FsrsStrategy(0.95))
        # The plan gets exactly the reviews FSRS 0.9 gave this student, day by day.
        plan, _ = sim.run(student, PlanStrategy(), capacities=history90.reviews_per_day)
        outcomes["FSRS 0.9"].append(fsrs90)
        outcomes["FSRS 0.95"].append(fsrs95)
        outcomes["plan"].append(plan)
        if progress is not None:
            progress(index + 1)
    gain, gain_ci = _mean_ci(
        [p.truth - f.truth for p, f in zip(outcomes["plan"], outcomes["FSRS 0.9"], strict=True)]
    )
    return Comparison(
        config=config,
        figures=tuple(_figures(name, runs) for name, runs in outcomes.items()),
        plan_minus_fsrs90=gain,
        plan_minus_fsrs90_ci95=gain_ci,
    )


__all__ = [
    "START",
    "Comparison",
    "FsrsStrategy",
    "History",
    "Outcome",
    "PlanStrategy",
    "SimStudent",
    "Simulation",
    "SimulationConfig",
    "StrategyFigures",
    "compare",
    "draw_student",
    "simulated_bank",
]
