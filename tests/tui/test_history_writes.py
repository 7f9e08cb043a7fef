"""Answers in the app when the history cannot take them yet, or cannot be opened at all.

Another program holds the write lock (`BEGIN EXCLUSIVE` from a second sqlite3 connection), the
disk is full, the path is a device, the file is corrupt: the UI never waits on the disk,
nothing given is lost while it can still be saved, and the user is told what is going on.
"""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

import pytest
from textual.pilot import Pilot

from quizapp.srs.store.sqlite.store import ReviewStore
from quizapp.tui.app import QuizApp
from quizapp.tui.components import history_writes
from quizapp.tui.screens.confirm import Confirm
from quizapp.tui.widgets.history_status import HistoryStatus
from tests.srs.filesystems import Lock, fill, make_history, make_special, small_tmpfs
from tests.tui.test_history_in_app import make_app, saved
from tests.tui.test_sessions import answer_current, drive, start_deck, text_of, wait_for
from tests.tui.toasts import said

# How long the lock is held at least (QUIZAPP_LOCK_TEST_SECONDS=15: the scenario).
# Twice Heartbeat.STALL, so a write on the UI thread stalls it past STALL before the lock
# goes, and several of the writer's 1 s busy timeouts, so it retries a few times.
HOLD_SECONDS = float(os.environ.get("QUIZAPP_LOCK_TEST_SECONDS", "6"))


def rows(path: Path) -> list[tuple[str, str]]:
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT question_id, kind FROM reviews ORDER BY id").fetchall()
    finally:
        db.close()


def status_bar(app: QuizApp) -> str:
    bars = app.screen.query(HistoryStatus)
    if not bars or not bars.first().has_class("-shown"):
        return ""
    return text_of(bars.first())


def notifications(app: QuizApp) -> list[str]:
    return said(app)


async def open_session(pilot: Pilot, app: QuizApp):
    await wait_for(pilot, lambda: app.history is not None)
    return await start_deck(pilot)


async def answer_while_locked(pilot: Pilot, app: QuizApp, db: Path):
    """Open a session, lock the history, answer the first question right and wait for the
    bar to say it is retrying. Returns the screen, the question answered and the lock (still
    held)."""
    screen = await open_session(pilot, app)
    answered = screen.question.id
    lock = Lock(db)
    await answer_current(pilot, screen, right=True)
    await wait_for(pilot, lambda: "retrying" in status_bar(app))
    return screen, answered, lock


class Heartbeat:
    """Beats every 50 ms on the UI thread; the longest gap is how long the UI stalled. (A
    history write on the UI thread stalled it for the whole 10 s busy timeout.)"""

    STALL = 3.0  # well under that, with room for a loaded machine

    def __init__(self, app: QuizApp) -> None:
        self.last = time.monotonic()
        self.longest = 0.0
        self.timer = app.set_interval(0.05, self.beat)

    def beat(self) -> None:
        now = time.monotonic()
        self.longest = max(self.longest, now - self.last)
        self.last = now

    def stop(self) -> float:
        self.timer.stop()
        return max(self.longest, time.monotonic() - self.last)


async def lab_done(pilot: Pilot, screen) -> None:
    """The question's live computation has run (torch is loaded: its import is not a stall)."""
    from quizapp.tui.widgets.lab_panel import LabPanel

    lab = screen.query_one(LabPanel)
    await wait_for(pilot, lambda: bool(lab.query(".lab-values")), 120)


@pytest.mark.slow
def test_answers_given_while_the_lock_is_held_are_saved_once_and_in_order(tmp_path: Path) -> None:
    db = tmp_path / "h.db"
    app = make_app(db)

    async def scenario(pilot: Pilot) -> None:
        screen = await open_session(pilot, app)
        await lab_done(pilot, screen)
        lock = Lock(db)
        held_since = time.monotonic()
        heartbeat = Heartbeat(app)
        try:
            first = screen.question.id
            await answer_current(pilot, screen, right=True)
            await pilot.press("enter")
            await wait_for(pilot, lambda: screen.state == "asking")
            second = screen.question.id
            assert second != first  # the next card did not wait for the write
            await answer_current(pilot, screen, right=False)
            await wait_for(
                pilot,
                lambda: (
                    status_bar(app) == "2 answers not saved yet — retrying (database is locked)"
                ),
            )
            assert rows(db) == []
            await pilot.press("question_mark")  # keys are handled while the lock is held
            await wait_for(pilot, lambda: app.screen.__class__.__name__ == "HelpScreen")
            await pilot.press("escape")
            await wait_for(pilot, lambda: app.screen is screen)
            while time.monotonic() - held_since < HOLD_SECONDS:
                await pilot.pause(0.25)
            assert status_bar(app).startswith("2 answers not saved yet")
            stalled = heartbeat.stop()
            assert stalled < Heartbeat.STALL, f"the UI stalled for {stalled:.1f} s"
        finally:
            lock.release()
        await saved(pilot, app)
        await wait_for(pilot, lambda: status_bar(app) == "")
        assert rows(db) == [(first, "practice"), (second, "practice")]

    drive(app, scenario)


