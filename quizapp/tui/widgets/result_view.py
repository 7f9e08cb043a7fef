"""How a computation's Result is shown: values, summary, plot and tables, in one column.

The column does not scroll by itself: the page around it does (the quiz's body, the lab
screen's), so the keys that scroll the page reach the bottom of the longest result. A scroll
of its own inside the page was reachable only by mouse, and at 80x24 it hid a result's end.

The tables have no cursor and Enter does nothing on them, because a result carries no
derivation for a single row: its values are plain numbers and its explanation is the summary
as a whole (quizapp/experiments/result.py). So they do not look selectable: no cursor, no
hover highlight, and a table is a focus stop only while it is too wide for its room (the
arrow keys then scroll it sideways).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from rich.text import Text
from textual import on
from textual.await_remove import AwaitRemove
from textual.containers import Vertical
from textual.events import MouseScrollDown, MouseScrollUp
from textual.widget import Widget
from textual.widgets import DataTable, Static
from textual_plot import HiResMode, NumericAxisFormatter, PlotWidget

from quizapp.experiments.result import Result, Series, Value
from quizapp.tui.text.literal import literal
from quizapp.tui.widgets.bank_markdown import BankMarkdown
from quizapp.tui.widgets.plot_markers import marked_points, marker_for

# Theme variables, in the order lines take them; resolved against the running theme.
LINE_COLOURS = ("primary", "warning", "success", "error", "accent", "secondary", "foreground")

_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")

# Above a result read back from the on-disk cache: it was not computed now, and says so.
CACHED_NOTE = "Cached result, kept from an earlier run: not computed now."


def format_value(value: Value) -> str:
    """Ints with thousands separators, floats to six significant figures, booleans yes/no."""
    if isinstance(value, bool):  # before int: bool is an int
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "∞" if value > 0 else "-∞"
        magnitude = abs(value)
        if magnitude == 0:
            return "0"
        if magnitude < 1e-3 or magnitude >= 1e15:
            return f"{value:.3e}"
        if magnitude >= 1e6:
            return f"{value:,.0f}"
        return f"{value:,.6g}"
    return str(value)


def _cell(value: Value) -> Text:
    # Numbers right-aligned so digits line up down a column; text stays left.
    numeric = isinstance(value, int | float) and not isinstance(value, bool)
    return Text(format_value(value), justify="right" if numeric else "left")


_SI_STEPS = ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"))
COMPACT_FROM = 1e5  # below this a tick is written whole (99,999 fits the margin)


def compact_number(value: float) -> str:
    """`500M`, `1.5G`, `20k`: a tick that fits the plot's 10-column margin. Written whole,
    500,000,000 lost its last digits there, and '50,000,00' reads as five million."""
    for size, suffix in _SI_STEPS:
        if abs(value) >= size and abs(value) >= COMPACT_FROM:
            return f"{value / size:.3g}{suffix}"
    return format_value(float(f"{value:.3g}")) if value != int(value) else f"{int(value):,}"


class CompactAxisFormatter(NumericAxisFormatter):
    """textual-plot's nice ticks, labelled compactly where a whole number would not fit."""

    def get_labels_for_ticks(self, ticks: Sequence[float]) -> list[str]:
        if not ticks or max(abs(t) for t in ticks) < COMPACT_FROM:
            return super().get_labels_for_ticks(ticks)
        return [compact_number(t) for t in ticks]


class LogAxisFormatter(NumericAxisFormatter):
    """Ticks for a log10-transformed axis, labelled with the values they stand for.

    textual-plot has no log scale, so the plot draws log10(y); these ticks undo that in the
    labels (1, 2, 5, 10, … or 10⁶), so the student reads variances, not exponents.
    """

    def get_ticks(self, min_: float, max_: float, max_ticks: int = 8) -> list[float]:
        lo, hi = math.floor(min_), math.ceil(max_)
        mantissas = (1, 2, 5) if hi - lo <= 3 else (1,)  # few decades: 1-2-5 steps, as on paper
        step = max(1, math.ceil((hi - lo + 1) / max_ticks))
        ticks = [k + math.log10(m) for k in range(lo, hi + 1, step) for m in mantissas]
        inside = [t for t in ticks if min_ - 1e-9 <= t <= max_ + 1e-9]
        if len(inside) < 2:  # a sliver of a decade: plain ticks, labelled through 10**t
            return super().get_ticks(min_, max_, max_ticks)
        return inside

    def get_labels_for_ticks(self, ticks: Sequence[float]) -> list[str]:
        labels = []
        for tick in ticks:
            exponent = round(tick)
            if abs(tick - exponent) < 1e-9 and not -2 <= exponent <= 3:
                labels.append("10" + str(exponent).translate(_SUPERSCRIPT))
            else:
                labels.append(compact_number(float(f"{10**tick:.3g}")))
        return labels


