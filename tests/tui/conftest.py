"""What every TUI test shares."""

from __future__ import annotations

import pytest
from textual.app import App

from quizapp.tui.widgets.args_form import ArgsForm
from tests.tui.toasts import record_toasts


@pytest.fixture(autouse=True)
def typing_never_settles_by_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    """A lab field reruns after a pause in typing (ArgsForm.SETTLE_SECONDS). On a loaded
    machine a test can take that long between two key presses of one number, which would run
    the half-typed value: tests type, then leave the box or press Enter. The tests of the pause
    itself set their own value."""
    monkeypatch.setattr(ArgsForm, "SETTLE_SECONDS", 3600.0)


@pytest.fixture(autouse=True)
def toasts_are_recorded_as_posted(monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep a record of every toast for tests.tui.toasts.said (see there for why)."""
    post = App.notify

    def notify(self: App, message: object, *args: object, **kwargs: object) -> None:
        record_toasts(self, message)
        post(self, message, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(App, "notify", notify)
