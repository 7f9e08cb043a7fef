"""What the choice and ordering lists share once the question is answered."""

from __future__ import annotations

from textual.actions import SkipAction
from textual.widget import Widget


class LockableAnswer(Widget):
    """An answer list that locks when the question is answered."""

    locked = False

    def lock_answer(self) -> None:
        self.locked = True
        self.add_class("-locked")
        # Like the number box, which is disabled: Tab from the feedback goes to the lab.
        self.can_focus = False

    def _keys_pass_once_locked(self) -> None:
        # Once answered, the list's keys belong to the screen again: Enter goes on, 1-4 rate,
        # up and down scroll. SkipAction hands the key on up the chain.
        if self.locked:
            raise SkipAction()
