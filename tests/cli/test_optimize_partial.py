"""`quizapp optimize` within a real preparation: a partial fit from a short history, judged on
held-out reviews before it is used, and the optimal retention for the days left to the exam."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from fsrs.scheduler import DEFAULT_PARAMETERS

import quizapp.srs.memory.optimize
from quizapp.srs.memory.fitting import PARTIAL, prepare
from quizapp.srs.memory.horizon import optimal_retention, review_costs
from quizapp.srs.memory.optimize import fit, report_lines
from quizapp.srs.memory.pretrain import InitialStabilities
from quizapp.srs.store.fits import active_fit, latest_fit, save_fit
from quizapp.srs.store.history import ReviewRow
from quizapp.srs.store.sqlite.store import ReviewStore
from tests.conftest import REPO
from tests.srs.simulated_history import START, simulate_history, simulate_rows

# A month's preparation at one new card a day: some 200 answers, 70-odd a day or more apart.
SHORT_PREP = {"cards": 30, "days": 30, "new_per_day": 1}
AFTER = START + timedelta(days=31)


@pytest.fixture
def rows() -> list[ReviewRow]:
    """The simulated student forgets far faster than the defaults assume (FORGETFUL)."""
    return simulate_rows(**SHORT_PREP)


def test_a_short_history_gets_a_partial_fit_that_beats_the_defaults_and_is_used(
    rows: list[ReviewRow], tmp_path: Path
) -> None:
    outcome = fit(rows, now=AFTER, retention=False)
    record = outcome.record
    assert outcome.kind == PARTIAL and record.detail["kind"] == PARTIAL
    assert record.parameters[4:] == tuple(DEFAULT_PARAMETERS[4:])  # only w[0..3] moved
    assert record.parameters[:4] != tuple(DEFAULT_PARAMETERS[:4])
    assert record.log_loss_after < record.log_loss_before and record.in_use
    lines = report_lines(outcome)
    text = "\n".join(lines)
    assert text.startswith("Partial fit: the initial stabilities (w[0..3]) only")
    assert f"default parameters  {record.log_loss_before:8.4f}" in text
    assert f"fitted parameters   {record.log_loss_after:8.4f}" in text
    assert "Better: drills schedule with the fitted parameters" in text
    assert all(len(line) <= 64 for line in lines)
    with ReviewStore.open(tmp_path / "history.sqlite3") as store:
        save_fit(store, record)
        stored = active_fit(store)
    assert stored is not None and stored.parameters == record.parameters
    assert "fitted (initial stabilities only)" in stored.summary()  # what stats shows


def test_a_fit_that_does_not_beat_the_defaults_is_refused(
    rows: list[ReviewRow], monkeypatch, tmp_path: Path
) -> None:
    """A fit worse on the held-out reviews is stored, unused, and the report says why."""
    absurd = (100.0, 100.0, 100.0, 100.0, *DEFAULT_PARAMETERS[4:])  # nothing is ever forgotten
    monkeypatch.setattr(
        quizapp.srs.memory.optimize,
        "fit_initial_stabilities",
        lambda logs, defaults: InitialStabilities(absurd, {1: 1, 2: 1, 3: 1, 4: 1}),
    )
    outcome = fit(rows, now=AFTER, retention=False)
    record = outcome.record
    assert record.log_loss_after > record.log_loss_before
    assert record.in_use is False
    text = " ".join(report_lines(outcome))
    assert "Not better on the held-out reviews: drills keep py-fsrs's defaults" in text
    db = tmp_path / "history.sqlite3"
    with ReviewStore.open(db) as store:
        save_fit(store, record)
        assert active_fit(store) is None
        stored = latest_fit(store)
        assert stored is not None and stored.parameters == absurd


def test_the_optimal_retention_is_worked_out_for_the_days_left_to_the_exam(
    rows: list[ReviewRow],
) -> None:
    exam_at = AFTER + timedelta(days=15)
    outcome = fit(rows, now=AFTER, exam_at=exam_at)
    assert outcome.horizon_days == pytest.approx(15)
    assert outcome.record.detail["retention_horizon_days"] == pytest.approx(15)
    timed = [log for log in prepare(rows).logs if log.review_duration is not None]
    costs = review_costs(timed)
    assert costs is not None
    in_force = outcome.record.parameters if outcome.record.in_use else DEFAULT_PARAMETERS
    expected = optimal_retention(in_force, costs, AFTER, exam_at)
    assert outcome.optimal_retention == expected
    assert outcome.record.detail["optimal_retention"] == expected
    assert f"Optimal retention for the 15 days to the exam: {expected:.2f}" in " ".join(
        report_lines(outcome)
    )

    # An exam already past (or none): py-fsrs's year, which wants 512 timed reviews.
    for gone in (AFTER - timedelta(days=1), None):
        year = fit(rows, now=AFTER, exam_at=gone)
        assert year.horizon_days is None and year.optimal_retention is None
        assert year.retention_note is not None and "py-fsrs needs 512" in year.retention_note


def test_the_command_fits_a_short_history_without_torch_and_follows_the_exam_date(
    tmp_path: Path,
) -> None:
    db = tmp_path / "history.sqlite3"
    simulate_history(db, **SHORT_PREP)
    code = f"""
import sys
from quizapp.cli import main
status = main(["optimize", "--db", {str(db)!r}, "--json", "--exam-date", "2025-02-20",
               "--now", "2025-02-06"])
print("torch" in sys.modules, file=sys.stderr)
sys.exit(status)
"""
    env = {**os.environ, "QUIZAPP_CONFIG": str(tmp_path / "none.toml"), "TZ": "UTC"}
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=REPO, env=env
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip().splitlines()[-1] == "False"  # the partial fit needs no torch
    payload = json.loads(result.stdout)
    record = payload["fit"]
    assert record["kind"] == "partial"
    # 09:00 to 09:00; the moved clock keeps running while the command loads, so allow a minute.
    assert record["retention_horizon_days"] == pytest.approx(14.0, abs=60 / 86400)
    assert record["optimal_retention"] is not None
    report = "\n".join(payload["report"])
    assert "default parameters" in report and "fitted parameters" in report
    assert "for the 14 days to the exam" in report
