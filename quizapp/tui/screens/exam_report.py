"""The mock exam's report and its review, as full as Moodle's attempt review: the score by
topic, pass or fail, then every question (missed ones first) with its mark and flag, each
opening the response marked against every option, the key, and the live lab
(quizapp/tui/screens/exam.py asks the exam)."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Label, OptionList, Static
from textual.widgets.option_list import Option

from quizapp.exam.result import ExamResult, format_duration
from quizapp.exam.session import NO_ANSWER
from quizapp.tui.components.lab_service import LabService
from quizapp.tui.screens.review import ReviewScreen
from quizapp.tui.text.literal import literal, one_line
from quizapp.tui.widgets.bank_markdown import BankMarkdown
from quizapp.tui.widgets.feedback import Feedback
from quizapp.tui.widgets.lab_panel import LabPanel
from quizapp.tui.widgets.title_bar import TitleBar
from quizapp.wording import plural

FLASHCARD_NOTE = "Flashcards are self-graded, so exams leave them out"


def review_order(result: ExamResult) -> list[int]:
    """Indices into `result.attempts`: the missed questions first, then the right ones, each
    group in exam order (Moodle lists every question; the missed are what a student reads)."""
    attempts = result.attempts
    missed = [i for i, a in enumerate(attempts) if not a.grade.correct]
    right = [i for i, a in enumerate(attempts) if a.grade.correct]
    return missed + right


def mark_line(result: ExamResult, index: int) -> str:
    """`Question 3 of 7 · ✗ Wrong: mark 0 of 1 · ⚑ You flagged it`: what the review's title
    bar cannot hold, on the review's first line."""
    attempt = result.attempts[index]
    parts = [f"Question {index + 1} of {len(result.attempts)}"]
    if attempt.grade.given == NO_ANSWER:
        parts.append("✗ Not answered: mark 0 of 1")
    elif attempt.grade.correct:
        parts.append("✓ Right: mark 1 of 1")
    else:
        parts.append("✗ Wrong: mark 0 of 1")
    if attempt.question.id in result.flagged:
        parts.append("⚑ You flagged it")
    return " · ".join(parts)


class ExamReviewScreen(ReviewScreen):
    """One exam question again: its mark and flag, the response marked against each option as
    the exam showed them, the key, the whys, and the lab. n and p step through the review in
    the report's order (missed first) without going back to the list."""

    DEFAULT_CSS = """
    ExamReviewScreen #review-mark { text-style: bold; padding: 0 1; }
    ExamReviewScreen #review-mark.-right { background: $success 25%; }
    ExamReviewScreen #review-mark.-wrong { background: $error 25%; }
    """

    BINDINGS = [
        Binding("n", "step(1)", "Next question"),
        Binding("p", "step(-1)", "Previous"),
    ]

    def __init__(self, result: ExamResult, lab: LabService, index: int) -> None:
        # An id of its own: n and p put the next review in place while this one still stands.
        super().__init__(result.attempts[index], lab, screen_id=f"exam-review-{index}")
        self.result = result
        self.index = index  # into result.attempts
        question_id = self.attempt.question.id
        self.selected = result.selected.get(question_id, frozenset())
        self.order = result.display_orders.get(question_id, ())  # as the exam showed them

    def compose(self) -> ComposeResult:
        question = self.attempt.question
        yield TitleBar()
        with VerticalScroll(id="review-body", can_focus=True):
            mark = Label(mark_line(self.result, self.index), id="review-mark", markup=False)
            mark.add_class("-right" if self.attempt.grade.correct else "-wrong")
            yield mark
            yield BankMarkdown(question.prompt, id="prompt")
            yield Feedback(question, self.attempt.grade, self.selected, order=self.order)
            yield LabPanel(self.lab, question.compute, autorun=True, id="lab")
        yield Footer()

    def action_step(self, by: int) -> None:
        order = review_order(self.result)
        at = order.index(self.index) + by
        if 0 <= at < len(order):
            self.app.switch_screen(ExamReviewScreen(self.result, self.lab, order[at]))
        else:
            last = by > 0
            self.notify(
                "That was the last question." if last else "This is the first.", markup=False
            )


class ExamReportScreen(Screen[None]):
    DEFAULT_CSS = """
    ExamReportScreen #report-body { padding: 1 2; height: 1fr; }
    ExamReportScreen #exam-score { text-style: bold; }
    ExamReportScreen #exam-verdict { text-style: bold; padding: 0 1; margin: 1 0 0 0; }
    ExamReportScreen #exam-verdict.-pass { background: $success 35%; }
    ExamReportScreen #exam-verdict.-fail { background: $error 35%; }
    ExamReportScreen #exam-facts, ExamReportScreen #exam-notes { color: $text-muted; }
    ExamReportScreen #exam-by-topic { height: auto; max-height: 12; }
    ExamReportScreen #exam-questions {
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
            order = review_order(result)
            if order:
                missed = len(result.missed)
                yield Label(
                    f"Questions ({len(order)}, {missed} missed first): "
                    "Enter opens one; there, n and p step through them",
                    classes="pane-title",
                    id="exam-questions-title",
                )
                yield OptionList(
                    *(Option(self._row(i), id=str(i)) for i in order), id="exam-questions"
                )
            if not result.missed:
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

    def _row(self, index: int) -> Text:
        """`✗ 0/1 Q3 ⚑ (no answer) The prompt…`: the mark, the exam's number and the flag
        before the prompt, which may be cut at the end of its one line."""
        attempt = self.result.attempts[index]
        question = attempt.question
        text = Text(no_wrap=True, overflow="ellipsis")
        if attempt.grade.correct:
            text.append("✓ 1/1 ", style="bold green")
        else:
            text.append("✗ 0/1 ", style="bold red")
        text.append(f"Q{index + 1} ", style="dim")
        if question.id in self.result.flagged:
            text.append("⚑ ", style="bold yellow")
        if attempt.grade.given == NO_ANSWER:
            text.append("(no answer) ", style="dim")
        text.append(one_line(question.prompt))  # the question as the student met it, not its id
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
        if self.query("#exam-questions"):
            self.query_one("#exam-questions", OptionList).focus()

    @on(OptionList.OptionSelected, "#exam-questions")
    def _open_question(self, event: OptionList.OptionSelected) -> None:
        self.app.push_screen(ExamReviewScreen(self.result, self.lab, int(event.option.id or 0)))

    def action_home(self) -> None:
        self.app.pop_screen()


__all__ = ["ExamReportScreen", "ExamReviewScreen"]
