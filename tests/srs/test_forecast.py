"""The forecast on a crafted history whose answer can be worked out by hand."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from fsrs.scheduler import DEFAULT_PARAMETERS

from quizapp.srs.config import Settings
from quizapp.srs.readiness.forecast import PRIOR_STRENGTH, FirstAttempts
from quizapp.srs.readiness.report import assess, exam_moment
from quizapp.srs.readiness.report_json import readiness_json
from quizapp.srs.store.sqlite.store import ReviewStore
from tests.srs.readiness_helpers import answer, deck, numeric, true_false

T0 = datetime(2026, 11, 1, 9, 0, tzinfo=UTC)
pytestmark = pytest.mark.usefixtures("utc_local_time")  # days start at UTC midnight


def fsrs_recall(stability: float, days: int) -> float:
    """FSRS-6's forgetting curve, written out: R = (1 + F·t/S)^-decay."""
    decay = DEFAULT_PARAMETERS[20]
    factor = 0.9 ** (-1 / decay) - 1
    return (1 + factor * days / stability) ** -decay


def by_hand(days: int) -> tuple[float, float]:
    """(chance for the true/false question, chance for the unseen numeric one)."""
    # Answered right once (Good): stability w2; a true/false question is never below 1/2.
    tf = max(fsrs_recall(DEFAULT_PARAMETERS[2], days), 0.5)
    # One first attempt, right, on a question with a guessing floor of 1/2: half an answer of
    # evidence beyond guessing. Bank: (0.5 + 1) / (0.5 + 2); topic: shrunk toward it.
    bank = 1.5 / 2.5
    topic = (0.5 + PRIOR_STRENGTH * bank) / (0.5 + PRIOR_STRENGTH)
    return tf, topic  # a numeric question: no guessing


@pytest.fixture
def history(tmp_path):
    questions = [true_false("tf"), numeric("num")]
    with ReviewStore.open(tmp_path / "history.sqlite3") as store:
        answer(store, questions[0], T0, right=True)
        yield store, [deck("d", questions)]


def test_the_forecast_for_an_exam_now(history) -> None:
    store, decks = history
    report = assess(store, decks, Settings(), T0 + timedelta(days=10), exam_questions=2)
    a, b = by_hand(10)
    overall = report.as_is.overall
    assert report.with_plan is None and report.projection is None and report.today is None
    assert overall.questions == 2
    # One answer says little: the point chances (a, b) are where the draws centre, not the
    # forecast. How fast this student forgets is unknown, and so is the chance they know the
    # unseen question, so the forecast is pulled toward the middle and its interval spans
    # every score but the worst.
    assert 0.4 < overall.mean < (a + b) / 2
    assert (overall.low, overall.high) == (0.5, 1.0)
    assert overall.pass_chance < a * b  # both right (70 % of 2), less sure than the point says
    assert report.as_is.topics["t"].mean == pytest.approx(overall.mean)
    assert report.seen == 1 and report.reviews == 1
    assert report.basis.text == "based on 1 first attempt on 1 of 2 exam questions; 1 unseen"
    assert not report.enough_evidence  # 2 exam questions: both must have been answered


def test_the_forecast_at_the_exam_date_and_with_the_plan(history) -> None:
    store, decks = history
    exam = date(2026, 11, 21)
    now = T0 + timedelta(days=2)
    report = assess(store, decks, Settings(exam_date=exam), now, exam_questions=2)
    assert report.exam_at == exam_moment(exam) == datetime(2026, 11, 21, 9, 0, tzinfo=UTC)
    assert report.days_left == 18
    # With 20 minutes a day for 18 days, both questions get studied: the plan's prediction
    # is higher than no further study, and the curve ends where the plan's forecast is.
    assert report.with_plan is not None and report.projection is not None
    assert report.with_plan.overall.mean > report.as_is.overall.mean + 0.1
    # Yet not certainty: in some futures this student forgets fast, and the reviews fail.
    assert report.with_plan.overall.low < 1 and report.with_plan.overall.pass_chance < 0.95
    assert report.projection.with_plan[-1] == pytest.approx(report.with_plan.overall.mean)
    assert report.projection.no_study[0] == pytest.approx(
        assess(store, decks, Settings(), now, exam_questions=2).as_is.overall.mean
    )
    assert report.projection.no_study[-1] == pytest.approx(report.as_is.overall.mean)
    assert len(report.projection.moments_ms) == 19  # 18 study days and the exam
    line = report.home_line()
    more = "not enough evidence yet: answer 1 more question for a forecast"
    assert line.startswith(f"Exam in 18 days · {more} · ")
    # Fewer than 10 timed answers: a card counts as a minute.
    assert line.endswith("today: 2 cards, about 2 min")
    answer(store, decks[0].questions[1], now - timedelta(hours=1), right=True)
    line = assess(store, decks, Settings(exam_date=exam), now, exam_questions=2).home_line()
    # Both questions answered once: a figure with no further study, none for the plan, which
    # rests on how fast this student forgets (no answer has checked a memory state yet).
    assert line.startswith("Exam in 18 days · no further study: predicted ")
    assert "(80%: " in line and ", from 2 of 2 questions) · plan: not enough evidence " in line
    assert "review 2 more cards a day or more after you last answered them · " in line
    # Each answered again a day or more later: two checked answers, every exam question's.
    later = now + timedelta(days=1, hours=1)
    for question in decks[0].questions:
        answer(store, question, later, right=True)
    line = assess(store, decks, Settings(exam_date=exam), later, exam_questions=2).home_line()
    assert line.startswith("Exam in 17 days · predicted ")
    assert "(80%: " in line and ", from 2 of 2 questions) · today: " in line


