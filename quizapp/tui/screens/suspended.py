"""Suspended or buried cards: pick the ones to bring back. Returns their ids, or None."""

from __future__ import annotations

from collections.abc import Mapping

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, SelectionList

from quizapp.bank.model import Question
from quizapp.tui.text.literal import literal
from quizapp.tui.text.prompt_text import short_prompt
from quizapp.tui.widgets.toggles import MarkedSelectionList


class HiddenCards(ModalScreen[list[str] | None]):
    """Cards kept out of sessions; space selects, Enter brings the selected ones back."""

    BINDINGS = [
        Binding("escape", "dismiss(None)", "Cancel"),
        Binding("enter", "confirm", "Bring back", priority=True),
    ]
    HEADING = "Hidden"

    def __init__(self, hidden: list[str], questions: Mapping[str, Question]) -> None:
        super().__init__()
        self.hidden = hidden
        self.questions = questions

    def compose(self) -> ComposeResult:
        def label(qid: str) -> Text:
            question = self.questions.get(qid)
            if question is None:
                return literal(f"{qid} (no longer in the bank)")
            return literal(f"{qid}: {short_prompt(question.prompt, 60)}")

        with Vertical(classes="dialog"):
            yield Label(self.HEADING, classes="dialog-title")
            yield Label("Space selects · Enter brings back · Esc cancels")
            yield MarkedSelectionList[str](*((label(q), q) for q in self.hidden), id="hidden-cards")

    def action_confirm(self) -> None:
        chosen = list(self.query_one("#hidden-cards", SelectionList).selected)
        if not chosen:
            self.notify("Select a card first (space).", severity="warning", timeout=3)
            return
        self.dismiss(chosen)


class SuspendedCards(HiddenCards):
    HEADING = "Suspended"


class BuriedCards(HiddenCards):
    HEADING = "Buried until tomorrow"
