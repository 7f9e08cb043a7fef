"""How fast this student forgets, learned from the checked answers: the posterior of the shared
forgetting multiplier moves with what the reviews show, and a blind guesser is not promised
a pass."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from quizapp.bank import bundled_bank_path, load_bank
from quizapp.bank.model import Deck, Question
from quizapp.srs.config import Settings
from quizapp.srs.memory.model import DAY_MS, Memory, MemoryModel
from quizapp.srs.readiness.exam_model import (
    DeckPool,
    blueprint_of,
    correct_distribution,
    exam_blueprint,
    guess_floor,
    summarize,
)
from quizapp.srs.readiness.forecast import FirstAttempts
from quizapp.srs.readiness.report import Readiness, assess
from quizapp.srs.readiness.report_json import readiness_json
from quizapp.srs.readiness.uncertainty import (
    FORGETTING_SPREAD,
    Check,
    Evidence,
    draw_belief,
    forgetting_posterior,
)
from quizapp.srs.store.sqlite.store import ReviewStore
from tests.srs.readiness_helpers import answer

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
EXAM = date(2026, 12, 31)
pytestmark = pytest.mark.usefixtures("utc_local_time")  # days start at UTC midnight


def checks_from(log_rate: float, count: int, seed: int, guess: float = 0.0) -> list[Check]:
    """`count` reviews at model recall chances between 0.5 and 0.97, each right as a student
    whose recall is R^c (c = exp(log_rate)) would answer, or by a lucky guess."""
    luck = random.Random(seed)
    checks = []
    for _ in range(count):
        recall = luck.uniform(0.5, 0.97)
        chance = max(recall ** math.exp(log_rate), guess)
        checks.append(Check(recall, guess, luck.random() < chance))
    return checks


def test_with_no_checked_answer_the_posterior_is_the_prior() -> None:
    posterior = forgetting_posterior(())
    spread = math.sqrt(posterior.weights @ (posterior.grid - posterior.mean) ** 2)
    assert posterior.mean == pytest.approx(0.0, abs=1e-9)
    assert spread == pytest.approx(FORGETTING_SPREAD, rel=0.05)


@pytest.mark.parametrize("true_log_rate", [-1.0, 0.0, 1.2])
def test_the_posterior_finds_how_fast_the_student_forgets(true_log_rate: float) -> None:
    """Its centre moves to the student's own rate, not only its spread narrowing."""
    posterior = forgetting_posterior(checks_from(true_log_rate, 300, seed=11))
    spread = math.sqrt(posterior.weights @ (posterior.grid - posterior.mean) ** 2)
    assert abs(posterior.mean - true_log_rate) < 2 * spread + 0.1
    assert spread < FORGETTING_SPREAD / 3
    draws = posterior.sample(4000, np.random.default_rng(3))
    assert np.mean(draws) == pytest.approx(posterior.mean, abs=0.05)
    low, high = posterior.quantiles(np.array([0.1, 0.9]))
    assert low < posterior.mean < high and high - low < 2 * spread * 1.5


def test_reviews_going_wrong_more_often_than_the_model_says_mean_faster_forgetting() -> None:
    slow = forgetting_posterior(checks_from(-1.0, 40, seed=5)).mean
    fast = forgetting_posterior(checks_from(1.5, 40, seed=5)).mean
    assert slow < 0 < fast


