"""One answered question again: the prompt, the feedback, and its live computation."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer

from quizapp.bank.session import Attempt
from quizapp.tui.components.lab_service import LabService
from quizapp.tui.text.literal import one_line
from quizapp.tui.widgets.bank_markdown import BankMarkdown
from quizapp.tui.widgets.feedback import Feedback
from quizapp.tui.widgets.lab_panel import LabPanel, cancel_running, release_focus
from quizapp.tui.widgets.title_bar import TitleBar


class ReviewScreen(Screen[None]):
    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("backspace", "app.pop_screen", "Back", show=False),
        Binding("x", "cancel_lab", "Cancel computation", show=False),
    ]

    def __init__(self, attempt: Attempt, lab: LabService, screen_id: str = "review") -> None:
        super().__init__(id=screen_id)
        self.attempt = attempt
        self.lab = lab

    def compose(self) -> ComposeResult:
        question = self.attempt.question
        yield TitleBar()
        with VerticalScroll(id="review-body", can_focus=True):
            yield BankMarkdown(question.prompt, id="prompt")
            yield Feedback(question, self.attempt.grade)
            yield LabPanel(self.lab, question.compute, autorun=True, id="lab")
        yield Footer()

    def on_mount(self) -> None:
        prompt = one_line(self.attempt.question.prompt)
        self.sub_title = "Review: " + (prompt if len(prompt) <= 60 else prompt[:59] + "…")
        self.query_one("#review-body").focus()

    def action_back(self) -> None:
        # Escape from a field of the lab's form first hands the keys back to the screen.
        if not release_focus(self, self.query_one("#review-body")):
            self.app.pop_screen()

    def action_cancel_lab(self) -> None:
        cancel_running(self)
