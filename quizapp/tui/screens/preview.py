"""`quizapp preview`: the quiz screen with an author's keys. v steps a `vary:` question through
its variants, o shows the options in the file's order and back, and ctrl+r (the app's key)
puts the saved files' version of every question into the session, staying on the question
on screen. What each does to the session is quizapp/tui/components/preview_session.py.
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


class PreviewScreen(QuizScreen):
    BINDINGS = [
        Binding("v", "next_variant", "Next variant"),
        Binding("o", "toggle_order", "Option order"),
    ]

    def __init__(self, session: QuizSession, lab: LabService, bases: Iterable[Question]) -> None:
        super().__init__(session, lab)
        # Each question as its file writes it: the variants are found and stepped from these.
        self.bases = {q.id: q for q in bases}

    @property
    def shown_question(self) -> Question | None:
        """The question on screen: while its feedback shows, the session has moved past it."""
        if self.state == "answered" and self.session.actions:
            if self.session.last_action == "answer":
                return self.session.attempts[-1].question
            return self.session.skipped[-1]
        return self.question

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

    async def action_next_variant(self) -> None:
        shown = self.shown_question
        base = self.bases.get(shown.id) if shown is not None else None
        if shown is None or base is None or not base.vary:
            return
        self._ask_again()
        replace_current(self.session, next_variant(base, shown))
        await self.show_question()

    async def action_toggle_order(self) -> None:
        if not self._order_can_change(self.shown_question):
            return
        self._ask_again()
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
            shown = self.shown_question
            base = self.bases.get(shown.id) if shown is not None else None
            return base is not None and bool(base.vary) and self.state != "awaiting-key"
        if action == "toggle_order":
            return self._order_can_change(self.shown_question) and self.state != "awaiting-key"
        return super().check_action(action, parameters)
