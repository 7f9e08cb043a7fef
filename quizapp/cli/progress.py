"""A one-line progress report on a terminal, for commands that can take a while."""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable
from typing import TextIO

_CLEAR_LINE = "\r\x1b[K"


class StatusLine:
    """`label: done/total (elapsed s of limit s)`, rewritten in place on `stream` once the work
    has run past `delay` seconds (quick work shows nothing). The clock shows that a long step is
    alive. Call it as the progress callback; `clear()` at the end.

    Writes nothing unless `stream` is a terminal: a log or a pipe gets no carriage returns."""

    def __init__(
        self,
        label: str,
        stream: TextIO | None = None,
        *,
        limit: float | None = None,
        delay: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.label = label
        self.limit = limit
        self.stream = stream if stream is not None else sys.stderr
        self.delay = delay
        self._clock = clock
        self._started: float | None = None
        self._shown = ""
        isatty = getattr(self.stream, "isatty", None)
        self.enabled = bool(isatty and isatty())

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        now = self._clock()
        if self._started is None:
            self._started = now
        elapsed = now - self._started
        if elapsed < self.delay:
            return
        of_limit = "" if self.limit is None else f" of {self.limit:g} s"
        text = f"{self.label}: {done}/{total} ({elapsed:.0f} s{of_limit})"
        if text != self._shown:
            self._write(_CLEAR_LINE + text)
            self._shown = text

    def clear(self) -> None:
        """Remove the line, if one was shown, so the next output starts on a clean line."""
        if self._shown:
            self._write(_CLEAR_LINE)
            self._shown = ""

    def _write(self, text: str) -> None:
        with contextlib.suppress(OSError):  # a closed terminal must not turn into a crash
            self.stream.write(text)
            self.stream.flush()
