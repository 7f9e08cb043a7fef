"""`quizapp optimize`: py-fsrs's optimizer on a simulated student, the refusal below its minimum,
--reset, and --default-parameters on the commands that schedule."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from fsrs.scheduler import DEFAULT_PARAMETERS

from quizapp.srs.memory.fitting import MIN_LEARNABLE, MIN_PARTIAL_LEARNABLE
from quizapp.srs.store.fits import active_fit
from quizapp.srs.store.sqlite.store import ReviewStore
from tests.conftest import REPO
from tests.srs.simulated_history import FIT_SIZE, simulate_history
from tests.srs.test_fit_store import stored_value


@pytest.mark.slow
def test_the_real_optimizer_fits_a_simulated_student_and_the_fit_is_used(
    run_cli, tmp_path: Path
) -> None:
    """py-fsrs's Optimizer (torch) on a student who forgets faster than the defaults assume:
    the held-out log-loss does not get worse, the fit is stored and in use, stats says so,
    and --reset goes back to the defaults."""
    db = tmp_path / "history.sqlite3"
    simulate_history(db, **FIT_SIZE)
    result = run_cli("optimize", "--db", str(db), "--json", "--no-retention", timeout=300)
    assert result.returncode == 0, result.stderr
    payload = json.loads(result.stdout)
    fit = payload["fit"]
    assert fit["log_loss_after"] <= fit["log_loss_before"]
    assert fit["in_use"] is True and fit["kind"] == "full"
    assert fit["parameters"] != list(DEFAULT_PARAMETERS)
    assert fit["held_out_reviews"] > 200 and fit["learnable_reviews"] >= MIN_LEARNABLE
    assert any("log-loss" in line for line in payload["report"])
    assert all(len(line) <= 80 for line in payload["report"])

    with ReviewStore.open_readonly(db) as store:
        stored = active_fit(store)
    assert stored is not None and list(stored.parameters) == fit["parameters"]

    stats = run_cli("stats", "--json", "--db", str(db))
    assert json.loads(stats.stdout)["fitted_parameters"]["parameters"] == fit["parameters"]
    shown = run_cli("stats", "--db", str(db))
    assert "Scheduler" in shown.stdout and "FSRS fitted" in shown.stdout

    reset = run_cli("optimize", "--reset", "--db", str(db))
    assert reset.returncode == 0 and "default parameters" in reset.stdout
    assert (
        json.loads(run_cli("stats", "--json", "--db", str(db)).stdout)["fitted_parameters"] is None
    )
    assert stored_value(db, "SELECT COUNT(*) FROM fsrs_fits") == 1  # kept, unused


def test_below_the_optimizers_minimum_it_refuses_in_one_line_without_torch(
    tmp_path: Path,
) -> None:
    db = tmp_path / "history.sqlite3"
    simulate_history(db, cards=30, days=10, new_per_day=5)
    before = db.read_bytes()
    code = f"""
import sys
from quizapp.cli import main
status = main(["optimize", "--db", {str(db)!r}])
print(status, "torch" in sys.modules)
"""
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=REPO
    )
    assert result.stdout.split() == ["1", "False"]  # refused before torch was imported
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("quizapp optimize: error: not enough history")
    assert f"need {MIN_PARTIAL_LEARNABLE} reviews" in lines[0]
    assert db.read_bytes() == before  # nothing written


def test_no_history_and_a_folder_are_errors_and_nothing_is_created(run_cli, tmp_path: Path) -> None:
    missing = tmp_path / "history.sqlite3"
    result = run_cli("optimize", "--db", str(missing))
    assert result.returncode == 1 and "no review history" in result.stderr
    assert not missing.exists()
    folder = run_cli("optimize", "--db", str(tmp_path))
    assert folder.returncode == 2 and "is a folder" in folder.stderr
    reset = run_cli("optimize", "--reset", "--db", str(missing))
    assert reset.returncode == 0 and not missing.exists()


@pytest.mark.parametrize(
    ("argv", "start"),
    [
        (["--default-parameters"], "home"),
        (["drill", "--default-parameters"], "drill"),
        (["--default-parameters", "drill"], "drill"),
        (["exam", "--default-parameters"], "exam"),
        (["drill"], "drill"),
    ],
)
def test_default_parameters_reaches_the_app(monkeypatch, tmp_path: Path, argv, start) -> None:
    import quizapp.tui.app
    from quizapp.cli import main

    seen = []

    class NoApp:
        return_code = 0

        def __init__(self, bank, options) -> None:
            seen.append(options)
            self.history_writes = self

        def run(self) -> None:
            pass

        def exit_notes(self) -> list[str]:
            return []

        exit_problems = exit_notes

    monkeypatch.setattr(quizapp.tui.app, "QuizApp", NoApp)
    monkeypatch.setenv("QUIZAPP_CONFIG", str(tmp_path / "none.toml"))
    assert main([*argv, "--db", str(tmp_path / "h.sqlite3")]) == 0
    [options] = seen
    assert options.start == start
    assert options.default_parameters is ("--default-parameters" in argv)
    assert options.warm_up  # torch loads once the first screen is drawn, unless told otherwise
