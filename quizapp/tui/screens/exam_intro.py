"""Before a mock exam's clock starts: what is about to happen, as Moodle's quiz page says it
(how many questions, the time, whether answers can change, how it is scored). Returns True
to begin."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label

from quizapp.exam import ExamSession
from quizapp.tui.text.literal import literal
from quizapp.wording import plural


def exam_terms(exam: ExamSession) -> list[str]:
    """The exam's terms, one sentence each, from the session itself."""
    minutes, seconds = divmod(round(exam.duration), 60)
    return [
        f"{plural(len(exam.questions), 'question')}, drawn from every deck by its exam weight "
        "(flashcards are left out).",
        f"{minutes}:{seconds:02d} on the clock, from when you begin. When it runs out, the "
        "exam is submitted as it stands.",
        "Answers can be changed, and questions flagged (f) to come back to, until you submit.",
        f"No feedback until you submit. Every question counts the same; {exam.threshold:.0%} "
        "right passes.",
    ]


class ExamIntro(ModalScreen[bool]):
    DEFAULT_CSS = "ExamIntro .dialog-detail { width: 100%; }"
    BINDINGS = [
        Binding("enter", "dismiss(True)", "Begin"),
        Binding("escape,n", "dismiss(False)", "Not now"),
    ]

    def __init__(self, exam: ExamSession) -> None:
        super().__init__()
        self.exam = exam

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="exam-intro"):
            yield Label("Mock exam", classes="dialog-title")
            for term in exam_terms(self.exam):
                yield Label(literal(f"• {term}"), classes="dialog-detail")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Begin (Enter)", variant="primary", id="begin")
                yield Button("Not now (Esc)", id="not-now")

    def on_mount(self) -> None:
        self.query_one("#begin", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "begin")
