"""Study statistics: reviews per day, the due forecast, topics, retention, streak and exams.

The figures come ready-made in a `Stats` (quizapp.srs.study.stats); this screen only lays them out,
in one scrolling column that still reads at 80×24.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import date, timedelta
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Label, Static
from textual_plot import HiResMode, NumericAxisFormatter

from quizapp.experiments.result import Series
from quizapp.srs.study.stats import MASTERY_STABILITY_DAYS, Stats
from quizapp.tui.widgets.result_view import PlotCaption, SeriesPlot
from quizapp.tui.widgets.title_bar import TitleBar
from quizapp.tui.widgets.traps_view import traps_section
from quizapp.wording import plural

if TYPE_CHECKING:
    from quizapp.tui.components.host import AppHost


def percent(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.0f}%"


# Bar widths (of a day) and their keys in the caption: wide, then narrow inside it.
BAR_WIDTHS = (0.8, 0.4)
BAR_KEYS = ("██", "▐█")


class CountAxisFormatter(NumericAxisFormatter):
    """Whole-number ticks: there is no half a review."""

    def get_ticks(self, min_: float, max_: float, max_ticks: int = 8) -> list[float]:
        # Few ticks: a plot ten rows high has room for about one label every other row.
        ticks = [
            t for t in super().get_ticks(min_, max_, min(max_ticks, 4)) if float(t).is_integer()
        ]
        return ticks if len(ticks) >= 2 else [math.floor(min_), math.ceil(max_)]

    def get_labels_for_ticks(self, ticks: Sequence[float]) -> list[str]:
        return [f"{round(t):,}" for t in ticks]


class DayAxisFormatter(NumericAxisFormatter):
    """x is a day's index from `first`; the ticks name the dates (whole days only)."""

    def __init__(self, first: date) -> None:
        self.first = first

    def get_ticks(self, min_: float, max_: float, max_ticks: int = 8) -> list[float]:
        ticks = super().get_ticks(min_, max_, min(max_ticks, 6))
        return [t for t in ticks if float(t).is_integer()]

    def get_labels_for_ticks(self, ticks: Sequence[float]) -> list[str]:
        days = [self.first + timedelta(days=round(t)) for t in ticks]
        return [f"{d:%b} {d.day}" for d in days]


class DailyCountPlot(SeriesPlot):
    """Counts per day as bars, later lines drawn over earlier ones (correct over answered).

    SeriesPlot's page-friendly behaviour (no focus, no wheel zoom) and its caption are kept;
    only the drawing differs.
    """

    def __init__(self, series: Series, first_day: date, *, id: str) -> None:
        super().__init__(series, classes="stats-plot")
        self.id = id
        self.first_day = first_day

    def on_mount(self) -> None:
        # Textual runs SeriesPlot's and PlotWidget's on_mount after this one by itself.
        self.margin_left = 7  # counts, not six-figure floats: "1,000" fits

    def caption(self) -> Text:
        """A key to the bars in their colours (the axes are named by the dates and counts)."""
        text = Text()
        colours = self.colours()
        for i, label in enumerate(self.series.lines):
            if i:
                text.append("   ")
            text.append(f"{BAR_KEYS[min(i, len(BAR_KEYS) - 1)]} ", style=colours[i % len(colours)])
            text.append(label)
        return text

    def draw(self) -> None:
        series = self.series
        self.clear()
        self.show_legend(is_visible=False)  # the caption above is the key
        colours = self.colours()
        top = max((max(ys, default=0) for ys in series.lines.values()), default=0)
        for i, (label, ys) in enumerate(series.lines.items()):
            self.bar(
                series.x,
                ys,
                # Each later bar narrower, inside the one before: told apart by shape as well
                # as colour (correct inside answered).
                width=BAR_WIDTHS[min(i, len(BAR_WIDTHS) - 1)],
                bar_style=colours[i % len(colours)],
                hires_mode=HiResMode.QUADRANT,
                label=label,
            )
        self.set_xlimits(-0.5, len(series.x) - 0.5)
        self.set_ylimits(0, max(1, top))
        self.set_x_formatter(DayAxisFormatter(self.first_day))
        self.set_y_formatter(CountAxisFormatter())


