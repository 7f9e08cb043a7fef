"""Start-up work waits for the first frame to reach the terminal, and the time it took is logged
where a developer looks (Textual's log, $QUIZAPP_STARTUP_LOG), never on the screen."""

from __future__ import annotations

import asyncio
import importlib.util
import os
import queue
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from textual.app import App
from textual.pilot import Pilot

from quizapp.tui.components import first_frame
from quizapp.tui.components.first_frame import after_first_frame, log_startup
from tests.conftest import REPO
from tests.tui.test_sessions import wait_for


class OutputThread:
    """Stands in for Textual's output thread: what it has yet to write waits in `_queue`."""

    def __init__(self, *pending: str) -> None:
        self._queue: queue.Queue[str] = queue.Queue()
        for text in pending:
            self._queue.put(text)


def run_in_app(scenario) -> None:
    async def main() -> None:
        app: App[None] = App()
        async with app.run_test(size=(80, 24)) as pilot:
            await scenario(app, pilot)

    asyncio.run(main())


def test_the_callback_waits_while_the_frame_is_still_to_be_written(monkeypatch) -> None:
    monkeypatch.setattr(first_frame, "GIVE_UP_SECONDS", 60.0)
    called: list[float] = []

    async def scenario(app: App[None], pilot: Pilot) -> None:
        output = OutputThread("the first frame")
        app._driver._writer_thread = output  # type: ignore[union-attr]
        after_first_frame(app, lambda: called.append(time.monotonic()))
        # Many polls go by with the frame still queued, and nothing is called.
        for _ in range(10):
            await pilot.pause(first_frame.POLL_SECONDS)
        assert called == []
        written = time.monotonic()
        output._queue.get()  # the output thread writes it
        await wait_for(pilot, lambda: bool(called))
        assert called[0] >= written

    run_in_app(scenario)
    assert len(called) == 1


def test_without_an_output_thread_the_callback_comes_after_the_refresh() -> None:
    called: list[str] = []

    async def scenario(app: App[None], pilot: Pilot) -> None:
        # The headless driver of tests writes nothing, so there is nothing to wait for.
        assert first_frame.queued_output(app) is None
        after_first_frame(app, lambda: called.append("now"))
        await wait_for(pilot, lambda: bool(called))

    run_in_app(scenario)
    assert called == ["now"]


def test_a_terminal_that_never_takes_the_frame_does_not_hold_start_up_for_ever(
    monkeypatch,
) -> None:
    monkeypatch.setattr(first_frame, "GIVE_UP_SECONDS", 0.2)
    called: list[str] = []

    async def scenario(app: App[None], pilot: Pilot) -> None:
        app._driver._writer_thread = OutputThread("stuck")  # type: ignore[union-attr]
        after_first_frame(app, lambda: called.append("anyway"))
        await wait_for(pilot, lambda: bool(called))
        assert first_frame.queued_output(app) == 1  # still not written

    run_in_app(scenario)
    assert called == ["anyway"]


def test_the_start_up_line_is_appended_to_the_named_file(tmp_path, monkeypatch) -> None:
    log = tmp_path / "startup.log"
    log.write_text("an earlier run\n")
    monkeypatch.setenv(first_frame.STARTUP_LOG_ENV, str(log))

    async def scenario(app: App[None], pilot: Pilot) -> None:
        line = log_startup(app, 0.25, 0.312, torch_before=False)
        assert line == (
            "quizapp: first frame written after 312 ms "
            "(laid out after 250 ms; torch imported before it: no)"
        )

    run_in_app(scenario)
    assert log.read_text().splitlines() == [
        "an earlier run",
        "quizapp: first frame written after 312 ms "
        "(laid out after 250 ms; torch imported before it: no)",
    ]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_named_as_the_log_neither_blocks_nor_is_written(tmp_path, monkeypatch) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    monkeypatch.setenv(first_frame.STARTUP_LOG_ENV, str(fifo))

    async def scenario(app: App[None], pilot: Pilot) -> None:
        log_startup(app, 0.1, 0.2, torch_before=False)

    run_in_app(scenario)  # no reader: a blocking open would hang here for ever
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        run_in_app(scenario)  # a reader: still only regular files are written
        assert os.read(reader, 100) == b""  # nothing written (and no writer left open)
    finally:
        os.close(reader)


