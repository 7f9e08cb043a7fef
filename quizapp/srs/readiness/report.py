"""Exam readiness from the review history: the forecast, how well it did on the past, and
today's plan. What `quizapp forecast`, the Readiness screen, the home screen's exam line and
the drill (with an exam date) use.

The exam is taken at 09:00 local time on the exam date. Without an exam date (or once it has
passed) the forecast is for an exam taken now, and there is no plan: drills are plain FSRS.

The daily budget is `study_minutes_per_day` (20), less the cards already answered today at
the time a card takes. That time is the median gap between consecutive answers less than
`SESSION_GAP_MINUTES` apart (a card in a session: reading, answering and the feedback), from
at least `MIN_TIMINGS` gaps; else the median answering time recorded, from at least as many;
else 1 minute. Never under 10 s or over 5 minutes.
Reads only: nothing here writes to the history. No textual, no torch.
"""

from __future__ import annotations

import statistics
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from typing import TYPE_CHECKING

import numpy

from quizapp.bank.model import Deck, Question
from quizapp.exam.sampling import DEFAULT_QUESTIONS
from quizapp.srs.clock import MORNING
from quizapp.srs.config import Settings
from quizapp.srs.memory.model import Memory, MemoryModel
from quizapp.srs.memory.scheduling import require_aware
from quizapp.srs.readiness.calibration import (
    Calibration,
    PastReview,
    calibrate,
    interval_coverage,
    review_predictions,
)
from quizapp.srs.readiness.evidence import answers_of, replay
from quizapp.srs.readiness.exam_model import ExamBlueprint, exam_blueprint, guess_floor
from quizapp.srs.readiness.forecast import FirstAttempts, ScoreForecast, Student
from quizapp.srs.readiness.plan import PlanChoice
from quizapp.srs.readiness.projection import PROJECTION_RUNS, Projection, plan_forecast, todays_plan
from quizapp.srs.readiness.uncertainty import (
    DRAWS,
    SEED,
    Basis,
    Check,
    Evidence,
    draw_belief,
    uncertain_forecast,
)
from quizapp.srs.store.fits import FitRecord, active_fit
from quizapp.srs.store.history import HistoryStore
from quizapp.srs.study.queue import DrillQueue, start_of_day, tomorrow
from quizapp.srs.times import to_ms

if TYPE_CHECKING:
    from quizapp.bank.model import Bank
    from quizapp.srs.store.pending import PendingView

DEFAULT_MINUTES_PER_CARD = 1.0
MIN_TIMINGS = 10
SESSION_GAP_MINUTES = 5.0
SHORTEST_CARD_MINUTES = 10 / 60
LONGEST_CARD_MINUTES = 5.0


NO_BASIS = Basis(0, 0, 0)


def exam_moment(day: date) -> datetime:
    """09:00 local time on the exam date."""
    return datetime.combine(day, MORNING).astimezone()


def plan_applies(exam_date: date | None, now: datetime) -> bool:
    """An exam date still ahead: drills follow the plan. Otherwise plain FSRS."""
    return exam_date is not None and require_aware(now) < exam_moment(exam_date)


# -- what the history says ------------------------------------------------------------------------


@dataclass(frozen=True)
class HistoryFacts:
    """What the forecast and the plan take from the history. The memory states, past
    predictions and first attempts come from the evidence answers only (quizapp/srs/readiness/evidence.py);
    the time a card takes and today's counts, from every answer (practice takes time too)."""

    memories: dict[str, Memory]  # question id -> memory state, by FSRS over its evidence
    past_reviews: tuple[PastReview, ...]  # evidence answers, with the memory before each
    first_attempts: FirstAttempts
    minutes_per_card: float
    minutes_today: float  # cards answered since local midnight, at minutes_per_card
    new_today: int  # cards first answered since local midnight
    reviews: int  # every answer in the history
    evidence_answers: int = 0  # of which evidence of exam-day recall
    # The answers the forecast rests on, with what each checked of the student's forgetting.
    evidence: Evidence = field(default_factory=lambda: Evidence({}, 0))


def checked_evidence(
    past_reviews: Sequence[PastReview], model: MemoryModel, guesses: Mapping[str, float]
) -> Evidence:
    """The evidence answers as the forecast counts them: an answer on a card with a memory
    state a day old or more checks it, at the recall chance `model` gave at that moment."""
    return Evidence.tally(
        (
            r.question_id,
            Check.of(
                model, r.memory_before, r.reviewed_ms, guesses.get(r.question_id, 0.0), r.correct
            ),
        )
        for r in past_reviews
    )


