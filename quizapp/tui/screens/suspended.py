"""Suspended cards: pick the ones to bring back into drills. Returns their ids, or None."""

from __future__ import annotations

from collections.abc import Mapping

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, SelectionList

from quizapp.bank.model import Question
from quizapp.tui.literal import literal
from quizapp.tui.widgets.toggles import MarkedSelectionList


class SuspendedCards(ModalScreen[list[str] | None]):
    BINDINGS = [
        Binding("escape", "dismiss(None)", "Cancel"),
        Binding("enter", "confirm", "Unsuspend", priority=True),
    ]

    def __init__(self, suspended: list[str], questions: Mapping[str, Question]) -> None:
        super().__init__()
        self.suspended = suspended
        self.questions = questions

    def compose(self) -> ComposeResult:
        def label(qid: str) -> Text:
            question = self.questions.get(qid)
            if question is None:
                return literal(f"{qid} (no longer in the bank)")
            prompt = " ".join(question.prompt.split())
            return literal(f"{qid}: {prompt[:60]}{'…' if len(prompt) > 60 else ''}")

        with Vertical(classes="dialog"):
            yield Label("Suspended: space selects, Enter brings back, Esc cancels")
            yield MarkedSelectionList[str](*((label(q), q) for q in self.suspended), id="suspended")

    def action_confirm(self) -> None:
        chosen = list(self.query_one("#suspended", SelectionList).selected)
        if not chosen:
            self.notify("Select a card first (space).", severity="warning", timeout=3)
            return
        self.dismiss(chosen)