class SeriesPlot(PlotWidget, can_focus=False):
    """A PlotWidget that lets the page scroll: no focus, no wheel zoom, no key bindings.

    Inside a scrolling quiz page the stock widget would swallow the mouse wheel (zoom) and,
    focused, the arrow keys (pan) and `r` (which the lab uses for rerun).
    """

    def __init__(self, series: Series, *, classes: str | None = None) -> None:
        super().__init__(classes=classes, allow_pan_and_zoom=False)
        self.series = series

    def on_mount(self) -> None:
        # The axis labels live in the caption above (a long y label is cut off in the margin),
        # so the margins hold only the tick labels.
        self.margin_top = 1
        self.margin_bottom = 1
        # After PlotWidget's own on_mount, which runs after this one and clears the datasets.
        self.call_after_refresh(self.draw)
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self.draw())

    @on(MouseScrollDown)
    @on(MouseScrollUp)
    def _let_the_page_scroll(self, event: MouseScrollDown | MouseScrollUp) -> None:
        # Skips PlotWidget's own zoom handlers, which stop the event; it then bubbles on.
        event.prevent_default()

    def colours(self) -> list[str]:
        variables = self.app.theme_variables
        return [variables[name] for name in LINE_COLOURS if variables.get(name)] or ["white"]

    def draw(self) -> None:
        if not self.is_attached or not self.children:
            # A deferred draw (after refresh, a theme change) can arrive once the screen that
            # held the plot is gone; PlotWidget would look for its removed legend and fail.
            return
        series = self.series
        self.clear()
        colours = self.colours()
        lines = list(series.lines.items())
        if series.log_y:
            # Non-positive values have no logarithm; NaN makes textual-plot drop the point.
            lines = [
                (k, tuple(math.log10(y) if y > 0 else math.nan for y in ys)) for k, ys in lines
            ]
        for i, (label, ys) in enumerate(lines):
            colour = colours[i % len(colours)]
            self.plot(series.x, ys, line_style=colour, hires_mode=HiResMode.BRAILLE, label=label)
        for i, (_, ys) in enumerate(lines):
            # After every line, so that none draws over them: each line's own marker on a few
            # of its points, so the lines differ by more than colour.
            xs, marked = marked_points(series.x, ys, i, len(lines))
            self.scatter(xs, marked, marker=marker_for(i), marker_style=colours[i % len(colours)])
        self.set_y_formatter(LogAxisFormatter() if series.log_y else CompactAxisFormatter())
        self.set_x_formatter(CompactAxisFormatter())

    def caption(self) -> Text:
        """What the axes are, and a key to the lines in their colours."""
        series = self.series
        y_label = series.y_label or "y"
        if series.log_y:
            y_label += " (log scale)"
        text = Text()
        text.append(y_label, style="bold")
        text.append(" against ")
        text.append(series.x_label or "x", style="bold")
        colours = self.colours()
        for i, label in enumerate(series.lines):
            text.append("\n" if i == 0 else "   ")
            text.append(f"━{marker_for(i)}━ ", style=colours[i % len(colours)])
            text.append(label)
        return text


# The number first, so that no words push it off an 80-column screen; then its unit and what
# it is in words (the registry's value docs), wrapped in columns of fixed width so that the
# table fits the lab's 72 columns at 80x24. The name a claim uses is the row's key (Enter on a
# row says how it was derived, under that name).
VALUE_COLUMNS = ("result", "unit", "what it is")
VALUE_WIDTHS = {"result": 22, "unit": 11, "what it is": 28}


