"""Exam readiness (R on the home screen): the predicted exam score, its 80 % interval and pass
chance, by topic, by day to the exam date, and how well the forecast did on past reviews.

The report is worked out off the UI thread (quizapp/srs/readiness/report.py, with its own read-only
connection to the history) and laid out when it arrives. Until the history holds enough
evidence (quizapp/srs/readiness/uncertainty.py's `Basis`) the screen says how many more questions to
answer instead of giving figures. Also here: the exam-date dialog
(*Exam date* in the command palette), which saves `exam_date` in config.toml.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import DataTable, Footer, Input, Label, Static

from quizapp.experiments.result import Series
from quizapp.srs.readiness.interrupt import Interrupted
from quizapp.tui.screens.stats import DayAxisFormatter, percent
from quizapp.tui.text.literal import literal
from quizapp.tui.widgets.fitted_table import FittedTable
from quizapp.tui.widgets.ordered_input import OrderedInput
from quizapp.tui.widgets.result_view import PlotCaption, SeriesPlot
from quizapp.tui.widgets.title_bar import TitleBar

if TYPE_CHECKING:
    from quizapp.srs.readiness.exam_model import ScoreSummary
    from quizapp.srs.readiness.report import Readiness


def load_readiness(app: App[None]) -> Readiness | None:
    """The report for the app's history and bank, now; None without a history. Runs in a
    worker thread: it opens (and closes) its own read-only connection. Raises
    quizapp.srs.readiness.interrupt.Interrupted when the worker is cancelled."""
    from textual.worker import get_current_worker

    from quizapp.srs.memory.scheduling import utc_now
    from quizapp.srs.readiness.interrupt import stop_when
    from quizapp.srs.readiness.report import assess, store_available
    from quizapp.srs.store.open_history import open_reader

    service = app.history_writes  # type: ignore[attr-defined]
    if service.reader is None or service.path is None:
        return None
    bank = app.bank  # type: ignore[attr-defined]
    worker = get_current_worker()
    # When the app ends its workers are cancelled; the simulation then stops within a day's
    # work (Interrupted), instead of holding the process until the exam date.
    with stop_when(lambda: worker.is_cancelled), open_reader(service.path) as store:
        return assess(
            store,
            bank.decks,
            app.settings,  # type: ignore[attr-defined]
            utc_now(),
            available=store_available(store, bank),
            use_fitted=service.use_fitted,  # not with --default-parameters
        )


def score_text(summary: ScoreSummary) -> str:
    return (
        f"{percent(summary.mean)} (80%: {percent(summary.low)}–{percent(summary.high)}), "
        f"chance of passing {percent(summary.pass_chance)}"
    )


class ScoreByDayPlot(SeriesPlot):
    """The predicted score (%) by day to the exam, with the plan and with no further study."""

    def __init__(self, series: Series, first_day: date) -> None:
        super().__init__(series, classes="readiness-plot")
        self.id = "readiness-plot"
        self.first_day = first_day

    def draw(self) -> None:
        super().draw()
        self.set_ylimits(0, 100)
        self.set_x_formatter(DayAxisFormatter(self.first_day))


class ReadinessScreen(Screen[None]):
    BINDINGS = [
        Binding("escape,h", "back", "Back"),
        Binding("e", "exam_date", "Exam date"),
    ]

    DEFAULT_CSS = """
    ReadinessScreen {
        #readiness-body { padding: 0 1; height: 1fr; }
        #readiness-summary { margin: 1 0 0 0; }
        .readiness-plot { height: 12; }
        .lab-plot-caption { color: $text-muted; }
        DataTable { height: auto; }
        .readiness-note { color: $text-muted; }
    }
    """

    def __init__(self) -> None:
        super().__init__(id="readiness")
        self.report: Readiness | None = None

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with VerticalScroll(id="readiness-body"):
            yield Static("Working out the forecast…", id="readiness-summary")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = "Exam readiness"
        self.query_one("#readiness-body", VerticalScroll).focus()
        self.reload()

    def reload(self) -> None:
        self._work_out()

    @work(thread=True, exclusive=True, group="readiness")
    def _work_out(self) -> None:
        try:
            report = load_readiness(self.app)
        except Interrupted:
            return  # the app or the screen is going: nothing to show
        except Exception as exc:  # a damaged history, a lock: said, never a crash
            message = f"The forecast could not be worked out: {type(exc).__name__}: {exc}"
            self.app.call_from_thread(self._show_problem, message)
            return
        self.app.call_from_thread(self.show_report, report)

    def _show_problem(self, message: str) -> None:
        self.query_one("#readiness-summary", Static).update(literal(message))

    async def show_report(self, report: Readiness | None) -> None:
        self.report = report
        body = self.query_one("#readiness-body", VerticalScroll)
        await body.remove_children()
        if report is None:
            await body.mount(
                Static("There is no review history to forecast from.", id="readiness-summary")
            )
            return
        widgets: list = [Static(self.summary(report), id="readiness-summary")]
        if report.enough_evidence:
            widgets += self._figures(report)
        widgets.append(Label("How far to trust it", classes="pane-title"))
        widgets.append(Static(report.calibration.verdict(), classes="readiness-note"))
        widgets.append(
            Static(
                f"Memory model: {report.parameters_note}.",
                id="readiness-parameters",
                classes="readiness-note",
                markup=False,
            )
        )
        if report.calibration.enough:
            reliability = DataTable(id="readiness-reliability", cursor_type="none")
            reliability.can_focus = False
            widgets.append(reliability)
        widgets.append(
            Static(
                "The 80% interval is the spread from what is not known of you (how much you "
                "know of the questions you have not answered, how fast you forget) and from "
                "which questions an exam draws and each answer's luck; the check above is "
                "how the memory model did on your past reviews. e sets the exam date.",
                classes="readiness-note",
            )
        )
        await body.mount_all(widgets)
        self._fill_tables(report)

    def _figures(self, report: Readiness) -> list[Widget]:
        """The topic table and the by-day plot: only once there is enough evidence."""
        widgets: list[Widget] = [Label("By topic", classes="pane-title")]
        # A long deck title gives way with an ellipsis: the figures must fit at 80 columns.
        topics = FittedTable(
            id="readiness-topics", cursor_type="none", zebra_stripes=True, shrinkable=("Topic",)
        )
        topics.can_focus = False
        widgets.append(topics)
        if report.projection is not None:
            widgets.append(Label("Predicted score by day, to the exam", classes="pane-title"))
            projection = report.projection
            plot = ScoreByDayPlot(
                Series(
                    x_label="day",
                    y_label="predicted score (%)",
                    x=tuple(float(i) for i in range(len(projection.moments_ms))),
                    lines=_plotted(report),
                ),
                report.generated_at.astimezone().date(),
            )
            widgets += [PlotCaption(plot), plot]
        return widgets

    def summary(self, report: Readiness) -> Text:
        text = Text()
        if report.planning:
            days = report.days_left
            text.append(f"Exam {report.exam_date:%a %d %b %Y}", style="bold")
            text.append(f" (in {days} day{'s' if days != 1 else ''})")
        elif report.exam_date is not None:
            text.append(f"The exam date, {report.exam_date:%d %b %Y}, has passed", style="bold")
            text.append(": an exam now; drills are plain FSRS")
        else:
            text.append("No exam date", style="bold")
            text.append(" (e sets one): an exam now")
        text.append(
            f" · {report.blueprint.questions} questions · pass at {percent(report.threshold)}\n"
        )
        basis = report.basis
        if not report.enough_evidence:
            text.append(basis.not_enough[0].upper() + basis.not_enough[1:], style="bold")
            text.append(f"\n({basis.text})")
        elif report.plan_shown is not None:
            text.append("Plan followed: ", style="bold")
            text.append(score_text(report.plan_shown.overall) + "\n")
            text.append(f"No further study: {score_text(report.as_is.overall)}", style="dim")
        elif report.with_plan is not None:  # no figure for the plan: it rests on forgetting
            text.append("Plan followed: ", style="bold")
            text.append(basis.plan_not_enough + "\n")
            text.append("No further study: ", style="bold")
            text.append(score_text(report.as_is.overall))
        else:
            text.append("Predicted: ", style="bold")
            text.append(score_text(report.as_is.overall))
        if report.enough_evidence:
            text.append(f"\n{basis.text[0].upper()}{basis.text[1:]}")
            if report.calibration.intervals.enough:  # how often such intervals held for you
                text.append(f"; {report.calibration.intervals.text}")
        if report.today is not None:
            cards = len(report.today.choices)
            text.append(
                f"\nToday: {cards} card{'s' if cards != 1 else ''}, about "
                f"{report.today.minutes:.0f} min (d on the home screen starts it)"
            )
        return text

    def _fill_tables(self, report: Readiness) -> None:
        if report.enough_evidence:
            self._fill_topics(report)
        if report.calibration.enough:
            table = self.query_one("#readiness-reliability", DataTable)
            for heading in ("Predicted", "Reviews", "Mean predicted", "Right"):
                table.add_column(heading, key=heading.lower())
            for b in report.calibration.table:
                if b.count:
                    table.add_row(
                        f"{percent(b.low)}–{percent(b.high)}",
                        _right(f"{b.count:,}"),
                        _right(percent(b.mean_predicted)),
                        _right(percent(b.share_right)),
                    )

    def _fill_topics(self, report: Readiness) -> None:
        topics = self.query_one("#readiness-topics", DataTable)
        topics.add_column("Topic", key="topic")
        for heading in ("Qs", "Predicted", "80%", "Pass"):
            topics.add_column(heading, key=heading.lower())
        if report.plan_shown is not None:
            topics.add_column("No study", key="no-study")
        for topic, s in report.shown.topics.items():
            row = [
                literal(report.topic_titles.get(topic, topic)),
                _right(str(s.questions)),
                _right(percent(s.mean)),
                _right(f"{percent(s.low)}–{percent(s.high)}"),
                _right(percent(s.pass_chance)),
            ]
            if report.plan_shown is not None:
                row.append(_right(percent(report.as_is.topics[topic].mean)))
            topics.add_row(*row, key=topic)

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_exam_date(self) -> None:
        ask_exam_date(self.app, then=self.reload)


def _plotted(report: Readiness) -> dict[str, tuple[float, ...]]:
    """The by-day lines (%): the plan's only where its forecast is shown."""
    assert report.projection is not None
    lines = {"no further study": tuple(100 * v for v in report.projection.no_study)}
    if report.plan_shown is not None:
        lines = {"plan followed": tuple(100 * v for v in report.projection.with_plan), **lines}
    return lines


