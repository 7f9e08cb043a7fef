"""Calibration: the forecast's predictions for past reviews against what happened."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest

from quizapp.srs.memory.model import MemoryModel
from quizapp.srs.readiness.calibration import MIN_REVIEWS, calibrate, review_predictions
from quizapp.srs.readiness.report import read_history
from quizapp.srs.store.sqlite.store import ReviewStore
from quizapp.srs.times import to_ms
from tests.srs.readiness_helpers import answer, numeric, single

T0 = datetime(2026, 10, 1, 9, 0, tzinfo=UTC)


def test_a_calibrated_forecast_has_no_binned_error_and_its_own_log_loss() -> None:
    pairs = [(0.8, i < 40) for i in range(50)] + [(0.3, i < 15) for i in range(50)]
    result = calibrate(pairs)
    assert result.enough and result.reviews == 100
    assert result.rmse_bins == pytest.approx(0.0, abs=1e-12)
    expected = -(40 * math.log(0.8) + 10 * math.log(0.2) + 15 * math.log(0.3) + 35 * math.log(0.7))
    assert result.log_loss == pytest.approx(expected / 100)
    rows = {b.low: b for b in result.table if b.count}
    assert set(rows) == {0.3, 0.8}
    assert rows[0.8].count == 50 and rows[0.8].share_right == pytest.approx(0.8)
    assert rows[0.3].mean_predicted == pytest.approx(0.3)
    assert "off by 0.0 points" in result.verdict()


def test_an_overconfident_forecast_shows_its_error() -> None:
    result = calibrate([(0.9, i % 2 == 0) for i in range(60)])
    assert result.rmse_bins == pytest.approx(0.4)
    assert result.mean_predicted == pytest.approx(0.9) and result.share_right == 0.5
    assert result.as_json()["reliability"][9]["reviews"] == 60  # the 90-100 % bin


def test_too_little_history_is_said_not_scored() -> None:
    result = calibrate([(0.9, True)] * (MIN_REVIEWS - 1))
    assert not result.enough and result.log_loss is None and result.rmse_bins is None
    assert "Too little history" in result.verdict() and str(MIN_REVIEWS) in result.verdict()
    assert result.as_json()["reliability"] == []


def test_the_prediction_is_made_from_the_state_just_before_each_review(tmp_path) -> None:
    num = numeric("n1")
    choice = single("c1", options=4)
    questions = {q.id: q for q in (num, choice)}
    with ReviewStore.open(tmp_path / "h.sqlite3") as store:
        answer(store, num, T0, right=True)  # first sight: nothing to predict from
        # Same day: practice, neither predicted nor part of the memory state.
        answer(store, num, T0 + timedelta(hours=1), right=True)
        answer(store, num, T0 + timedelta(days=6), right=False)
        answer(store, choice, T0, right=False)
        answer(store, choice, T0 + timedelta(days=30), right=True)
        facts = read_history(store, questions, T0 + timedelta(days=40))
    model = MemoryModel()
    pairs = list(review_predictions(facts.past_reviews, model, {"c1": 0.25, "n1": 0.0}))
    assert [right for _, right in pairs] == [False, True]
    # The numeric card's state after its first answer on day 0 (the evidence), read at day 6.
    memory = model.review(None, 3, to_ms(T0))
    assert pairs[0][0] == pytest.approx(model.retrievability(memory, to_ms(T0 + timedelta(6))))
    # The choice card was failed on first sight; a four-option question is never below 1/4.
    failed = model.review(None, 1, to_ms(T0))
    recall = model.retrievability(failed, to_ms(T0 + timedelta(days=30)))
    assert pairs[1][0] == pytest.approx(max(recall, 0.25))
    late = model.retrievability(failed, to_ms(T0 + timedelta(days=3000)))
    assert late < 0.25  # …which matters once recall has fallen that far