def test_undo_of_an_answer_still_waiting_takes_it_out_of_the_queue(tmp_path: Path) -> None:
    db = tmp_path / "h.db"
    app = make_app(db)

    async def scenario(pilot: Pilot) -> None:
        screen, first, lock = await answer_while_locked(pilot, app, db)
        try:
            await pilot.press("u")
            await wait_for(pilot, lambda: screen.state == "asking" and status_bar(app) == "")
            assert screen.question.id == first
            await answer_current(pilot, screen, right=False)
            await wait_for(pilot, lambda: "1 answer not saved yet" in status_bar(app))
        finally:
            lock.release()
        await saved(pilot, app)
        with ReviewStore.open(db) as store:
            [review] = store.reviews()
        assert (review.question_id, review.correct) == (first, False)

    drive(app, scenario)


def test_leaving_a_session_says_its_answers_are_saved_once_they_are(tmp_path: Path) -> None:
    app = make_app(tmp_path / "h.db")

    async def scenario(pilot: Pilot) -> None:
        screen = await open_session(pilot, app)
        await answer_current(pilot, screen, right=True)
        await saved(pilot, app)
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, Confirm) and app.screen.is_mounted)
        assert app.screen.detail == "1 answer given in this session, all saved."

    drive(app, scenario)


@pytest.mark.parametrize("release_after_yes", [True, False], ids=["saved", "lost"])
def test_quitting_with_answers_waiting_says_how_many_and_tries_once_more(
    tmp_path: Path, monkeypatch, release_after_yes: bool
) -> None:
    monkeypatch.setattr(history_writes, "QUIT_FLUSH_SECONDS", 1.0)
    db = tmp_path / "h.db"
    app = make_app(db)

    async def scenario(pilot: Pilot) -> None:
        screen, _, lock = await answer_while_locked(pilot, app, db)
        try:
            await pilot.press("escape")  # leaving the session says the answer still waits
            await wait_for(pilot, lambda: isinstance(app.screen, Confirm) and app.screen.is_mounted)
            assert app.screen.detail == (
                "1 answer given in this session.\n"
                "1 answer not saved yet: the app keeps trying while it runs."
            )
            await pilot.press("n")
            await wait_for(pilot, lambda: app.screen is screen)
            await pilot.press("ctrl+q")
            await wait_for(pilot, lambda: isinstance(app.screen, Confirm) and app.screen.is_mounted)
            confirm = app.screen
            assert "1 answer not saved yet (database is locked)" in confirm.detail
            await pilot.press("n")  # stay
            await wait_for(pilot, lambda: app.screen is screen)
            await pilot.press("ctrl+q")
            await wait_for(pilot, lambda: isinstance(app.screen, Confirm) and app.screen.is_mounted)
            await pilot.press("y")
            if release_after_yes:
                lock.release()
            await wait_for(pilot, lambda: app.return_code is not None, 10)
        finally:
            lock.release()

    drive(app, scenario)
    if release_after_yes:
        assert len(rows(db)) == 1
        assert app.history_writes.exit_problems() == []
    else:
        assert rows(db) == []
        [problem] = app.history_writes.exit_problems()
        assert problem.startswith(f"1 answer could not be saved to {db}: database is locked")


def test_a_full_disk_keeps_the_answers_until_there_is_room(tmp_path: Path) -> None:
    with small_tmpfs(tmp_path / "disk") as disk:
        db = disk / "h.db"
        app = make_app(db)

        async def scenario(pilot: Pilot) -> None:
            screen = await open_session(pilot, app)
            filler = fill(disk)
            first = screen.question.id
            await answer_current(pilot, screen, right=True)
            await wait_for(pilot, lambda: "retrying (database or disk is full)" in status_bar(app))
            assert rows(db) == []
            filler.unlink()
            await saved(pilot, app)
            await wait_for(pilot, lambda: status_bar(app) == "")
            assert rows(db) == [(first, "practice")]

        drive(app, scenario)
        assert not list(disk.glob("*unusable*"))


