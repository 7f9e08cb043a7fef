"""Whose history, on a shared PostgreSQL one: asked at start when --student, QUIZAPP_STUDENT
and config.toml's `student` all said nothing. Returns the student id, or None (escape: the
app runs, but nothing is saved)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label

from quizapp.srs.store.history import STUDENT_MAX_BYTES, student_problem
from quizapp.tui.text.literal import literal
from quizapp.tui.widgets.ordered_input import OrderedInput


class StudentScreen(ModalScreen[str | None]):
    DEFAULT_CSS = "StudentScreen .dialog-detail { width: 100%; }"
    BINDINGS = [Binding("escape", "dismiss(None)", "Skip (nothing saved)")]

    def __init__(self, where: str) -> None:
        super().__init__()
        self.where = where  # the database, without its password

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Who is studying?", classes="dialog-title")
            yield Label(
                literal(
                    f"Your answers go to the class history at {self.where}. Type your student "
                    "id (as your instructor gave it) and press Enter; Escape runs without saving."
                ),
                classes="dialog-detail",
            )
            yield OrderedInput(placeholder="student id", max_length=STUDENT_MAX_BYTES, id="student")
            yield Label("", id="student-problem", classes="dialog-detail")

    def on_mount(self) -> None:
        # Explicitly: Textual focuses a screen's first field only while the app has focus, and
        # under `quizapp serve` the app starts blurred until the browser tab reports focus
        # (then only a widget focused before the blur gets it back), so typing went nowhere.
        self.query_one("#student", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        name = event.value
        problem = student_problem(name)
        if problem:
            self.query_one("#student-problem", Label).update(
                literal(f"That id {problem}: try again.")
            )
            return
        self.dismiss(name)
