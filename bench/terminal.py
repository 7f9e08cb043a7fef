"""Run a terminal program in a pseudo-terminal and time its first frame, as a user sees it.

The clock starts before the process is spawned and stops when the text a frame must contain
has been written to the terminal: interpreter start, imports, loading, layout, rendering and
Textual's output thread all count, as they do for a student typing `quizapp`.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import select
import signal
import struct
import subprocess
import termios
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

# Escape sequences (CSI, OSC, DCS and two-byte ones) are dropped before looking for the text.
_ESCAPES = re.compile(
    rb"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|P[^\x1b]*\x1b\\|[@-Z\\-_])"
)


class NoFrame(RuntimeError):
    """The program ended, or the time ran out, before the text was on the terminal."""


def screen_text(output: bytes) -> str:
    """What was written, without escape sequences: enough to look for a line's text."""
    return _ESCAPES.sub(b"", output).decode("utf-8", "replace")


def terminal_env(**extra: str) -> dict[str, str]:
    """This environment, as a terminal emulator would give it, plus `extra`."""
    env = {**os.environ, "TERM": "xterm-256color", "COLORTERM": "truecolor"}
    for name in ("COLUMNS", "LINES", "TEXTUAL", "TEXTUAL_DRIVER", "TEXTUAL_LOG"):
        env.pop(name, None)
    return {**env, **extra}


class Terminal:
    """A program in a pseudo-terminal of `size` (columns, rows), read as it writes."""

    def __init__(
        self,
        command: Sequence[str],
        *,
        env: Mapping[str, str],
        cwd: Path | None = None,
        size: tuple[int, int] = (100, 30),
    ) -> None:
        master, slave = os.openpty()
        columns, rows = size
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.started = time.perf_counter()
        try:
            self.process = subprocess.Popen(
                list(command),
                stdin=slave,
                stdout=slave,
                stderr=slave,
                env=dict(env),
                cwd=cwd,
                start_new_session=True,
                close_fds=True,
            )
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(slave)
        self._master = master
        self.output = b""

    def wait_for(self, text: str, timeout: float = 60.0) -> float:
        """Seconds from the spawn until `text` has been written to the terminal."""
        wanted = text.encode()
        deadline = time.monotonic() + timeout
        while wanted not in _ESCAPES.sub(b"", self.output):
            left = deadline - time.monotonic()
            if left <= 0:
                raise NoFrame(
                    f"no {text!r} after {timeout:g} s: {screen_text(self.output)[-500:]!r}"
                )
            ready, _, _ = select.select([self._master], [], [], left)
            if not ready:
                continue
            try:
                chunk = os.read(self._master, 65536)
            except OSError:  # EIO: the program has gone, and the terminal with it
                chunk = b""
            if not chunk:
                raise NoFrame(
                    f"the program ended before {text!r}: {screen_text(self.output)[-500:]!r}"
                )
            self.output += chunk
        return time.perf_counter() - self.started

    def close(self) -> None:
        """Kill the program and everything it started, then let the terminal go."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
        os.close(self._master)

    def __enter__(self) -> Terminal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def first_frame_seconds(
    command: Sequence[str],
    text: str,
    *,
    env: Mapping[str, str],
    cwd: Path | None = None,
    size: tuple[int, int] = (100, 30),
) -> float:
    """Spawn `command` in a fresh pseudo-terminal; seconds until `text` is on it."""
    with Terminal(command, env=env, cwd=cwd, size=size) as terminal:
        return terminal.wait_for(text)
