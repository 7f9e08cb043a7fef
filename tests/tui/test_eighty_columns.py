"""Every screen reads whole at 80×24 (and at 120×40): nothing cut off at the edge unseen, long
text either wrapped under itself (hanging) or ended with an ellipsis, and the on/off states
and plot lines told apart without colour.

The screens are read as drawn (tests/tui/screen_text.py): `cut_off` lists any widget that
sticks out of its container and any table wider than itself.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.app import App, ComposeResult
from textual.command import CommandList
from textual.pilot import Pilot
from textual.widgets import DataTable

from quizapp.bank import Bank, bundled_bank_path, load_bank
from quizapp.bank.diagnostics import Diagnostic
from quizapp.experiments.registry import get_spec
from quizapp.experiments.result import Series
from quizapp.tui.app import AppOptions, QuizApp
from quizapp.tui.components.reload import located
from quizapp.tui.screens.exam import ExamScreen
from quizapp.tui.screens.help import ANSWERING, EVERYWHERE, LAB, HelpScreen
from quizapp.tui.screens.home import HomeScreen
from quizapp.tui.screens.lab import LabScreen
from quizapp.tui.screens.quiz import QuizScreen
from quizapp.tui.screens.tag_picker import TagPicker
from quizapp.tui.widgets.plot_markers import MARKERS, marked_points
from quizapp.tui.widgets.result_view import PlotCaption, SeriesPlot
from quizapp.tui.widgets.toggles import MarkedCheckbox
from tests.conftest import CORPUS
from tests.tui.screen_text import cut_off, screen_lines
from tests.tui.test_sessions import drive, wait_for

SIZES = [(80, 24), (120, 40)]
LONG_TITLE = "An instructor's deck whose title runs on for far longer than any column allows"
LONG_DOMAIN = "Transformer internals for the certification exam, part one"


def bundled() -> Bank:
    return load_bank([bundled_bank_path()])


def app_on(bank: Bank, **options: object) -> QuizApp:
    return QuizApp(bank, AppOptions(device="cpu", warm_up=False, shuffle=False, **options))  # type: ignore[arg-type]


async def settled(pilot: Pilot) -> None:
    await pilot.pause()
    await pilot.pause()


def whole_or_ellipsis(text: str, lines: list[str]) -> str | None:
    """How `text` shows on screen: whole, or cut to a prefix ending in an ellipsis; None when it
    shows neither way (cut without one, or not at all)."""
    for line in lines:
        if text in line:
            return "whole"
        for cut in range(len(text) - 1, 7, -1):
            if text[:cut] + "…" in line:
                return "ellipsis"
    return None


@pytest.mark.parametrize("size", SIZES)
def test_the_deck_table_fits_and_cuts_only_with_an_ellipsis(size, tmp_path: Path) -> None:
    deck = (CORPUS / "good" / "every_type.yaml").read_text()
    deck = deck.replace("title: Every question type", f"title: {LONG_TITLE}")
    deck = deck.replace("domain: Test domain", f"domain: {LONG_DOMAIN}")
    (tmp_path / "long.yaml").write_text(deck)
    bank = load_bank([bundled_bank_path(), tmp_path / "long.yaml"])
    app = app_on(bank)

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        await settled(pilot)
        assert cut_off(app) == []
        lines = screen_lines(app)
        header = next(line for line in lines if "Deck" in line and "Domain" in line)
        assert header.split()[:6] == ["Due", "New", "Questions", "Deck", "Weight", "Domain"]
        for each in bank.decks:
            assert whole_or_ellipsis(each.title, lines), each.title
            assert whole_or_ellipsis(each.domain, lines), each.domain
        # What must give way is the longest text, not the counts or the short titles.
        assert whole_or_ellipsis(LONG_TITLE, lines) == "ellipsis"
        assert whole_or_ellipsis("Multi-head attention", lines) == "whole"
        if size == (120, 40):  # side by side, and the bundled decks read in full
            assert whole_or_ellipsis("Layer normalization and residual connections", lines)
            assert "Session" in lines[2]

    drive(app, scenario, size=size)


def test_at_80_columns_the_session_options_go_under_the_decks() -> None:
    app = app_on(bundled())

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        await settled(pilot)
        table = app.screen.query_one("#decks", DataTable)
        options = app.screen.query_one("#side-pane")
        assert app.screen.has_class("-narrow")
        assert options.region.y >= table.region.bottom and table.region.width >= 76
        assert app.screen.query_one("#length").region.bottom <= 23  # above the footer

    drive(app, scenario, size=(80, 24))


@pytest.mark.parametrize("size", SIZES)
def test_help_descriptions_wrap_under_themselves(size) -> None:
    app = app_on(bundled())

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen) and app.screen.is_mounted)
        await settled(pilot)
        assert cut_off(app) == []
        lines = screen_lines(app)
        columns = set()
        for _title, rows in (ANSWERING, LAB, EVERYWHERE):
            for key, what in rows:
                row = next((line for line in lines if what[:20] in line), None)
                if row is None:
                    continue  # scrolled out of view
                column = row.index(what[:20])
                columns.add(column)
                assert row.index(key) + len(key) < column  # the key, then its description
        assert len(columns) == 1  # one column for all of them
        if size == (80, 24):
            lines = screen_lines(app)
            first = next(i for i, line in enumerate(lines) if "pick an option" in line)
            column = lines[first].index("pick an option")
            following = lines[first + 1]
            assert following[column:].startswith("select-all-that-apply"), following
            assert not following[:column].strip(" █")  # nothing under the keys

    drive(app, scenario, size=size)


@pytest.mark.parametrize("size", SIZES)
def test_the_lab_title_reads_whole(size) -> None:
    app = app_on(bundled())
    spec = get_spec("model_params")

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        app.push_screen(LabScreen("model_params", app.lab))
        await wait_for(pilot, lambda: isinstance(app.screen, LabScreen) and app.screen.is_mounted)
        await settled(pilot)
        assert cut_off(app) == []
        shown = " ".join(" ".join(screen_lines(app)).split())
        assert f"{spec.title}: {spec.description}" in shown

    drive(app, scenario, size=size)


def test_the_palette_shows_every_line_of_a_hits_help() -> None:
    app = app_on(bundled())
    help_text = get_spec("mha_params").description  # exactly wide enough to wrap once

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        await pilot.press("ctrl+p")
        await pilot.press(*"compute")
        await wait_for(pilot, lambda: bool(app.screen.query(CommandList)))
        await wait_for(pilot, lambda: app.screen.query_one(CommandList).option_count > 3)
        await settled(pilot)
        shown = " ".join(" ".join(screen_lines(app)).split())
        assert help_text in shown

    drive(app, scenario, size=(80, 24))


@pytest.mark.parametrize("size", SIZES)
def test_options_wrap_under_their_own_text_and_the_footer_fits(size) -> None:
    app = app_on(bundled(), start="preview", preview=("mha-purpose-subspaces",))

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, QuizScreen) and app.screen.is_mounted)
        await settled(pilot)
        assert cut_off(app) == []
        lines = screen_lines(app)
        # Wherever the shuffle put it: the option's own number, then its text.
        first = next(i for i, line in enumerate(lines) if ". ( ) Let the model" in line)
        column = lines[first].index("Let the model")
        if size == (80, 24):  # the first option wraps: under "Let", not under "1."
            assert lines[first + 1][column:].startswith("parallel")
            assert not lines[first + 1][:column].strip()
        assert "^r Reload" in lines[-1] and "? Keys" in lines[-1]  # preview's key, whole

    drive(app, scenario, size=size)


@pytest.mark.parametrize("size", SIZES)
def test_the_exam_list_keeps_one_line_per_question(size) -> None:
    bank = bundled()
    app = app_on(bank, start="exam", exam={"questions": 20, "seed": 3})

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, ExamScreen) and app.screen.is_mounted)
        await settled(pilot)
        assert cut_off(app) == []
        screen = app.screen
        nav = screen.query_one("#exam-nav")
        rows = [
            line[nav.region.x + 1 : nav.region.right - 1]
            for line in screen_lines(app)[nav.region.y + 1 : nav.region.bottom - 1]
        ]
        topics = {q.topic for q in screen.exam.questions}
        for row in filter(str.strip, rows):
            found = re.fullmatch(r"\s*(\d+) [○●✗][⚑ ] (.+?)\s*[▇▁▂▃▄▅▆█ ]?", row)
            assert found, row  # a number on every line: none is the end of a wrapped topic
            topic = found.group(2).strip()
            assert topic in topics or (
                topic.endswith("…") and any(t.startswith(topic[:-1]) for t in topics)
            ), topic
        if size == (120, 40):
            assert all("…" not in row for row in rows)  # room for every topic in full

    drive(app, scenario, size=size)


def test_tag_boxes_read_on_or_off_without_colour() -> None:
    app = app_on(load_bank([CORPUS / "good"]))

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        await pilot.press("t")
        await wait_for(pilot, lambda: isinstance(app.screen, TagPicker) and app.screen.is_mounted)
        await settled(pilot)
        boxes = [line for line in screen_lines(app) if "▐" in line]
        assert boxes and all("▐ ▌" in line for line in boxes)  # none picked: all empty
        await pilot.press("space")
        await settled(pilot)
        boxes = [line for line in screen_lines(app) if "▐" in line]
        assert sum("▐X▌" in line for line in boxes) == 1
        assert sum("▐ ▌" in line for line in boxes) == len(boxes) - 1

    drive(app, scenario, size=(80, 24))


def test_a_checkbox_reads_on_or_off_without_colour() -> None:
    class Boxes(App[None]):
        def compose(self) -> ComposeResult:
            yield MarkedCheckbox("bias", value=True, id="on")
            yield MarkedCheckbox("bias", value=False, id="off")

    app = Boxes()

    async def scenario(pilot: Pilot) -> None:
        await settled(pilot)
        lines = screen_lines(app)
        assert any("▐X▌ bias" in line for line in lines)
        assert any("▐ ▌ bias" in line for line in lines)
        app.query_one("#off", MarkedCheckbox).toggle()
        await settled(pilot)
        assert sum("▐X▌ bias" in line for line in screen_lines(app)) == 2

    drive(app, scenario, size=(40, 10))  # type: ignore[arg-type]


def test_each_plot_line_has_its_own_marker_even_where_lines_coincide() -> None:
    same = tuple(float(v % 7) for v in range(40))
    series = Series(
        x_label="offset",
        x=tuple(float(i) for i in range(40)),
        lines={"key at 0": same, "key at 1000": same, "a third": tuple(2.0 for _ in same)},
        y_label="q·k",
    )

    class Plot(App[None]):
        def compose(self) -> ComposeResult:
            plot = SeriesPlot(series)
            plot.styles.height = 14
            yield PlotCaption(plot)
            yield plot

    app = Plot()

    async def scenario(pilot: Pilot) -> None:
        def plotted() -> str:
            return "\n".join(screen_lines(app)[2:])  # below the caption's two lines

        await wait_for(pilot, lambda: all(marker in plotted() for marker in MARKERS[:3]))
        lines = screen_lines(app)
        caption = "\n".join(lines[:2])
        for marker, label in zip(MARKERS, series.lines, strict=False):
            assert f"━{marker}━ {label}" in caption
        drawn = "\n".join(lines[2:])
        # The first two lines lie on top of each other; both markers still show.
        for marker in MARKERS[:3]:
            assert drawn.count(marker) >= 3, marker

    drive(app, scenario, size=(80, 20))  # type: ignore[arg-type]


def test_marked_points_are_spread_staggered_and_finite() -> None:
    x = [float(i) for i in range(100)]
    y = [float(i) if i % 10 else float("nan") for i in range(100)]
    first, _ = marked_points(x, y, 0, 2)
    second, ys = marked_points(x, y, 1, 2)
    assert 4 <= len(first) <= 6 and 4 <= len(second) <= 6
    assert not set(first) & set(second)  # staggered: coinciding lines keep both markers
    assert all(v == v for v in ys)  # never on a point the plot does not draw
    assert max(first + second) - min(first + second) > 60  # spread along the line
    assert marked_points([1.0], [float("nan")], 0, 1) == ([], [])


def test_a_bank_problem_toast_keeps_the_location_on_one_line() -> None:
    problem = Diagnostic(
        path="/home/teacher/courses/transformers/banks/normalization-and-residuals.yaml",
        line=16,
        column=17,
        severity="error",
        code="yaml-syntax",
        message="YAML syntax: while parsing a flow sequence",
    )
    where, message = located(problem, width=40).split("\n")
    assert where.endswith("normalization-and-residuals.yaml:16:17") and len(where) <= 40
    assert where.startswith("…")
    assert message == "YAML syntax: while parsing a flow sequence"
    short = Diagnostic(path="deck.yaml", line=3, column=1, severity="error", code="x", message="m")
    assert located(short) == "deck.yaml:3:1\nm"
