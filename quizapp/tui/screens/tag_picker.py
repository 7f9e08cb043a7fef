"""Pick tags to drill: a modal that returns the chosen tags, or None when dismissed."""

from __future__ import annotations

from collections import Counter

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, SelectionList

from quizapp.bank import Bank
from quizapp.tui.text.literal import literal
from quizapp.tui.widgets.toggles import MarkedSelectionList


class TagPicker(ModalScreen[list[str] | None]):
    BINDINGS = [
        Binding("escape", "dismiss(None)", "Cancel"),
        Binding("enter", "confirm", "Start", priority=True),
    ]

    def __init__(self, bank: Bank) -> None:
        super().__init__()
        self.counts = Counter(tag for q in bank.questions.values() for tag in q.tags)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Quiz these tags (space toggles, enter starts, escape cancels)")
            yield MarkedSelectionList[str](
                *((literal(f"{tag} ({n})"), tag) for tag, n in sorted(self.counts.items())),
                id="tags",
            )

    def action_confirm(self) -> None:
        selected = self.query_one("#tags", SelectionList).selected
        if not selected:
            self.notify("Select at least one tag (space).", severity="warning", timeout=3)
            return
        self.dismiss(list(selected))