class StatsScreen(Screen[None]):
    BINDINGS = [Binding("escape,h", "back", "Back")]

    DEFAULT_CSS = """
    StatsScreen {
        #stats-body { padding: 0 1; height: 1fr; }
        #stats-overview { margin: 1 0 0 0; }
        .stats-plot { height: 10; }
        .lab-plot-caption { color: $text-muted; }
        DataTable { height: auto; }
        .stats-note { color: $text-muted; }
    }
    """

    def __init__(self, stats: Stats) -> None:
        super().__init__(id="stats")
        self.stats = stats

    def compose(self) -> ComposeResult:
        stats = self.stats
        yield TitleBar()
        with VerticalScroll(id="stats-body"):
            yield Static(self.overview(), id="stats-overview")

            days = stats.reviews_per_day
            yield Label(
                f"Reviews per day, last {stats.days} days "
                f"({plural(stats.totals.reviews_in_window, 'review')})",
                classes="pane-title",
            )
            reviews = DailyCountPlot(
                Series(
                    x_label="day",
                    y_label="answers",
                    x=tuple(float(i) for i in range(len(days))),
                    lines={
                        "answered": tuple(float(d.reviews) for d in days),
                        "correct": tuple(float(d.correct) for d in days),
                    },
                ),
                days[0].day,
                id="reviews-plot",
            )
            yield PlotCaption(reviews)
            yield reviews

            forecast = stats.due_forecast
            upcoming = sum(d.due for d in forecast)
            yield Label(
                f"Due per day, next {stats.forecast_days} days "
                f"({stats.due_summary()}; {upcoming:,} in all)",
                classes="pane-title",
            )
            due = DailyCountPlot(
                Series(
                    x_label="day",
                    y_label="cards due",
                    x=tuple(float(i) for i in range(len(forecast))),
                    lines={"cards due": tuple(float(d.due) for d in forecast)},
                ),
                forecast[0].day,
                id="forecast-plot",
            )
            yield PlotCaption(due)
            yield due

            yield Label("By topic", classes="pane-title")
            if stats.topics:
                yield DataTable(id="stats-topics", cursor_type="none", zebra_stripes=True)
                yield Static(
                    f"Mastered: in review, with a stability of {MASTERY_STABILITY_DAYS:.0f}+ days.",
                    classes="stats-note",
                )
            else:
                yield Static("No questions and no answers yet.", classes="stats-note")

            yield from traps_section(stats.traps)

            yield Label("Exams", classes="pane-title")
            if stats.exams:
                yield DataTable(id="stats-exams", cursor_type="none", zebra_stripes=True)
            else:
                yield Static("No exams taken yet.", id="no-exams", classes="stats-note")
        yield Footer()

    def overview(self) -> Text:
        stats = self.stats
        totals = stats.totals
        text = Text()

        def item(name: str, value: str, note: str = "") -> None:
            if text:
                text.append("\n")
            text.append(f"{name}: ", style="bold")
            text.append(value)
            if note:
                text.append(f" {note}", style="dim")

        item("Streak", plural(stats.streak_days, "day"))
        retention = stats.true_retention
        item(
            "True retention",
            percent(retention),
            f"({totals.review_state_correct:,} of {totals.review_state_answers:,} answers to "
            "cards in review)"
            if retention is not None
            else "(no answers to cards in review yet)",
        )
        item(
            "Answers",
            stats.answers_summary(),
            f"(accuracy {percent(totals.accuracy)}, {plural(totals.study_days, 'day')} studied)",
        )
        suspended = f", {totals.suspended:,} suspended" if totals.suspended else ""
        item(
            "Questions",
            f"{totals.seen:,} of {totals.questions:,} seen in any mode, {totals.scheduled:,} "
            f"scheduled for review, {totals.mastered:,} mastered{suspended}",
        )
        item("Due", stats.due_summary(), "(overdue included; suspended and buried left out)")
        if totals.exams:
            item("Exams", f"{totals.exams_passed:,} of {totals.exams:,} passed")
        return text

    def on_mount(self) -> None:
        self.sub_title = f"Statistics, {self.stats.today:%a %d %b %Y}"
        if self.stats.topics:
            topics = self.query_one("#stats-topics", DataTable)
            topics.can_focus = False  # the page scrolls, not the table
            topics.add_column("Topic", key="topic")
            for heading in ("Answered", "Accuracy", "Questions", "Mastered", "Mastery"):
                topics.add_column(heading, key=heading.lower())
            for t in self.stats.topics:
                topics.add_row(
                    Text(t.topic),
                    _right(f"{t.answered:,}"),
                    _right(percent(t.accuracy)),
                    _right(f"{t.questions:,}"),
                    _right(f"{t.mastered:,}"),
                    _right(percent(t.mastery)),
                    key=t.topic,
                )
        if self.stats.exams:
            exams = self.query_one("#stats-exams", DataTable)
            exams.can_focus = False
            exams.add_column("Taken", key="taken")
            for heading in ("Score", "Result", "Time"):
                exams.add_column(heading, key=heading.lower())
            for e in reversed(self.stats.exams):  # the latest first
                exams.add_row(
                    Text(f"{e.taken.astimezone():%Y-%m-%d %H:%M}"),
                    _right(f"{e.correct}/{e.questions} ({percent(e.score)})"),
                    Text("passed", style="green") if e.passed else Text("failed", style="red"),
                    _right(_minutes(e.seconds)),
                    key=str(e.id),
                )
        self.query_one("#stats-body", VerticalScroll).focus()

    def action_back(self) -> None:
        self.app.pop_screen()


def _right(value: str) -> Text:
    return Text(value, justify="right")


def _minutes(seconds: float) -> str:
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes}:{rest:02d}"


def open_stats(app: AppHost) -> None:
    """`S` on the home screen, and the palette's Stats."""
    if app.history is None:
        app.notify(app.history_writes.missing("Stats need"), severity="warning", markup=False)
        return
    from quizapp.srs.memory.scheduling import utc_now
    from quizapp.srs.study.stats import compute_stats

    # On the UI thread: the store's SQLite connection belongs to the thread that opened it.
    history = app.history
    stats = app.history_writes.read(
        lambda: compute_stats(history, app.bank.questions, utc_now()), "the statistics"
    )
    if stats is not None:
        app.push_screen(StatsScreen(stats))
