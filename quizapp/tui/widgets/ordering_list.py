"""Steps to put in order: ↑/↓ move the cursor, shift+↑/↓ (or [ and ]) carry a step, Enter submits."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Static

from quizapp.tui.widgets.answer_lock import LockableAnswer
from quizapp.tui.widgets.hanging import hanging


class OrderingList(LockableAnswer, can_focus=True):
    DEFAULT_CSS = """
    OrderingList { height: auto; padding: 0 1; }
    OrderingList > .step { height: auto; padding: 0 1; }
    OrderingList > .step.-cursor { background: $primary 20%; text-style: bold; }
    OrderingList.-locked > .step.-right { background: $success 30%; }
    OrderingList.-locked > .step.-misplaced { background: $error 30%; }
    """

    BINDINGS = [
        Binding("up,k", "cursor(-1)", "Up", show=False),
        Binding("down,j", "cursor(1)", "Down", show=False),
        # Out of the footer, as the hint under the steps says all this; `?` still lists them.
        Binding("shift+up,[,K", "carry(-1)", "Move step up", show=False),
        Binding("shift+down,],J", "carry(1)", "Move step down", show=False),
        Binding("enter", "submit", "Submit", show=False),
    ]

    cursor: reactive[int] = reactive(0)

    class Submitted(Message):
        def __init__(self, ordering: OrderingList, order: tuple[int, ...]) -> None:
            super().__init__()
            self.ordering = ordering
            self.order = order  # item keys in the order the student arranged them

    def __init__(self, items: Sequence[tuple[int, str]], *, id: str | None = None) -> None:
        """items: (key, text) pairs in the order they are first shown."""
        super().__init__(id=id)
        self.items = list(items)

    @property
    def order(self) -> tuple[int, ...]:
        return tuple(key for key, _ in self.items)

    def compose(self):
        for _ in self.items:
            yield Static(classes="step")

    def on_mount(self) -> None:
        self._refresh_rows()

    def _refresh_rows(self) -> None:
        for position, row in enumerate(self.query(".step").results(Static)):
            prefix = Text(f"{position + 1}. ", style="bold")
            row.update(hanging(prefix, Text(self.items[position][1])))
            row.set_class(position == self.cursor and not self.locked, "-cursor")

    def watch_cursor(self) -> None:
        if self.is_mounted:
            self._refresh_rows()

    def action_cursor(self, step: int) -> None:
        self._keys_pass_once_locked()
        self.cursor = max(0, min(len(self.items) - 1, self.cursor + step))

    def action_carry(self, step: int) -> None:
        self._keys_pass_once_locked()
        target = self.cursor + step
        if 0 <= target < len(self.items):
            self.items[self.cursor], self.items[target] = (
                self.items[target],
                self.items[self.cursor],
            )
            self.cursor = target
            self._refresh_rows()

    def action_submit(self) -> None:
        self._keys_pass_once_locked()
        self.post_message(self.Submitted(self, self.order))

    def show_result(self) -> None:
        """Lock and mark each step right where it stands, or misplaced."""
        self.lock_answer()
        for position, row in enumerate(self.query(".step").results(Static)):
            right = self.items[position][0] == position
            row.set_class(right, "-right")
            row.set_class(not right, "-misplaced")
        self._refresh_rows()