def _right(value: str) -> Text:
    return Text(value, justify="right")


# -- the exam date -----------------------------------------------------------------------------


class ExamDateDialog(ModalScreen[date | bool | None]):
    """Asks for the exam date: a date, blank for none. Dismissed with the date, None to clear
    it, or False when cancelled."""

    DEFAULT_CSS = "ExamDateDialog .dialog-detail { width: 100%; }"
    BINDINGS = [Binding("escape", "dismiss(False)", "Cancel")]

    def __init__(self, current: date | None) -> None:
        super().__init__()
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Exam date", classes="dialog-title")
            yield Label(
                "YYYY-MM-DD, blank for none; Enter saves it in config.toml, Escape cancels. "
                "Drills follow a plan to it.",
                classes="dialog-detail",
            )
            yield OrderedInput(
                self.current.isoformat() if self.current else "",
                placeholder="2027-01-15",
                id="exam-date",
                max_length=10,
            )
            yield Label("", id="exam-date-problem", classes="dialog-detail")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if not text:
            self.dismiss(None)
            return
        from quizapp.srs.clock import local_today
        from quizapp.srs.config import exam_date_problem

        try:
            day = date.fromisoformat(text)
        except ValueError:
            problem: str | None = f"Not a date: {text!r}. Write it as 2027-01-15."
        else:
            problem = exam_date_problem(day, local_today())
        if problem is None:
            self.dismiss(day)
            return
        self.query_one("#exam-date-problem", Label).update(literal(problem, style="bold red"))


