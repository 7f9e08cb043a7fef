"""Escape leaves a form field, whatever kind it is, and the footer says so while one has focus.

A text box types every letter (`u`, `b`, `!`, `q` never undo, bury, suspend or quit from
there), and the footer offers none of them then. Read from what the app draws: the footer row.
"""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Checkbox, Input, Label, Select

from quizapp.bank import bundled_bank_path, load_bank
from quizapp.tui.app import AppOptions, QuizApp
from quizapp.tui.screens.confirm import Confirm
from quizapp.tui.screens.lab import LabScreen
from quizapp.tui.screens.lab import open_lab as open_lab_screen
from quizapp.tui.screens.quiz import QuizScreen
from quizapp.tui.widgets.lab_panel import LabPanel
from tests.tui.screen_text import screen_lines
from tests.tui.test_sessions import HomeScreen, drive, make_app, wait_for

SIZES = [(80, 24), (120, 40)]


def footer(app: QuizApp) -> str:
    return screen_lines(app)[-1]


async def footer_shows(pilot: Pilot, text: str) -> str:
    """The footer row once it shows `text` (it is redrawn a moment after focus moves)."""
    await wait_for(pilot, lambda: text in footer(pilot.app))  # type: ignore[arg-type]
    return footer(pilot.app)  # type: ignore[arg-type]


async def open_lab(pilot: Pilot, name: str) -> LabScreen:
    app: QuizApp = pilot.app  # type: ignore[assignment]
    await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
    open_lab_screen(app, name)  # what the palette's "Compute: name" does
    await wait_for(pilot, lambda: isinstance(app.screen, LabScreen) and app.screen.is_mounted)
    screen = app.screen
    await wait_for(pilot, lambda: bool(screen.query(".lab-values")))
    return screen  # type: ignore[return-value]


async def tab_to(pilot: Pilot, kind: type[Widget]) -> Widget:
    """Tab, as a student would, until a `kind` field has focus."""
    for _ in range(20):
        await pilot.press("tab")
        await pilot.pause()
        if isinstance(pilot.app.focused, kind):
            return pilot.app.focused
    raise AssertionError(f"Tab never reached a {kind.__name__}")


async def start_on(pilot: Pilot, question_id: str) -> QuizScreen:
    app: QuizApp = pilot.app  # type: ignore[assignment]
    await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
    app.start_session(questions=[app.bank.questions[question_id]], title="One")
    await wait_for(pilot, lambda: isinstance(app.screen, QuizScreen) and app.screen.is_mounted)
    screen = app.screen
    await wait_for(pilot, lambda: isinstance(screen.focused, Input))
    return screen  # type: ignore[return-value]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(
    ("computation", "field"), [("mha_params", Checkbox), ("model_params", Select)]
)
def test_escape_on_a_lab_field_leaves_the_field_not_the_lab(
    size: tuple[int, int], computation: str, field: type[Widget]
) -> None:
    app = make_app()

    async def scenario(pilot: Pilot) -> None:
        screen = await open_lab(pilot, computation)
        await footer_shows(pilot, "esc Back")
        await tab_to(pilot, field)
        assert "Back" not in await footer_shows(pilot, "esc Leave field")
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen  # still in the lab
        assert app.focused is screen.query_one("#lab-body")
        await footer_shows(pilot, "esc Back")
        await pilot.press("escape")  # now the screen's own Escape
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)

    drive(app, scenario, size=size)


@pytest.mark.parametrize("size", SIZES)
def test_escape_on_a_lab_checkbox_in_a_session_does_not_offer_to_leave_it(
    size: tuple[int, int],
) -> None:
    app = make_app()

    async def scenario(pilot: Pilot) -> None:
        screen = await start_on(pilot, "t-numeric-derived")
        await pilot.press(*"1048576", "enter")
        await wait_for(pilot, lambda: screen.state == "answered")
        lab = screen.query_one(LabPanel)
        await wait_for(pilot, lambda: bool(lab.query(".lab-values")))
        await tab_to(pilot, Checkbox)
        await footer_shows(pilot, "esc Leave field")
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen and not isinstance(app.screen, Confirm)
        assert app.focused is screen.query_one("#quiz-body")
        await footer_shows(pilot, "esc Leave session")

    drive(app, scenario, size=size)


@pytest.mark.parametrize("size", SIZES)
def test_the_number_box_types_every_letter_and_the_footer_says_escape_leaves_it(
    size: tuple[int, int],
) -> None:
    app = make_app()

    async def scenario(pilot: Pilot) -> None:
        screen = await start_on(pilot, "t-numeric")
        box = screen.query_one("#answer", Input)
        shown = await footer_shows(pilot, "esc Leave field")
        for offered in ("Leave session", "Undo", "Quit"):
            assert offered not in shown, shown

        await pilot.press("u", "b", "exclamation_mark", "q")
        await pilot.pause()
        assert box.value == "ub!q"  # typed, not undone, buried, suspended or quit
        assert app.screen is screen and screen.question.id == "t-numeric"
        assert screen.state == "asking" and app.is_running

        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen and app.focused is screen.query_one("#quiz-body")
        assert "u Undo" in await footer_shows(pilot, "esc Leave session")

    drive(app, scenario, size=size)


@pytest.mark.parametrize("size", SIZES)
def test_escape_on_the_home_length_box_gives_the_keys_back_to_the_decks(
    size: tuple[int, int],
) -> None:
    """n puts the cursor in the Questions box; Escape must get out of it again, or d, S, a
    and the rest stay dead (the box swallows them) with an empty footer."""
    app = make_app()

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        home = app.screen
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.focused, Input))
        assert "esc Leave field" in await footer_shows(pilot, "Leave field")

        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is home and app.focused is home.query_one("#decks")
        shown = await footer_shows(pilot, "d Drill")
        assert "Leave field" not in shown, shown

    drive(app, scenario, size=size)


@pytest.mark.parametrize(
    ("question_id", "offers_tab"),
    [("mha-single-head-compromise", False), ("mha-tf-heads-no-order", True)],
)
def test_the_feedback_offers_tab_into_the_lab_only_when_it_has_arguments(
    question_id: str, offers_tab: bool
) -> None:
    """attention_heads takes no arguments: 'Tab: the lab's arguments' sent the student
    looking for a form that is not there."""
    bank = load_bank([bundled_bank_path()])
    app = QuizApp(bank, AppOptions(device="cpu", warm_up=False, watch=False, shuffle=False))

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        question = bank.questions[question_id]
        app.start_session(questions=[question], title="One")
        await wait_for(pilot, lambda: isinstance(app.screen, QuizScreen) and app.screen.is_mounted)
        screen = app.screen
        assert isinstance(screen, QuizScreen)
        await wait_for(pilot, lambda: bool(screen.query("#answer")))
        await pilot.press("1", "enter")
        await wait_for(pilot, lambda: screen.state == "answered")
        hint = str(screen.query_one("#key-hint", Label).content)
        assert hint.startswith("Enter/space: next · 1–4: change the rating")
        assert ("Tab: the lab's arguments" in hint) is offers_tab, hint
        if offers_tab:  # and the first Tab gets there (not to the answered, locked list)
            await pilot.press("tab")
            lab = screen.query_one("#lab")
            await wait_for(pilot, lambda: app.focused is not None and lab in app.focused.ancestors)

    drive(app, scenario)
