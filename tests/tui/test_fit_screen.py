"""The palette's "Fit the scheduler to my history" and the parameters drills then use.

The Fit screen runs `quizapp optimize` in a child process. Here the child is the real command
with a stand-in optimizer (tests/tui/fake_optimize.py) so the app tests stay fast; py-fsrs's
real optimizer runs in tests/cli/test_optimize_cli.py. The refusal runs the real command.
"""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import date, timedelta
from pathlib import Path

import pytest
from fsrs.scheduler import DEFAULT_PARAMETERS
from textual.pilot import Pilot
from textual.widgets import Static

from quizapp.srs.config import Settings
from quizapp.srs.memory.fitting import MIN_PARTIAL_LEARNABLE
from quizapp.srs.store.fits import FitRecord, active_fit, latest_fit, save_fit
from quizapp.srs.store.history import PostgresLocation
from quizapp.srs.store.open_history import open_writer
from quizapp.srs.store.sqlite.store import ReviewStore
from quizapp.tui.screens import fit as fit_screen
from quizapp.tui.screens.fit import FitScreen
from quizapp.tui.screens.home import HomeScreen
from tests.srs.simulated_history import FIT_SIZE, FORGETFUL, simulate_history
from tests.tui.test_history_in_app import make_app, saved, start_drill
from tests.tui.test_lab_device import palette
from tests.tui.test_sessions import answer_current, drive, text_of, wait_for

SIZE = (80, 24)
FAKE = Path(__file__).with_name("fake_optimize.py")


@pytest.fixture
def fake_child(monkeypatch):
    """The Fit screen's child process: the real command with the stand-in optimizer."""
    monkeypatch.setattr(
        fit_screen, "fit_command", lambda db: [sys.executable, str(FAKE), "--db", str(db), "--json"]
    )


async def open_fit_screen(pilot: Pilot) -> FitScreen:
    app = pilot.app
    await wait_for(
        pilot,
        lambda: (
            isinstance(app.screen, HomeScreen) and app.screen.is_mounted and app.history is not None
        ),
    )
    await palette(pilot, "Fit the scheduler")  # waits until the palette offers it
    await pilot.press("enter")
    await wait_for(pilot, lambda: isinstance(app.screen, FitScreen) and app.screen.is_mounted)
    return app.screen  # type: ignore[return-value]


def shown(screen: FitScreen, widget_id: str) -> str:
    return text_of(screen.query_one(f"#{widget_id}", Static))


def test_the_palette_fits_shows_the_report_and_drills_use_the_fit(
    tmp_path: Path, fake_child
) -> None:
    db = tmp_path / "history.sqlite3"
    simulate_history(db, **FIT_SIZE)
    app = make_app(db)

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: app.history is not None)
        assert app.history_writes.parameters is None  # the defaults until a fit
        screen = await open_fit_screen(pilot)
        await wait_for(pilot, lambda: not screen.running, timeout=60)
        report = shown(screen, "fit-report")
        assert "default parameters" in report and "fitted parameters" in report
        assert report.startswith("All 21 parameters fitted on")  # a full fit: 600-odd reviews
        assert "Better: drills schedule with the fitted parameters" in report
        assert "Optimal retention for your workload (py-fsrs): 0.85" in report
        assert shown(screen, "fit-stage").startswith("Done in")
        # At 80 x 24 the whole report and the Close button are on screen, unscrolled.
        dialog = screen.query_one(".fit-dialog")
        assert dialog.region.right <= SIZE[0] and dialog.region.bottom <= SIZE[1]
        assert dialog.max_scroll_y == 0
        close = screen.query_one("#close")
        assert str(close.label) == "Close (Esc)" and close.region.bottom <= dialog.region.bottom
        assert app.history_writes.parameters == tuple(FORGETFUL)
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)

        # A drill now schedules with the fitted parameters: a new card answered Good starts
        # at the fit's initial stability for Good, not the default one.
        quiz = await start_drill(pilot, pilot.app)
        await answer_current(pilot, quiz, right=True)
        await saved(pilot, app)

    drive(app, scenario, size=SIZE)
    with ReviewStore.open_readonly(db) as store:
        fit = active_fit(store)
        assert fit is not None and fit.parameters == tuple(FORGETFUL)
        assert store.connection.execute("SELECT COUNT(*) FROM fsrs_fits").fetchone()[0] == 1
        newest = store.connection.execute(
            "SELECT card_json FROM cards WHERE question_id NOT LIKE 'q%'"
        ).fetchall()
    assert len(newest) == 1
    stability = json.loads(newest[0][0])["stability"]
    assert stability in {FORGETFUL[2], FORGETFUL[3]}  # Good, or Easy when fast
    assert stability not in {DEFAULT_PARAMETERS[2], DEFAULT_PARAMETERS[3]}


