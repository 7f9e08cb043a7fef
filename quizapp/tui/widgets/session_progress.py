"""n of N, the score so far, and a bar."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Label, ProgressBar


class SessionProgress(Horizontal):
    DEFAULT_CSS = """
    SessionProgress { height: 1; padding: 0 1; background: $boost; }
    SessionProgress > #position { width: auto; margin-right: 2; text-style: bold; }
    SessionProgress > ProgressBar { width: 1fr; }
    SessionProgress > #score { width: auto; margin-left: 2; }
    """

    def __init__(self, total: int) -> None:
        super().__init__()
        self.total = total

    def compose(self) -> ComposeResult:
        yield Label(id="position")
        yield ProgressBar(total=self.total, show_eta=False, show_percentage=False)
        yield Label(id="score")

    def on_mount(self) -> None:
        self.show(1, self.total, 0, 0)

    def show(self, position: int, total: int, answered: int, correct: int) -> None:
        """Question `position` of `total`: the total moves when a card is buried or suspended
        (it leaves the session) or a drill's learning card is to come back."""
        self.total = total
        self.query_one("#position", Label).update(
            f"Question {max(1, min(position, total))} of {total}"
        )
        self.query_one(ProgressBar).update(total=max(total, 1), progress=answered)
        self.query_one("#score", Label).update(f"Score {correct}/{answered}")
