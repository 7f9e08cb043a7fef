"""A theme picked in the command palette is remembered: written to config.toml as `theme`.

Only a pick made while the app runs is written; `--theme` is for one run and is not. The
write edits that one line of the file and keeps the rest (quizapp/srs/config_file.py), and
happens off the UI thread. When it cannot be written (a file being edited that does not
parse, a read-only folder) a toast says so and the theme still applies for this run.
"""

from __future__ import annotations

import contextlib
import threading
from pathlib import Path

from textual.app import App
from textual.theme import Theme

# Two picks in quick succession must not interleave their read-edit-replace.
_WRITING = threading.Lock()


def remember_theme_picks(app: App, config: Path | None) -> None:
    """From now on, write each theme the user switches to into `config` (None: never)."""
    if config is None:
        return
    last = [app.theme]

    def changed(theme: Theme) -> None:
        if theme.name == last[0]:
            return  # the theme the app started with, announced late, or no change at all
        last[0] = theme.name
        app.run_worker(
            lambda: _save(app, config, theme.name),
            thread=True,
            name="remember theme",
            group="theme",
            exit_on_error=False,
        )

    app.theme_changed_signal.subscribe(app, changed)


def _save(app: App, config: Path, name: str) -> None:
    from quizapp.srs.config import ConfigError
    from quizapp.srs.config_file import set_config_value

    try:
        with _WRITING:
            set_config_value(config, "theme", name)
    except ConfigError as exc:
        with contextlib.suppress(RuntimeError):  # the app is gone: nobody to tell
            app.call_from_thread(
                app.notify,
                f"The theme applies to this run only: {exc}",
                title="Theme not remembered",
                severity="warning",
                timeout=10,
                markup=False,
            )


__all__ = ["remember_theme_picks"]
