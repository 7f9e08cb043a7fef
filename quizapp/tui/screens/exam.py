"""The mock exam: every question a key away, a countdown, no feedback until submit; the report.

ExamScreen asks; answers can change (and questions be flagged) until the student submits or
the clock runs out. Then derived numeric keys are computed in a thread worker ("grading…")
and ExamReportScreen shows the score by topic, pass or fail, and every missed question, each
opening the usual feedback and live lab.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import (
    Button,
    DataTable,
    Footer,
    Input,
    Label,
    OptionList,
    Static,
)
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from quizapp.bank.answers import NumberFormatError, parse_number
from quizapp.bank.model import ComputeSpec, NumericQuestion, Question, QuestionType
from quizapp.bank.number_examples import NumberExamples
from quizapp.bank.session import Attempt
from quizapp.exam.session import (
    NO_ANSWER,
    ExamClosed,
    ExamResult,
    ExamSession,
    format_duration,
)
from quizapp.tui.components.lab_service import LabService
from quizapp.tui.screens.confirm import Confirm
from quizapp.tui.screens.review import ReviewScreen
from quizapp.tui.text.literal import literal, one_line
from quizapp.tui.widgets.answer_input import (
    answer_widget,
    choice_answer,
    numeric_hint,
    read_answer,
)
from quizapp.tui.widgets.bank_markdown import BankMarkdown
from quizapp.tui.widgets.choice_list import ChoiceList
from quizapp.tui.widgets.feedback import Feedback
from quizapp.tui.widgets.lab_panel import LabPanel
from quizapp.tui.widgets.ordering_list import OrderingList
from quizapp.tui.widgets.question_body import QuestionBody
from quizapp.tui.widgets.title_bar import TitleBar
from quizapp.wording import plural

EXAM_ENTER = "Enter keep it and go on"
EXAM_HINTS = {
    QuestionType.SINGLE_CHOICE: f"1–9 pick · {EXAM_ENTER}",
    QuestionType.MULTIPLE_CHOICE: f"Select all that apply: 1–9 toggle · {EXAM_ENTER}",
    QuestionType.TRUE_FALSE: f"1 True · 2 False · {EXAM_ENTER}",
    QuestionType.ORDERING: f"↑/↓ choose a step · shift+↑/↓ or [ ] move it · {EXAM_ENTER}",
}
NAV_HINT = "n/→ next · p/← previous · f flag · g go to · ctrl+s submit"
PASSTHROUGH = "npfg"  # a number box leaves these to the exam's keys: no number has them
TICK_SECONDS = 0.25
LOW_TIME_SECONDS = 60.0
GRADING_TIMEOUT = 180.0  # seconds to wait for one derived key's computation (torch warm-up too)
FLASHCARD_NOTE = "Flashcards are self-graded, so exams leave them out"

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
                *(Option(self._nav_prompt(i), id=q.id) for i, q in enumerate(self.exam.questions)),
                id="exam-nav",
            )
            yield QuestionBody(id="exam-body", can_focus=True)
        yield Footer()

    async def on_mount(self) -> None:
        self.sub_title = self._subtitle()
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

    def _subtitle(self) -> str:
        minutes = format_duration(self.exam.duration)
        return f"{self.exam.title}: {plural(len(self.exam.questions), 'question')} in {minutes}"

    @property
    def question(self) -> Question:
        return self.exam.current

    @property
    def in_progress(self) -> bool:
        """True until the exam is submitted: quitting now would lose it."""
        return not self.exam.submitted

    def _nav_prompt(self, index: int) -> Text:
        question = self.exam.questions[index]
        answered = self.exam.is_answered(question.id)
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append(f"{index + 1:>{len(str(len(self.exam.questions)))}} ")
        if self.exam.is_unreadable(question.id):
            # Kept, but not a number: it would be marked wrong, so it does not count as answered.
            text.append("✗", style="bold red")
        else:
            text.append("●" if answered else "○", style="green" if answered else "dim")
        text.append("⚑" if question.id in self.exam.flagged else " ", style="bold yellow")
        text.append(" ")
        text.append(question.topic, style="" if answered else "dim")
        return text

    def _refresh_status(self) -> None:
        exam = self.exam
        position = self.query_one("#exam-position", Label)
        counts = [f"{len(exam.answered)} answered"]
        if exam.unreadable:  # kept, but not counted as answered: see the ✗ in the list
            counts.append(f"{len(exam.unreadable)} not a number")
        counts.append(f"{len(exam.flagged)} flagged")
        where = f"Question {exam.index + 1} of {len(exam.questions)}"
        text = " · ".join([where, *counts])
        if position.size.width and len(text) > position.size.width:  # a narrow terminal
            text = " · ".join([f"Q {exam.index + 1}/{len(exam.questions)}", *counts])
        position.update(text)
        nav = self.query_one("#exam-nav", OptionList)
        for index in range(len(exam.questions)):
            nav.replace_option_prompt_at_index(index, self._nav_prompt(index))
        if nav.highlighted != exam.index and not nav.has_focus:
            nav.highlighted = exam.index
        meta = self.query("#question-meta")
        if meta:
            label = meta.first(Label)
            label.update(literal(self._meta_text(self.question)))
            label.set_class(self.question.id in exam.flagged, "-flagged")

    def _meta_text(self, question: Question) -> str:
        kind = question.type.value.replace("_", " ")
        flag = "⚑ flagged for review · " if question.id in self.exam.flagged else ""
        return f"{flag}{question.topic} · {question.difficulty.value} · {kind}"

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
                Label(literal(self._meta_text(question)), id="question-meta"),
                BankMarkdown(question.prompt, id="prompt"),
                widget,
                Label(self._hint(question), id="key-hint"),
                Label(NAV_HINT, id="nav-hint"),
            ]
        )
        self._showing = question.id
        body.scroll_home(animate=False)
        self._refresh_status()
        if isinstance(widget, Input):
            self._check_number(widget.value)
        self.call_after_refresh(self._focus_answer)

    def _hint(self, question: Question) -> str | Text:
        if isinstance(question, NumericQuestion):
            return numeric_hint(question, EXAM_ENTER, self._examples(question))
        return EXAM_HINTS.get(question.type, "")

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
        label = hint.first(Label)
        question = self.question
        unit = question.answer.unit if isinstance(question, NumericQuestion) else None
        try:
            if text.strip():
                parse_number(text, unit)
        except NumberFormatError as exc:
            examples = self._examples(question)
            reason = exc.explained(examples.whole if examples else None)
            label.update(literal(f"{reason}: as typed, this answer would be marked wrong"))
            label.add_class("-error")
            return False
        label.update(self._hint(question))
        label.remove_class("-error")
        return True

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
        self._submit_dialog = Confirm("Submit the exam?", self._submit_detail())
        self.app.push_screen(self._submit_dialog, submitted)

    def _submit_detail(self) -> str:
        exam = self.exam
        unanswered, flagged, unreadable = exam.unanswered, exam.flagged_ids, exam.unreadable
        numbers = ", ".join(str(self._number(q)) for q in flagged)
        lines = [
            f"{len(unanswered)} unanswered (marked wrong)",
            f"{len(flagged)} flagged for review" + (f": {numbers}" if flagged else ""),
        ]
        if unreadable:
            lines.append(f"{plural(len(unreadable), 'numeric answer')} not a number (marked wrong)")
        lines.append(f"{exam.remaining_text()}; answers cannot change after.")
        return "\n".join(lines)

    def _number(self, question_id: str) -> int:
        return next(i for i, q in enumerate(self.exam.questions, 1) if q.id == question_id)

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
                self._submit_dialog.set_detail(self._submit_detail())

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
        runs = len({_run_key(spec) for spec in derived.values()})
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
        found: dict[tuple, Mapping[str, object] | None] = {}
        values: dict[str, Mapping[str, object]] = {}
        errors: list[str] = []
        for qid, spec in derived.items():
            key = _run_key(spec)
            if key not in found:
                deadline = time.monotonic() + GRADING_TIMEOUT

                def give_up(deadline: float = deadline) -> bool:
                    return worker.is_cancelled or time.monotonic() > deadline

                try:
                    result = self.lab.run(spec.name, dict(spec.args), is_cancelled=give_up)
                except Exception as error:  # a failed key leaves its question unscored
                    found[key] = None
                    errors.append(f"{spec.name}: {type(error).__name__}: {error}")
                else:
                    found[key] = dict(result.values)
            if worker.is_cancelled:
                return
            computed = found[key]
            if computed is not None:
                values[qid] = computed
        self.app.call_from_thread(self._graded, values, errors)

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


def _run_key(spec: ComputeSpec) -> tuple:
    return (spec.name, tuple(sorted((k, repr(v)) for k, v in spec.args.items())))


class ExamReviewScreen(ReviewScreen):
    """A missed exam question: ReviewScreen, with the whys of the options the student picked."""

    def __init__(self, attempt: Attempt, lab: LabService, selected: frozenset[int]) -> None:
        super().__init__(attempt, lab)
        self.selected = selected

    def compose(self) -> ComposeResult:
        question = self.attempt.question
        yield TitleBar()
        with VerticalScroll(id="review-body", can_focus=True):
            yield BankMarkdown(question.prompt, id="prompt")
            yield Feedback(question, self.attempt.grade, self.selected)
            yield LabPanel(self.lab, question.compute, autorun=True, id="lab")
        yield Footer()


class ExamReportScreen(Screen[None]):
    DEFAULT_CSS = """
    ExamReportScreen #report-body { padding: 1 2; height: 1fr; }
    ExamReportScreen #exam-score { text-style: bold; }
    ExamReportScreen #exam-verdict { text-style: bold; padding: 0 1; margin: 1 0 0 0; }
    ExamReportScreen #exam-verdict.-pass { background: $success 35%; }
    ExamReportScreen #exam-verdict.-fail { background: $error 35%; }
    ExamReportScreen #exam-facts, ExamReportScreen #exam-notes { color: $text-muted; }
    ExamReportScreen #exam-by-topic { height: auto; max-height: 12; }
    ExamReportScreen #exam-missed {
        height: 1fr; min-height: 4; text-wrap: nowrap; text-overflow: ellipsis;
    }
    """

    BINDINGS = [Binding("escape,h", "home", "Home")]

    def __init__(self, result: ExamResult, lab: LabService) -> None:
        super().__init__(id="exam-report")
        self.result = result
        self.lab = lab

    def compose(self) -> ComposeResult:
        result = self.result
        yield TitleBar()
        with Vertical(id="report-body"):
            yield Label(
                f"Score: {result.correct} of {result.questions} ({100 * result.score:.0f}%)",
                id="exam-score",
            )
            verdict = "PASS" if result.passed else "FAIL"
            label = Label(
                f"{verdict}: {100 * result.threshold:.0f}% needed to pass", id="exam-verdict"
            )
            label.add_class("-pass" if result.passed else "-fail")
            yield label
            yield Label(self._facts(), id="exam-facts")
            notes = self._notes()
            if notes:
                yield Static(literal("\n".join(notes)), id="exam-notes")
            yield Label("By topic", classes="pane-title")
            yield DataTable(id="exam-by-topic", cursor_type="none")
            missed = result.missed
            if missed:
                yield Label(
                    f"Missed ({len(missed)}): Enter opens the explanation and the lab",
                    classes="pane-title",
                )
                yield OptionList(
                    *(Option(self._missed_prompt(a), id=str(i)) for i, a in enumerate(missed)),
                    id="exam-missed",
                )
            else:
                yield Label("Nothing missed.", id="no-missed")
        yield Footer()

    def _facts(self) -> str:
        result = self.result
        used = f"Time used {format_duration(result.seconds)} of {format_duration(result.duration)}"
        if result.timed_out:
            used += " (time ran out)"
        parts = [used, f"{len(result.unanswered)} unanswered", f"{len(result.flagged)} flagged"]
        # The seed on a line of its own: cut short at 80 columns it would name another exam.
        return (
            " · ".join(parts)
            + f"\nSeed {result.seed} (quizapp exam --seed {result.seed} asks the same)"
        )

    def _notes(self) -> list[str]:
        result = self.result
        notes = []
        if result.excluded_flashcards:
            notes.append(f"{FLASHCARD_NOTE} ({result.excluded_flashcards} in the bank).")
        else:
            notes.append(f"{FLASHCARD_NOTE}.")
        asked = len(result.attempts) + len(result.unscored)
        if asked < result.requested:
            notes.append(
                f"Asked for {plural(result.requested, 'question')}; "
                f"the bank had {asked} an exam can use."
            )
        if result.unscored:
            notes.append(
                f"Not scored ({len(result.unscored)}): the computation behind the key failed: "
                + ", ".join(result.unscored)
            )
        return notes

    def _missed_prompt(self, attempt: Attempt) -> Text:
        question = attempt.question
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append("✗ ", style="bold red")
        # The marks before the prompt: on one line the prompt's end may be cut (with a …).
        if question.id in self.result.flagged:
            text.append("⚑ ", style="bold yellow")
        text.append(question.id, style="bold")
        if attempt.grade.given == NO_ANSWER:
            text.append(" (no answer)", style="dim")
        text.append(": ")
        text.append(one_line(question.prompt))
        return text

    def on_mount(self) -> None:
        result = self.result
        self.sub_title = "Mock exam: " + ("passed" if result.passed else "not passed")
        table = self.query_one("#exam-by-topic", DataTable)
        table.add_columns("Topic", "Correct", "Questions", "%")
        for topic in result.by_topic:
            table.add_row(
                literal(topic.topic),
                str(topic.correct),
                str(topic.questions),
                f"{100 * topic.score:.0f}",
            )
        if self.query("#exam-missed"):
            self.query_one("#exam-missed", OptionList).focus()

    @on(OptionList.OptionSelected, "#exam-missed")
    def _open_missed(self, event: OptionList.OptionSelected) -> None:
        attempt = self.result.missed[int(event.option.id or 0)]
        selected = self.result.selected.get(attempt.question.id, frozenset())
        self.app.push_screen(ExamReviewScreen(attempt, self.lab, selected))

    def action_home(self) -> None:
        self.app.pop_screen()


__all__ = ["ExamReportScreen", "ExamReviewScreen", "ExamScreen"]
