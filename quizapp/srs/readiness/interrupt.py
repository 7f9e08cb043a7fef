"""Stopping a long simulation from outside it: the plan and the forecast, run in a worker.

The app computes the exam forecast in worker threads. When the app ends, Textual cancels its
workers, but a thread cannot be stopped from outside, and Python waits for it before the
process exits: a forecast three years long would hold the quitting app for many seconds. So
the simulation calls `check()` once per simulated day, and a worker that runs it under
`stop_when(lambda: worker.is_cancelled)` ends within a day's work of being cancelled.

The check belongs to the thread that installed it, so tests running many apps in one process
stop only the worker whose app ended. No textual here: srs stays free of the UI.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

_this_thread = threading.local()


class Interrupted(Exception):
    """The simulation was stopped by its thread's check (its worker was cancelled)."""


@contextmanager
def stop_when(stopped: Callable[[], bool]) -> Iterator[None]:
    """In this thread, `check()` raises Interrupted once `stopped()` is true."""
    previous = getattr(_this_thread, "stopped", None)
    _this_thread.stopped = stopped
    try:
        yield
    finally:
        _this_thread.stopped = previous


def check() -> None:
    """Raise Interrupted if this thread's work has been stopped; cheap when it has not."""
    stopped = getattr(_this_thread, "stopped", None)
    if stopped is not None and stopped():
        raise Interrupted("stopped: the work was cancelled")


__all__ = ["Interrupted", "check", "stop_when"]