def minutes_per_card(gaps_ms: Sequence[int], durations_ms: Sequence[int]) -> float:
    """The time a card takes (see the module docstring)."""
    in_session = [g for g in gaps_ms if 0 < g <= SESSION_GAP_MINUTES * 60_000]
    timed = [d for d in durations_ms if d and d > 0]
    if len(in_session) >= MIN_TIMINGS:
        minutes = statistics.median(in_session) / 60_000
    elif len(timed) >= MIN_TIMINGS:
        minutes = statistics.median(timed) / 60_000
    else:
        return DEFAULT_MINUTES_PER_CARD
    return min(LONGEST_CARD_MINUTES, max(SHORTEST_CARD_MINUTES, minutes))


def read_history(
    store: HistoryStore,
    questions: Mapping[str, Question],
    now: datetime,
    model: MemoryModel | None = None,
) -> HistoryFacts:
    """One pass over the reviews (read only). `model`: the memory model the evidence is
    replayed with (None: py-fsrs's default parameters)."""
    today_ms = to_ms(start_of_day(now))
    durations: list[int] = []
    gaps: list[int] = []
    previous_ms: int | None = None
    today = 0
    new_today = 0
    rows = store.answer_rows()
    for _qid, _topic, reviewed_ms, _correct, duration_ms, card_before, *_ in rows:
        if card_before is None:
            new_today += reviewed_ms >= today_ms
        if duration_ms:
            durations.append(duration_ms)
        if previous_ms is not None:
            gaps.append(reviewed_ms - previous_ms)
        previous_ms = reviewed_ms
        today += reviewed_ms >= today_ms
    answers = answers_of(rows)
    model = model or MemoryModel()
    evidence = replay(answers, model)
    topics = {a.question_id: a.topic for a in answers}
    firsts = []
    for qid, correct in evidence.first_attempts:
        question = questions.get(qid)
        guess = guess_floor(question) if question is not None else 0.0
        firsts.append((question.topic if question is not None else topics[qid], correct, guess))
    per_card = minutes_per_card(gaps, durations)
    guesses = {qid: guess_floor(q) for qid, q in questions.items()}
    return HistoryFacts(
        memories=evidence.memories,
        past_reviews=evidence.past_reviews,
        first_attempts=FirstAttempts.tally(firsts),
        minutes_per_card=per_card,
        minutes_today=today * per_card,
        new_today=new_today,
        reviews=len(rows),
        evidence_answers=evidence.answers,
        evidence=checked_evidence(evidence.past_reviews, model, guesses),
    )


# -- the report --------------------------------------------------------------------------------


@dataclass(frozen=True)
class TodayPlan:
    choices: tuple[PlanChoice, ...]

    @property
    def question_ids(self) -> list[str]:
        return [c.question_id for c in self.choices]

    @property
    def minutes(self) -> float:
        return sum(c.minutes for c in self.choices)


