"""Study statistics from the review history: what `quizapp stats` prints and the stats screen shows.

Pure: reads the store and the bank, writes nothing, imports neither torch nor textual.

Days are the student's local calendar days (as `start_of_day` has them): a review belongs to
the local date it was given on, and a card due at 01:00 tonight is due tomorrow. Every
timestamp in and out is timezone-aware.

Definitions (docs/stats.md repeats them for the JSON):
- true retention: the share of answers given while the card was in the Review state
  (`state_before == 2`) that were correct. Learning and relearning steps, and first sight of
  a card, are left out: they measure short-term memory, not what the schedule kept. So are
  practice answers (a quiz that does not reschedule): the schedule did not ask for them.
- accuracy (per topic): correct answers over all answers, every kind of review, all time.
- mastered: a bank question whose card is in the Review state with an FSRS stability of at
  least `MASTERY_STABILITY_DAYS` (21) days: memory that holds about three weeks at 90 %
  recall, the same bar as Anki's "mature" cards. Mastery is mastered over the topic's
  questions in the bank.
- due forecast: bank cards due on each of the next days; overdue cards count on day 0
  (today). Suspended cards are left out; a buried card counts from when its burial ends.
- due now: the cards of day 0 due at `now`, overdue included. The rest of day 0 comes due
  later today: "18 now, 22 by the end of today" (`due_summary`).
- streak: consecutive local days with at least one review, ending today, or ending
  yesterday when nothing has been reviewed yet today.
- fitted parameters: the FSRS fit drills schedule with (`quizapp optimize`), or None for
  py-fsrs's defaults.
- traps: the wrong choices, wrong truth values and numeric traps picked (quizapp/srs/study/traps.py),
  each with the bank's why, how many times and when last; most often first.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

from quizapp.bank.model import Question
from quizapp.srs.memory.scheduling import State, require_aware
from quizapp.srs.store.fits import FitRecord, active_fit
from quizapp.srs.store.history import PRACTICE, HistoryStore, PostgresLocation
from quizapp.srs.study.queue import start_of_day
from quizapp.srs.study.traps import TrapCount, your_traps
from quizapp.srs.times import from_ms

MASTERY_STABILITY_DAYS = 21.0
DEFAULT_DAYS = 30
DEFAULT_FORECAST_DAYS = 30


@dataclass(frozen=True)
class DayCount:
    """Reviews given on one local day, and how many of them were correct."""

    day: date
    reviews: int
    correct: int


@dataclass(frozen=True)
class DueDay:
    """Cards coming due on one local day (day 0 also holds every overdue card)."""

    day: date
    due: int


@dataclass(frozen=True)
class TopicStats:
    topic: str
    answered: int  # answers given, all time
    correct: int
    questions: int  # questions on this topic in the bank now
    mastered: int

    @property
    def accuracy(self) -> float | None:
        return self.correct / self.answered if self.answered else None

    @property
    def mastery(self) -> float | None:
        return self.mastered / self.questions if self.questions else None


@dataclass(frozen=True)
class ExamResult:
    id: int
    taken: datetime
    questions: int
    correct: int
    passed: bool
    threshold: float
    seconds: float
    detail: Mapping[str, Any] = field(default_factory=dict)

    @property
    def score(self) -> float | None:
        return self.correct / self.questions if self.questions else None


@dataclass(frozen=True)
class Totals:
    reviews: int  # answers recorded, all time (questions since removed from the bank included)
    correct: int
    reviews_in_window: int  # answers in the last `days` local days
    correct_in_window: int
    review_state_answers: int  # answers given to a card in the Review state: retention's base
    review_state_correct: int
    study_days: int  # local days with at least one review, all time
    study_seconds: float  # answering time recorded, all time
    questions: int  # questions in the bank
    seen: int  # bank questions answered at least once in any mode: drill, quiz, practice, exam
    new: int  # bank questions never scheduled (no card): what a drill may still start
    mastered: int
    suspended: int  # bank questions suspended
    due_now: int  # bank cards due at `generated_at` (overdue included; suspended left out)
    exams: int
    exams_passed: int
    practice: int = 0  # answers recorded as practice (in `reviews` too), all time
    scheduled: int = 0  # bank questions with a card: answered in a drill or a rescheduling quiz

    @property
    def accuracy(self) -> float | None:
        return self.correct / self.reviews if self.reviews else None


@dataclass(frozen=True)
class Stats:
    generated_at: datetime
    today: date
    days: int
    forecast_days: int
    db_path: Path | PostgresLocation | None  # where the history is; None: in memory
    config_path: Path | None
    totals: Totals
    reviews_per_day: tuple[DayCount, ...]  # oldest first, ending today, zero days included
    topics: tuple[TopicStats, ...]  # sorted by topic
    due_forecast: tuple[DueDay, ...]  # today first
    streak_days: int
    exams: tuple[ExamResult, ...]  # oldest first
    fitted: FitRecord | None = None  # the FSRS parameters drills use; None: py-fsrs's defaults
    traps: tuple[TrapCount, ...] = ()  # the wrong answers picked, most often first (traps.py)

    @property
    def due_today(self) -> int:
        """Cards due by the end of today: due now (overdue included) and later today."""
        return self.due_forecast[0].due if self.due_forecast else self.totals.due_now

    def answers_summary(self) -> str:
        """ "15 all time: 5 scheduled reviews, 10 practice; 12 in the last 30 days": practice (a
        quiz that leaves the schedule alone) apart from the answers that schedule cards."""
        totals = self.totals
        return (
            f"{totals.reviews:,} all time: {totals.reviews - totals.practice:,} scheduled "
            f"reviews, {totals.practice:,} practice; {totals.reviews_in_window:,} in the last "
            f"{self.days} days"
        )

    def due_summary(self) -> str:
        """ "18 now, 22 by the end of today": the two figures, each saying what it counts."""
        return f"{self.totals.due_now:,} now, {self.due_today:,} by the end of today"

    @property
    def true_retention(self) -> float | None:
        totals = self.totals
        if not totals.review_state_answers:
            return None
        return totals.review_state_correct / totals.review_state_answers

    def as_json(self) -> dict[str, Any]:
        """Plain JSON types only; the keys are documented in docs/stats.md and kept stable."""
        totals = self.totals
        return {
            "generated_at": self.generated_at.isoformat(),
            "today": self.today.isoformat(),
            "window_days": self.days,
            "forecast_days": self.forecast_days,
            "db_path": str(self.db_path) if self.db_path is not None else None,
            "config_path": str(self.config_path) if self.config_path is not None else None,
            "totals": {
                "reviews": totals.reviews,
                "correct": totals.correct,
                "accuracy": totals.accuracy,
                "reviews_in_window": totals.reviews_in_window,
                "correct_in_window": totals.correct_in_window,
                "review_state_answers": totals.review_state_answers,
                "review_state_correct": totals.review_state_correct,
                "study_days": totals.study_days,
                "study_seconds": totals.study_seconds,
                "questions": totals.questions,
                "seen": totals.seen,
                "scheduled": totals.scheduled,
                "new": totals.new,
                "mastered": totals.mastered,
                "suspended": totals.suspended,
                "due_now": totals.due_now,
                "due_today": self.due_today,
                "practice_reviews": totals.practice,
                "exams": totals.exams,
                "exams_passed": totals.exams_passed,
            },
            "reviews_per_day": [
                {"date": d.day.isoformat(), "reviews": d.reviews, "correct": d.correct}
                for d in self.reviews_per_day
            ],
            "true_retention": self.true_retention,
            "topics": [
                {
                    "topic": t.topic,
                    "answered": t.answered,
                    "correct": t.correct,
                    "accuracy": t.accuracy,
                    "questions": t.questions,
                    "mastered": t.mastered,
                    "mastery": t.mastery,
                }
                for t in self.topics
            ],
            "due_forecast": [{"date": d.day.isoformat(), "due": d.due} for d in self.due_forecast],
            "streak_days": self.streak_days,
            "mastery_stability_days": MASTERY_STABILITY_DAYS,
            "exams": [
                {
                    "id": e.id,
                    "taken": e.taken.isoformat(),
                    "questions": e.questions,
                    "correct": e.correct,
                    "score": e.score,
                    "passed": e.passed,
                    "threshold": e.threshold,
                    "seconds": e.seconds,
                    "detail": dict(e.detail),
                }
                for e in self.exams
            ],
            "fitted_parameters": self.fitted.as_json() if self.fitted is not None else None,
            "traps": [t.as_json() for t in self.traps],
        }


def local_date(moment: datetime) -> date:
    """The student's calendar date at `moment` (the same clock `start_of_day` reads)."""
    return require_aware(moment).astimezone().date()


