"""Numbered options: 1–9 pick one (or toggle, when several may be right), Enter submits."""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table
from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Static

from quizapp.tui.widgets.answer_lock import LockableAnswer
from quizapp.tui.widgets.hanging import hanging


class ChoiceList(LockableAnswer, can_focus=True):
    DEFAULT_CSS = """
    ChoiceList { height: auto; padding: 0 1; }
    ChoiceList > .choice { height: auto; padding: 0 1; margin-bottom: 0; }
    ChoiceList > .choice.-highlighted { background: $boost; }
    ChoiceList > .choice.-selected { color: $text; background: $primary 30%; text-style: bold; }
    ChoiceList:focus > .choice.-highlighted { background: $primary 15%; }
    ChoiceList.-locked > .choice.-correct { background: $success 30%; }
    ChoiceList.-locked > .choice.-wrong { background: $error 30%; }
    """

    BINDINGS = [
        *(Binding(str(n), f"pick({n})", f"Pick {n}", show=False) for n in range(1, 10)),
        Binding("up,k", "move(-1)", "Up", show=False),
        Binding("down,j", "move(1)", "Down", show=False),
        # Out of the footer (the hint under the options says what Enter does), so that the
        # screen's own keys fit at 80 columns; `?` still lists it.
        Binding("enter", "submit", "Answer", priority=False, show=False),
    ]

    highlighted: reactive[int] = reactive(0)

    class Submitted(Message):
        def __init__(self, choice_list: ChoiceList, selected: frozenset[int]) -> None:
            super().__init__()
            self.choice_list = choice_list
            self.selected = selected  # positions as displayed

    def __init__(self, labels: Sequence[str], *, multiple: bool, id: str | None = None) -> None:
        super().__init__(id=id)
        self.labels = list(labels)
        self.multiple = multiple
        self.selected: set[int] = set()

    def compose(self):
        for number, label in enumerate(self.labels, start=1):
            marker = "[ ]" if self.multiple else "( )"
            yield Static(self._render_label(number, marker, label), classes="choice")

    @staticmethod
    def _render_label(number: int, marker: str, label: str) -> Table:
        prefix = Text()
        prefix.append(f"{number}. ", style="bold")
        prefix.append(f"{marker} ")
        return hanging(prefix, Text(label))

    def on_mount(self) -> None:
        self._refresh_rows()

    def _refresh_rows(self) -> None:
        for index, row in enumerate(self.query(".choice").results(Static)):
            row.set_class(index == self.highlighted, "-highlighted")
            row.set_class(index in self.selected, "-selected")
            if self.multiple:
                marker = "[x]" if index in self.selected else "[ ]"
            else:
                marker = "(•)" if index in self.selected else "( )"
            row.update(self._render_label(index + 1, marker, self.labels[index]))

    def watch_highlighted(self) -> None:
        if self.is_mounted:
            self._refresh_rows()

    def action_pick(self, number: int) -> None:
        self._keys_pass_once_locked()
        index = number - 1
        if not 0 <= index < len(self.labels):
            return
        self.highlighted = index
        self._toggle(index)

    def _toggle(self, index: int) -> None:
        if self.multiple:
            self.selected ^= {index}
        else:
            self.selected = {index}
        self._refresh_rows()

    def action_move(self, step: int) -> None:
        self._keys_pass_once_locked()
        self.highlighted = (self.highlighted + step) % len(self.labels)

    def action_submit(self) -> None:
        self._keys_pass_once_locked()
        if not self.selected:
            self.notify("Pick an option first (press its number).", severity="warning", timeout=3)
            return
        self.post_message(self.Submitted(self, frozenset(self.selected)))

    def on_click(self, event) -> None:
        # The mouse works too: clicking an option picks (or toggles) it.
        if self.locked:
            return
        for index, row in enumerate(self.query(".choice").results(Static)):
            if row.region.contains(event.screen_x, event.screen_y):
                self.focus()
                self.action_pick(index + 1)
                return

    def show_result(self, correct: set[int]) -> None:
        """Lock the list and colour the options: the correct ones, and wrong picks."""
        self.lock_answer()
        for index, row in enumerate(self.query(".choice").results(Static)):
            row.set_class(index in correct, "-correct")
            row.set_class(index in self.selected and index not in correct, "-wrong")
