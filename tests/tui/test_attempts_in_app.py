"""Each answer the app saves says how it came in its session, so the forecast can tell
evidence from practice (quizapp/srs/readiness/evidence.py): the first answer, a learning step asked
again, and an answer given again after undo took back one whose feedback was shown."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from textual.pilot import Pilot

from quizapp.srs.config import Settings
from tests.tui.test_history_in_app import make_app, saved, start_drill
from tests.tui.test_scheduling_in_app import asking
from tests.tui.test_sessions import answer_current, drive, wait_for


def attempts(db: Path) -> list[tuple[str, str | None]]:
    connection = sqlite3.connect(db)
    try:
        rows = connection.execute("SELECT question_id, attempt FROM reviews ORDER BY id")
        return list(rows)
    finally:
        connection.close()


def test_first_repeat_and_aided_answers_are_recorded_as_such(tmp_path: Path) -> None:
    db = tmp_path / "history.sqlite3"
    app = make_app(db, settings=Settings(new_cards_per_day=1), warm_up=False)

    async def scenario(pilot: Pilot) -> None:
        screen = await start_drill(pilot, app)
        await answer_current(pilot, screen, right=False)  # first: a learning step follows
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.state == "waiting")
        await pilot.press("enter")  # the learning step, asked now
        await wait_for(pilot, lambda: asking(screen))
        await answer_current(pilot, screen, right=False)  # a repeat in this session
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.state == "waiting")
        await pilot.press("enter")
        await wait_for(pilot, lambda: asking(screen))
        await answer_current(pilot, screen, right=False)  # seen with its feedback…
        await pilot.press("u")  # …taken back…
        await wait_for(pilot, lambda: asking(screen))
        await answer_current(pilot, screen, right=True)  # …and given again: aided
        await saved(pilot, app)
        assert attempts(db) == [
            ("t-single", "first"),
            ("t-single", "repeat"),
            ("t-single", "aided"),
        ]

    drive(app, scenario)