def ask_exam_date(app: App[None], then: Callable[[], None] | None = None) -> None:
    """Ask for the exam date, save it in config.toml and use it from now on."""
    settings = app.settings  # type: ignore[attr-defined]

    def chosen(day: date | bool | None) -> None:
        if day is False:
            return
        new_day = day if isinstance(day, date) else None
        set_exam_date(app, new_day)
        if then is not None:
            then()

    app.push_screen(ExamDateDialog(settings.exam_date), chosen)


def set_exam_date(app: App[None], day: date | None) -> None:
    """Use `day` as the exam date in this app, and save it in config.toml unless this run
    saves settings nowhere (a preview: AppOptions.config_path is None)."""
    from quizapp.srs.config import ConfigError
    from quizapp.srs.config_file import set_config_value

    settings = replace(app.settings, exam_date=day)  # type: ignore[attr-defined]
    app.settings = settings  # type: ignore[attr-defined]
    app.options = replace(app.options, settings=settings)  # type: ignore[attr-defined]
    config: Path | None = app.options.config_path  # type: ignore[attr-defined]
    not_saved = "this run saves no settings" if config is None else None
    if config is not None:
        try:
            config = set_config_value(config, "exam_date", day)
        except ConfigError as exc:
            not_saved = str(exc)
    if not_saved is not None:
        app.notify(
            f"Exam date set for this run only: {not_saved}",
            title="Exam date",
            severity="warning",
            timeout=10,
            markup=False,
        )
    else:
        said = f"Exam date: {day:%a %d %b %Y}" if day else "No exam date: drills are plain FSRS"
        app.notify(f"{said} (saved in {config})", title="Exam date", timeout=6, markup=False)
    app.refresh_home()  # type: ignore[attr-defined]


def open_readiness(app: App[None]) -> None:
    if getattr(app, "history", None) is None:
        writes = app.history_writes  # type: ignore[attr-defined]
        app.notify(writes.missing("The forecast needs"), severity="warning", markup=False)
        return
    if not isinstance(app.screen, ReadinessScreen):
        app.push_screen(ReadinessScreen())
