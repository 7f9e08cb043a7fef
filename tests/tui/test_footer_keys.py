"""Every key a screen's footer offers does something there, and Escape goes back one level.

One sweep over every screen the app has, at 80x24: reach the screen as a student would, read
the keys its footer shows (the screen's active bindings marked to be shown and enabled),
press each one on a fresh copy of the screen and wait for an effect (the screen changed, the
focus moved, what is drawn changed, or a message was posted). Then Escape must pop exactly
one screen: the one below comes back (after a "Leave…?" question is answered yes).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, OptionList

from quizapp.bank import load_bank
from quizapp.srs.config import Settings
from quizapp.srs.store.sqlite.store import ReviewStore
from quizapp.tui.app import AppOptions, QuizApp
from quizapp.tui.screens.confirm import Confirm
from quizapp.tui.screens.home import HomeScreen
from quizapp.tui.screens.lab import open_lab
from quizapp.tui.screens.quiz import QuizScreen
from quizapp.tui.screens.summary import SummaryScreen
from quizapp.tui.widgets.lab_panel import LabPanel
from tests.conftest import CORPUS
from tests.tui.screen_text import screen_lines
from tests.tui.test_class_report_screen import record_two_answers
from tests.tui.test_lab_device import pick
from tests.tui.test_sessions import drive, wait_for
from tests.tui.toasts import said

SIZE = (80, 24)
BANK = load_bank([CORPUS / "good"])
# Keys that end the app, or that only the preview mode offers (its own tests press it).
NOT_PRESSED = {"q", "ctrl+q", "ctrl+r"}

Route = Callable[[Pilot], Awaitable[Screen]]


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A history with two answers, so that stats, readiness and the class report have data."""
    monkeypatch.setenv("QUIZAPP_CONFIG", str(tmp_path / "config.toml"))
    path = tmp_path / "history.sqlite3"
    with ReviewStore.open(path) as store:
        record_two_answers(store)
    return path


def footer_keys(app: QuizApp) -> list[str]:
    """The keys the footer shows now, enabled, as Pilot presses them."""
    return [
        key
        for key, active in app.screen.active_bindings.items()
        if active.binding.show and active.enabled
    ]


def snapshot(app: QuizApp) -> tuple[object, ...]:
    """What a key could change. Digits are masked: the exam's countdown moves by itself."""
    drawn = tuple(re.sub(r"\d", "#", line) for line in screen_lines(app)[1:])
    return (tuple(map(id, app.screen_stack)), id(app.focused), drawn, len(said(app)))


async def settled(pilot: Pilot, screen: Screen) -> Screen:
    """`screen` once it is on top, mounted, and no lab on it is running."""
    app = pilot.app
    await wait_for(pilot, lambda: app.screen is screen and screen.is_mounted)
    await wait_for(pilot, lambda: not any(panel.running for panel in screen.query(LabPanel)), 120)
    await pilot.pause()
    return screen


async def on_top(pilot: Pilot, kind: type[Screen]) -> Screen:
    await wait_for(
        pilot, lambda: isinstance(pilot.app.screen, kind) and pilot.app.screen.is_mounted
    )
    return await settled(pilot, pilot.app.screen)


async def home(pilot: Pilot) -> Screen:
    app: QuizApp = pilot.app  # type: ignore[assignment]
    await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.history is not None)
    return await settled(pilot, app.screen)


def by_key(key: str, kind_name: str) -> Route:
    """The screen a key of the home screen opens."""

    async def route(pilot: Pilot) -> Screen:
        await home(pilot)
        await pilot.press(key)
        await wait_for(pilot, lambda: type(pilot.app.screen).__name__ == kind_name)
        return await settled(pilot, pilot.app.screen)

    return route


async def class_report(pilot: Pilot) -> Screen:
    await home(pilot)
    await pick(pilot, "Class report")
    await wait_for(pilot, lambda: type(pilot.app.screen).__name__ == "ClassReportScreen")
    screen = pilot.app.screen
    await wait_for(pilot, lambda: screen.report is not None)  # type: ignore[attr-defined]
    return await settled(pilot, screen)


async def question(pilot: Pilot) -> Screen:
    app: QuizApp = pilot.app  # type: ignore[assignment]
    await home(pilot)
    questions = [BANK.questions[qid] for qid in ("t-single", "t-tf")]
    app.start_session(questions=questions, title="Two")
    screen = await on_top(pilot, QuizScreen)
    await wait_for(pilot, lambda: bool(screen.query("#answer")) and app.focused is not None)
    return screen


async def feedback(pilot: Pilot) -> Screen:
    screen = await question(pilot)
    await pilot.press("2", "enter")  # t-single: option 2 is the distractor, so it is missed
    await wait_for(pilot, lambda: screen.state == "answered")  # type: ignore[attr-defined]
    return await settled(pilot, screen)


async def leave_question(pilot: Pilot) -> Screen:
    """The "Leave this session?" question."""
    await feedback(pilot)
    await pilot.press("escape")
    return await on_top(pilot, Confirm)


async def summary(pilot: Pilot) -> Screen:
    app: QuizApp = pilot.app  # type: ignore[assignment]
    await home(pilot)
    app.start_session(questions=[BANK.questions["t-single"]], title="One")
    screen = await on_top(pilot, QuizScreen)
    await wait_for(pilot, lambda: bool(screen.query("#answer")))
    await pilot.press("2", "enter")  # missed, so that the summary lists it for review
    await wait_for(pilot, lambda: screen.state == "answered")  # type: ignore[attr-defined]
    await pilot.press("space")
    return await on_top(pilot, SummaryScreen)


