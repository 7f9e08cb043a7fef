"""Run start-up work only once the first frame has reached the terminal.

Textual's Ready event comes when the first layout is done, which can be before the frame has
been rendered, and always before Textual's output thread has written it to the terminal. A
thread started there (the torch import, the history's writer opening SQLite) competes with
both for the GIL: importing torch's C extension holds it for hundreds of milliseconds, and the
student stares at a blank terminal meanwhile. So this waits until the screen has refreshed and
the output thread's queue has stayed empty across two looks, then calls back on the UI thread.
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual.app import App

POLL_SECONDS = 0.005
# Past this, go on anyway: a terminal that does not read its input must not keep the lab
# from loading for ever.
GIVE_UP_SECONDS = 1.0


def queued_output(app: App[object]) -> int | None:
    """How many writes Textual's output thread has yet to make, or None when it has none
    (the headless driver of tests, or a driver without an output thread)."""
    # Private to Textual's LinuxDriver and WriterThread; anything else reads as "no thread".
    writer = getattr(app._driver, "_writer_thread", None)
    queue = getattr(writer, "_queue", None)
    qsize = getattr(queue, "qsize", None)
    return qsize() if callable(qsize) else None


def after_first_frame(app: App[object], callback: Callable[[], None]) -> None:
    """Call `callback` on the UI thread once the first frame has been written out."""
    deadline = time.monotonic() + GIVE_UP_SECONDS
    empty_looks = 0

    def look() -> None:
        nonlocal empty_looks
        waiting = queued_output(app)
        if waiting is None:
            callback()
            return
        # An empty queue can still mean a write in progress: two empty looks a poll apart
        # leave the output thread the time to finish it.
        empty_looks = empty_looks + 1 if waiting == 0 else 0
        if empty_looks >= 2 or time.monotonic() > deadline:
            callback()
        else:
            app.set_timer(POLL_SECONDS, look, name="first frame written")

    # After the refresh: the frame has been handed to the output thread by then.
    app.call_after_refresh(look)


STARTUP_LOG_ENV = "QUIZAPP_STARTUP_LOG"


def log_startup(
    app: App[object], ready_seconds: float, frame_seconds: float, torch_before: bool
) -> str:
    """Say how long the first frame took: in Textual's log (`textual console`), and appended
    to the file $QUIZAPP_STARTUP_LOG names, if any. Never on the screen. Returns the line."""
    line = (
        f"quizapp: first frame written after {frame_seconds * 1000:.0f} ms "
        f"(laid out after {ready_seconds * 1000:.0f} ms; "
        f"torch imported before it: {'yes' if torch_before else 'no'})"
    )
    app.log.info(line)
    target = os.environ.get(STARTUP_LOG_ENV)
    if target:
        _append(target, line)
    return line


def _append(path: str, line: str) -> None:
    # Non-blocking, and regular files only: a FIFO with no reader must not freeze the UI.
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK, 0o644)
    except OSError:
        return
    try:
        if stat.S_ISREG(os.fstat(fd).st_mode):
            os.write(fd, (line + "\n").encode())
    except OSError:
        pass
    finally:
        os.close(fd)