def streak(study_days: set[date], today: date) -> int:
    """Consecutive days with study ending today, or yesterday if today has none yet."""
    day = today if today in study_days else today - timedelta(days=1)
    count = 0
    while day in study_days:
        count += 1
        day -= timedelta(days=1)
    return count


def compute_stats(
    store: HistoryStore,
    bank_questions: Mapping[str, Question],
    now: datetime,
    *,
    days: int = DEFAULT_DAYS,
    forecast_days: int = DEFAULT_FORECAST_DAYS,
    config_file: Path | None = None,
) -> Stats:
    """Everything the stats screen and `quizapp stats` show, as of `now`.

    `config_file` is only reported (the settings do not change any figure); None means the
    path `quizapp.srs.config.config_path()` gives.
    """
    if days < 1 or forecast_days < 1:
        raise ValueError("days and forecast_days must be at least 1")
    now = require_aware(now)
    today = start_of_day(now).date()
    window_start = today - timedelta(days=days - 1)

    # -- the history: one pass over every review --------------------------------------------
    per_day: dict[date, list[int]] = {}
    studied: set[date] = set()
    by_topic: dict[str, list[int]] = {}
    reviews = correct = review_answers = review_correct = practice = 0
    study_ms = 0
    answered: set[str] = set()
    for row in store.reviews():
        reviews += 1
        answered.add(row.question_id)
        practice += row.kind == PRACTICE
        correct += row.correct
        study_ms += row.duration_ms or 0
        day = local_date(row.reviewed_at)
        studied.add(day)
        if window_start <= day <= today:
            counts = per_day.setdefault(day, [0, 0])
            counts[0] += 1
            counts[1] += row.correct
        if row.state_before == State.Review and row.kind != PRACTICE:
            review_answers += 1
            review_correct += row.correct
        # A question still in the bank counts under its topic now; a removed one under the
        # topic it had when answered.
        question = bank_questions.get(row.question_id)
        topic = question.topic if question is not None else row.topic
        tally = by_topic.setdefault(topic, [0, 0])
        tally[0] += 1
        tally[1] += row.correct

    reviews_per_day = tuple(
        DayCount(day, *per_day.get(day, (0, 0)))
        for day in (window_start + timedelta(days=i) for i in range(days))
    )

    # -- the cards: mastery and the forecast --------------------------------------------------
    cards = _cards(store)
    suspended, buried_until = _flags(store)
    mastered_ids = {qid for qid, card in cards.items() if _is_mastered(card)}

    forecast = Counter[int]()
    due_now = 0
    for qid, card in cards.items():
        if qid not in bank_questions or qid in suspended:
            continue
        due = card.due
        if qid in buried_until and buried_until[qid] > due:
            due = buried_until[qid]
        if due <= now:
            due_now += 1
        offset = max(0, (local_date(due) - today).days)
        if offset < forecast_days:
            forecast[offset] += 1
    due_forecast = tuple(
        DueDay(today + timedelta(days=i), forecast[i]) for i in range(forecast_days)
    )

    questions_by_topic = Counter(q.topic for q in bank_questions.values())
    mastered_by_topic = Counter(q.topic for qid, q in bank_questions.items() if qid in mastered_ids)
    topics = tuple(
        TopicStats(
            topic=topic,
            answered=by_topic.get(topic, (0, 0))[0],
            correct=by_topic.get(topic, (0, 0))[1],
            questions=questions_by_topic.get(topic, 0),
            mastered=mastered_by_topic.get(topic, 0),
        )
        for topic in sorted(set(by_topic) | set(questions_by_topic))
    )

    # -- exams ----------------------------------------------------------------------------------
    exams = tuple(_exam(e) for e in store.exams())

    for exam in exams:  # an exam's answers are seen too, though they schedule nothing
        responses = exam.detail.get("responses")
        if isinstance(responses, dict):
            answered.update(str(qid) for qid in responses)
    seen = sum(1 for qid in bank_questions if qid in answered)
    scheduled = sum(1 for qid in bank_questions if qid in cards)
    totals = Totals(
        reviews=reviews,
        correct=correct,
        reviews_in_window=sum(d.reviews for d in reviews_per_day),
        correct_in_window=sum(d.correct for d in reviews_per_day),
        review_state_answers=review_answers,
        review_state_correct=review_correct,
        study_days=len(studied),
        study_seconds=study_ms / 1000,
        questions=len(bank_questions),
        seen=seen,
        new=len(bank_questions) - scheduled,
        mastered=sum(1 for qid in bank_questions if qid in mastered_ids),
        suspended=sum(1 for qid in bank_questions if qid in suspended),
        due_now=due_now,
        exams=len(exams),
        exams_passed=sum(1 for e in exams if e.passed),
        practice=practice,
        scheduled=scheduled,
    )

    if config_file is None:
        from quizapp.srs.config import config_path

        config_file = config_path()
    return Stats(
        generated_at=now,
        today=today,
        days=days,
        forecast_days=forecast_days,
        db_path=store.path,
        config_path=config_file,
        totals=totals,
        reviews_per_day=reviews_per_day,
        topics=topics,
        due_forecast=due_forecast,
        streak_days=streak(studied, today),
        exams=exams,
        fitted=active_fit(store),
        traps=tuple(your_traps(store, bank_questions)),
    )


