"""`quizapp forecast` on a history in a temporary folder, as a user would run it."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from quizapp.bank import bundled_bank_path, load_bank
from quizapp.srs.memory.scheduling import Rating, make_scheduler
from quizapp.srs.store.sqlite.store import ReviewStore
from tests.conftest import REPO


@pytest.fixture
def history(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Three days of drills on the bundled bank, the last on 2026-12-03."""
    return drilled(tmp_path, monkeypatch, days=3)


def drilled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, days: int) -> Path:
    """`days` days of drills on 12 questions of the bundled bank, from 2026-12-01, a third of
    the answers wrong; the history and a config file with an exam date in `tmp_path`."""
    db = tmp_path / "history.sqlite3"
    config = tmp_path / "config.toml"
    config.write_text("exam_date = 2027-01-15\nstudy_minutes_per_day = 15\n")
    monkeypatch.setenv("QUIZAPP_DB", str(db))
    monkeypatch.setenv("QUIZAPP_CONFIG", str(config))
    monkeypatch.setenv("TZ", "UTC")
    questions = list(load_bank([bundled_bank_path()]).questions.values())[:12]
    scheduler = make_scheduler(fuzz=False)
    with ReviewStore.open(db) as store:
        for day in range(days):
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
        "modern-attention",
        "multi-head-attention",
        "normalization-residuals",
        "positional-encoding",
    }
    assert report["forecast_basis"] == "plan followed"
    # The plan-followed figure is a forecast with its own interval. It is not assumed to beat
    # no further study: this student's reviews go wrong a third of the time a day later, far
    # more often than the model says, so the forecast learns they forget fast
    # (docs/forecast.md, "How fast you forget").
    planned = report["with_plan"]
    assert planned["interval_80"][0] <= planned["expected_score"] <= planned["interval_80"][1]
    assert planned["expected_score"] != report["no_further_study"]["expected_score"]
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
        (["--questions", "0"], "--questions: must be a whole number from 1 to 1000, not 0"),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(run_cli, history: Path, args, fragment) -> None:
    result = run_cli("forecast", *args)
    assert result.returncode == 2
    assert fragment in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_with_no_history_it_says_there_is_not_enough_evidence(
    run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A student who has answered nothing gets no confident figure: the JSON keeps the wide
    distribution, flagged; the text says what to do instead."""
    monkeypatch.setenv("QUIZAPP_CONFIG", str(tmp_path / "config.toml"))  # none there
    monkeypatch.setenv("TZ", "UTC")
    never_made = tmp_path / "never-made.db"
    common = ("--db", str(never_made), "--now", "2026-12-04", "forecast")
    result = run_cli(*common, "--exam-date", "2027-01-03", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["evidence"]["enough"] is False and report["evidence"]["questions_needed"] == 10
    assert report["plan_enough_evidence"] is False
    for key in ("forecast", "no_further_study", "with_plan"):
        figures = [report[key], *report[key]["topics"].values()]
        for figure in figures:
            low, high = figure["interval_80"]
            if key == "with_plan":  # no checked answer: no pass chance for the plan at all
                assert figure["pass_chance"] is None
            else:
                assert figure["pass_chance"] < 0.9, key
            assert high - low >= 0.3 - 1e-9, key
            assert low <= figure["expected_score"] <= high, key
        assert report[key]["based_on"].startswith("based on 0 first attempts on 0 of ")
    text = run_cli(*common, "--exam-date", "2027-01-03")
    assert text.returncode == 0, text.stderr
    assert "Not enough evidence yet: answer 10 more questions for a forecast" in text.stdout
    assert "Predicted score" not in text.stdout and "%," not in text.stdout
    assert not never_made.exists()  # read only: nothing created


def test_first_attempts_alone_give_no_figure_for_the_plan(
    run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One day of drills: 12 first attempts, none a check of how fast this student forgets.
    "No further study" has its figure; the plan says what it lacks, in text and in JSON."""
    drilled(tmp_path, monkeypatch, days=1)
    text = run_cli("forecast", "--now", "2026-12-04")
    assert text.returncode == 0, text.stderr
    out = " ".join(text.stdout.split())  # rich wraps long lines
    assert "Plan followed: not enough evidence yet of how fast you forget: review 10 more " in out
    assert "Predicted score, no further study: " in out and "chance of passing" in out
    assert "plan followed:" not in out and "plan " not in out.split("Predicted score by day")[1]
    result = run_cli("forecast", "--json", "--now", "2026-12-04")
    report = json.loads(result.stdout)
    assert report["evidence"]["enough"] is True and report["plan_enough_evidence"] is False
    assert report["plan_evidence"]["checked_answers"] == 0
    assert report["plan_evidence"]["checked_needed"] == 10
    assert report["forecast_basis"] == "no further study"
    assert report["forecast"]["pass_chance"] == report["no_further_study"]["pass_chance"]
    assert report["with_plan"]["pass_chance"] is None
