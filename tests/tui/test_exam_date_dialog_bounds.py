"""The exam-date dialog takes dates from today to 3 years ahead, like --exam-date does."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Input

from quizapp.srs.clock import local_today
from quizapp.srs.config import exam_horizon
from quizapp.tui.screens.readiness import ExamDateDialog
from tests.tui.test_readiness_screen import db, make_app, open_readiness  # noqa: F401 (fixture)
from tests.tui.test_sessions import drive, text_of, wait_for


def test_a_date_out_of_range_is_refused_in_the_dialog_with_the_range(db: Path) -> None:  # noqa: F811
    app = make_app(db, None)
    today = local_today()
    farthest = exam_horizon(today)

    async def scenario(pilot: Pilot) -> None:
        await open_readiness(pilot, app)
        await pilot.press("e")
        await wait_for(
            pilot, lambda: isinstance(app.screen, ExamDateDialog) and app.screen.is_mounted
        )
        field = app.screen.query_one("#exam-date", Input)
        problem = app.screen.query_one("#exam-date-problem")
        for day, said in (
            (farthest + timedelta(days=1), "more than 3 years ahead"),
            (today - timedelta(days=1), "has passed"),
        ):
            field.value = day.isoformat()
            await pilot.press("enter")
            await wait_for(pilot, lambda said=said: said in text_of(problem))
            assert f"from {today.isoformat()} to {farthest.isoformat()}" in text_of(problem)
            assert isinstance(app.screen, ExamDateDialog) and app.settings.exam_date is None
        field.value = farthest.isoformat()  # the edge itself is taken
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.settings.exam_date == farthest)

    drive(app, scenario, size=(80, 24))
