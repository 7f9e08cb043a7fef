"""Turning the history into py-fsrs review logs, the held-out split, and judging a parameter set."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest
from fsrs import Card, Rating, ReviewLog, Scheduler
from fsrs.scheduler import DEFAULT_PARAMETERS, UPPER_BOUNDS_PARAMETERS

from quizapp.srs.memory.fitting import (
    FULL,
    MIN_HELD_OUT,
    MIN_LEARNABLE,
    MIN_PARTIAL_HELD_OUT,
    MIN_PARTIAL_LEARNABLE,
    PARTIAL,
    FitData,
    fit_kind,
    held_out_predictions,
    learnable_reviews,
    log_loss,
    prepare,
    refusal,
    review_logs,
    rmse_bins,
    score,
    valid_parameters,
)
from quizapp.srs.store.history import ReviewRow
from tests.srs.simulated_history import FORGETFUL

T0 = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)


def row(qid: str, when: datetime, rating: int = 3, kind: str = "drill", duration=4000):
    return ReviewRow(qid, "deck", "topic", kind, when, rating, rating != 1, duration, None)


def log(card_id: int, when: datetime, rating: Rating = Rating.Good) -> ReviewLog:
    return ReviewLog(card_id, rating, when, 4000)


# -- review logs --------------------------------------------------------------------------------


def test_practice_answers_and_unusable_ratings_are_left_out() -> None:
    rows = [
        row("a", T0),
        row("b", T0 + timedelta(minutes=1), kind="practice"),
        row("a", T0 + timedelta(days=2), rating=1, kind="quiz"),
        row("c", T0 + timedelta(days=3), rating=0),
        row("c", T0 + timedelta(days=3, minutes=1), rating=5),
        row("d", T0 + timedelta(days=4), kind="exam", duration=None),
    ]
    logs, left_out = review_logs(rows)
    assert left_out == 3
    assert [(lg.card_id, lg.rating) for lg in logs] == [
        (1, Rating.Good),
        (1, Rating.Again),
        (2, Rating.Good),
    ]
    assert logs[2].review_duration is None
    assert all(lg.review_datetime.tzinfo is UTC for lg in logs)


def test_the_latest_fifth_by_time_is_held_out() -> None:
    # Given out of order: the split is by time, not by row order.
    rows = [row(f"q{i % 7}", T0 + timedelta(days=i)) for i in reversed(range(10))]
    data = prepare(rows)
    assert len(data.train) == 8 and len(data.held_out) == 2
    assert max(lg.review_datetime for lg in data.train) < min(
        lg.review_datetime for lg in data.held_out
    )
    assert data.held_out[0].review_datetime == T0 + timedelta(days=8)


def test_learnable_reviews_count_as_the_optimizer_does() -> None:
    logs = [
        log(1, T0),
        log(1, T0 + timedelta(minutes=10)),  # the same day: not learnable
        log(1, T0 + timedelta(hours=24)),  # 23 h 50 min after the previous one: not
        log(1, T0 + timedelta(hours=48, minutes=1)),  # 24 h 1 min after it: learnable
        log(2, T0),  # a first review: nothing to predict
    ]
    assert learnable_reviews(logs) == 1
    # Only a card's first 64 reviews are fitted on.
    long_card = [log(3, T0 + timedelta(days=day)) for day in range(100)]
    assert learnable_reviews(long_card) == 63


def test_our_minimum_is_the_optimizers_own(monkeypatch) -> None:
    """At MIN_LEARNABLE - 1 py-fsrs's optimizer hands the defaults back untouched; at
    MIN_LEARNABLE it starts to train (caught at its first step, to stay fast)."""
    import fsrs.optimizer

    class Trains(Exception):
        pass

    def no_training(*args, **kwargs):
        raise Trains

    monkeypatch.setattr(fsrs.optimizer.optim, "Adam", no_training)

    def history(learnable: int) -> list[ReviewLog]:
        logs = []
        for card in range(learnable):
            # a learning step (same day), then a review two days later: one learnable each
            logs += [
                log(card + 1, T0),
                log(card + 1, T0 + timedelta(minutes=10)),
                log(card + 1, T0 + timedelta(days=2)),
            ]
        return logs

    below, enough = history(MIN_LEARNABLE - 1), history(MIN_LEARNABLE)
    assert learnable_reviews(below) == MIN_LEARNABLE - 1
    assert learnable_reviews(enough) == MIN_LEARNABLE
    assert fsrs.optimizer.Optimizer(below).compute_optimal_parameters() == list(DEFAULT_PARAMETERS)
    with pytest.raises(Trains):
        fsrs.optimizer.Optimizer(enough).compute_optimal_parameters()


def test_what_is_fitted_follows_how_much_there_is() -> None:
    def data(learnable: int, scored: int) -> FitData:
        return FitData(train=(), held_out=(), learnable=learnable, scored=scored, left_out=0)

    assert fit_kind(data(MIN_LEARNABLE, MIN_HELD_OUT)) == FULL
    # Enough to learn from, too little held out to check all 21 parameters: the partial fit.
    assert fit_kind(data(MIN_LEARNABLE, MIN_HELD_OUT - 1)) == PARTIAL
    assert fit_kind(data(MIN_LEARNABLE - 1, 500)) == PARTIAL
    assert fit_kind(data(MIN_PARTIAL_LEARNABLE, MIN_PARTIAL_HELD_OUT)) == PARTIAL
    assert refusal(data(MIN_PARTIAL_LEARNABLE, MIN_PARTIAL_HELD_OUT)) is None

    short = refusal(data(MIN_PARTIAL_LEARNABLE - 1, 500))
    assert fit_kind(data(MIN_PARTIAL_LEARNABLE - 1, 500)) is None
    assert short is not None and "\n" not in short
    assert (
        f"need {MIN_PARTIAL_LEARNABLE} reviews" in short and f"parameters {MIN_LEARNABLE}" in short
    )
    assert f"there are {MIN_PARTIAL_LEARNABLE - 1}" in short
    few = refusal(data(MIN_LEARNABLE, MIN_PARTIAL_HELD_OUT - 1))
    assert few is not None and f"needs {MIN_PARTIAL_HELD_OUT}" in few


# -- judging a parameter set ----------------------------------------------------------------------


def test_held_out_predictions_replay_each_card_from_its_first_review() -> None:
    times = [T0, T0 + timedelta(days=1, hours=1), T0 + timedelta(days=4), T0 + timedelta(days=9)]
    ratings = [Rating.Good, Rating.Good, Rating.Again, Rating.Good]
    rows = [row("a", when, int(r)) for when, r in zip(times, ratings, strict=True)]
    rows += [row("b", T0 + timedelta(days=5, hours=h)) for h in (0, 1)]  # first, same day
    data = prepare(rows, held_out_share=0.67)  # held out: a at days 4 and 9, b both times
    assert data.scored == 2

    # By hand: the card through py-fsrs, retrievability just before days 4 and 9.
    scheduler = Scheduler(parameters=FORGETFUL, enable_fuzzing=False)
    card = Card(card_id=1, due=T0)
    expected = []
    for when, rating in zip(times, ratings, strict=True):
        if when >= times[2]:
            expected.append((scheduler.get_card_retrievability(card, when), rating != Rating.Again))
        card, _ = scheduler.review_card(card, rating, when)
    assert held_out_predictions(FORGETFUL, data) == expected
    assert expected[0][1] is False and expected[1][1] is True
    # Other parameters, other predictions: the parameters are really used.
    assert held_out_predictions(DEFAULT_PARAMETERS, data) != expected


def test_log_loss_and_rmse_bins() -> None:
    assert log_loss([(0.5, True), (0.5, False)]) == pytest.approx(math.log(2))
    assert log_loss([(1.0, True)]) == pytest.approx(-math.log(1 - 1e-4))  # clipped
    assert log_loss([(0.9, True), (0.2, False)]) == pytest.approx(
        -(math.log(0.9) + math.log(0.8)) / 2
    )
    # Calibrated bins have no error; a bin predicting 0.9 where half were right is 0.4 off.
    assert rmse_bins([(0.5, True), (0.5, False)]) == pytest.approx(0.0)
    assert rmse_bins([(0.9, True), (0.9, False)]) == pytest.approx(0.4)
    # Count-weighted over bins: one review 0.1 off, two (in one bin) 0.05 off.
    assert rmse_bins([(0.1, False), (0.55, True), (0.55, False)]) == pytest.approx(
        math.sqrt((0.1**2 + 2 * 0.05**2) / 3)
    )
    with pytest.raises(ValueError):
        log_loss([])


def test_the_true_parameters_predict_a_simulated_student_better_than_the_defaults(
    tmp_path,
) -> None:
    from quizapp.srs.store.sqlite.store import ReviewStore
    from tests.srs.simulated_history import FIT_SIZE, simulate_history

    db = tmp_path / "history.sqlite3"
    simulate_history(db, **FIT_SIZE)
    with ReviewStore.open_readonly(db) as store:
        data = prepare(list(store.reviews()))
    truth, defaults = score(FORGETFUL, data), score(DEFAULT_PARAMETERS, data)
    assert truth.reviews == defaults.reviews == data.scored > 200
    assert truth.log_loss < defaults.log_loss


@pytest.mark.parametrize(
    "values",
    [
        list(DEFAULT_PARAMETERS)[:-1],
        [*list(DEFAULT_PARAMETERS)[:-1], math.nan],
        [*list(DEFAULT_PARAMETERS)[:-1], UPPER_BOUNDS_PARAMETERS[-1] * 2],
        [True, *list(DEFAULT_PARAMETERS)[1:]],
        ["0.2", *list(DEFAULT_PARAMETERS)[1:]],
        {"w": 1},
        None,
    ],
)
def test_invalid_parameters_are_refused(values) -> None:
    assert valid_parameters(values) is None


def test_valid_parameters_pass_as_floats() -> None:
    assert valid_parameters(list(DEFAULT_PARAMETERS)) == tuple(DEFAULT_PARAMETERS)
    assert valid_parameters(FORGETFUL) == tuple(float(x) for x in FORGETFUL)


def test_fitting_and_the_command_module_import_no_torch() -> None:
    """Reading, judging and storing fits is pure; only running the optimizer loads torch."""
    from tests.architecture.test_isolation import run_python

    result = run_python(
        """
        import sys
        import quizapp.srs.memory.optimize, quizapp.srs.memory.fitting, quizapp.srs.store.fits, quizapp.cli.optimize
        heavy = sorted(m for m in sys.modules if m.split(".")[0] in {"torch", "pandas", "textual"})
        print(",".join(heavy))
        """
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ""