def test_default_parameters_keeps_the_defaults_despite_a_stored_fit(tmp_path: Path) -> None:
    from datetime import UTC, datetime

    db = tmp_path / "history.sqlite3"
    with ReviewStore.open(db) as store:
        save_fit(
            store,
            FitRecord(datetime(2025, 1, 1, tzinfo=UTC), tuple(FORGETFUL), 900, 200, 0.6, 0.5, True),
        )
    fitted, plain = make_app(db), make_app(db, default_parameters=True)

    async def uses_the_fit(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: fitted.history is not None)
        assert fitted.history_writes.parameters == tuple(FORGETFUL)

    async def uses_the_defaults(pilot: Pilot) -> None:
        quiz = await start_drill(pilot, pilot.app)
        assert plain.history_writes.parameters is None
        await answer_current(pilot, quiz, right=True)
        await saved(pilot, plain)

    drive(fitted, uses_the_fit, size=SIZE)
    drive(plain, uses_the_defaults, size=SIZE)
    with ReviewStore.open_readonly(db) as store:
        [(card_json,)] = store.connection.execute("SELECT card_json FROM cards").fetchall()
    assert json.loads(card_json)["stability"] in {DEFAULT_PARAMETERS[2], DEFAULT_PARAMETERS[3]}


def test_a_tiny_history_is_refused_with_the_commands_message(tmp_path: Path) -> None:
    """The real command (no stand-in): it refuses before it would import torch."""
    db = tmp_path / "history.sqlite3"
    simulate_history(db, cards=20, days=5, new_per_day=4)
    app = make_app(db)

    async def scenario(pilot: Pilot) -> None:
        screen = await open_fit_screen(pilot)
        await wait_for(pilot, lambda: not screen.running, timeout=60)
        report = shown(screen, "fit-report")
        assert report.startswith("not enough history to fit")
        assert f"need {MIN_PARTIAL_LEARNABLE} reviews" in report
        assert shown(screen, "fit-stage").startswith("No fit")
        assert app.history_writes.parameters is None
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)

    drive(app, scenario, size=SIZE)
    with ReviewStore.open_readonly(db) as store:
        assert active_fit(store) is None


def test_a_short_history_gets_a_partial_fit_and_the_retention_to_the_apps_exam_date(
    tmp_path: Path,
) -> None:
    """The real command on a month's preparation: no torch, the initial stabilities only, and
    the optimal retention for the days left to the exam date the app was given."""
    db = tmp_path / "history.sqlite3"
    simulate_history(db, cards=30, days=30, new_per_day=1)
    exam = date.today() + timedelta(days=12)
    app = make_app(db, settings=Settings(exam_date=exam))

    async def scenario(pilot: Pilot) -> None:
        screen = await open_fit_screen(pilot)
        await wait_for(pilot, lambda: not screen.running, timeout=60)
        report = shown(screen, "fit-report")
        assert report.startswith("Partial fit: the initial stabilities (w[0..3]) only")
        assert "default parameters" in report and "fitted parameters" in report
        assert "days to the exam:" in report

    drive(app, scenario, size=SIZE)
    with ReviewStore.open_readonly(db) as store:
        fit = latest_fit(store)
    assert fit is not None and fit.detail["kind"] == "partial"
    assert 11 <= fit.detail["retention_horizon_days"] <= 13


def test_closing_the_screen_stops_a_fit_that_is_still_running(
    tmp_path: Path, fake_child, monkeypatch
) -> None:
    monkeypatch.setenv("FAKE_OPTIMIZER_SECONDS", "120")
    db = tmp_path / "history.sqlite3"
    simulate_history(db, **FIT_SIZE)
    app = make_app(db)
    children = []

    async def scenario(pilot: Pilot) -> None:
        screen = await open_fit_screen(pilot)
        await wait_for(pilot, lambda: screen.stage.startswith("Step 1 of 3"), timeout=60)
        children.append(screen._process)
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)

    drive(app, scenario, size=SIZE)
    [child] = children
    assert child is not None
    assert child.wait(timeout=10) != 0  # killed, not finished
    with ReviewStore.open_readonly(db) as store:
        assert active_fit(store) is None


def test_a_class_store_reaches_the_fit_through_its_environment_never_its_arguments(
    pg_url: str, tmp_path: Path
) -> None:
    """A URL's password must not show in `ps`: the child gets the store and student by env."""
    with_password = PostgresLocation("postgresql://ann:not-for-ps@db.example/course", "ann")
    command = fit_screen.fit_command(with_password)
    assert not any("not-for-ps" in part or "postgresql" in part for part in command)
    env = fit_screen.child_environment(with_password)
    assert (env["QUIZAPP_DB"], env["QUIZAPP_STUDENT"]) == (with_password.url, "ann")

    # The real child on a real class store: it reads Ann's (empty) history there. A fallback
    # to a local history would say "there is no review history at <its path>" instead.
    where = PostgresLocation(pg_url, "ann")
    open_writer(where).close()  # the class store, as the app left it
    env = fit_screen.child_environment(where)
    env["XDG_DATA_HOME"] = str(tmp_path / "data")
    done = subprocess.run(
        fit_screen.fit_command(where), env=env, capture_output=True, text=True, timeout=120
    )
    assert "not enough history to fit" in done.stderr, done.stderr
    assert done.returncode == 1 and not (tmp_path / "data").exists()
