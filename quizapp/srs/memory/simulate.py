"""Simulated students, to test the plan, its baselines and the forecast against a known truth.

Each simulated student has a true memory the scheduler and the forecast never see, with
parameters of their own drawn around py-fsrs's DEFAULT_PARAMETERS (each multiplied by
exp(N(0, spread²)), kept inside py-fsrs's bounds). Two simulators decide what such a student
recalls (`SimulationConfig.simulator`):
- "quizapp": quizapp's own FSRS-6 memory model (quizapp/srs/memory/model.py) with those parameters;
- "py-fsrs": py-fsrs's `Scheduler` with those parameters, its `review_card` moving each card
  and its `get_card_retrievability` as the truth (quizapp/srs/memory/simulate_fsrs.py): code the
  app's model did not write.
The student also knows some questions before studying: per topic, an unseen question is
known with a chance drawn from Beta(2, 4) (a third, on average).

Every day at 09:00 the student answers the cards a policy picks (quizapp/srs/readiness/policies.py),
up to the day's workload:
- a question seen before is recalled with its true retrievability; an unseen one is known
  with the topic's chance;
- a question not recalled is still answered right by a lucky guess with its guessing floor;
- the true memory moves with what really happened (recalled: Good, else Again); the app sees
  only right (Good) or wrong (Again), and its memory states move with those, under the
  default parameters.

On the exam morning, day `days`, the truth is the expected score of the exam `quizapp exam`
would sample (each question's true chance, weighted by its share), and one such exam is
sampled: the student's exam-day score, pass or fail. `forecast_days`: the app's headline
forecast (the plan followed, quizapp/srs/readiness/projection.py's `plan_forecast`, as `quizapp forecast`
makes it) on those mornings, before that day's study. Pure and seeded.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Protocol

from quizapp.srs.memory.model import DAY_MS, Memory, MemoryModel, default_parameters
from quizapp.srs.memory.scheduling import Rating
from quizapp.srs.memory.simulate_fsrs import PyFsrsTruth
from quizapp.srs.readiness.exam_model import DeckPool, ExamBlueprint, blueprint_of
from quizapp.srs.readiness.forecast import (
    FirstAttempts,
    ScoreForecast,
    Student,
    expected_score,
    with_guess,
)
from quizapp.srs.readiness.projection import plan_forecast
from quizapp.srs.readiness.uncertainty import Check, Evidence
from quizapp.srs.times import to_ms

START = datetime(2027, 1, 1, 9, 0, tzinfo=UTC)  # every study session and the exam at 09:00

# The bundled bank's shape: three decks of about 40 exam questions, weighted 0.35/0.30/0.35,
# with its mix of types (guessing floors: 4-option single choice, true/false, 5-option
# multiple choice, numeric, 4-step ordering).
DECK_WEIGHTS = {"attention": 0.35, "normalization": 0.30, "positions": 0.35}
TYPE_MIX = ((13, 1 / 4), (10, 1 / 2), (7, 1 / 31), (6, 0.0), (4, 1 / 24))
SIMULATORS = ("quizapp", "py-fsrs")


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
    simulator: str = "quizapp"  # or "py-fsrs": what decides what a student recalls
    forecast_days: tuple[int, ...] = ()  # mornings the plan's students get the app's forecast
    # Each day's session starts this many hours after 09:00, drawn uniformly per student and
    # day (0: every session at 09:00, the exam's time of day).
    session_spread_hours: float = 0.0
    # sd of log c, a student's own multiplier on forgetting (true recall R^c), on top of the
    # parameters: 0 for none; the forecast's prior (uncertainty.FORGETTING_SPREAD) to test it
    # on a population as varied as it assumes.
    forgetting_spread: float = 0.0
    pools: tuple[DeckPool, ...] = field(default_factory=lambda: tuple(simulated_bank()))


@dataclass(frozen=True)
class SimStudent:
    index: int
    seed: int
    parameters: tuple[float, ...]  # the true FSRS-6 parameters
    knowledge: dict[str, float]  # topic -> chance an unseen question is already known
    forgetting: float = 1.0  # c: true recall is R^c (2: twice as fast as the parameters say)

    @property
    def true_model(self) -> MemoryModel:
        return MemoryModel(self.parameters)


def draw_student(
    index: int, seed: int, topics: Sequence[str], spread: float, forgetting_spread: float = 0.0
) -> SimStudent:
    from fsrs.scheduler import LOWER_BOUNDS_PARAMETERS, UPPER_BOUNDS_PARAMETERS

    rng = random.Random(seed)
    params = []
    for w, low, high in zip(
        default_parameters(), LOWER_BOUNDS_PARAMETERS, UPPER_BOUNDS_PARAMETERS, strict=True
    ):
        params.append(min(high, max(low, w * math.exp(rng.gauss(0, spread)))))
    knowledge = {t: rng.betavariate(2, 4) for t in sorted(topics)}
    forgetting = math.exp(rng.gauss(0, forgetting_spread)) if forgetting_spread > 0 else 1.0
    return SimStudent(index, seed, tuple(params), knowledge, forgetting)


class Truth(Protocol):
    """What a student really remembers: the simulator's side, never shown to the app."""

    def recall(self, question_id: str, at_ms: int) -> float | None:
        """The chance of recall at `at_ms`; None for a question never reviewed."""
        ...

    def review(self, question_id: str, recalled: bool, at_ms: int) -> None: ...


