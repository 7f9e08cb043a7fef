"""The mock exam is on the home screen (e) and in `?`, and opens with a page that says what
is about to happen; its clock starts only on Begin."""

from __future__ import annotations

from textual.pilot import Pilot
from textual.widgets import Input, Label

from quizapp.tui.screens.exam import ExamScreen
from quizapp.tui.screens.exam_intro import ExamIntro
from quizapp.tui.screens.home import HomeScreen
from tests.tui.test_sessions import drive, make_app, wait_for


def shown_terms(intro: ExamIntro) -> str:
    return "\n".join(str(label.content) for label in intro.query(".dialog-detail").results(Label))


def test_e_on_home_shows_the_terms_and_the_clock_starts_only_on_begin() -> None:
    app = make_app(warm_up=False)

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        assert "Exam" in [b.description for b in app.screen.BINDINGS if hasattr(b, "description")]
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, ExamIntro))
        intro = app.screen
        terms = shown_terms(intro)
        count = len(intro.exam.questions)
        assert f"{count} question" in terms
        minutes, seconds = divmod(round(intro.exam.duration), 60)
        assert f"{minutes}:{seconds:02d} on the clock" in terms
        assert "Answers can be changed" in terms and "70% right passes" in terms
        assert not intro.exam.started  # reading the terms costs no exam time
        await pilot.press("escape")  # not now: home again, no exam
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen))
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, ExamIntro))
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ExamScreen) and app.screen.is_mounted)
        assert app.screen.exam.started

    drive(app, scenario)


def test_e_typed_in_the_questions_box_starts_no_exam() -> None:
    app = make_app(warm_up=False)

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        app.screen.query_one("#length", Input).focus()
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)

    drive(app, scenario)
