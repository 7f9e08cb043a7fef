"""AppProcess.stop: one bounded shutdown, however many callers ask and whether or not they are
cancelled while they wait."""

from __future__ import annotations

import asyncio
import sys
import time

import pytest
from textual_serve.download_manager import DownloadManager

from quizapp.serve import server

# Ignores the quit request on stdin and SIGTERM alike: only SIGKILL ends it.
STUBBORN = "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(600)"
# Ends on SIGTERM (Python's default), but never reads the quit request.
DEAF = "import time; time.sleep(600)"


async def _nothing(*_args: object) -> None:
    return None


def _process(code: str) -> server.AppProcess:
    return server.AppProcess(
        [sys.executable, "-c", code],
        {},
        write_bytes=_nothing,
        write_str=_nothing,
        close=_nothing,
        download_manager=DownloadManager(),
    )


@pytest.fixture
def short_deadlines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server, "QUIT_SECONDS", 0.5)
    monkeypatch.setattr(server, "TERMINATE_SECONDS", 0.5)


@pytest.mark.parametrize("cancel_one", [False, True], ids=["both-wait", "one-cancelled"])
@pytest.mark.parametrize(
    ("code", "last_signal"), [(DEAF, -15), (STUBBORN, -9)], ids=["deaf", "stubborn"]
)
def test_two_callers_share_one_shutdown_that_ends_the_process(
    short_deadlines: None,
    code: str,
    last_signal: int,
    cancel_one: bool,
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def scenario() -> tuple[int | None, float]:
        app = _process(code)
        await app.start(80, 24)
        started = time.monotonic()
        closing_tab = asyncio.ensure_future(app.stop())
        server_shutdown = asyncio.ensure_future(app.stop())
        await asyncio.sleep(0.1)
        if cancel_one:
            closing_tab.cancel()  # the tab's handler is cancelled mid-shutdown
        await server_shutdown
        if cancel_one:
            assert closing_tab.cancelled()
        else:
            await closing_tab
        await app.stop()  # a third call, after the end: nothing left to do
        assert app._process is not None
        return app._process.returncode, time.monotonic() - started

    with caplog.at_level("WARNING", logger="quizapp.serve"):
        returncode, took = asyncio.run(scenario())
    assert returncode == last_signal
    # Quit, then SIGTERM, then SIGKILL: each step once, not once per caller, and no second
    # wait for the quit that never came.
    signals_sent = [r.getMessage().rsplit(" ", 1)[-1] for r in caplog.records]
    assert signals_sent == (["SIGTERM"] if last_signal == -15 else ["SIGTERM", "SIGKILL"])
    assert took < 0.5 + 0.5 + 2.0, took


def test_stopping_a_process_never_started_does_nothing() -> None:
    asyncio.run(_process(DEAF).stop())
