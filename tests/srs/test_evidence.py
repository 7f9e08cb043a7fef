"""The forecast counts only evidence: unaided first answers of the day. Practice (same-day
repeats, learning steps, answers after an undo) stays in the history and out of the forecast;
and recall is read in real time, so a review an hour before the exam is not certain recall."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from quizapp.bank.session import AIDED, FIRST, REPEAT
from quizapp.srs.config import Settings
from quizapp.srs.memory.model import MemoryModel
from quizapp.srs.memory.scheduling import Rating
from quizapp.srs.readiness.evidence import Answer, evidence_flags
from quizapp.srs.readiness.exam_model import exam_blueprint
from quizapp.srs.readiness.forecast import Student, chances_at
from quizapp.srs.readiness.report import assess, exam_moment, read_history
from quizapp.srs.readiness.report_json import readiness_json
from quizapp.srs.store.sqlite.store import ReviewStore
from quizapp.srs.times import to_ms
from tests.srs.readiness_helpers import SCHEDULER, deck, numeric, single, true_false

T0 = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)
EXAM = date(2026, 11, 20)
pytestmark = pytest.mark.usefixtures("utc_local_time")  # days start at UTC midnight

# Answers counted apart from the forecast: (question, minutes after T0, right, attempt).
FIRST_ATTEMPTS = [
    ("tf1", 0, True, FIRST),
    ("n1", 10, False, FIRST),
    ("c1", 20, True, FIRST),
    ("n1", 2 * 1440, True, FIRST),  # a later day: evidence again
    ("c2", 2 * 1440 + 10, False, FIRST),
    ("tf1", 5 * 1440, True, None),  # written by an older quizapp: the day's first, evidence
]
PRACTICE = [
    ("n1", 30, True, REPEAT),  # a drill's learning step, right this time
    ("n1", 40, True, FIRST),  # a second session the same day: not the day's first
    ("c1", 50, False, None),  # an old row, the same day: not the day's first
    ("c2", 2 * 1440 + 30, True, AIDED),  # re-answered after an undo
    ("tf1", 5 * 1440 + 15, False, None),
    ("n2", 3 * 1440, True, AIDED),  # its first answer was undone: only the aided one is left
    ("n2", 3 * 1440 + 20, True, REPEAT),
    ("c1", 2 * 1440 + 905, True, REPEAT),  # a session of day 2 run past midnight (00:05)
]


def _questions():
    return [true_false("tf1"), numeric("n1"), numeric("n2"), single("c1"), single("c2")]


def _record(store: ReviewStore, answers, by_id) -> None:
    for qid, minutes, right, attempt in sorted(answers, key=lambda a: a[1]):
        question = by_id[qid]
        store.record_answer(
            question_id=qid,
            deck_id=question.deck_id,
            topic=question.topic,
            rating=SCHEDULER_RATING[right],
            correct=right,
            when=T0 + timedelta(minutes=minutes),
            duration_ms=None,  # the time a card takes stays the default in both histories
            kind="drill",
            scheduler=SCHEDULER,
            attempt=attempt,
        )


SCHEDULER_RATING = {True: Rating.Good, False: Rating.Again}


def _report(tmp_path, name: str, answers) -> dict:
    questions = _questions()
    by_id = {q.id: q for q in questions}
    decks = [deck("d", questions)]
    settings = Settings(exam_date=EXAM)
    with ReviewStore.open(tmp_path / name) as store:
        _record(store, answers, by_id)
        report = assess(store, decks, settings, T0 + timedelta(days=7), exam_questions=5)
    return readiness_json(report)


def test_practice_answers_leave_the_forecast_and_the_plan_as_the_first_attempts_alone(
    tmp_path,
) -> None:
    alone = _report(tmp_path, "first.sqlite3", FIRST_ATTEMPTS)
    with_practice = _report(tmp_path, "practice.sqlite3", FIRST_ATTEMPTS + PRACTICE)
    assert with_practice["reviews"] == len(FIRST_ATTEMPTS + PRACTICE)
    assert with_practice["evidence_answers"] == alone["evidence_answers"] == len(FIRST_ATTEMPTS)
    assert with_practice["practice_answers"] == len(PRACTICE)
    counts = {"reviews", "evidence_answers", "practice_answers"}
    assert {k: v for k, v in with_practice.items() if k not in counts} == {
        k: v for k, v in alone.items() if k not in counts
    }
    # n2 was only ever answered after an undo: to the forecast it is still unseen.
    assert with_practice["exam_questions_seen"] == 4


def test_the_practice_would_have_moved_the_forecast(tmp_path) -> None:
    """The comparison above can fail: the same answers all marked first attempts (each on a
    day of its own) change the forecast."""
    spread = [(qid, i * 1440, right, FIRST) for i, (qid, _, right, _) in enumerate(PRACTICE)]
    alone = _report(tmp_path, "first.sqlite3", FIRST_ATTEMPTS)
    more = _report(tmp_path, "more.sqlite3", FIRST_ATTEMPTS + spread)
    assert more["forecast"]["expected_score"] != alone["forecast"]["expected_score"]


def test_what_counts_as_evidence() -> None:
    def at(qid: str, day: int, hour: int, attempt: str | None) -> Answer:
        return Answer(qid, "t", to_ms(T0 + timedelta(days=day, hours=hour)), True, 3, attempt)

    answers = [
        at("a", 0, 0, FIRST),  # the day's first
        at("a", 0, 1, REPEAT),  # a learning step
        at("a", 0, 2, FIRST),  # another session the same day
        at("b", 0, 3, AIDED),  # after an undo: practice, and the day's first answer is gone
        at("b", 0, 4, FIRST),  # …so nothing of b counts that day
        at("a", 1, 0, None),  # an old row, the next day's first
        at("a", 1, 1, None),  # an old row, a repeat that day
        at("b", 1, 0, REPEAT),  # a session past midnight: its repeat is the day's first answer
        at("b", 2, 0, FIRST),
    ]
    assert evidence_flags(answers) == [True, False, False, False, False, True, False, False, True]


def test_a_review_an_hour_before_the_exam_is_not_certain_recall(tmp_path) -> None:
    question = numeric("n1")
    exam_at = exam_moment(EXAM)
    reviewed = exam_at - timedelta(hours=1)
    with ReviewStore.open(tmp_path / "h.sqlite3") as store:
        store.record_answer(
            question_id="n1",
            deck_id="d",
            topic="t",
            rating=Rating.Good,
            correct=True,
            when=reviewed,
            duration_ms=None,
            kind="drill",
            scheduler=SCHEDULER,
            attempt=FIRST,
        )
        facts = read_history(store, {"n1": question}, reviewed + timedelta(minutes=5))
    model = MemoryModel()
    memory = facts.memories["n1"]
    blueprint = exam_blueprint([deck("d", [question])], 1)
    chance = chances_at(
        blueprint, Student(facts.memories, facts.first_attempts), model, to_ms(exam_at)
    )
    at_an_hour = (1 + model.factor * (1 / 24) / memory.stability) ** model.decay
    assert chance["n1"] < 1.0
    assert chance["n1"] == pytest.approx(at_an_hour, rel=1e-12)