def _terminal_module():
    spec = importlib.util.spec_from_file_location("bench_terminal", REPO / "bench" / "terminal.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _wait_for_file(path: Path, timeout: float = 60.0) -> str:
    deadline = time.monotonic() + timeout
    while not (path.exists() and path.read_text().strip()):
        if time.monotonic() > deadline:
            raise AssertionError(f"nothing in {path} after {timeout:g} s")
        time.sleep(0.05)  # polling a file another process writes, up to the deadline
    return path.read_text()


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_the_real_command_writes_its_first_frame_before_torch_or_the_history(tmp_path) -> None:
    terminal = _terminal_module()
    log, db = tmp_path / "startup.log", tmp_path / "history.sqlite3"
    env = terminal.terminal_env(
        QUIZAPP_STARTUP_LOG=str(log),
        QUIZAPP_DB=str(db),
        QUIZAPP_CACHE_DIR=str(tmp_path / "cache"),
        QUIZAPP_CONFIG=str(tmp_path / "config.toml"),
    )
    with terminal.Terminal(
        [sys.executable, "-m", "quizapp"], env=env, cwd=REPO, size=(100, 30)
    ) as app:
        app.wait_for("Multi-head attention", timeout=120)
        [line] = _wait_for_file(log).splitlines()
        assert line.startswith("quizapp: first frame written after ")
        assert line.endswith("torch imported before it: no)")
        # The history's writer starts after the frame and creates the file.
        deadline = time.monotonic() + 60
        while not db.exists():
            assert time.monotonic() < deadline, "the history was never opened"
            time.sleep(0.05)
        assert "first frame written" not in terminal.screen_text(app.output)


def test_what_the_first_frame_needs_leaves_the_history_store_and_the_config_parser_out(
    tmp_path,
) -> None:
    # The store (with fsrs and SQLite) loads in the history writer's thread after the first frame,
    # tomllib only when a config file exists, the computation registry with the lab.
    code = """
        import sys
        import quizapp.cli
        from quizapp.bank import bundled_bank_path, load_bank_cached
        from quizapp.cli.options import display_option_problem
        from quizapp.srs.config import load_settings
        from quizapp.tui.app import AppOptions, QuizApp
        from quizapp.tui.screens.home import HomeScreen
        assert display_option_problem("cpu", None) is None
        load_settings()
        QuizApp(load_bank_cached([bundled_bank_path()]), AppOptions())
        late = (
            "fsrs",
            "quizapp.srs.store.sqlite.store",
            "quizapp.srs.memory.scheduling",
            "sqlite3",
            "tomllib",
            "quizapp.experiments",
            "torch",
        )
        print(",".join(m for m in late if m in sys.modules))
    """
    env = {
        **os.environ,
        "QUIZAPP_CONFIG": str(tmp_path / "none.toml"),
        "QUIZAPP_CACHE_DIR": str(tmp_path / "cache"),
    }
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
        env=env,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ""


def test_the_devices_the_command_line_accepts_are_the_runners() -> None:
    from quizapp.cli.options import DEVICES
    from quizapp.experiments.spec import DEVICES as RUNNER_DEVICES

    assert DEVICES == RUNNER_DEVICES


def test_an_answer_given_before_the_history_was_started_is_saved(tmp_path, monkeypatch) -> None:
    from tests.tui.test_history_in_app import make_app, saved, stored
    from tests.tui.test_sessions import answer_current, drive, start_deck

    held: list = []  # the first frame never reports written: the app never starts the writer
    monkeypatch.setattr(
        "quizapp.tui.components.startup.after_first_frame", lambda app, then: held.append(then)
    )
    db = tmp_path / "history.sqlite3"
    app = make_app(db, warm_up=False)

    async def scenario(pilot: Pilot) -> None:
        screen = await start_deck(pilot)
        assert app.history_writes.writer is None
        await answer_current(pilot, screen, right=True)
        writer = app.history_writes.writer
        assert writer is not None  # the answer started it
        await saved(pilot, app)
        # A quiz is practice by default (quiz_reschedules = false): recorded, never rescheduled.
        assert [(q, k) for q, _, _, k in stored(db)] == [("t-single", "practice")]
        [then] = held
        then()  # the frame is out at last: the writer is not started twice
        assert app.history_writes.writer is writer

    drive(app, scenario)


def test_textuals_output_thread_is_where_the_wait_looks() -> None:
    # after_first_frame reads private parts of Textual's LinuxDriver; without them it would
    # quietly stop waiting for the frame. An upgrade that moves them fails here instead.
    import inspect
    import io

    from textual.drivers._writer_thread import WriterThread
    from textual.drivers.linux_driver import LinuxDriver

    assert "self._writer_thread = WriterThread(" in inspect.getsource(LinuxDriver)
    output = WriterThread(io.StringIO())
    output.write("a frame")
    assert output._queue.qsize() == 1