@dataclass(frozen=True)
class Readiness:
    generated_at: datetime
    exam_date: date | None
    exam_at: datetime  # the moment forecast: the exam, or now without one ahead
    threshold: float
    blueprint: ExamBlueprint
    as_is: ScoreForecast  # with no further study
    calibration: Calibration
    minutes_per_card: float
    budget_minutes: float  # the daily budget
    minutes_today: float  # studied today already
    reviews: int
    seen: int  # exam questions with a memory state
    with_plan: ScoreForecast | None = None  # the plan followed to the exam
    projection: Projection | None = None
    today: TodayPlan | None = None
    topic_titles: dict[str, str] = field(default_factory=dict)
    fit: FitRecord | None = None  # the fitted FSRS parameters predicted with; None: defaults
    evidence_answers: int = 0  # answers that count as evidence (the rest are practice)
    basis: Basis = NO_BASIS  # what the forecast rests on

    @property
    def enough_evidence(self) -> bool:
        """Figures are shown (the distribution is always worked out, and in the JSON)."""
        return self.basis.enough

    @property
    def parameters_note(self) -> str:
        """Which FSRS parameters the memory model used, in words."""
        if self.fit is None:
            return "py-fsrs's default FSRS parameters"
        return (
            f"FSRS parameters fitted to your history on {self.fit.fitted_at.astimezone():%Y-%m-%d}"
        )

    @property
    def planning(self) -> bool:
        return self.with_plan is not None

    @property
    def days_left(self) -> int | None:
        if self.exam_date is None:
            return None
        return (self.exam_date - start_of_day(self.generated_at).date()).days

    @property
    def plan_shown(self) -> ScoreForecast | None:
        """The plan's forecast where there is evidence of how fast you forget to rest it on
        (`Basis.plan_enough`); else None, and no figure of it is shown."""
        return self.with_plan if self.basis.plan_enough else None

    @property
    def shown(self) -> ScoreForecast:
        """The forecast whose figures lead: the plan's where shown, else no further study."""
        return self.plan_shown or self.as_is

    def home_line(self) -> str:
        """ "Exam in N days · predicted P% (80%: a–b, from Q of T questions) · today: K cards,
        about M min", or "not enough evidence yet: ..." in place of the prediction."""
        if self.exam_date is None:
            return ""
        score = self.shown.overall
        days = self.days_left or 0
        if not self.planning:
            return f"Exam date {self.exam_date:%d %b %Y} has passed · plain FSRS drills"
        when = "today" if days == 0 else "tomorrow" if days == 1 else f"in {days} days"
        cards = len(self.today.choices) if self.today else 0
        minutes = round(self.today.minutes) if self.today else 0
        basis = self.basis
        prediction = basis.not_enough
        if self.enough_evidence:
            prediction = (
                f"predicted {percent(score.mean)} "
                f"(80%: {percent(score.low, sign=False)}–{percent(score.high)}, "
                f"from {basis.answered} of {basis.questions} questions)"
            )
        if self.enough_evidence and self.plan_shown is None:  # the figure is no further study
            prediction = f"no further study: {prediction} · plan: {basis.plan_not_enough}"
        return (
            f"Exam {when} · {prediction} · "
            f"today: {cards} card{'s' if cards != 1 else ''}, about {minutes} min"
        )


def percent(value: float, *, sign: bool = True) -> str:
    return f"{100 * value:.0f}{'%' if sign else ''}"


def assess(
    store: HistoryStore,
    decks: Sequence[Deck],
    settings: Settings,
    now: datetime,
    *,
    exam_date: date | None = None,
    exam_questions: int = DEFAULT_QUESTIONS,
    available: Collection[str] | None = None,
    runs: int = PROJECTION_RUNS,
    use_fitted: bool = True,
) -> Readiness:
    """The readiness report as of `now` (`exam_date` None: the settings' date). Memory is
    modelled with the fitted FSRS parameters drills use (`quizapp optimize`), if any and
    `use_fitted`; otherwise py-fsrs's defaults."""
    now = require_aware(now)
    exam_date = exam_date if exam_date is not None else settings.exam_date
    questions = {q.id: q for d in decks for q in d.questions}
    blueprint = exam_blueprint(decks, exam_questions)
    fit = active_fit(store) if use_fitted else None
    model = MemoryModel(fit.parameters if fit is not None else None)
    facts = read_history(store, questions, now, model)
    student = Student(facts.memories, facts.first_attempts)
    planning = plan_applies(exam_date, now)
    exam_at = exam_moment(exam_date) if planning and exam_date is not None else now
    exam_ms = to_ms(exam_at)
    guesses = {item.question_id: item.guess for item in blueprint.items}
    calibration = replace(
        calibrate(review_predictions(facts.past_reviews, model, guesses)),
        intervals=interval_coverage(facts.past_reviews, model, guesses),
    )
    evidence = facts.evidence
    belief = draw_belief(
        blueprint, facts.first_attempts, evidence, DRAWS, numpy.random.default_rng(SEED)
    )
    threshold = settings.exam_pass_threshold
    as_is = uncertain_forecast(blueprint, facts.memories, model, exam_ms, belief, threshold)
    report = Readiness(
        generated_at=now,
        exam_date=exam_date,
        exam_at=exam_at,
        threshold=settings.exam_pass_threshold,
        blueprint=blueprint,
        as_is=as_is,
        calibration=calibration,
        minutes_per_card=facts.minutes_per_card,
        budget_minutes=settings.study_minutes_per_day,
        minutes_today=facts.minutes_today,
        reviews=facts.reviews,
        evidence_answers=facts.evidence_answers,
        seen=sum(1 for item in blueprint.items if item.question_id in facts.memories),
        topic_titles={d.topic: d.title for d in decks},
        fit=fit,
        basis=Basis.of(evidence, blueprint),
    )
    if not planning:
        return report
    today = _plan_today(blueprint, student, model, facts, settings, now, exam_ms, available)
    projection, with_plan = plan_forecast(
        blueprint,
        student,
        model,
        to_ms(now),
        exam_ms,
        threshold=threshold,
        evidence=evidence,
        no_study_belief=belief,
        runs=runs,
        minutes_today=_budget_today(settings, facts),
        minutes_per_day=settings.study_minutes_per_day,
        minutes_per_card=facts.minutes_per_card,
        available=available,
        max_new=settings.new_cards_per_day,
        max_new_today=_new_today(settings, facts),
    )
    return replace(
        report,
        with_plan=with_plan,
        projection=projection,
        today=TodayPlan(tuple(today)),
    )


