"""A drill on a shared PostgreSQL history whose server stops mid-session (`pg_ctl stop -m
immediate`) and comes back: the student is told the answers are kept on this machine, the drill
goes on, and once the server is back every answer arrives once, in the order given."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.pilot import Pilot

from quizapp.bank.grading import Grade
from quizapp.srs.store.history import PostgresLocation
from quizapp.srs.store.open_history import open_writer
from tests.tui.test_history_in_app import make_app, saved, start_drill
from tests.tui.test_history_writes import notifications, status_bar
from tests.tui.test_sessions import answer_current, drive, wait_for

pytest.importorskip("psycopg")


def test_answers_during_an_outage_are_kept_then_sent_and_the_student_is_told(
    stoppable_postgres, stoppable_pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # the outbox's folder
    location = PostgresLocation(stoppable_pg_url, "ada")
    app = make_app(location)  # type: ignore[arg-type]
    given: list[str] = []

    async def answer(pilot: Pilot, screen) -> None:
        given.append(screen.question.id)
        await answer_current(pilot, screen, right=True)
        await pilot.press("enter")  # on to the next question

    async def scenario(pilot: Pilot) -> None:
        screen = await start_drill(pilot, app)
        await answer(pilot, screen)
        await saved(pilot, app)
        view = app.history_writes.view()
        as_stored = view.card(given[0]).to_dict()  # type: ignore[union-attr]

        await asyncio.to_thread(stoppable_postgres.stop_immediately)
        await answer(pilot, screen)
        await answer(pilot, screen)
        # The first question again, as a drill's relearning step would: scheduled from its card
        # as the server last had it, though the server cannot be read now.
        question = app.bank.questions[given[0]]
        again = app.history_writes.record_answer(
            question, Grade(True, "", ""), 5.0, "drill", app.settings
        )
        given.append(question.id)
        assert again.before is not None and again.before.to_dict() == as_stored
        await wait_for(pilot, lambda: "kept on this machine, 3 waiting" in status_bar(app))
        line = status_bar(app)
        assert line.startswith("3 answers not saved to the class store")
        # Said once, not an error for every read the drill makes.
        told = [m for m in notifications(app) if "cannot be reached" in m]
        assert len(told) <= 1 and not any(m.startswith("Reading") for m in notifications(app))
        assert list((tmp_path / "data" / "quizapp" / "outbox").glob("*.sqlite3"))

        await asyncio.to_thread(stoppable_postgres.start)
        await wait_for(pilot, lambda: app.history_writes.writer.status().pending == 0)
        await wait_for(pilot, lambda: status_bar(app) == "")
        await wait_for(
            pilot,
            lambda: "3 answers kept on this machine reached the class store." in notifications(app),
        )

    drive(app, scenario)
    with open_writer(location) as store:
        assert [r.question_id for r in store.reviews()] == given


def test_quitting_during_the_outage_keeps_the_answers_for_the_next_start(
    stoppable_postgres, stoppable_pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    location = PostgresLocation(stoppable_pg_url, "ada")
    first = make_app(location)  # type: ignore[arg-type]
    given: list[str] = []

    async def quit_during_the_outage(pilot: Pilot) -> None:
        screen = await start_drill(pilot, first)
        await saved(pilot, first)  # open, and reachable
        await asyncio.to_thread(stoppable_postgres.stop_immediately)
        given.append(screen.question.id)
        await answer_current(pilot, screen, right=True)
        await wait_for(pilot, lambda: "kept on this machine, 1 waiting" in status_bar(first))
        assert "kept on this machine" in first.history_writes.quit_warning()
        await first.history_writes.close(timeout=0.2)

    drive(first, quit_during_the_outage)
    [problem] = first.history_writes.exit_problems()  # not "could not be opened"
    assert "kept on this machine and sent the next time" in problem

    stoppable_postgres.start()
    second = make_app(location)  # type: ignore[arg-type]

    async def start_again(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: second.history is not None)
        await saved(pilot, second)
        await wait_for(
            pilot,
            lambda: "1 answer kept on this machine reached" in " ".join(notifications(second)),
        )

    drive(second, start_again)
    with open_writer(location) as store:
        assert [r.question_id for r in store.reviews()] == given


def test_the_outage_notice_does_not_promise_an_outbox_that_cannot_be_used(
    stoppable_postgres, stoppable_pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An outbox left unreadable by an earlier run is not used: answers given while the server
    is away wait in the app only, and the notice says so instead of "kept on this machine"."""
    from quizapp.srs.store.outbox import outbox_path

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    location = PostgresLocation(stoppable_pg_url, "ada")
    broken = outbox_path(location)
    broken.parent.mkdir(parents=True)
    broken.write_bytes(b"not an outbox, not SQLite at all" * 64)
    app = make_app(location)  # type: ignore[arg-type]

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: app.history is not None)
        await saved(pilot, app)
        assert app.history_writes.writer.status().outbox_error is not None
        await asyncio.to_thread(stoppable_postgres.stop_immediately)
        app.history_writes.read(lambda: app.history.suspended_ids(), "suspended cards")  # type: ignore[union-attr]
        await wait_for(pilot, lambda: any("cannot be reached" in m for m in notifications(app)))
        [told] = [m for m in notifications(app) if "cannot be reached" in m]
        assert "are kept on this machine" not in told
        assert "cannot be kept on this machine" in told and str(broken) in told

    drive(app, scenario)
