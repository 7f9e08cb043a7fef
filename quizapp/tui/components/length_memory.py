"""The session length typed in the home screen's Questions box is remembered: written to
config.toml as `session_length` (removed for a blank box: all the questions) when a session
starts with it, so a relaunch shows it again. `--length` is for one run and is not written:
only a length the student changed in the box is. The write edits that one line, off the UI
thread; when it cannot be written a toast says so and the length still applies to this run.
"""

from __future__ import annotations

import contextlib
import threading
from pathlib import Path

from textual.app import App

# Two sessions started in quick succession must not interleave their read-edit-replace.
_WRITING = threading.Lock()


def remember_session_length(app: App, config: Path | None, length: int | None) -> None:
    """Write `length` (None: all the questions) to `config` in a worker (None: nowhere)."""
    if config is None:
        return
    app.run_worker(
        lambda: _save(app, config, length),
        thread=True,
        name="remember session length",
        group="session-length",
        exit_on_error=False,
    )


def _save(app: App, config: Path, length: int | None) -> None:
    from quizapp.srs.config import ConfigError
    from quizapp.srs.config_file import set_config_value

    try:
        with _WRITING:
            set_config_value(config, "session_length", length)
    except ConfigError as exc:
        with contextlib.suppress(RuntimeError):  # the app is gone: nobody to tell
            app.call_from_thread(
                app.notify,
                f"The session length applies to this run only: {exc}",
                title="Length not remembered",
                severity="warning",
                timeout=10,
                markup=False,
            )


__all__ = ["remember_session_length"]
