"""A yes/no question as a modal: returns True for yes."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label

from quizapp.tui.text.literal import literal


class Confirm(ModalScreen[bool]):
    # The detail wraps inside the dialog: it may carry an error message of any length.
    DEFAULT_CSS = "Confirm .dialog-detail { width: 100%; }"
    BINDINGS = [
        Binding("y", "dismiss(True)", "Yes"),
        Binding("n,escape", "dismiss(False)", "No"),
    ]

    def __init__(self, question: str, detail: str = "") -> None:
        super().__init__()
        self.question = question
        self.detail = detail

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(literal(self.question), classes="dialog-title")
            if self.detail:
                yield Label(literal(self.detail), classes="dialog-detail")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Yes (y)", variant="error", id="yes")
                yield Button("No (n)", variant="primary", id="no")

    def set_detail(self, detail: str) -> None:
        """Say something new under the question (a clock that runs on while it is asked)."""
        self.detail = detail
        shown = self.query(".dialog-detail")
        if shown:
            shown.first(Label).update(literal(detail))

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")
