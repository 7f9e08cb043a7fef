"""Quitting the real app with the farthest exam date allowed leaves nothing running.

The forecast behind the home screen's exam line simulates every day to the exam in a worker
thread; three years of days takes many seconds. Before quizapp.srs.readiness.interrupt the process
waited for that thread after `q` (and with a date in 2100, for hours). Now the cancelled
worker stops within a simulated day, the process ends, and nothing it started outlives it.
"""

from __future__ import annotations

import importlib.util
import os
import select
import signal
import sys
import threading
import time
from pathlib import Path

import pytest

from quizapp.srs.clock import local_today
from quizapp.srs.config import exam_horizon
from quizapp.srs.readiness.interrupt import Interrupted, check, stop_when
from tests.conftest import REPO

# Generous: the pty test catches a hang (a date in 2100 kept the app for hours); the Pilot
# test below says exactly whether the forecast was stopped or ran to its end.
EXIT_DEADLINE_SECONDS = 30.0


def _terminal_module():
    spec = importlib.util.spec_from_file_location("bench_terminal", REPO / "bench" / "terminal.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _wait_for_file(path: Path, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        assert time.monotonic() < deadline, f"{path} was never created"
        time.sleep(0.05)  # polling a file another process creates, up to the deadline


def _read_until_exit(app, deadline: float) -> None:
    """Keep reading the terminal (a full one would block the app's writes) until it ends."""
    while app.process.poll() is None and time.monotonic() < deadline:
        ready, _, _ = select.select([app._master], [], [], 0.1)
        if ready:
            try:
                app.output += os.read(app._master, 65536)
            except OSError:  # EIO: the program has gone, and the terminal with it
                break
    app.process.wait(timeout=max(0.1, deadline - time.monotonic()))


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_quitting_with_the_farthest_exam_date_ends_every_worker(tmp_path: Path) -> None:
    terminal = _terminal_module()
    env = terminal.terminal_env(
        QUIZAPP_DB=str(tmp_path / "history.sqlite3"),
        QUIZAPP_CONFIG=str(tmp_path / "config.toml"),
        QUIZAPP_CACHE_DIR=str(tmp_path / "cache"),
    )
    farthest = exam_horizon(local_today()).isoformat()
    command = [sys.executable, "-m", "quizapp", "--exam-date", farthest]
    with terminal.Terminal(command, env=env, cwd=REPO, size=(100, 30)) as app:
        app.wait_for("q quit", timeout=120)  # the home screen
        # The history is open, so the exam line's forecast is under way.
        _wait_for_file(tmp_path / "history.sqlite3")
        os.write(app._master, b"q")
        quit_at = time.monotonic()
        _read_until_exit(app, quit_at + EXIT_DEADLINE_SECONDS)
        took = time.monotonic() - quit_at
        assert app.process.returncode == 0, terminal.screen_text(app.output)[-500:]
        assert took < EXIT_DEADLINE_SECONDS
        assert "Traceback" not in terminal.screen_text(app.output)
        # The app ran in a session of its own: nothing it started (a child process, an
        # optimizer) is left in that process group.
        with pytest.raises(ProcessLookupError):
            os.killpg(app.process.pid, signal.SIGCONT)


def test_the_forecast_under_way_is_stopped_when_the_app_ends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The home screen's exam line works out a three-year forecast in a worker thread; the
    app is told to exit while it runs. The worker must stop (Interrupted), not run to the
    end, and no thread the app started may outlive it."""
    from quizapp.bank import bundled_bank_path, load_bank
    from quizapp.srs.config import Settings
    from quizapp.tui.app import AppOptions, QuizApp
    from quizapp.tui.screens import readiness
    from tests.tui.test_sessions import drive, wait_for

    monkeypatch.setenv("QUIZAPP_CONFIG", str(tmp_path / "config.toml"))
    outcomes: list[str] = []
    started = threading.Event()
    work_out = readiness.load_readiness

    def watched(app):  # the real forecast, with what became of it recorded
        if app.history_writes.reader is None:
            return work_out(app)  # no history open yet: nothing to forecast from
        started.set()
        try:
            report = work_out(app)
        except Interrupted:
            outcomes.append("interrupted")
            raise
        outcomes.append("finished")
        return report

    monkeypatch.setattr(readiness, "load_readiness", watched)
    farthest = exam_horizon(local_today())
    options = AppOptions(
        db_path=tmp_path / "history.sqlite3",
        device="cpu",
        warm_up=False,
        watch=False,
        settings=Settings(exam_date=farthest),
    )
    # The bundled bank: 121 questions make each simulated day cost enough to be caught.
    app = QuizApp(load_bank([bundled_bank_path()]), options)
    threads_before = set(threading.enumerate())

    async def scenario(pilot) -> None:
        await wait_for(pilot, started.is_set, timeout=60)
        app.exit()

    drive(app, scenario)
    assert outcomes == ["interrupted"]
    left = [t for t in threading.enumerate() if t not in threads_before and not t.daemon]
    assert left == []


def test_a_stopped_thread_is_interrupted_and_others_are_not() -> None:
    check()  # nothing installed: never stops
    with stop_when(lambda: False):
        check()
    with stop_when(lambda: True), pytest.raises(Interrupted):
        check()
    check()  # the check ends with its block
