"""The quiz screen: one question at a time, then its feedback and its live computation."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, Input, Label, Static

from quizapp.bank.answers import (
    ChoiceAnswer,
    FlashcardRating,
    NumberFormatError,
    NumericAnswerText,
    OrderingAnswer,
)
from quizapp.bank.grading import Grade, MissingKey, grade
from quizapp.bank.model import (
    ChoiceQuestion,
    Flashcard,
    NumericQuestion,
    OrderingQuestion,
    Question,
    QuestionType,
    TrueFalseQuestion,
)
from quizapp.bank.number_examples import NumberExamples
from quizapp.bank.session import QuizSession
from quizapp.tui.components.lab_service import LabService
from quizapp.tui.components.learning_wait import LearningWait
from quizapp.tui.text.literal import literal, with_markup
from quizapp.tui.text.prompt_text import short_prompt
from quizapp.tui.widgets.answer_input import answer_widget, choice_answer, numeric_hint
from quizapp.tui.widgets.bank_markdown import BankMarkdown
from quizapp.tui.widgets.choice_list import ChoiceList
from quizapp.tui.widgets.feedback import Feedback
from quizapp.tui.widgets.history_status import HistoryStatus
from quizapp.tui.widgets.lab_panel import LabPanel, cancel_running, release_focus
from quizapp.tui.widgets.ordering_list import OrderingList
from quizapp.tui.widgets.question_body import QuestionBody
from quizapp.tui.widgets.session_progress import SessionProgress
from quizapp.tui.widgets.title_bar import TitleBar

if TYPE_CHECKING:
    from quizapp.tui.components.drill_plan import DrillPlan
    from quizapp.tui.components.scheduled import Scheduled

KEY_HINTS = {
    QuestionType.SINGLE_CHOICE: "1–9 pick · Enter submit",
    QuestionType.MULTIPLE_CHOICE: "Select all that apply: 1–9 toggle · Enter submit",
    QuestionType.TRUE_FALSE: "1 True · 2 False · Enter submit",
    QuestionType.ORDERING: "↑/↓ choose a step · shift+↑/↓ or [ ] move it · Enter submit",
    QuestionType.FLASHCARD: "Space reveal the back, then grade it: 1 Again · 2 Hard · 3 Good · 4 Easy",
}


class QuizScreen(Screen[None]):
    BINDINGS = [
        Binding("space", "space", "Reveal / next"),
        Binding("enter", "next", "Next", show=False),
        *(Binding(str(n), f"rate({n})", show=False) for n in range(1, 5)),
        Binding("escape", "leave", "Leave session"),
        Binding("u", "undo", "Undo"),
        Binding("x", "cancel_lab", "Cancel computation", show=False),
        Binding("b", "bury", "Bury", show=False),
        Binding("exclamation_mark", "suspend", "Suspend", show=False),
        Binding("e", "end_drill", "End drill"),  # while waiting for a learning card
    ]

    def __init__(
        self, session: QuizSession, lab: LabService, drill: DrillPlan | None = None
    ) -> None:
        super().__init__(id="quiz")
        self.session = session
        self.lab = lab
        self.drill = (
            drill  # a drill: its title and its learning steps (quizapp/tui/components/drill.py)
        )
        self.learning = LearningWait(self, drill) if drill is not None else None
        self.scheduled: Scheduled | None = None  # the answer on screen, as the scheduler took it
        # asking → (revealed) → [awaiting-key] → answered; a drill may then be waiting for a
        # learning card to come due again.
        self._state = "asking"
        self.shown_at = time.monotonic()
        self._pending: tuple[Question, NumericAnswerText] | None = None
        self._derived: dict[str, object] | None = None
        self._selected: frozenset[int] = frozenset()
        self._hidden: list[tuple[str, str]] = []  # (bury or suspend, question id), for undo
        self._hint_examples: NumberExamples | None = None  # the numbers the hint shows

    def compose(self) -> ComposeResult:
        yield TitleBar()
        yield SessionProgress(self.session.total)
        yield HistoryStatus()  # up while answers wait to be saved
        yield QuestionBody(id="quiz-body", can_focus=True)
        yield Footer()

    async def on_mount(self) -> None:
        self.sub_title = self.session.title
        await self.show_question()

    @property
    def question(self) -> Question | None:
        return self.session.current

    @property
    def state(self) -> str:
        return self._state

    @state.setter
    def state(self, state: str) -> None:
        self._state = state
        if self.is_attached:
            self.refresh_bindings()  # the footer offers what check_action allows in this state

    # -- asking -------------------------------------------------------------------------------

    async def show_question(self) -> None:
        if self.learning is not None:
            self.learning.take_due()
        question = self.question
        if question is None:
            if self.learning is not None and self.learning.steps:
                await self.learning.wait()
            else:
                self.finish()
            return
        self.state = "asking"
        self.scheduled = None
        self._derived = None
        self._key_error: str | None = None
        self._pending = None
        self._selected = frozenset()
        self.shown_at = time.monotonic()
        self.show_progress()
        body = self.query_one("#quiz-body", VerticalScroll)
        await body.remove_children()
        widgets = [
            *self.heading(question),
            BankMarkdown(question.prompt, id="prompt"),
            answer_widget(question, self.session.display_orders.get(question.id, ())),
            Label(self._hint(question), id="key-hint"),
            # Mounted now but hidden, so the computation runs while the student thinks and a
            # derived numeric key is usually ready by the time they answer.
            LabPanel(self.lab, question.compute, autorun=True, id="lab", classes="hidden"),
        ]
        await body.mount_all(widgets)
        body.scroll_home(animate=False)
        self.call_after_refresh(self._focus_answer)

    def heading(self, question: Question) -> list[Widget]:
        """The line above the prompt: its topic, difficulty and type (a preview adds more)."""
        kind = question.type.value.replace("_", " ")
        meta = f"{question.topic} · {question.difficulty.value} · {kind}"
        return [Label(literal(meta), id="question-meta")]

    def _focus_answer(self) -> None:
        answer = self.query("#answer")
        if answer and answer.first().can_focus:
            answer.first().focus()
        else:
            self.query_one("#quiz-body").focus()

    # -- answering ----------------------------------------------------------------------------

    @on(ChoiceList.Submitted)
    def _choice_submitted(self, event: ChoiceList.Submitted) -> None:
        question = self.question
        assert question is not None
        answer = choice_answer(
            question, self.session.display_orders.get(question.id, ()), event.selected
        )
        if isinstance(answer, ChoiceAnswer):
            self._selected = answer.selected
        self._submit(question, answer)

    @on(OrderingList.Submitted)
    def _ordering_submitted(self, event: OrderingList.Submitted) -> None:
        question = self.question
        assert isinstance(question, OrderingQuestion)
        self._submit(question, OrderingAnswer(event.order))

    @on(Input.Submitted, "#answer")
    def _numeric_submitted(self, event: Input.Submitted) -> None:
        question = self.question
        if not isinstance(question, NumericQuestion) or self.state != "asking":
            return
        self._submit(question, NumericAnswerText(event.value))

    def _submit(self, question: Question, answer) -> None:
        try:
            result = grade(question, answer, self._derived)
        except NumberFormatError as exc:
            examples = self.app.number_examples.examples_for(question, self._derived)  # type: ignore[attr-defined]
            reason = exc.explained(examples.whole if examples else None)
            self.query_one("#key-hint", Label).update(
                with_markup("[b $error]$reason[/] — try again", reason=reason)
            )
            return
        except MissingKey:
            if self._key_error is not None:
                self._unscored(question, self._key_error)
                return
            # The key comes from the live computation, which has not finished yet.
            self.state = "awaiting-key"
            self._pending = (question, answer)
            self.query_one("#key-hint", Label).update(
                "Checking your answer against the live computation…"
            )
            return
        self._answered(question, result)

    @on(LabPanel.Completed)
    def _lab_completed(self, event: LabPanel.Completed) -> None:
        question = self.question
        if question is None or question.compute is None or event.name != question.compute.name:
            return
        if self._derived is None:
            # Only the question's own run sets the key; a rerun with the student's arguments
            # explores, it does not move the goalposts.
            self._derived = dict(event.result.values)
            self._keep_hint_clear_of_key(question)
        if self.state == "awaiting-key" and self._pending is not None:
            pending_question, answer = self._pending
            self._pending = None
            self._submit(pending_question, answer)

    def _keep_hint_clear_of_key(self, question: Question) -> None:
        """A computed key is known now: no hint from here on shows it, and this question's
        hint, which showed no example while its key was unknown, is written with them."""
        numbers = self.app.number_examples  # type: ignore[attr-defined]
        numbers.learn(question, self._derived or {})
        asking = self.state == "asking" and isinstance(question, NumericQuestion)
        if asking and numbers.examples_for(question, self._derived) != self._hint_examples:
            self.query_one("#key-hint", Label).update(self._hint(question))

    @on(LabPanel.Failed)
    def _lab_failed(self, event: LabPanel.Failed) -> None:
        if self._derived is not None:
            return  # a failed rerun of the student's own arguments says nothing about the key
        self._key_error = event.text
        if self.state == "awaiting-key" and self._pending is not None:
            question, _ = self._pending
            self._pending = None
            self._unscored(question, event.text)

    def _unscored(self, question: Question, error: str) -> None:
        """Without its computation a derived key is unknown: say so and count nothing."""
        self.state = "answered"
        self._reveal_lab()
        self.query_one("#key-hint", Label).update(
            with_markup(
                "[b $error]The computation behind this answer failed ($reason); "
                "this question is not scored.[/] Enter to go on.",
                reason=error,
            )
        )
        self.session.skip()
        self.query_one("#quiz-body").focus()

    def _answered(self, question: Question, result: Grade) -> None:
        seconds = time.monotonic() - self.shown_at
        attempt = self.session.attempt(question)  # before the answer joins the session's
        self.session.record(result, seconds)
        self.scheduled = self.app.on_answer(  # type: ignore[attr-defined]
            question, result, seconds, self.session.kind, attempt
        )
        self.state = "answered"
        answer = self.query_one("#answer")
        if isinstance(answer, ChoiceList):
            if isinstance(question, ChoiceQuestion):
                order = self.session.display_orders[question.id]
                answer.show_result({order.index(i) for i in question.correct_indices})
            elif isinstance(question, TrueFalseQuestion):
                answer.show_result({0 if question.answer else 1})
        elif isinstance(answer, OrderingList):
            answer.show_result()
        elif isinstance(answer, Input):
            answer.disabled = True
        self.show_progress()
        self.query_one("#key-hint", Label).update(
            "Enter/space: next · 1–4: change the rating"
            + (" · Tab: the lab's arguments" if self._lab_has_arguments() else "")
        )
        body = self.query_one("#quiz-body", VerticalScroll)
        feedback = Feedback(
            question,
            result,
            self._selected,
            order=self.session.display_orders.get(question.id, ()),
            schedule=self._schedule_note(),
            choices=self.scheduled.choices() if self.scheduled is not None else "",
        )
        body.mount(feedback, before=self.query_one("#lab"))
        self._reveal_lab()
        body.focus()
        self.call_after_refresh(feedback.scroll_visible, animate=False, top=True)

    def _lab_has_arguments(self) -> bool:
        """Only a computation with arguments has a form to Tab into (attention_heads has none)."""
        spec = self.query_one("#lab", LabPanel).spec
        return spec is not None and bool(spec.args)

    def _schedule_note(self) -> str | None:
        scheduled = self.scheduled
        if scheduled is None:
            return None
        # Said where the eye is: the key hint under the lab is often scrolled out of view.
        return scheduled.note() + (" · 1–4 change it" if scheduled.saved else "")

    def show_progress(self) -> None:
        """Question n of N and the title: both move when a card is buried, suspended or comes
        back for a learning step."""
        waiting = len(self.drill.steps) if self.drill is not None else 0
        asked = len(self.session.attempts)
        self.query_one(SessionProgress).show(
            asked + (self.state != "answered"),
            self.session.total + waiting,
            asked,
            self.session.score,
        )
        if self.drill is not None:
            self.session.title = self.sub_title = self.drill.title(self.session)

    def _reveal_lab(self) -> None:
        self.query_one("#lab", LabPanel).remove_class("hidden")

    # -- keys ---------------------------------------------------------------------------------

    async def action_space(self) -> None:
        question = self.question
        if self.state in ("answered", "waiting"):
            await self.action_next()
        elif isinstance(question, Flashcard) and self.state == "asking":
            self.state = "revealed"
            self.query_one("#answer", Static).update("")
            # A paragraph of its own: the back may be a table or a list, not just a sentence.
            back = BankMarkdown(f"**Back:**\n\n{question.back}", id="flashcard-back")
            self.query_one("#quiz-body").mount(back, after=self.query_one("#prompt"))
            self.query_one("#key-hint", Label).update(
                "How well did you recall it?  1 Again · 2 Hard · 3 Good · 4 Easy"
            )

    def action_rate(self, rating: int) -> None:
        question = self.question
        if isinstance(question, Flashcard) and self.state == "revealed":
            self._answered(question, grade(question, FlashcardRating(rating)))
        elif self.state == "answered" and self.scheduled is not None:
            # As Anki's answer buttons: the student's rating instead of the app's, before
            # moving on. The same review is changed, not a second one added.
            from quizapp.srs.memory.scheduling import Rating

            self.scheduled = self.app.rerate_answer(self.scheduled, Rating(rating))  # type: ignore[attr-defined]
            self.query_one(Feedback).show_schedule(self._schedule_note() or "")

    def action_cancel_lab(self) -> None:
        cancel_running(self)

    async def action_undo(self) -> None:
        """Take back the latest answer, as Anki's u does (it leaves the history and is asked
        again), or the latest bury or suspend (the card comes back)."""
        if not self.session.actions or self.state == "awaiting-key":
            self.notify("Nothing to undo in this session.", timeout=3)
            return
        if self.session.last_action == "answer":
            if not self.app.undo_answer():  # type: ignore[attr-defined]
                self.notify(
                    "The history had no answer to take back.", severity="warning", timeout=4
                )
        elif self._hidden:
            action, question_id = self._hidden.pop()
            self.app.unhide(question_id, action)  # type: ignore[attr-defined]
        question = self.session.undo()
        if question is not None and self.learning is not None:
            self.learning.steps.drop(question.id)  # its learning step went with the answer
        what = short_prompt(question.prompt) if question else ""
        self.notify(f"Undone: {what}", timeout=3, markup=False)
        await self.show_question()

    async def action_bury(self) -> None:
        await self._hide_current("bury")

    async def action_suspend(self) -> None:
        await self._hide_current("suspend")

    async def _hide_current(self, action: str) -> None:
        question = self.question
        if question is None or self.state not in ("asking", "revealed"):
            self.notify(
                f"Only a question not yet answered can be {action}ed.", timeout=3, markup=False
            )
            return
        self.app.bury_or_suspend(question, action)  # type: ignore[attr-defined]
        self.session.skip()
        self._hidden.append((action, question.id))
        await self.show_question()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "space":
            # Offered only where it does something: a flashcard's back to reveal, or the next
            # question. While a choice or a number is asked, Space is the answer's own key.
            flashcard = isinstance(self.question, Flashcard) and self.state == "asking"
            return True if flashcard or self.state in ("answered", "waiting") else None
        if action == "rate":
            flashcard = isinstance(self.question, Flashcard) and self.state == "revealed"
            return flashcard or (self.state == "answered" and self.scheduled is not None)
        if action == "next":
            return self.state in ("answered", "waiting")
        if action == "end_drill":
            return self.state == "waiting"
        return True

    async def action_next(self) -> None:
        if self.state == "waiting" and self.learning is not None:
            await self.learning.ask_now()
            return
        if self.state != "answered":
            return
        if self.learning is not None:
            self.learning.keep()
        await self.show_question()

    def action_end_drill(self) -> None:
        if self.state == "waiting":
            self.finish()

    def finish(self) -> None:
        from quizapp.tui.screens.summary import SummaryScreen

        self.app.switch_screen(SummaryScreen(self.session, self.lab))

    def action_leave(self) -> None:
        from quizapp.tui.screens.confirm import Confirm

        if release_focus(self, self.query_one("#quiz-body")):
            return
        if not self.session.attempts:
            self.app.pop_screen()
            return

        def leave(yes: bool | None) -> None:
            if yes:
                self.app.pop_screen()

        note = self.app.history_writes.leave_note(len(self.session.attempts))
        self.app.push_screen(Confirm("Leave this session?", note), leave)

    @property
    def in_progress(self) -> bool:
        waiting = self.state == "waiting"
        return waiting or (
            not self.session.finished and bool(self.session.attempts or self.state != "asking")
        )

    def _hint(self, question: Question) -> str | Text:
        if isinstance(question, NumericQuestion):
            examples = self.app.number_examples.examples_for(question, self._derived)  # type: ignore[attr-defined]
            self._hint_examples = examples
            return numeric_hint(question, "Enter submit", examples)
        return KEY_HINTS[question.type]
