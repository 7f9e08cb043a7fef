"""The instructor's class report (*Class report* in the command palette): `quizapp class report`
as tables, flagged items first. Enter on an item opens it: the prompt, each option's share and
why, and the explanation.

The report is worked out off the UI thread with its own read-only connection to the history
(quizapp/classroom), and laid out when it arrives. Bank text is shown literally. On a
PostgreSQL history it is offered only to a role that reads the whole class (the tables' owner,
the instructor): a student's own role, as in a signed-in `quizapp serve` session, is neither
offered it nor let open it (`may_read_class_report`).
"""

from __future__ import annotations

import weakref
from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Label, Static

from quizapp.bank.literal import markdown_literal
from quizapp.bank.model import ChoiceQuestion, NumericQuestion, Question, TrueFalseQuestion
from quizapp.classroom.item_analysis import ItemStats
from quizapp.classroom.report import (
    LEGEND,
    PREDICTED_LEGEND,
    discrimination_text,
    flags_text,
    no_study_text,
    predicted_cell,
    response_tags,
    responses_text,
    share_text,
)
from quizapp.tui.text.literal import literal
from quizapp.tui.widgets.bank_markdown import BankMarkdown
from quizapp.tui.widgets.title_bar import TitleBar

if TYPE_CHECKING:
    from quizapp.classroom.report import ClassReport


def load_class_report(app: App[None]) -> ClassReport | None:
    """The report for the app's history and bank, now; None without a history. Runs in a
    worker thread: the loader opens (and closes) its own read-only connection."""
    from quizapp.classroom.load import load_class_history
    from quizapp.classroom.report import build_report
    from quizapp.srs.memory.scheduling import utc_now
    from quizapp.srs.store.history import PostgresLocation

    where = app.history_writes.path  # type: ignore[attr-defined]
    if isinstance(where, PostgresLocation):
        where = where.url  # the class's rows, as far as this role may read them
    elif not isinstance(where, Path):
        return None  # no history, or a student not named yet
    decks = app.bank.decks  # type: ignore[attr-defined]
    now = utc_now()
    history = load_class_history(where, decks, app.settings, now)  # type: ignore[attr-defined]
    return build_report(history, decks, now)


