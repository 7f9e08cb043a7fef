"""The forecast as a distribution: what it claims with no evidence, with one answer and with a
few dozen, and that every interval holds its own estimate."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from quizapp.bank import bundled_bank_path, load_bank
from quizapp.bank.model import Deck, Question
from quizapp.srs.config import Settings
from quizapp.srs.readiness.exam_model import (
    DeckPool,
    ScoreSummary,
    blueprint_of,
    correct_distribution,
    summarize,
)
from quizapp.srs.readiness.forecast import FirstAttempts
from quizapp.srs.readiness.report import Readiness, assess
from quizapp.srs.readiness.report_json import readiness_json
from quizapp.srs.readiness.uncertainty import (
    MIN_EVIDENCE_QUESTIONS,
    Evidence,
    draw_belief,
    score_forecast_of,
)
from quizapp.srs.store.sqlite.store import ReviewStore
from tests.srs.readiness_helpers import answer, deck, numeric, single, true_false

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
EXAM = date(2026, 12, 31)
pytestmark = pytest.mark.usefixtures("utc_local_time")  # days start at UTC midnight


def summaries(report: Readiness) -> Iterator[tuple[str, ScoreSummary]]:
    """Every figure the report gives: overall and per topic, with and without the plan."""
    for name, forecast in (("no further study", report.as_is), ("with the plan", report.with_plan)):
        if forecast is None:
            continue
        yield name, forecast.overall
        for topic, summary in forecast.topics.items():
            yield f"{name}, {topic}", summary


def width(summary: ScoreSummary) -> float:
    return round(summary.high - summary.low, 9)  # scores are whole questions: no float noise


@pytest.fixture(scope="module")
def bundled() -> list[Deck]:
    return list(load_bank([bundled_bank_path()]).decks)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[ReviewStore]:
    with ReviewStore.open(tmp_path / "history.sqlite3") as opened:
        yield opened


def exam_questions(decks: list[Deck]) -> list[Question]:
    questions = [q for d in decks for q in d.questions if q.type.value != "flashcard"]
    random.Random(7).shuffle(questions)
    return questions


def test_with_no_evidence_no_figure_is_confident(store: ReviewStore, bundled) -> None:
    report = assess(store, bundled, Settings(exam_date=EXAM), NOW)
    assert report.with_plan is not None  # the plan's forecast is a forecast too
    for name, summary in summaries(report):
        assert summary.pass_chance < 0.9, name
        assert width(summary) >= 0.3, name
        assert summary.low <= summary.mean <= summary.high, name
    needed = "not enough evidence yet: answer 10 more questions for a forecast"
    assert f"Exam in 30 days · {needed} · today: " in report.home_line()
    report_json = readiness_json(report)
    assert report_json["evidence"]["enough"] is False
    assert report_json["evidence"]["questions_needed"] == MIN_EVIDENCE_QUESTIONS
    assert report_json["evidence"]["text"] == needed
    # The distribution is still there, flagged, and says what it rests on.
    total = len(exam_questions(bundled))
    assert report_json["forecast"]["based_on"] == (
        f"based on 0 first attempts on 0 of {total} exam questions; {total} unseen"
    )


def test_one_right_answer_is_not_certainty(store: ReviewStore, bundled) -> None:
    answer(store, exam_questions(bundled)[0], NOW - timedelta(hours=1), right=True)
    report = assess(store, bundled, Settings(exam_date=EXAM), NOW)
    for name, summary in summaries(report):
        assert (summary.low, summary.high) != (1.0, 1.0), name
        assert round(100 * summary.mean) < 99, name
    assert "answer 9 more questions" in report.home_line()
    assert "100–100" not in report.home_line()


def test_the_interval_narrows_as_evidence_grows(store: ReviewStore, bundled) -> None:
    """Fresh, then one answer, then a few dozen (a student who knows about 70 %)."""
    questions = exam_questions(bundled)
    luck = random.Random(3)

    def overall_widths() -> tuple[float, float]:
        report = assess(store, bundled, Settings(exam_date=EXAM), NOW)
        assert report.with_plan is not None
        return width(report.as_is.overall), width(report.with_plan.overall)

    fresh = overall_widths()
    answer(store, questions[0], NOW - timedelta(days=3), right=True)
    one = overall_widths()
    for i, question in enumerate(questions[1:40]):
        answer(store, question, NOW - timedelta(days=3, minutes=-i), right=luck.random() < 0.7)
    for i, question in enumerate(questions[:25]):
        answer(store, question, NOW - timedelta(days=1, minutes=-i), right=luck.random() < 0.8)
    dozens = overall_widths()
    assert fresh[0] > one[0] > dozens[0]  # with no further study
    assert fresh[1] >= one[1] > dozens[1]  # with the plan
    assert dozens[0] >= 0.1  # a few dozen answers still leave room either way


def test_with_no_first_attempts_ability_is_integrated_over_not_its_mean() -> None:
    """No evidence: the chance an unseen question is known spans nearly all of 0 to 1 (a
    uniform prior on ability, and each topic around it), not a bell around one half."""
    blueprint = blueprint_of([DeckPool("d", "t", 1.0, [("q", 0.0, "t")])], 1)
    rng = np.random.default_rng(1)
    belief = draw_belief(blueprint, FirstAttempts.tally([]), Evidence({}, 0), 4000, rng)
    low, high = np.quantile(belief.knowledge["t"], [0.1, 0.9])
    assert low < 0.15 and high > 0.85
    # Forty right first attempts: the same draws are sure the student knows a lot.
    sure = draw_belief(
        blueprint, FirstAttempts.tally([("t", True, 0.0)] * 40), Evidence({}, 0), 4000, rng
    )
    assert np.quantile(sure.knowledge["t"], 0.1) > 0.85


def test_without_uncertainty_the_sampled_forecast_is_the_exact_one() -> None:
    """With every draw alike, the sampled exams must give the exact distribution's figures
    (quizapp/srs/readiness/exam_model.py works it out question by question)."""
    pools = [
        DeckPool("a", "ta", 2.0, [(f"a{i}", 0.0, "ta") for i in range(6)]),
        DeckPool("b", "tb", 1.0, [(f"b{i}", 0.0, "tb") for i in range(4)]),
    ]
    blueprint = blueprint_of(pools, 6)
    point = {item.question_id: 0.3 + 0.06 * i for i, item in enumerate(blueprint.items)}
    chances = np.tile([point[item.question_id] for item in blueprint.items], (50, 1))
    sampled = score_forecast_of(blueprint, chances, 0.5, np.random.default_rng(5), exams=40_000)
    exact = summarize(correct_distribution(blueprint, point), 0.5)
    assert sampled.overall.mean == pytest.approx(exact.mean)
    assert (sampled.overall.low, sampled.overall.high) == (exact.low, exact.high)
    assert sampled.overall.pass_chance == pytest.approx(exact.pass_chance, abs=0.015)
    for topic in ("ta", "tb"):
        exact_topic = summarize(correct_distribution(blueprint, point, topic), 0.5)
        assert sampled.topics[topic].mean == pytest.approx(exact_topic.mean)


def test_a_lopsided_distribution_reaches_out_to_its_mean() -> None:
    """Nearly sure of every answer: the 10th-90th percentiles are both 100 %, the mean just
    below; the interval is widened to hold it."""
    blueprint = blueprint_of([DeckPool("d", "t", 1.0, [("q1", 0.0, "t"), ("q2", 0.0, "t")])], 2)
    chances = np.full((10, 2), 0.99)
    summary = score_forecast_of(blueprint, chances, 0.7, np.random.default_rng(2)).overall
    assert summary.mean == pytest.approx(0.99)
    assert summary.low == pytest.approx(0.99) and summary.high == 1.0


SMALL_BANK = [
    deck(
        "d1",
        [true_false("tf1", "d1", "t1"), numeric("n1", "d1", "t1"), single("s1", 4, "d1", "t1")],
    ),
    deck(
        "d2",
        [numeric("n2", "d2", "t2"), true_false("tf2", "d2", "t2"), single("s2", 3, "d2", "t2")],
    ),
]
SMALL_QUESTIONS = [q for d in SMALL_BANK for q in d.questions]
answers = st.lists(
    st.tuples(
        st.integers(0, len(SMALL_QUESTIONS) - 1),  # which question
        st.integers(0, 40 * 24),  # hours before now
        st.booleans(),  # right
    ),
    max_size=25,
)


@given(history=answers, planned=st.booleans(), exam_days=st.integers(1, 20))
@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_every_interval_contains_its_estimate(tmp_path: Path, history, planned, exam_days) -> None:
    path = tmp_path / f"h{random.getrandbits(64)}.sqlite3"
    with ReviewStore.open(path) as store:
        for index, hours_ago, right in sorted(history, key=lambda a: -a[1]):
            answer(store, SMALL_QUESTIONS[index], NOW - timedelta(hours=hours_ago), right=right)
        exam_date = (NOW + timedelta(days=exam_days)).date() if planned else None
        report = assess(store, SMALL_BANK, Settings(exam_date=exam_date), NOW, exam_questions=4)
    for name, summary in summaries(report):
        assert 0 <= summary.low <= summary.mean <= summary.high <= 1, name
        assert 0 <= summary.pass_chance <= 1, name


def test_the_plans_futures_are_students_drawn_from_the_uncertainty() -> None:
    """Never that every planned review succeeds: each future draws its own student, whose
    reviews fail at that student's rate, and the futures differ at the exam."""
    from quizapp.srs.memory.model import DAY_MS, MemoryModel
    from quizapp.srs.readiness.forecast import Student
    from quizapp.srs.readiness.projection import project_plan

    blueprint = blueprint_of([DeckPool("d", "t", 1.0, [(f"q{i}", 0.0, "t") for i in range(8)])], 4)
    now = 100 * DAY_MS
    projection = project_plan(
        blueprint,
        Student({}, FirstAttempts.tally([])),
        MemoryModel(),
        now,
        now + 20 * DAY_MS,
        minutes_today=8,
        minutes_per_day=8,
        minutes_per_card=1.0,
        runs=8,
    )
    per_future = projection.exam_draws.mean(axis=1)
    assert per_future.max() - per_future.min() > 0.3
    assert projection.exam_draws.max() < 1.0
    assert projection.with_plan[-1] == pytest.approx(per_future.mean())
