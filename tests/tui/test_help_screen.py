"""`?`: "On this screen" lists the app's and the screen's own keys, not a Textual widget's."""

from __future__ import annotations

from textual.pilot import Pilot
from textual.widgets import Input

from quizapp.tui.screens.help import HelpScreen
from quizapp.tui.screens.home import HomeScreen
from tests.exam.test_session import FakeClock
from tests.tui.test_exam_screen import make_exam, open_exam
from tests.tui.test_sessions import drive, make_app, wait_for

TEXTUAL_KEYS = ("Cursor up", "Page Left", "Copy selected text", "Focus Next", "Select")


async def on_this_screen(pilot: Pilot, *, by_key: bool = True) -> dict[str, str]:
    """What `?` lists under "On this screen", description to key; the help closed again."""
    app = pilot.app
    if by_key:
        await pilot.press("question_mark")
    else:  # a box types the `?`: the help as the palette's "Help: keys" opens it
        await app.run_action("help")
    await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen) and app.screen.is_mounted)
    rows = dict(app.screen.sections)["On this screen"]
    await pilot.press("escape")
    await wait_for(pilot, lambda: not isinstance(app.screen, HelpScreen))
    return {what: key for key, what in rows}


def test_the_home_help_lists_the_home_keys_and_sums_up_the_deck_tables() -> None:
    app = make_app()

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        assert app.screen.focused is app.screen.query_one("#decks")
        listed = await on_this_screen(pilot)
        assert not [what for what in TEXTUAL_KEYS if what in listed]
        # Enter goes to the table, which starts the deck: the home's word for it is listed.
        assert listed["Start deck"] == "⏎"
        assert listed["Drill"] == "d" and listed["By tags"] == "t"
        navigation = [what for what in listed if what.startswith("move in the table")]
        assert len(navigation) == 1  # the table's own keys, in one line

    drive(app, scenario, size=(80, 24))


def test_a_box_that_takes_the_letters_leaves_them_out_of_the_help() -> None:
    app = make_app()

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        await pilot.press("n")  # into the Questions box: d, t, a are typed there
        await wait_for(pilot, lambda: isinstance(app.screen.focused, Input))
        listed = await on_this_screen(pilot, by_key=False)
        assert "Drill" not in listed and "By tags" not in listed
        assert not [what for what in TEXTUAL_KEYS if what in listed]

    drive(app, scenario, size=(80, 24))


def test_the_exam_help_lists_the_exam_keys() -> None:
    app = make_app(warm_up=False)
    exam = make_exam(app, FakeClock())

    async def scenario(pilot: Pilot) -> None:
        await open_exam(pilot, exam, [])
        listed = await on_this_screen(pilot)
        for what in ("Next", "Previous", "Flag", "Go to", "Submit", "Leave exam"):
            assert what in listed
        assert not [what for what in TEXTUAL_KEYS if what in listed]

    drive(app, scenario, size=(80, 24))
