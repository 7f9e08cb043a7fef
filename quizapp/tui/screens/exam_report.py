"""The mock exam's report: the score by topic, pass or fail, and every missed question, each
opening the usual feedback and live lab (quizapp/tui/screens/exam.py asks the exam)."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Label, OptionList, Static
from textual.widgets.option_list import Option

from quizapp.bank.session import Attempt
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


class ExamReviewScreen(ReviewScreen):
    """A missed exam question: ReviewScreen, with the whys of the options the student picked."""

    def __init__(
        self,
        attempt: Attempt,
        lab: LabService,
        selected: frozenset[int],
        order: tuple[int, ...] = (),
    ) -> None:
        super().__init__(attempt, lab)
        self.selected = selected
        self.order = order  # the options as the exam showed them

    def compose(self) -> ComposeResult:
        question = self.attempt.question
        yield TitleBar()
        with VerticalScroll(id="review-body", can_focus=True):
            yield BankMarkdown(question.prompt, id="prompt")
            yield Feedback(question, self.attempt.grade, self.selected, order=self.order)
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
        if self.query("#exam-missed"):
            self.query_one("#exam-missed", OptionList).focus()

    @on(OptionList.OptionSelected, "#exam-missed")
    def _open_missed(self, event: OptionList.OptionSelected) -> None:
        attempt = self.result.missed[int(event.option.id or 0)]
        selected = self.result.selected.get(attempt.question.id, frozenset())
        order = self.result.display_orders.get(attempt.question.id, ())
        self.app.push_screen(ExamReviewScreen(attempt, self.lab, selected, order))

    def action_home(self) -> None:
        self.app.pop_screen()


__all__ = ["ExamReportScreen", "ExamReviewScreen"]