def value_rows(computation: str, values: Mapping[str, Value]) -> list[tuple[Value, ...]]:
    """(value, unit, meaning) per value: a student reads words, not identifiers."""
    from quizapp.experiments.value_docs import VALUE_DOCS

    docs = VALUE_DOCS.get(computation, {})
    rows: list[tuple[Value, ...]] = []
    for name, value in values.items():
        unit, meaning = docs.get(name, ("", ""))
        shown_unit = "" if unit in ("bool", "text", "ratio") else unit
        if unit == "ratio":
            shown_unit = "×"
        rows.append((value, shown_unit, meaning or name.replace("_", " ")))
    return rows


class ResultTable(DataTable):
    """A read-only table that fills itself once mounted (DataTable wants to be live first).

    No cursor (see the module's docstring); focusable only while it overflows sideways.
    """

    can_focus = False

    def __init__(
        self,
        columns: Sequence[str],
        rows: Sequence[Sequence[Value]],
        *,
        keys: Sequence[str] | None = None,
        widths: Mapping[str, int] | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(classes=classes, cursor_type="none", zebra_stripes=True)
        self._widths = dict(widths or {})  # columns whose text wraps at a fixed width
        self._columns = tuple(columns)
        self._rows = tuple(tuple(row) for row in rows)
        self._keys = tuple(keys) if keys is not None else None

    def on_mount(self) -> None:
        for index, column in enumerate(self._columns):
            # A computation's table may repeat a heading (two "weight"s); keys must be unique.
            repeated = self._columns.count(column) > 1
            self.add_column(
                literal(column),
                width=self._widths.get(column),
                key=f"{index}:{column}" if repeated else column,
            )
        width = len(self._columns)
        for i, row in enumerate(self._rows):
            # Pad or trim a ragged row rather than let DataTable refuse the whole table.
            cells = [_cell(v) for v in row[:width]] + [Text("")] * (width - len(row))
            self.add_row(
                *cells,
                key=self._keys[i] if self._keys else None,
                height=None if self._widths else 1,  # wrapped text takes the lines it needs
            )

    def on_resize(self) -> None:
        # A table that fits has nothing to scroll, so it is no focus stop; a wider one is, so
        # that the keyboard can reach its right-hand columns.
        self.can_focus = self.virtual_size.width > self.scrollable_content_region.width


class PlotCaption(Static):
    """The plot's axes and key, coloured like its lines (the colours exist only once mounted)."""

    def __init__(self, plot: SeriesPlot) -> None:
        super().__init__(classes="lab-plot-caption")
        self.plot = plot

    def on_mount(self) -> None:
        self.update(self.plot.caption())


class ResultView(Vertical):
    """The latest result, or nothing. Rebuilt wholesale on each result: results are small."""

    # Every row of every table shows: the page scrolls (see the module's docstring).
    DEFAULT_CSS = """
    ResultView {
        height: auto;

        DataTable {
            height: auto;
            max-height: initial;
            margin-bottom: 1;
        }
        .lab-table-title {
            text-style: bold;
            color: $text-muted;
        }
        .lab-cached-note {
            text-style: bold;
            color: $warning;
        }
        SeriesPlot {
            height: 12;
            margin-bottom: 1;
        }
        Markdown {
            margin: 0;
            padding: 0;
        }
    }
    """

    result: Result | None = None

    async def show_result(self, result: Result) -> None:
        """Replace what is shown; returns once the new tables are filled."""
        self.result = result
        await self.remove_children()
        widgets: list[Widget] = []
        if result.cached:
            widgets.append(Static(CACHED_NOTE, classes="lab-cached-note"))
        widgets += [
            ResultTable(
                VALUE_COLUMNS,
                value_rows(result.name, result.values),
                keys=list(result.values),
                widths=VALUE_WIDTHS,
                classes="lab-values",
            ),
            BankMarkdown(result.summary, classes="lab-summary"),
        ]
        if result.series is not None and result.series.lines:
            plot = SeriesPlot(result.series, classes="lab-plot")
            widgets += [PlotCaption(plot), plot]
        for table in (result.table, *result.extra_tables):
            if table is None:
                continue
            if table.title:
                widgets.append(Static(literal(table.title), classes="lab-table-title"))
            widgets.append(ResultTable(table.columns, table.rows, classes="lab-table"))
        await self.mount_all(widgets)

    def clear_result(self) -> AwaitRemove:
        self.result = None
        return self.remove_children()