class QuizappTruth:
    """The student's memory as quizapp's own FSRS-6 model moves it, with their parameters."""

    def __init__(self, student: SimStudent) -> None:
        self.model = student.true_model
        self.forgetting = student.forgetting
        self.memories: dict[str, Memory] = {}

    def recall(self, question_id: str, at_ms: int) -> float | None:
        memory = self.memories.get(question_id)
        if memory is None:
            return None
        return self.model.retrievability(memory, at_ms) ** self.forgetting

    def review(self, question_id: str, recalled: bool, at_ms: int) -> None:
        rating = Rating.Good if recalled else Rating.Again
        self.memories[question_id] = self.model.review(
            self.memories.get(question_id), rating, at_ms
        )


@dataclass
class History:
    """One student's run under one policy: the app's side of the memory, and the answers."""

    truth: Truth
    seen_memory: dict[str, Memory] = field(default_factory=dict)  # the app's (default model)
    first_attempts: list[tuple[str, bool, float]] = field(default_factory=list)
    # (question, what it checked of forgetting: None for a card with no memory before)
    answers: list[tuple[str, Check | None]] = field(default_factory=list)
    reviews_per_day: list[int] = field(default_factory=list)

    def student_view(self) -> Student:
        return Student(dict(self.seen_memory), FirstAttempts.tally(self.first_attempts))


class Policy(Protocol):
    """What to review today: the policies of quizapp/srs/readiness/policies.py."""

    name: str

    def choose(
        self, day: int, now_ms: int, capacity: int, history: History, sim: Simulation
    ) -> list[str]: ...

    def answered(self, question_id: str, correct: bool, now_ms: int) -> None: ...


@dataclass(frozen=True)
class DayForecast:
    """The app's headline forecast on one morning, and what it rested on."""

    day: int
    mean: float
    low: float  # the 80 % interval
    high: float
    pass_chance: float


@dataclass(frozen=True)
class Outcome:
    """One student under one policy on the exam morning."""

    truth: float  # the true expected exam score
    sampled: float  # the score of one exam drawn from the truth: the student's result
    passed: bool  # the sampled exam passed (right / asked >= threshold)
    reviews: int
    unseen: int  # exam questions never asked before the exam
    forecasts: tuple[DayForecast, ...] = ()