def _budget_today(settings: Settings, facts: HistoryFacts) -> float:
    return max(0.0, settings.study_minutes_per_day - facts.minutes_today)


def _new_today(settings: Settings, facts: HistoryFacts) -> int:
    return max(0, settings.new_cards_per_day - facts.new_today)


def _plan_today(
    blueprint: ExamBlueprint,
    student: Student,
    model: MemoryModel,
    facts: HistoryFacts,
    settings: Settings,
    now: datetime,
    exam_ms: int,
    available: Collection[str] | None,
) -> list[PlanChoice]:
    return todays_plan(
        blueprint,
        student,
        model,
        to_ms(now),
        exam_ms,
        budget_minutes=_budget_today(settings, facts),
        minutes_per_card=facts.minutes_per_card,
        available=available,
        max_new=_new_today(settings, facts),
    )


# -- the drill ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlannedQueue(DrillQueue):
    """Today's drill as the plan orders it (reviews and new questions mixed, best first)."""

    order: tuple[Question, ...] = ()

    @property
    def questions(self) -> list[Question]:
        return list(self.order)


def plan_drill_queue(
    view: HistoryStore | PendingView,
    questions: Mapping[str, Question],
    decks: Sequence[Deck],
    settings: Settings,
    now: datetime,
    parameters: Sequence[float] | None = None,
) -> PlannedQueue | None:
    """Today's drill by the plan, or None when there is no exam date ahead (plain FSRS then).

    `questions`: those the drill may ask (e.g. one deck's); suspended and buried cards, and
    cards with an answer still waiting to be saved, stay out. `parameters`: the FSRS
    parameters drills schedule with (None: py-fsrs's defaults)."""
    if not plan_applies(settings.exam_date, now):
        return None
    assert settings.exam_date is not None
    store: HistoryStore = getattr(view, "store", view)  # a PendingView's store
    waiting = getattr(view, "answered", set())
    hidden = view.hidden_ids(now)
    available = {q for q in questions if q not in hidden and q not in waiting}
    model = MemoryModel(parameters)
    facts = read_history(store, {q.id: q for d in decks for q in d.questions}, now, model)
    blueprint = exam_blueprint(decks)
    student = Student(facts.memories, facts.first_attempts)
    exam_ms = to_ms(exam_moment(settings.exam_date))
    choices = _plan_today(blueprint, student, model, facts, settings, now, exam_ms, available)
    order = tuple(questions[c.question_id] for c in choices)
    return PlannedQueue(
        due=[questions[c.question_id] for c in choices if not c.new],
        new=[questions[c.question_id] for c in choices if c.new],
        # Nothing left today: the plan has more tomorrow.
        next_due=None if order else tomorrow(now),
        order=order,
    )


__all__ = [
    "DEFAULT_MINUTES_PER_CARD",
    "MIN_TIMINGS",
    "HistoryFacts",
    "PlannedQueue",
    "Readiness",
    "TodayPlan",
    "assess",
    "checked_evidence",
    "exam_moment",
    "minutes_per_card",
    "plan_applies",
    "plan_drill_queue",
    "read_history",
]


def store_available(store: HistoryStore, bank: Bank) -> set[str]:
    """Exam questions a drill may ask now: not suspended, not buried."""
    from quizapp.srs.memory.scheduling import utc_now

    hidden = store.hidden_ids(utc_now())
    return {qid for qid in bank.questions if qid not in hidden}