# -- reading the cards table (read-only helpers, local to the statistics) ---------------------


@dataclass(frozen=True)
class _CardFacts:
    state: int
    stability: float | None
    due: datetime


def _cards(store: HistoryStore) -> dict[str, _CardFacts]:
    facts = {}
    for qid, card_json, state, due_ms in store.card_rows():
        try:
            stability = json.loads(card_json).get("stability")
        except (ValueError, AttributeError):
            stability = None
        facts[qid] = _CardFacts(
            state=int(state),
            stability=float(stability) if isinstance(stability, int | float) else None,
            due=from_ms(due_ms),
        )
    return facts


def _flags(store: HistoryStore) -> tuple[set[str], dict[str, datetime]]:
    suspended: set[str] = set()
    buried: dict[str, datetime] = {}
    for qid, is_suspended, buried_ms in store.flag_rows():
        if is_suspended:
            suspended.add(qid)
        if buried_ms is not None:
            buried[qid] = from_ms(buried_ms)
    return suspended, buried


def _exam(row: Mapping[str, Any]) -> ExamResult:
    detail = row.get("detail")
    return ExamResult(
        id=int(row["id"]),
        taken=require_aware(datetime.fromisoformat(str(row["taken"]))),
        questions=int(row["questions"]),
        correct=int(row["correct"]),
        passed=bool(row["passed"]),
        threshold=float(row["threshold"]),
        seconds=float(row["seconds"]),
        detail=detail if isinstance(detail, dict) else {},
    )


def _is_mastered(card: _CardFacts) -> bool:
    return (
        card.state == State.Review
        and card.stability is not None
        and card.stability >= MASTERY_STABILITY_DAYS
    )


__all__ = [
    "DEFAULT_DAYS",
    "DEFAULT_FORECAST_DAYS",
    "MASTERY_STABILITY_DAYS",
    "DayCount",
    "DueDay",
    "ExamResult",
    "Stats",
    "TopicStats",
    "Totals",
    "compute_stats",
    "local_date",
    "streak",
]
