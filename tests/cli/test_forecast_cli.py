"""`quizapp forecast` on a history in a temporary folder, as a user would run it."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from quizapp.bank import bundled_bank_path, load_bank
from quizapp.srs.scheduling import Rating, make_scheduler
from quizapp.srs.store import ReviewStore
from tests.conftest import REPO


@pytest.fixture
def history(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Three days of drills on the bundled bank, the last on 2026-12-03."""
    db = tmp_path / "history.sqlite3"
    config = tmp_path / "config.toml"
    config.write_text("exam_date = 2027-01-15\nstudy_minutes_per_day = 15\n")
    monkeypatch.setenv("QUIZAPP_DB", str(db))
    monkeypatch.setenv("QUIZAPP_CONFIG", str(config))
    monkeypatch.setenv("TZ", "UTC")
    questions = list(load_bank([bundled_bank_path()]).questions.values())[:12]
    scheduler = make_scheduler(fuzz=False)
    with ReviewStore.open(db) as store:
        for day in range(3):
            for i, q in enumerate(questions):
                store.record_answer(
                    question_id=q.id,
                    deck_id=q.deck_id,
                    topic=q.topic,
                    rating=Rating.Good if (i + day) % 3 else Rating.Again,
                    correct=bool((i + day) % 3),
                    when=datetime(2026, 12, 1 + day, 9, 0, tzinfo=UTC) + timedelta(minutes=i),
                    duration_ms=30_000,
                    kind="drill",
                    scheduler=scheduler,
                )
    return db


def test_forecast_json_reads_the_history_and_the_exam_date(run_cli, history: Path) -> None:
    before = history.read_bytes()
    result = run_cli("forecast", "--json", "--now", "2026-12-04")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["exam_date"] == "2027-01-15" and report["days_left"] == 42
    assert report["exam_questions"] == 20 and report["reviews"] == 36
    assert report["exam_questions_seen"] == 12
    forecast = report["forecast"]
    low, high = forecast["interval_80"]
    # The interval is of a 20-question score: whole twentieths, around the mean.
    assert 0 <= low <= high <= 1 and (20 * low).is_integer() and (20 * high).is_integer()
    assert low - 0.05 <= forecast["expected_score"] <= high
    assert 0 <= forecast["pass_chance"] <= 1
    assert set(forecast["topics"]) == {
        "multi-head-attention",
        "normalization-residuals",
        "positional-encoding",
    }
    assert report["forecast_basis"] == "plan followed"
    assert report["with_plan"]["expected_score"] > report["no_further_study"]["expected_score"]
    assert len(report["by_day"]) == 43 and report["by_day"][0]["date"] == "2026-12-04"
    # 15 minutes at a minute a card (answers came a minute apart in each session): 15 cards.
    assert report["minutes_per_card"] == 1.0 and report["today"]["cards"] == 15
    assert report["calibration"]["enough_history"] is False  # 24 checkable reviews
    assert history.read_bytes() == before  # read only
    documented = (REPO / "docs" / "forecast.md").read_text()
    for key in report:  # docs/forecast.md lists every key
        assert f"| `{key}` |" in documented, key


def test_exam_date_on_the_command_line_and_the_human_report(run_cli, history: Path) -> None:
    result = run_cli("--now", "2026-12-04", "forecast", "--exam-date", "2026-12-10")
    assert result.returncode == 0, result.stderr
    assert "Exam Thu 10 Dec 2026 (in 6 days)" in result.stdout
    assert "Predicted score, plan followed:" in result.stdout
    assert "Too little history to check the forecast" in result.stdout


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--exam-date", "2027-02-30"], "--exam-date: expected a date like 2027-01-15"),
        (["--now", "soon"], "--now: expected a date"),
        (["--questions", "0"], "--questions must be at least 1"),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(run_cli, history: Path, args, fragment) -> None:
    result = run_cli("forecast", *args)
    assert result.returncode == 2
    assert fragment in result.stderr and len(result.stderr.strip().splitlines()) == 1
