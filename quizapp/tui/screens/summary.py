"""The end of a session: the score by topic, and every missed question a key press away."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Label, OptionList
from textual.widgets.option_list import Option

from quizapp.bank.session import QuizSession
from quizapp.tui.components.lab_service import LabService
from quizapp.tui.text.literal import literal, one_line
from quizapp.tui.widgets.history_status import HistoryStatus
from quizapp.tui.widgets.title_bar import TitleBar


class SummaryScreen(Screen[None]):
    BINDINGS = [
        Binding("escape,h", "home", "Home"),
        Binding("m", "retry_missed", "Retry missed"),
    ]

    def __init__(self, session: QuizSession, lab: LabService) -> None:
        super().__init__(id="summary")
        self.session = session
        self.lab = lab

    def compose(self) -> ComposeResult:
        session = self.session
        answered = len(session.attempts)
        percent = 100 * session.score / answered if answered else 0
        yield TitleBar()
        yield HistoryStatus()  # up while answers wait to be saved
        with Vertical(id="summary-body"):
            yield Label(
                f"Score: {session.score} of {answered} ({percent:.0f}%)", id="summary-score"
            )
            yield Label("By topic", classes="pane-title")
            yield DataTable(id="by-topic", cursor_type="none")
            missed = session.missed
            if missed:
                yield Label(
                    f"Missed ({len(missed)}): Enter opens the explanation and the lab",
                    classes="pane-title",
                )
                yield OptionList(
                    *(
                        # The question as the student met it: its prompt, never its id.
                        Option(literal(one_line(a.question.prompt)), id=str(i))
                        for i, a in enumerate(missed)
                    ),
                    id="missed",
                )
            else:
                yield Label("Nothing missed. ", id="no-missed")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = f"{self.session.title}: finished"
        table = self.query_one("#by-topic", DataTable)
        table.add_columns("Topic", "Correct", "Answered", "%")
        for score in self.session.by_topic():
            table.add_row(
                literal(score.topic),
                str(score.correct),
                str(score.answered),
                f"{score.percent:.0f}",
            )
        if self.query("#missed"):
            self.query_one("#missed", OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        from quizapp.tui.screens.review import ReviewScreen

        attempt = self.session.missed[int(event.option.id or 0)]
        self.app.push_screen(ReviewScreen(attempt, self.lab))

    def action_home(self) -> None:
        self.app.pop_screen()

    def action_retry_missed(self) -> None:
        missed = [a.question for a in self.session.missed]
        if not missed:
            self.notify("Nothing to retry.", timeout=3)
            return
        self.app.pop_screen()
        self.app.start_session(questions=missed, title="Retry missed")  # type: ignore[attr-defined]
