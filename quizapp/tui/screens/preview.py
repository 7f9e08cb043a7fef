"""`quizapp preview`: the quiz screen with an author's keys. While a question is asked, v steps
a `vary:` question through its variants and o shows the options in the file's order and back;
ctrl+r (the app's key) puts the saved files' version of every question into the session,
staying on the question on screen. What each does to the session is quizapp/tui/components/preview_session.py.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from textual.binding import Binding
from textual.widget import Widget
from textual.widgets import Label

from quizapp.bank.model import ChoiceQuestion, Question
from quizapp.bank.session import QuizSession
from quizapp.tui.components.lab_service import LabService
from quizapp.tui.components.preview_session import (
    apply_edits,
    next_variant,
    order_label,
    replace_current,
    toggle_order,
    variant_label,
)
from quizapp.tui.screens.quiz import QuizScreen
from quizapp.tui.text.literal import literal

ASKING = ("asking", "revealed")  # the states v and o are offered in: a question not answered


class PreviewScreen(QuizScreen):
    DEFAULT_CSS = """
    PreviewScreen #preview-note { color: $text-muted; text-style: italic; margin: 0 0 0 1; width: 1fr; }
    """
    # In `?` above the footer's short words (quizapp/tui/screens/help.py).
    HELP_SECTION = (
        "Previewing",
        [
            ("v", "the next variant of a vary: question (the line under its topic says which)"),
            ("o", "the options in the file's order, and back to a student's shuffled order"),
            ("ctrl+r", "after a save: every question as the file now writes it, on this one"),
        ],
    )
    BINDINGS = [
        Binding("v", "next_variant", "Variant"),
        Binding("o", "toggle_order", "Order"),
    ]

    def __init__(self, session: QuizSession, lab: LabService, bases: Iterable[Question]) -> None:
        super().__init__(session, lab)
        # Each question as its file writes it: the variants are found and stepped from these.
        self.bases = {q.id: q for q in bases}

    def heading(self, question: Question) -> list[Widget]:
        base = self.bases.get(question.id)
        notes = [
            note
            for note in (
                variant_label(base, question) if base is not None else None,
                order_label(self.session, question),
            )
            if note
        ]
        extra = [Label(literal(" · ".join(notes)), id="preview-note")] if notes else []
        return [*super().heading(question), *extra]

    def _ask_again(self) -> None:
        """The question on screen becomes the one asked again: an answer given in this preview
        is taken back (nothing was recorded), so it can be shown afresh."""
        if self.state == "answered" and self.session.actions:
            self.session.undo()

    def _base_of_varied(self) -> Question | None:
        """The file's version of the question being asked, if it varies."""
        shown = self.question if self.state in ASKING else None
        base = self.bases.get(shown.id) if shown is not None else None
        return base if base is not None and base.vary else None

    async def action_next_variant(self) -> None:
        base = self._base_of_varied()
        if base is None or self.question is None:
            return
        replace_current(self.session, next_variant(base, self.question))
        await self.show_question()

    async def action_toggle_order(self) -> None:
        if self.state not in ASKING or not self._order_can_change(self.question):
            return
        toggle_order(self.session)
        await self.show_question()

    async def reload(self, fresh: Sequence[Question]) -> None:
        """Every question of the session as the files now write them; the one on screen stays
        (asked again), or the nearest one after it if it was deleted."""
        self._ask_again()
        self.bases.update((q.id, q) for q in fresh)
        apply_edits(self.session, fresh)
        await self.show_question()

    @staticmethod
    def _order_can_change(question: Question | None) -> bool:
        return isinstance(question, ChoiceQuestion) and question.shuffle

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "next_variant":
            return self._base_of_varied() is not None
        if action == "toggle_order":
            return self.state in ASKING and self._order_can_change(self.question)
        allowed = super().check_action(action, parameters)
        if action == "space" and not allowed:
            # Hidden rather than dimmed: the footer has no room at 80 columns for it beside
            # the preview's own keys, and Space is the answer's own key while one is asked.
            return False
        return allowed
