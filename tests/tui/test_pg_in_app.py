"""The app on a shared PostgreSQL history: it asks whose history it is when nobody said, and a
drill's answers land under that student only."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Label

from quizapp.srs.store.history import PostgresLocation, StudentToAsk
from quizapp.srs.store.open_history import open_writer
from quizapp.tui.screens.home import HomeScreen
from quizapp.tui.screens.student import StudentScreen
from tests.tui.test_history_in_app import make_app, saved, start_drill
from tests.tui.test_sessions import answer_current, drive, wait_for

pytest.importorskip("psycopg")


def test_the_app_asks_for_the_student_and_saves_under_them(pg_url: str) -> None:
    app = make_app(StudentToAsk(pg_url))  # type: ignore[arg-type]

    async def scenario(pilot: Pilot) -> None:
        # Pushed is not yet composed: wait for the field itself.
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, StudentScreen)
                and app.screen.is_mounted
                and bool(app.screen.query(Input))
            ),
        )
        assert app.history_writes.writer is None  # nothing opens before the student is known
        app.screen.query_one(Input).value = "bad\x1bname"
        await pilot.press("enter")
        problem = app.screen.query_one("#student-problem", Label)
        assert "control character" in str(problem.content)
        app.screen.query_one(Input).value = "ada"
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        screen = await start_drill(pilot, app)
        first = screen.question.id
        await answer_current(pilot, screen, right=True)
        await saved(pilot, app)
        with open_writer(PostgresLocation(pg_url, "ada")) as ada:
            assert [r.question_id for r in ada.reviews()] == [first]
        with open_writer(PostgresLocation(pg_url, "bob")) as bob:
            assert bob.review_count() == 0

    drive(app, scenario)
    assert app.history_writes.path == PostgresLocation(pg_url, "ada")


def test_escape_runs_the_app_without_saving(pg_url: str) -> None:
    app = make_app(StudentToAsk(pg_url))  # type: ignore[arg-type]

    async def scenario(pilot: Pilot) -> None:
        await wait_for(
            pilot, lambda: isinstance(app.screen, StudentScreen) and app.screen.is_mounted
        )
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.history_writes.failure is not None)
        assert isinstance(app.screen, HomeScreen) and app.history_writes.writer is None

    drive(app, scenario)
    assert any("no student id" in line for line in app.history_writes.exit_problems())