class ClassReportScreen(Screen[None]):
    # The arrows move through the questions; the page keys scroll the whole report, so the
    # students' tables below are in reach of the keyboard too.
    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("pagedown", "page(1)", "Page down", priority=True),
        Binding("pageup", "page(-1)", "Page up", priority=True),
    ]

    DEFAULT_CSS = """
    ClassReportScreen {
        #class-body { padding: 0 1; height: 1fr; }
        DataTable { height: auto; }
        #class-items { max-height: 14; }
        .class-note { color: $text-muted; }
    }
    """

    def __init__(self, report: ClassReport | None = None) -> None:
        super().__init__(id="class-report")
        self.report = report
        self.row_items: dict[str, ItemStats] = {}

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with VerticalScroll(id="class-body"):
            yield Static("Working out the class report…", id="class-summary")
            yield Label("Questions, flagged first", classes="pane-title")
            yield DataTable(id="class-items", cursor_type="row", zebra_stripes=True)
            yield Static(LEGEND + " Enter opens a question.", classes="class-note", markup=False)
            yield Label("Students", classes="pane-title")
            for table_id in ("class-students", "class-mastery"):
                if table_id == "class-mastery":
                    yield Label("Topic mastery", classes="pane-title")
                table = DataTable(id=table_id, cursor_type="none", zebra_stripes=True)
                table.can_focus = False
                yield table
            yield Static(PREDICTED_LEGEND, classes="class-note", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = "Class report"
        body = self.query_one("#class-body", VerticalScroll)
        # Grown by the report, or the screen resized: whether the page keys are offered.
        self.watch(body, "virtual_size", self._body_moved, init=False)
        self.query_one("#class-items", DataTable).focus()
        if self.report is not None:
            self.show_report(self.report)
        else:
            self._work_out()

    def action_page(self, direction: int) -> None:
        body = self.query_one("#class-body", VerticalScroll)
        if direction > 0:
            body.scroll_page_down(animate=False)
        else:
            body.scroll_page_up(animate=False)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # The page keys are offered only where the report is longer than the screen. Not
        # dimmed at either end: a disabled page key would fall through to the questions'
        # table and move its cursor, which the arrows own.
        if action != "page":
            return True
        return True if self.query_one("#class-body", VerticalScroll).max_scroll_y > 0 else None

    def _body_moved(self) -> None:
        self.refresh_bindings()

    def on_resize(self) -> None:
        self.call_after_refresh(self.refresh_bindings)  # once the body has its new height

    @work(thread=True, exclusive=True, group="class-report")
    def _work_out(self) -> None:
        from quizapp.classroom.history import ClassHistoryError

        try:
            report = load_class_report(self.app)
        except Exception as exc:  # a damaged history, a lock, a server down: said, not a crash
            cause = exc if isinstance(exc, ClassHistoryError) else f"{type(exc).__name__}: {exc}"
            message = f"The class report could not be worked out: {cause}"
            self.app.call_from_thread(self._show_problem, message)
            return
        self.app.call_from_thread(self.show_report, report)

    def _show_problem(self, message: str) -> None:
        self.query_one("#class-summary", Static).update(literal(message))

    def show_report(self, report: ClassReport | None) -> None:
        self.report = report
        summary = self.query_one("#class-summary", Static)
        if report is None:
            summary.update("There is no review history to report on.")
            return
        flagged = sum(1 for item in report.items if item.flags)
        students = len(report.students)
        summary.update(
            literal(
                f"{students} student{'s' if students != 1 else ''} · "
                f"{len(report.items)} questions answered · {flagged} flagged"
                + ("" if report.items else " · no first attempts to report yet")
                + (f"\n{report.scope_note}" if report.scope_note else "")
                # Rows a student's data broke the rules with, as the command prints them.
                + "".join(f"\n{note}" for note in report.notes())
            )
        )
        items = self.query_one("#class-items", DataTable)
        items.clear(columns=True)
        items.add_columns("Question", "N", "Facility", "Discr.", "Responses", "Flags")
        self.row_items = {}
        for item in report.items:
            question = report.questions[item.question_id]
            items.add_row(
                literal(item.question_id),
                str(item.students),
                share_text(item.facility),
                discrimination_text(item.discrimination),
                literal(responses_text(item, question)),
                Text(flags_text(item), style="bold red"),
                key=item.question_id,
            )
            self.row_items[item.question_id] = item
        table = self.query_one("#class-students", DataTable)
        table.clear(columns=True)
        table.add_columns("Student", "Answered", "Score", "Predicted exam", "No study")
        mastery = self.query_one("#class-mastery", DataTable)
        mastery.clear(columns=True)
        mastery.add_columns("Student", "Topic", "Mastery")
        for row in report.students:
            table.add_row(
                literal(row.student),
                str(row.answered),
                share_text(row.score),
                predicted_cell(row.record),
                no_study_text(row.record.no_study),
            )
            for topic, value in row.record.topic_mastery.items():
                mastery.add_row(literal(row.student), literal(topic), share_text(value))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        if event.data_table.id != "class-items" or self.report is None:
            return
        item = self.row_items.get(event.row_key.value or "")
        if item is not None:
            event.stop()
            question = self.report.questions[item.question_id]
            self.app.push_screen(ItemScreen(question, item))


def item_markdown(question: Question, item: ItemStats) -> str:
    """The item's figures, each response with its share and why, and the explanation."""
    parts = [
        f"**{item.students}** answered · facility **{share_text(item.facility)}** · "
        f"discrimination **{discrimination_text(item.discrimination)}** · responses recorded "
        f"for {item.responded}"
    ]
    if item.flags:
        parts.append("**Flags:** " + ", ".join(str(flag) for flag in item.flags))
    lines = []
    tags = response_tags(question)
    for index, (tag, share) in enumerate(zip(tags, item.shares, strict=True)):
        upper = (
            "" if share.upper_share is None else f" (upper group {share_text(share.upper_share)})"
        )
        mark = "✓ key" if share.key else "✗"
        lines.append(
            f"- **{tag}** {mark} · {share_text(share.share)}{upper}: "
            f"{_response_text(question, index, share.label)}"
        )
    if lines:
        parts.append("### Responses\n\n" + "\n".join(lines))
    parts.append("### Explanation\n\n" + question.explanation)
    return "\n\n".join(parts)


def _response_text(question: Question, index: int, label: str) -> str:
    """Response `index`'s bank text (Markdown, as the feedback shows it) and its why."""
    if isinstance(question, ChoiceQuestion):
        choice = question.choices[index]
        return choice.text + (f" — {choice.why}" if choice.why else "")
    if isinstance(question, TrueFalseQuestion):
        why = question.why_true if index == 0 else question.why_false
        return label + (f" — {why}" if why else "")
    if isinstance(question, NumericQuestion) and index > 0:
        trap = question.traps[index - 1]
        return markdown_literal(label) + f" — {trap.why}"
    if isinstance(question, NumericQuestion):
        answer = question.answer
        if answer.value is not None:
            return markdown_literal(f"{answer.value:g} {answer.unit or ''}".strip())
        return "the value the live computation gives"
    return markdown_literal(label)


class ItemScreen(Screen[None]):
    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("backspace", "app.pop_screen", "Back", show=False),
    ]

    def __init__(self, question: Question, item: ItemStats) -> None:
        super().__init__(id="class-item")
        self.question = question
        self.item = item

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with VerticalScroll(id="class-item-body", can_focus=True):
            yield BankMarkdown(self.question.prompt, id="prompt")
            yield BankMarkdown(item_markdown(self.question, self.item), id="class-item-figures")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = f"Item: {self.question.id}"
        self.query_one("#class-item-body").focus()


def open_class_report(app: App[None]) -> None:
    if isinstance(app.screen, ClassReportScreen):
        return
    if not may_read_class_report(app):
        app.notify(NOT_FOR_STUDENTS, title="Class report", severity="warning", markup=False)
        return
    app.push_screen(ClassReportScreen())


NOT_FOR_STUDENTS = (
    "The class report is for the instructor: this session's role reads only its own history."
)
# Whether a PostgreSQL reader's role sees every student's rows, asked once per connection.
_READS_THE_CLASS: weakref.WeakKeyDictionary[object, bool] = weakref.WeakKeyDictionary()


def may_read_class_report(app: App[None]) -> bool:
    """Whether the app's role may read the class report: always on a SQLite history (one
    student's own machine); on PostgreSQL only the tables' owner or a role above row
    security (quizapp/srs/store/postgres/store.py: role_reach), never a student's own role. Unknown
    while the history is still opening: not offered until it is."""
    from quizapp.srs.store.history import PostgresLocation

    service = app.history_writes  # type: ignore[attr-defined]
    if not isinstance(service.path, PostgresLocation):
        return True
    reader = service.reader
    connection = getattr(reader, "connection", None)
    if reader is None or connection is None:
        return False
    if reader not in _READS_THE_CLASS:
        import psycopg

        from quizapp.srs.store.postgres.store import role_reach

        try:
            _READS_THE_CLASS[reader] = role_reach(connection)[1]
        except psycopg.Error:
            return False  # the server is away: asked again next time
    return _READS_THE_CLASS[reader]