def test_past_the_exam_date_there_is_no_plan(history) -> None:
    store, decks = history
    report = assess(store, decks, Settings(exam_date=date(2026, 11, 5)), T0 + timedelta(days=10))
    assert not report.planning and report.today is None
    assert "has passed" in report.home_line()


def test_first_attempts_are_shrunk_toward_the_bank_and_corrected_for_guessing() -> None:
    attempts = FirstAttempts.tally(
        [("a", True, 0.0)] * 30 + [("a", False, 0.0)] * 10 + [("b", True, 0.5)] * 2
    )
    bank = (32 - 1 + 1) / (42 - 1 + 2)  # 32 right, 1 of them expected by guessing, +Beta(1,1)
    assert attempts.bank_knowledge == pytest.approx(bank)
    assert attempts.topic_knowledge("a") == pytest.approx(
        (30 + PRIOR_STRENGTH * bank) / (40 + PRIOR_STRENGTH)
    )
    # Two right true/false answers are one answer's worth of evidence.
    assert attempts.topic_knowledge("b") == pytest.approx(
        (1 + PRIOR_STRENGTH * bank) / (1 + PRIOR_STRENGTH)
    )
    assert attempts.topic_knowledge("never") == pytest.approx(bank)
    assert FirstAttempts.tally([]).bank_knowledge == 0.5


def test_the_time_a_card_takes() -> None:
    from quizapp.srs.readiness.report import DEFAULT_MINUTES_PER_CARD, MIN_TIMINGS, minutes_per_card

    minute, day = 60_000, 86_400_000
    # Gaps between answers in a session count (the feedback is read between them); a gap of a
    # day is a new session, not a slow card.
    gaps = [40_000] * MIN_TIMINGS + [day] * 50
    assert minutes_per_card(gaps, []) == pytest.approx(40 / 60)
    # Too few gaps: the answering times recorded; too few of those: a minute.
    assert minutes_per_card([day], [30_000] * MIN_TIMINGS) == pytest.approx(0.5)
    assert minutes_per_card([minute] * 3, [1] * 3) == DEFAULT_MINUTES_PER_CARD
    # Bounded: no card in under 10 s or over 5 minutes.
    assert minutes_per_card([1_000] * MIN_TIMINGS, []) == pytest.approx(10 / 60)
    assert minutes_per_card([], [10 * minute] * MIN_TIMINGS) == 5.0


def test_a_fit_in_use_models_memory_and_is_named(history) -> None:
    from quizapp.srs.store.fits import save_fit
    from tests.srs.test_fit_store import fit_record

    store, decks = history
    fitted = list(DEFAULT_PARAMETERS)
    fitted[20] = 0.5  # a steeper forgetting curve than the defaults' decay
    fit_id = save_fit(store, fit_record(fitted, when=T0 + timedelta(days=1, hours=3)))
    now = T0 + timedelta(days=10)
    report = assess(store, decks, Settings(), now, exam_questions=2)
    factor = 0.9 ** (-1 / 0.5) - 1
    tf = max((1 + factor * 10 / DEFAULT_PARAMETERS[2]) ** -0.5, 0.5)
    assert tf < by_hand(10)[0]  # the fit forgets faster
    # The same draws (seeded), a faster-forgetting curve under them: a lower forecast.
    default = assess(store, decks, Settings(), now, exam_questions=2, use_fitted=False)
    assert report.as_is.overall.mean < default.as_is.overall.mean - 0.01
    assert report.fit is not None and report.fit.id == fit_id
    assert report.parameters_note == "FSRS parameters fitted to your history on 2026-11-02"
    assert readiness_json(report)["parameters"] == {
        "source": "fitted",
        "fitted_at": "2026-11-02T12:00:00+00:00",
        "fit_id": fit_id,
    }
    assert default.parameters_note == "py-fsrs's default FSRS parameters"
    assert readiness_json(default)["parameters"]["source"] == "default"