async def review(pilot: Pilot) -> Screen:
    screen = await summary(pilot)
    screen.query_one(OptionList).focus()
    await pilot.press("enter")  # the missed question
    await wait_for(pilot, lambda: type(pilot.app.screen).__name__ == "ReviewScreen")
    return await settled(pilot, pilot.app.screen)


async def lab(pilot: Pilot) -> Screen:
    await home(pilot)
    open_lab(pilot.app, "mha_params")
    await wait_for(pilot, lambda: type(pilot.app.screen).__name__ == "LabScreen")
    screen = pilot.app.screen
    await wait_for(pilot, lambda: bool(screen.query(".lab-values")), 120)
    return await settled(pilot, screen)


async def exam(pilot: Pilot) -> Screen:
    app: QuizApp = pilot.app  # type: ignore[assignment]
    await home(pilot)
    app.start_exam(questions=3, minutes=30, seed=1)
    await wait_for(pilot, lambda: type(app.screen).__name__ == "ExamScreen")
    return await settled(pilot, app.screen)


async def exam_report(pilot: Pilot) -> Screen:
    await exam(pilot)
    await pilot.press("ctrl+s")
    await on_top(pilot, Confirm)
    await pilot.press("y")  # nothing answered: every question is missed
    await wait_for(pilot, lambda: type(pilot.app.screen).__name__ == "ExamReportScreen")
    return await settled(pilot, pilot.app.screen)


async def exam_review(pilot: Pilot) -> Screen:
    screen = await exam_report(pilot)
    screen.query_one("#exam-questions", OptionList).focus()
    await pilot.press("enter")
    await wait_for(pilot, lambda: type(pilot.app.screen).__name__ == "ExamReviewScreen")
    return await settled(pilot, pilot.app.screen)


async def exam_date(pilot: Pilot) -> Screen:
    await by_key("R", "ReadinessScreen")(pilot)
    await pilot.press("e")
    await wait_for(pilot, lambda: type(pilot.app.screen).__name__ == "ExamDateDialog")
    return await settled(pilot, pilot.app.screen)


ROUTES: dict[str, Route] = {
    "home": home,
    "question": question,
    "feedback": feedback,
    "leave-session": leave_question,
    "summary": summary,
    "review": review,
    "lab": lab,
    "help": by_key("question_mark", "HelpScreen"),
    "stats": by_key("S", "StatsScreen"),
    "readiness": by_key("R", "ReadinessScreen"),
    "exam-date": exam_date,
    "tag-picker": by_key("t", "TagPicker"),
    "exam": exam,
    "exam-report": exam_report,
    "exam-review": exam_review,
    "class-report": class_report,
}


async def back_home(pilot: Pilot) -> None:
    app = pilot.app
    while len(app.screen_stack) > 1:
        await app.pop_screen()
    await home(pilot)


async def escape_goes_back_one_level(pilot: Pilot, screen: Screen) -> None:
    app = pilot.app
    stack = list(app.screen_stack)
    # On a page, Escape leaves a field first: that is one level too. A dialog's Escape is
    # its Cancel, from its field as well.
    if isinstance(app.focused, Input) and not isinstance(screen, ModalScreen):
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.focused, Input))
        assert app.screen_stack == stack
    await pilot.press("escape")
    if len(stack) == 1:  # the home screen: there is nowhere further back, and it stays
        await pilot.pause()
        assert app.screen_stack == stack and app.is_running
        return
    if isinstance(app.screen, Confirm) and not isinstance(screen, Confirm):
        assert app.screen_stack[:-1] == stack  # it asks first: one screen more, not less
        await pilot.press("y")
    await wait_for(pilot, lambda: len(app.screen_stack) < len(stack))
    assert app.screen_stack == stack[:-1], f"Escape on {screen} went back more than one level"
    await wait_for(pilot, lambda: app.screen is stack[-2])


async def press_and_see_an_effect(pilot: Pilot, key: str, name: str) -> None:
    app: QuizApp = pilot.app  # type: ignore[assignment]
    before = snapshot(app)
    await pilot.press(key)
    try:
        await wait_for(pilot, lambda: snapshot(app) != before, timeout=10)
    except AssertionError:
        raise AssertionError(f"{key!r} in the footer of {name} did nothing") from None


@pytest.mark.parametrize("name", list(ROUTES))
def test_every_footer_key_does_something_and_escape_goes_back_one_level(
    name: str, db: Path
) -> None:
    options = AppOptions(db_path=db, device="cpu", shuffle=False, watch=False, settings=Settings())
    app = QuizApp(BANK, options)
    route = ROUTES[name]

    async def scenario(pilot: Pilot) -> None:
        screen = await route(pilot)
        keys = [key for key in footer_keys(app) if key not in NOT_PRESSED | {"escape"}]
        # Page up does nothing at the top by design (never dimmed there: see the class
        # report): press it right after page down, on the page that moved.
        if {"pageup", "pagedown"} <= set(keys):
            keys.remove("pageup")
            keys.insert(keys.index("pagedown") + 1, "pageup")
        for key in keys:
            if app.screen is not screen or key not in footer_keys(app):
                await back_home(pilot)
                screen = await route(pilot)
            await press_and_see_an_effect(pilot, key, name)
        if app.screen is not screen:
            await back_home(pilot)
            screen = await route(pilot)
        await escape_goes_back_one_level(pilot, screen)

    drive(app, scenario, size=SIZE)
