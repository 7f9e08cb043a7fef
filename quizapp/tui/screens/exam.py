"""The mock exam: every question a key away, a countdown, no feedback until submit.

ExamScreen asks; answers can change (and questions be flagged) until the student submits or
the clock runs out. Then derived numeric keys are computed in a thread worker ("grading…",
quizapp/tui/components/exam_grading.py) and ExamReportScreen (exam_report.py) shows the
score by topic, pass or fail, and every missed question. What the lines say, from the exam's
state, is in quizapp/tui/text/exam_lines.py.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Button, Footer, Input, Label, OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from quizapp.bank.model import ComputeSpec, Question
from quizapp.bank.number_examples import NumberExamples
from quizapp.exam.result import ExamResult
from quizapp.exam.session import ExamClosed, ExamSession
from quizapp.tui.components.exam_grading import compute_derived_keys, run_key
from quizapp.tui.components.lab_service import LabService
from quizapp.tui.screens.confirm import Confirm
from quizapp.tui.screens.exam_report import ExamReportScreen
from quizapp.tui.text.exam_lines import (
    NAV_HINT,
    key_hint,
    meta_line,
    nav_line,
    position_line,
    submit_detail,
    subtitle,
    typed_number_problem,
)
from quizapp.tui.text.literal import literal
from quizapp.tui.widgets.answer_input import answer_widget, choice_answer, read_answer
from quizapp.tui.widgets.bank_markdown import BankMarkdown
from quizapp.tui.widgets.choice_list import ChoiceList
from quizapp.tui.widgets.ordering_list import OrderingList
from quizapp.tui.widgets.question_body import QuestionBody
from quizapp.tui.widgets.title_bar import TitleBar
from quizapp.wording import plural

PASSTHROUGH = "npfg"  # a number box leaves these to the exam's keys: no number has them
TICK_SECONDS = 0.25
LOW_TIME_SECONDS = 60.0

OnSubmit = Callable[[ExamResult], None]


class ExamScreen(Screen[None]):
    DEFAULT_CSS = """
    ExamScreen #exam-top { height: 1; padding: 0 1; }
    ExamScreen #exam-position { width: 1fr; text-wrap: nowrap; text-overflow: ellipsis; }
    ExamScreen #exam-timer { width: auto; text-style: bold; padding: 0 1; }
    ExamScreen #exam-timer.-low { background: $warning 40%; }
    ExamScreen #exam-timer.-out { background: $error 50%; }
    ExamScreen #exam-submit { margin-left: 1; min-width: 10; }
    ExamScreen #exam-main { height: 1fr; }
    ExamScreen #exam-nav {
        width: 30%; min-width: 29; max-width: 40; height: 1fr; border: round $panel;
        padding: 0; scrollbar-size-vertical: 1;
        /* One line per question: a topic too long for the column ends in an ellipsis. */
        text-wrap: nowrap; text-overflow: ellipsis;
    }
    ExamScreen #exam-nav:focus { border: round $accent; }
    ExamScreen #exam-body { width: 1fr; height: 1fr; padding: 0 1; }
    ExamScreen #question-meta { color: $text-muted; margin: 1 0 0 1; width: 1fr; }
    ExamScreen #question-meta.-flagged { color: $warning; text-style: bold; }
    ExamScreen #prompt { margin: 0; }
    ExamScreen #answer { margin: 0 0 1 0; }
    ExamScreen Input#answer { width: 60; max-width: 100%; }
    ExamScreen #key-hint { color: $text-muted; margin: 0 1; width: 1fr; }
    ExamScreen #key-hint.-error { color: $error; text-style: bold; }
    ExamScreen #nav-hint { color: $text-muted; margin: 0 1 1 1; width: 1fr; }
    ExamScreen #exam-grading { margin: 2 2; text-style: bold; }
    """

    BINDINGS = [
        Binding("right,n", "next", "Next"),
        Binding("left,p", "previous", "Previous"),
        Binding("f", "flag", "Flag"),
        Binding("g", "goto", "Go to"),
        Binding("ctrl+s", "submit_exam", "Submit"),
        Binding("escape", "leave", "Leave exam"),
    ]

    def __init__(
        self,
        exam: ExamSession,
        lab: LabService,
        *,
        on_submit: OnSubmit | None = None,
        tick: float = TICK_SECONDS,
    ) -> None:
        super().__init__(id="exam")
        self.exam = exam
        self.lab = lab
        self.on_submit = on_submit
        self.tick = tick
        self.state = "asking"  # asking → grading → done
        self.result: ExamResult | None = None
        self._confirmed: set[str] = set()  # ordering answers confirmed as first shown
        self._timer: Timer | None = None
        self._showing: str | None = None  # the question id whose widget is mounted
        self._submit_dialog: Confirm | None = None  # "Submit the exam?" while it is asked

    # -- layout ----------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Horizontal(id="exam-top"):
            yield Label("", id="exam-position")
            yield Label(self.exam.remaining_text(), id="exam-timer")
            yield Button("Submit (ctrl+s)", id="exam-submit", compact=True, variant="primary")
        with Horizontal(id="exam-main"):
            yield OptionList(
                *(
                    Option(nav_line(self.exam, i), id=q.id)
                    for i, q in enumerate(self.exam.questions)
                ),
                id="exam-nav",
            )
            yield QuestionBody(id="exam-body", can_focus=True)
        yield Footer()

    async def on_mount(self) -> None:
        self.sub_title = subtitle(self.exam)
        self.query_one("#exam-nav", OptionList).border_title = "questions (g)"
        asked, available = self.exam.requested or 0, len(self.exam.questions)
        if asked > available:  # --questions 1000: said now, not only in the report
            self.notify(
                f"Only {plural(available, 'question')} in the bank can be in an exam "
                f"(flashcards are left out); asking all {available}.",
                title="Exam",
                timeout=8,
                markup=False,
            )
        self.exam.start()
        self._timer = self.set_interval(self.tick, self._on_tick, name="exam clock")
        await self.show_question()

    def on_resize(self) -> None:
        # The position line says less on a narrow terminal (see _refresh_status).
        if self.state == "asking" and self._showing is not None:
            self.call_after_refresh(self._refresh_status)

    @property
    def question(self) -> Question:
        return self.exam.current

    @property
    def in_progress(self) -> bool:
        """True until the exam is submitted: quitting now would lose it."""
        return not self.exam.submitted

    def _refresh_status(self) -> None:
        exam = self.exam
        position = self.query_one("#exam-position", Label)
        position.update(position_line(exam, position.size.width))
        nav = self.query_one("#exam-nav", OptionList)
        for index in range(len(exam.questions)):
            nav.replace_option_prompt_at_index(index, nav_line(self.exam, index))
        if nav.highlighted != exam.index and not nav.has_focus:
            nav.highlighted = exam.index
        meta = self.query("#question-meta")
        if meta:
            label = meta.first(Label)
            label.update(literal(meta_line(self.exam, self.question)))
            label.set_class(self.question.id in exam.flagged, "-flagged")

    # -- showing a question ----------------------------------------------------------------------

    async def show_question(self) -> None:
        question = self.question
        self._showing = None
        body = self.query_one("#exam-body", VerticalScroll)
        await body.remove_children()
        order = self.exam.display_orders.get(question.id, ())
        widget = answer_widget(
            question, order, self.exam.answer_of(question.id), passthrough=PASSTHROUGH
        )
        await body.mount_all(
            [
                Label(literal(meta_line(self.exam, question)), id="question-meta"),
                BankMarkdown(question.prompt, id="prompt"),
                widget,
                Label(key_hint(question, self._examples(question)), id="key-hint"),
                Label(NAV_HINT, id="nav-hint"),
            ]
        )
        self._showing = question.id
        body.scroll_home(animate=False)
        self._refresh_status()
        if isinstance(widget, Input):
            self._check_number(widget.value)
        self.call_after_refresh(self._focus_answer)

    def _examples(self, question: Question) -> NumberExamples | None:
        return self.app.number_examples.examples_for(question)  # type: ignore[attr-defined]

    def _focus_answer(self) -> None:
        # Focus without scrolling: a question taller than the screen would otherwise be
        # centred on its answer, its first line ("⚑ flagged for review · …") scrolled away.
        answer = self.query("#answer")
        if answer and answer.first().can_focus and not answer.first().disabled:
            answer.first().focus(scroll_visible=False)
        else:
            self.query_one("#exam-body").focus(scroll_visible=False)

    def _answer_widget(self) -> Widget | None:
        answer = self.query("#answer")
        return answer.first() if answer and self._showing == self.question.id else None

    def _on_screen_answer(self):
        """What the mounted widget says now (None: nothing given)."""
        widget = self._answer_widget()
        if widget is None:
            return None
        question = self.question
        return read_answer(
            question,
            widget,
            self.exam.display_orders.get(question.id, ()),
            initial_counts=question.id in self._confirmed or self.exam.is_answered(question.id),
        )

    def _capture(self) -> None:
        """Keep what the widget shows as the current question's answer."""
        if self.state != "asking" or self._answer_widget() is None:
            return
        answer = self._on_screen_answer()
        if answer == self.exam.answer_of():
            return
        try:
            self.exam.set_answer(answer)
        except ExamClosed:
            return
        self._refresh_status()

    # -- answering -------------------------------------------------------------------------------

    @on(ChoiceList.Submitted)
    async def _choice_submitted(self, event: ChoiceList.Submitted) -> None:
        event.stop()
        if self.state != "asking":
            return
        question = self.question
        order = self.exam.display_orders.get(question.id, ())
        if self._keep(choice_answer(question, order, event.selected)):
            await self._advance()

    @on(OrderingList.Submitted)
    async def _ordering_submitted(self, event: OrderingList.Submitted) -> None:
        event.stop()
        if self.state != "asking":
            return
        self._confirmed.add(self.question.id)
        self._capture()
        await self._advance()

    @on(Input.Changed, "#answer")
    def _numeric_changed(self, event: Input.Changed) -> None:
        if self.state != "asking" or self._showing != self.question.id:
            return
        self._check_number(event.value)
        self._capture()

    @on(Input.Submitted, "#answer")
    async def _numeric_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if self.state != "asking":
            return
        if event.value.strip() and not self._check_number(event.value):
            return
        self._capture()
        await self._advance()

    def _check_number(self, text: str) -> bool:
        hint = self.query("#key-hint")
        if not hint:
            return True
        label, examples = hint.first(Label), self._examples(self.question)
        problem = typed_number_problem(self.question, text, examples)
        label.update(literal(problem) if problem else key_hint(self.question, examples))
        label.set_class(problem is not None, "-error")
        return problem is None

    def _keep(self, answer) -> bool:
        try:
            self.exam.set_answer(answer)
        except ExamClosed:
            return False
        self._refresh_status()
        return True

    async def _advance(self) -> None:
        if self.exam.index == len(self.exam.questions) - 1:
            left = len(self.exam.unanswered)
            more = f"{left} still unanswered · " if left else ""
            self.notify(
                f"That was the last question. {more}ctrl+s submits.", timeout=4, markup=False
            )
            self._refresh_status()
            return
        await self._go(self.exam.index + 1)

    async def _go(self, index: int) -> None:
        if self.state != "asking":
            return
        self._capture()
        if self.exam.go(index):
            await self.show_question()

    # -- keys ------------------------------------------------------------------------------------

    async def action_next(self) -> None:
        await self._go(self.exam.index + 1)

    async def action_previous(self) -> None:
        await self._go(self.exam.index - 1)

    def action_flag(self) -> None:
        if self.state != "asking":
            return
        flagged = self.exam.toggle_flag()
        self._refresh_status()
        self.notify(
            f"Question {self.exam.index + 1} " + ("flagged for review" if flagged else "unflagged"),
            timeout=2,
            markup=False,
        )

    def action_goto(self) -> None:
        if self.state != "asking":
            return
        self._capture()
        nav = self.query_one("#exam-nav", OptionList)
        nav.highlighted = self.exam.index
        nav.focus()

    @on(OptionList.OptionSelected, "#exam-nav")
    async def _nav_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        await self._go(event.option_index)
        self._focus_answer()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in {"next", "previous", "flag", "goto", "submit_exam"}:
            return self.state == "asking"
        return True

    @on(Button.Pressed, "#exam-submit")
    def _submit_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_submit_exam()

    def action_submit_exam(self) -> None:
        if self.state != "asking" or self.app.screen is not self:
            return
        self._capture()

        def submitted(yes: bool | None) -> None:
            self._submit_dialog = None
            if yes and self.state == "asking":
                self._close(timed_out=False)

        # Kept to be told the time left on each tick: the student may think it over a while.
        self._submit_dialog = Confirm("Submit the exam?", submit_detail(self.exam))
        self.app.push_screen(self._submit_dialog, submitted)

    def action_leave(self) -> None:
        focused = self.focused
        if isinstance(focused, Input) or (
            isinstance(focused, OptionList) and focused.id == "exam-nav"
        ):
            # Escape hands the keys back to the exam (n, p, f, g…).
            if isinstance(focused, Input):
                self.query_one("#exam-body").focus()
            else:
                self._focus_answer()
            return
        if self.state != "asking":
            return

        def leave(yes: bool | None) -> None:
            if yes:
                if self._timer is not None:
                    self._timer.stop()
                self.app.pop_screen()

        self.app.push_screen(
            Confirm("Leave the exam?", "Nothing is graded or recorded; the answers are lost."),
            leave,
        )

    # -- the clock -------------------------------------------------------------------------------

    async def _on_tick(self) -> None:
        if self.state != "asking":
            return
        exam = self.exam
        timer = self.query_one("#exam-timer", Label)
        remaining = exam.remaining()
        timer.update(exam.remaining_text())
        timer.set_class(0 < remaining <= min(LOW_TIME_SECONDS, exam.duration / 10), "-low")
        timer.set_class(remaining <= 0, "-out")
        if exam.expired:
            # Whatever covers the exam (the submit question, help) goes: time is up.
            while self.app.screen is not self and self in self.app.screen_stack:
                await self.app.pop_screen()
            self.notify("Time is up: the exam was submitted.", severity="warning", timeout=6)
            self._close(timed_out=True)
        else:
            self._capture()  # choice lists and orderings say nothing when they change
            if self._submit_dialog is not None:
                self._submit_dialog.set_detail(submit_detail(self.exam))

    # -- submitting and grading ------------------------------------------------------------------

    def _close(self, *, timed_out: bool) -> None:
        if self.state != "asking":
            return
        pending = {}
        if self._answer_widget() is not None:
            pending[self.question.id] = self._on_screen_answer()
        self.exam.submit(timed_out=timed_out, pending=pending)
        self.state = "grading"
        self._submit_dialog = None  # time ran out while it was asked: it was closed
        if self._timer is not None:
            self._timer.stop()
        timer = self.query_one("#exam-timer", Label)
        timer.update("time is up" if self.exam.timed_out else "submitted")
        self.query_one("#exam-submit", Button).disabled = True
        self.refresh_bindings()
        derived = self.exam.derived_keys()
        body = self.query_one("#exam-body", VerticalScroll)
        body.remove_children()
        runs = len({run_key(spec) for spec in derived.values()})
        status = "Grading…"
        if runs:
            status += f" running {plural(runs, 'live computation')} for the computed answers"
            if not self.lab.ready.is_set():
                status += f" ({self.lab.status})"
        body.mount(Static(literal(status), id="exam-grading"))
        body.focus()
        if derived:
            self._compute_keys(derived)
        else:
            self.call_later(self._graded, {})

    @work(thread=True, exclusive=True, group="exam-grading", exit_on_error=False)
    def _compute_keys(self, derived: Mapping[str, ComputeSpec]) -> None:
        """In a worker thread: each derived key's computation, once per distinct run."""
        worker = get_current_worker()
        computed = compute_derived_keys(self.lab, derived, lambda: worker.is_cancelled)
        if computed is not None:
            self.app.call_from_thread(self._graded, *computed)

    async def _graded(
        self, derived: Mapping[str, Mapping[str, object]], errors: Sequence[str] = ()
    ) -> None:
        if self.state != "grading":
            return
        self.state = "done"
        for error in errors:
            self.log.error(f"exam: a derived key could not be computed: {error}")
        result = self.exam.grade(derived)
        self.result = result
        if self.on_submit is not None:
            try:
                self.on_submit(result)
            except Exception as error:  # the report still shows; say the record failed
                self.log.error(f"exam: recording the result failed: {error!r}")
                self.notify(
                    f"The result could not be saved: {error}",
                    severity="error",
                    timeout=10,
                    markup=False,
                )
        if self not in self.app.screen_stack:
            return  # the student left while it was grading
        while self.app.screen is not self:  # help or a palette opened while grading
            await self.app.pop_screen()
        self.app.switch_screen(ExamReportScreen(result, self.lab))


__all__ = ["ExamScreen"]
