"""The lab's rough edges at 80x24 (issue 21), driven through Pilot as a student would.

The bottom of a long result is reachable by keys; an argument the computation refuses keeps
the last result on screen; Escape on the Rerun button goes back one level only; the result's
tables do not pose as selectable.
"""

from __future__ import annotations

from textual.containers import VerticalScroll
from textual.pilot import Pilot
from textual.widgets import Button, DataTable, Input, Static

from quizapp.tui.screens.confirm import Confirm
from quizapp.tui.screens.quiz import QuizScreen
from quizapp.tui.widgets.lab_panel import FIX_ARGUMENT, LabPanel
from tests.tui.screen_text import screen_lines
from tests.tui.test_field_escape import footer_shows, open_lab, start_on, tab_to
from tests.tui.test_sessions import drive, make_app, wait_for

SIZE = (80, 24)


def on_screen(pilot: Pilot, text: str) -> bool:
    return any(text in line for line in screen_lines(pilot.app))


async def run_settled(pilot: Pilot, panel: LabPanel) -> None:
    """The run is over and its values are drawn (the table is mounted before its rows)."""

    def drawn() -> bool:
        tables = panel.query(".lab-values").results(DataTable)
        return not panel.running and any(table.row_count for table in tables)

    await wait_for(pilot, drawn, 120)


def test_the_bottom_of_a_long_result_is_reached_by_the_page_keys() -> None:
    app = make_app()

    async def scenario(pilot: Pilot) -> None:
        screen = await open_lab(pilot, "head_split")
        panel = screen.query_one(LabPanel)
        await run_settled(pilot, panel)
        body = screen.query_one("#lab-body", VerticalScroll)
        assert app.focused is body  # the page has the keys when the lab opens
        last_table = list(panel.query(".lab-table").results(DataTable))[-1]
        last_row = last_table.get_row_at(last_table.row_count - 1)
        bottom = str(last_row[0]).strip()
        assert not on_screen(pilot, bottom)  # the result is longer than the screen

        # Laid out whole first: the values table's wrapped rows find their heights after
        # the tables are filled, and a key before that has nothing to scroll yet.
        await wait_for(pilot, lambda: body.max_scroll_y > 0)
        await pilot.press("down")
        await wait_for(pilot, lambda: body.scroll_y > 0)
        for _ in range(30):  # PageDown until the page stops moving
            before = body.scroll_y
            await pilot.press("pagedown")
            await pilot.pause()
            if body.scroll_y == before:
                break
        await wait_for(pilot, lambda: on_screen(pilot, bottom))
        await pilot.press("pageup")
        await wait_for(pilot, lambda: body.scroll_y < body.max_scroll_y)

    drive(app, scenario, size=SIZE)


def test_an_argument_the_computation_refuses_keeps_the_last_result() -> None:
    app = make_app()

    async def scenario(pilot: Pilot) -> None:
        screen = await open_lab(pilot, "permutation_demo")
        panel = screen.query_one(LabPanel)
        await run_settled(pilot, panel)
        values = panel.query_one(".lab-values", DataTable)
        kept = [str(values.get_row_at(i)[0]) for i in range(values.row_count)]

        swapped = screen.query_one("#arg-swapped", Input)
        swapped.focus()
        await pilot.pause()
        swapped.value = "zebra cat"  # bind lets words through; the computation refuses them
        await pilot.press("enter")
        error = panel.query_one("#lab-arg-error", Static)
        await wait_for(pilot, lambda: "swapped" in str(error.content) and not panel.running)

        shown = panel.query_one(".lab-values", DataTable)
        assert [str(shown.get_row_at(i)[0]) for i in range(shown.row_count)] == kept
        assert FIX_ARGUMENT in str(panel.query_one("#lab-status", Static).content)
        assert panel.has_class("-stale")  # dimmed, and labelled with its own arguments
        assert on_screen(pilot, "results for sentence=dog bites man")
        assert panel.query_one("#field-swapped").has_class("-invalid")
        assert not panel.query_one("#lab-error", Static).has_class("-shown")

    drive(app, scenario, size=SIZE)


def test_escape_on_the_rerun_button_goes_back_to_the_page_not_out_of_the_session() -> None:
    app = make_app()

    async def scenario(pilot: Pilot) -> None:
        screen = await start_on(pilot, "t-numeric-derived")
        await pilot.press(*"1048576", "enter")
        await wait_for(pilot, lambda: screen.state == "answered")
        await run_settled(pilot, screen.query_one(LabPanel))
        rerun = await tab_to(pilot, Button)
        assert rerun.id == "lab-rerun"
        await footer_shows(pilot, "esc Leave lab")
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.focused is screen.query_one("#quiz-body"))
        assert app.screen is screen and not isinstance(app.screen, Confirm)
        await footer_shows(pilot, "esc Leave session")
        await pilot.press("escape")  # the next level up: the session asks before it goes
        await wait_for(pilot, lambda: isinstance(app.screen, Confirm))
        assert isinstance(app.screen_stack[-2], QuizScreen)

    drive(app, scenario, size=SIZE)


def test_the_result_tables_have_no_cursor_and_take_focus_only_to_scroll_sideways() -> None:
    app = make_app()

    async def scenario(pilot: Pilot) -> None:
        screen = await open_lab(pilot, "head_split")
        panel = screen.query_one(LabPanel)
        await run_settled(pilot, panel)
        await pilot.pause()
        tables = list(panel.query(DataTable).results(DataTable))
        assert tables
        for table in tables:
            assert table.cursor_type == "none"
            overflows = table.virtual_size.width > table.scrollable_content_region.width
            assert table.focusable == overflows, table
        assert any(not table.focusable for table in tables)  # head_split's values fit
        for _ in range(12):  # Tab round the whole screen: no fitting table takes the focus
            await pilot.press("tab")
            await pilot.pause()
            focused = app.focused
            if isinstance(focused, DataTable):
                assert focused.virtual_size.width > focused.scrollable_content_region.width

    drive(app, scenario, size=SIZE)