def test_a_device_at_the_path_runs_without_saving_and_says_why(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    device = folder / "null"
    with make_special("character device", device):
        app = make_app(device)

        async def scenario(pilot: Pilot) -> None:
            await wait_for(pilot, lambda: app.history_writes.failure is not None)
            await wait_for(pilot, lambda: any("Answers will not be saved" in m for m in said(app)))
            [message] = [m for m in notifications(app) if "Answers will not be saved" in m]
            assert str(device) in message and "is a character device" in message
            screen = await start_deck(pilot)
            await answer_current(pilot, screen, right=True)  # the session goes on
            assert screen.state == "answered"
            await pilot.press("escape")  # leaving it never claims the answer was kept
            await wait_for(pilot, lambda: isinstance(app.screen, Confirm) and app.screen.is_mounted)
            assert app.screen.detail == (
                "1 answer given in this session; none are saved: this app runs without a "
                "review history."
            )

        drive(app, scenario)
        [problem] = app.history_writes.exit_problems()
        assert str(device) in problem and "nothing was saved" in problem
        assert sorted(p.name for p in folder.iterdir()) == ["null"]
        assert device.is_char_device()


def test_a_drill_without_a_history_ends_the_app_with_status_1(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    with make_special("fifo", fifo):
        app = make_app(fifo, start="drill")

        async def scenario(pilot: Pilot) -> None:
            await wait_for(pilot, lambda: app.return_code is not None)

        drive(app, scenario)
        assert app.return_code == 1
        [problem] = app.history_writes.exit_problems()
        assert str(fifo) in problem and "FIFO" in problem


def test_a_corrupted_history_is_moved_aside_and_the_app_says_where(tmp_path: Path) -> None:
    db = tmp_path / "h.db"
    make_history(db, 3)
    data = bytearray(db.read_bytes())
    data[4096:8192] = b"\xa5" * 4096  # the second page: a table's root
    db.write_bytes(bytes(data))
    app = make_app(db)

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: app.history is not None)
        [moved] = [
            p for p in tmp_path.glob("h.db.unusable-*") if p.name[-4:] not in ("-wal", "-shm")
        ]
        await wait_for(pilot, lambda: any("moved to" in m for m in said(app)))
        [message] = [m for m in notifications(app) if "moved to" in m]
        assert str(db) in message and str(moved) in message
        assert moved.read_bytes() == bytes(data)

    drive(app, scenario)
    [note] = app.history_writes.exit_notes()
    assert "moved to" in note and str(db) in note


def _drill(app: QuizApp) -> None:
    app.start_drill()


def _traps(app: QuizApp) -> None:
    from quizapp.tui.components.trap_drill import start_trap_drill

    start_trap_drill(app)


def _stats(app: QuizApp) -> None:
    from quizapp.tui.screens.stats import open_stats

    open_stats(app)


def _readiness(app: QuizApp) -> None:
    from quizapp.tui.screens.readiness import open_readiness

    open_readiness(app)


def _fit(app: QuizApp) -> None:
    from quizapp.tui.screens.fit import open_fit_screen

    open_fit_screen(app)


def _suspended(app: QuizApp) -> None:
    app.action_suspended()


@pytest.mark.parametrize(
    ("command", "needing"),
    [
        (_drill, "Drills need"),
        (_traps, "The trap drill needs"),
        (_stats, "Stats need"),
        (_readiness, "The forecast needs"),
        (_fit, "Fitting the scheduler needs"),
        (_suspended, "Suspending needs"),
    ],
    ids=lambda value: getattr(value, "__name__", "")[1:] or None,
)
def test_a_command_without_a_history_says_there_is_none_not_that_it_failed(
    command, needing: str
) -> None:
    """A preview (or any run without a history) has nothing that could fail to open."""
    from tests.tui.test_sessions import make_app as app_without_history

    app = app_without_history()

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: app.screen.is_mounted and app.screen.id == "home")
        command(app)
        await wait_for(pilot, lambda: any("review history" in m for m in said(app)))
        [told] = [m for m in said(app) if "review history" in m]
        assert told == f"{needing} the review history, and this app runs without one."

    drive(app, scenario)


def test_a_drill_asked_for_while_the_history_opens_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading

    from quizapp.srs.store import open_history

    opening = threading.Event()
    real_open_writer = open_history.open_writer

    def slow_open_writer(location):
        opening.wait(30)
        return real_open_writer(location)

    monkeypatch.setattr(open_history, "open_writer", slow_open_writer)
    app = make_app(tmp_path / "h.sqlite3")

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: app.history_writes.writer is not None)
        app.start_drill()
        [told] = [m for m in said(app) if "review history" in m]
        assert told == "Drills need the review history, which is still opening: try again."
        opening.set()
        await wait_for(pilot, lambda: app.history is not None)

    try:
        drive(app, scenario)
    finally:
        opening.set()