def test_an_answer_within_a_day_of_the_last_checks_nothing() -> None:
    """Short-term memory is not what the forgetting curve describes (nor what the history's
    calibration checks)."""
    model = MemoryModel()
    before = Memory(3.0, 5.0, 10 * DAY_MS)
    assert Check.of(model, before, 10 * DAY_MS + DAY_MS // 2, 0.25, False) is None
    assert Check.of(model, None, 20 * DAY_MS, 0.25, False) is None
    day_later = Check.of(model, before, 11 * DAY_MS, 0.25, False)
    assert day_later is not None
    assert day_later.recall == pytest.approx(model.retrievability(before, 11 * DAY_MS))


def test_the_belief_draws_forgetting_from_the_posterior() -> None:
    blueprint = blueprint_of([DeckPool("d", "t", 1.0, [(f"q{i}", 0.0, "t") for i in range(5)])], 5)
    fast = Evidence.tally([("q0", c) for c in checks_from(1.5, 60, seed=2)])
    prior = draw_belief(blueprint, FirstAttempts.tally([]), Evidence({}, 0), 2000, rng(1))
    learned = draw_belief(blueprint, FirstAttempts.tally([]), fast, 2000, rng(1))
    learned_futures = draw_belief(
        blueprint, FirstAttempts.tally([]), fast, 8, rng(1), stratified=True
    )
    posterior_mean = forgetting_posterior(fast.checks).mean
    assert np.log(prior.forgetting).mean() == pytest.approx(0.0, abs=0.1)
    assert np.log(learned.forgetting).mean() == pytest.approx(posterior_mean, abs=0.1)
    assert np.log(learned_futures.forgetting).mean() == pytest.approx(posterior_mean, abs=0.2)


def rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


# -- the blind guesser, through the library call `quizapp forecast` makes ---------------------


@pytest.fixture(scope="module")
def bundled() -> list[Deck]:
    return list(load_bank([bundled_bank_path()]).decks)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[ReviewStore]:
    with ReviewStore.open(tmp_path / "history.sqlite3") as opened:
        yield opened


def studied(
    store: ReviewStore, decks: list[Deck], right: object, sessions: tuple[int, ...] = (12, 8, 4)
) -> Readiness:
    """14 exam questions answered in each of three sessions days apart: 42 first attempts of
    their day, 28 of them on a card answered before. `right(question)`: whether it was right."""
    questions: list[Question] = [
        q for d in decks for q in d.questions if q.type.value != "flashcard"
    ]
    random.Random(7).shuffle(questions)
    for days_ago in sessions:
        for i, question in enumerate(questions[:14]):
            when = NOW - timedelta(days=days_ago, minutes=-i)
            answer(store, question, when, right=right(question))  # type: ignore[operator]
    return assess(store, decks, Settings(exam_date=EXAM), NOW)


def test_a_blind_guesser_is_not_promised_a_pass(store: ReviewStore, bundled) -> None:
    """Answers at random, right at each question's guessing rate, on first sights and on
    reviews alike: the reviews say the study does not stick, so even the plan followed leaves
    the score near what luck gives, far from the pass mark."""
    luck = random.Random(5)
    report = studied(store, bundled, lambda q: luck.random() < guess_floor(q))
    blueprint = exam_blueprint(bundled)
    threshold = report.threshold
    by_luck = sum(item.weight * item.guess for item in blueprint.items)
    # "Near chance": within a quarter of the way from luck alone to the pass mark.
    near_chance = by_luck + (threshold - by_luck) / 4
    # A student whose every answer is right that often passes this rarely, exactly.
    knows_a_quarter = {item.question_id: near_chance for item in blueprint.items}
    pass_bound = summarize(correct_distribution(blueprint, knows_a_quarter), threshold).pass_chance
    assert report.basis.attempts == 42 and report.enough_evidence
    assert report.with_plan is not None
    for forecast in (report.as_is, report.with_plan):
        assert forecast.overall.mean < near_chance
        assert forecast.overall.pass_chance <= max(pass_bound, 0.01) < 0.5


def test_answering_everything_right_forecasts_more_than_guessing(tmp_path: Path, bundled) -> None:
    luck = random.Random(5)
    with ReviewStore.open(tmp_path / "guesser.sqlite3") as guesser_store:
        guesser = studied(guesser_store, bundled, lambda q: luck.random() < guess_floor(q))
    with ReviewStore.open(tmp_path / "knower.sqlite3") as knower_store:
        knower = studied(knower_store, bundled, lambda q: True)
    assert guesser.with_plan is not None and knower.with_plan is not None
    assert knower.as_is.overall.mean > guesser.as_is.overall.mean + 0.3
    assert knower.with_plan.overall.mean > guesser.with_plan.overall.mean + 0.3
    assert knower.with_plan.overall.pass_chance > guesser.with_plan.overall.pass_chance


def test_the_posterior_is_cheap_enough_for_the_home_line() -> None:
    """A few hundred checked answers and ~120 questions: well under the home line's budget."""
    blueprint = blueprint_of(
        [DeckPool("d", "t", 1.0, [(f"q{i}", 0.25, "t") for i in range(120)])], 20
    )
    evidence = Evidence.tally([(f"q{i % 120}", c) for i, c in enumerate(checks_from(0.5, 400, 1))])
    start = time.process_time()  # this process's own time: other programs do not count
    for _ in range(5):
        draw_belief(blueprint, FirstAttempts.tally([]), evidence, 2000, rng(0))
    assert (time.process_time() - start) / 5 < 0.3


def guessed_once(store: ReviewStore, decks: list[Deck], count: int = 34) -> Readiness:
    """`count` exam questions each answered once today by always picking the first option:
    first attempts near the guessing rate, and not one checked answer."""
    questions = [q for d in decks for q in d.questions if q.type.value != "flashcard"]
    random.Random(7).shuffle(questions)
    luck = random.Random(11)
    for i, question in enumerate(questions[:count]):
        when = NOW - timedelta(hours=2, minutes=-i)
        answer(store, question, when, right=luck.random() < guess_floor(question))
    return assess(store, decks, Settings(exam_date=EXAM), NOW)


def test_a_blind_guesser_with_no_checked_answer_gets_no_plan_figure(
    store: ReviewStore, bundled
) -> None:
    """Enough first attempts for "no further study", none that says how fast they forget: the
    plan's forecast would be the median student's learning, so it gives no figure."""
    report = guessed_once(store, bundled)
    assert report.enough_evidence and report.basis.checked == 0
    assert report.with_plan is not None and report.plan_shown is None
    assert report.shown is report.as_is
    report_json = readiness_json(report)
    assert report_json["plan_enough_evidence"] is False
    assert report_json["forecast_basis"] == "no further study"
    assert report_json["forecast"]["pass_chance"] == report.as_is.overall.pass_chance
    planned = report_json["with_plan"]
    assert planned["pass_chance"] is None
    assert all(topic["pass_chance"] is None for topic in planned["topics"].values())
    low, high = planned["interval_80"]  # the distribution is kept, flagged
    assert low <= planned["expected_score"] <= high
    reason = report_json["plan_evidence"]["text"]
    assert reason.startswith("not enough evidence yet of how fast you forget: review 10 more")
    line = report.home_line()
    assert "no further study: predicted " in line and f"plan: {reason}" in line


def test_enough_checked_answers_give_the_plan_its_figure(store: ReviewStore, bundled) -> None:
    """Three sessions days apart: 28 checked answers, past the threshold."""
    report = studied(store, bundled, lambda q: True)
    assert report.basis.checked >= 10 and report.basis.plan_enough
    assert report.plan_shown is report.with_plan is not None
    report_json = readiness_json(report)
    assert report_json["plan_enough_evidence"] is True
    assert report_json["forecast_basis"] == "plan followed"
    planned = report_json["with_plan"]
    assert planned["interval_80"][0] <= planned["expected_score"] <= planned["interval_80"][1]
    assert 0 <= planned["pass_chance"] <= 1
    assert report.home_line().startswith("Exam in 30 days · predicted ")
