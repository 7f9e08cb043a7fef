"""Every toast an app has posted, read as the app posted it.

`App.notify` only posts a message; the toast joins `app._notifications` when the app gets to
it, and leaves again when its seconds run out. A test that reads `_notifications` right after
the state change that caused a toast can look too early, or (on a loaded machine) too late.
tests/tui/conftest.py records each call to `notify` as it is made, and `said` reads that record.
"""

from __future__ import annotations

from textual.app import App

RECORD = "_toasts_said_in_tests"


def record_toasts(app: App, message: object) -> None:
    app.__dict__.setdefault(RECORD, []).append(str(message))


def said(app: App) -> list[str]:
    """Every toast message `app` has posted so far, oldest first, timed out or not."""
    return list(app.__dict__.get(RECORD, []))