class Simulation:
    def __init__(self, config: SimulationConfig = SimulationConfig()) -> None:
        if config.simulator not in SIMULATORS:
            raise ValueError(f"unknown simulator {config.simulator!r}: one of {SIMULATORS}")
        self.config = config
        self.blueprint: ExamBlueprint = blueprint_of(config.pools, config.exam_questions)
        self.items = self.blueprint.item_map()
        self.model = MemoryModel()  # the app's: py-fsrs defaults
        self.start_ms = to_ms(START)
        self.exam_ms = self.start_ms + config.days * DAY_MS
        self._no_evidence: dict[tuple[int, int], DayForecast] = {}

    def student(self, index: int) -> SimStudent:
        return draw_student(
            index,
            self.config.seed * 100_003 + index,
            self.blueprint.topics,
            self.config.parameter_spread,
            self.config.forgetting_spread,
        )

    def truth_of(self, student: SimStudent) -> Truth:
        if self.config.simulator == "py-fsrs":
            return PyFsrsTruth(student.parameters, self.start_ms, student.forgetting)
        return QuizappTruth(student)

    def run(
        self,
        student: SimStudent,
        policy: Policy,
        capacities: Sequence[int] | None = None,
        *,
        forecast: bool = False,
    ) -> tuple[Outcome, History]:
        """Study `config.days` days under `policy`, then sit the exam. `forecast`: also make
        the app's forecast on the mornings of `config.forecast_days`."""
        config = self.config
        rng = random.Random(student.seed * 7 + 1)
        history = History(self.truth_of(student))
        forecasts = []
        sessions = self.session_times(student)
        for day in range(config.days):
            now_ms = sessions[day]
            capacity = capacities[day] if capacities is not None else config.reviews_per_day
            if forecast and day in config.forecast_days:
                forecasts.append(self.forecast(history, day, now_ms, capacity))
            chosen = policy.choose(day, now_ms, capacity, history, self)[:capacity]
            for qid in chosen:
                correct = self.answer(student, history, qid, now_ms, rng)
                policy.answered(qid, correct, now_ms)
            history.reviews_per_day.append(len(chosen))
        return self.outcome(student, history, rng, tuple(forecasts)), history

    def session_times(self, student: SimStudent) -> list[int]:
        """When each day's study starts: the same for a student under every policy."""
        rng = random.Random(student.seed * 11 + 3)
        spread_ms = self.config.session_spread_hours * 3_600_000
        return [
            self.start_ms + day * DAY_MS + int(rng.random() * spread_ms)
            for day in range(self.config.days)
        ]

    def answer(
        self, student: SimStudent, history: History, qid: str, now_ms: int, rng: random.Random
    ) -> bool:
        item = self.items[qid]
        recall = history.truth.recall(qid, now_ms)
        if recall is None:
            recall = student.knowledge[item.topic]
        recalled = rng.random() < recall
        correct = recalled or rng.random() < item.guess
        if qid not in history.seen_memory:
            history.first_attempts.append((item.topic, correct, item.guess))
        before = history.seen_memory.get(qid)
        history.answers.append((qid, Check.of(self.model, before, now_ms, item.guess, correct)))
        history.truth.review(qid, recalled, now_ms)
        history.seen_memory[qid] = self.model.review(
            history.seen_memory.get(qid), Rating.Good if correct else Rating.Again, now_ms
        )
        return correct

    def true_chances(self, student: SimStudent, history: History) -> dict[str, float]:
        chances = {}
        for item in self.blueprint.items:
            recall = history.truth.recall(item.question_id, self.exam_ms)
            if recall is None:
                recall = student.knowledge[item.topic]
            chances[item.question_id] = with_guess(recall, item.guess)
        return chances

    def outcome(
        self,
        student: SimStudent,
        history: History,
        rng: random.Random,
        forecasts: tuple[DayForecast, ...],
    ) -> Outcome:
        truth_chances = self.true_chances(student, history)
        sampled = self.sample_exam(truth_chances, rng)
        return Outcome(
            truth=expected_score(self.blueprint, truth_chances),
            sampled=sampled,
            passed=sampled >= self.config.threshold - 1e-9,
            reviews=sum(history.reviews_per_day),
            unseen=sum(1 for i in self.blueprint.items if i.question_id not in history.seen_memory),
            forecasts=forecasts,
        )

    def sample_exam(self, chances: dict[str, float], rng: random.Random) -> float:
        right = 0
        for draw in self.blueprint.draws:
            for qid in rng.sample(draw.question_ids, draw.count):
                right += rng.random() < chances[qid]
        return right / self.blueprint.questions

    def forecast(self, history: History, day: int, now_ms: int, per_day: int) -> DayForecast:
        """The headline `quizapp forecast` would show this morning: the plan followed to the
        exam at `per_day` cards a day (one minute each), from the app's side only."""
        key = (now_ms, per_day)
        if not history.answers and key in self._no_evidence:  # the same for every student
            return replace(self._no_evidence[key], day=day)
        headline: ScoreForecast = plan_forecast(
            self.blueprint,
            history.student_view(),
            self.model,
            now_ms,
            self.exam_ms,
            threshold=self.config.threshold,
            evidence=Evidence.tally(history.answers),
            minutes_today=per_day,
            minutes_per_day=per_day,
            minutes_per_card=1.0,
            max_new=self.config.new_per_day,
        )[1]
        overall = headline.overall
        made = DayForecast(day, overall.mean, overall.low, overall.high, overall.pass_chance)
        if not history.answers:
            self._no_evidence[key] = made
        return made


def mean_ci(values: Sequence[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95 % confidence interval (normal approximation)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.nan
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


__all__ = [
    "SIMULATORS",
    "START",
    "DayForecast",
    "History",
    "Outcome",
    "Policy",
    "QuizappTruth",
    "SimStudent",
    "Simulation",
    "SimulationConfig",
    "Truth",
    "draw_student",
    "mean_ci",
    "simulated_bank",
]
