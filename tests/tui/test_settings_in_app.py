"""Settings a student meets in the app: the theme is remembered, a session or exam longer than
the bank says so, 0 questions is refused, and q in a preview asks first."""

from __future__ import annotations

from pathlib import Path

from textual.command import CommandList
from textual.pilot import Pilot
from textual.widgets import Input

from quizapp.bank import load_bank
from quizapp.srs.config import load_settings
from quizapp.tui.app import AppOptions, QuizApp
from quizapp.tui.screens.confirm import Confirm
from quizapp.tui.screens.exam import ExamScreen
from quizapp.tui.screens.home import HomeScreen
from quizapp.tui.screens.quiz import QuizScreen
from tests.conftest import CORPUS
from tests.tui.test_sessions import drive, wait_for
from tests.tui.toasts import said

SIZE = (80, 24)


def make_app(**options: object) -> QuizApp:
    bank = load_bank([CORPUS / "good"])
    return QuizApp(bank, AppOptions(device="cpu", warm_up=False, shuffle=False, **options))  # type: ignore[arg-type]


def first_hit(app: QuizApp) -> str:
    """The command palette's highlighted hit, as text ("" while there is none)."""
    hits = app.screen.query(CommandList)
    if not hits or hits.first().highlighted is None:
        return ""
    option = hits.first().get_option_at_index(hits.first().highlighted)
    return str(getattr(option.prompt, "plain", option.prompt)).splitlines()[0]


def notes(app: QuizApp) -> list[str]:
    return said(app)


def test_a_theme_picked_in_the_palette_is_written_to_the_config(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("# mine\nnew_cards_per_day = 7\n")
    app = make_app(theme="dracula", config_path=config)  # as `--theme dracula` would

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        await pilot.pause()
        assert "theme" not in config.read_text()  # --theme is for this run only
        # The palette's theme list, by keys: ctrl+p, the theme command, then a theme.
        await pilot.press("ctrl+p")
        await pilot.press(*"theme")
        await wait_for(pilot, lambda: "theme" in first_hit(app).lower())
        await pilot.press("enter")
        await pilot.press(*"nord")
        await wait_for(pilot, lambda: first_hit(app) == "nord")
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.theme == "nord")
        await wait_for(pilot, lambda: 'theme = "nord"' in config.read_text())

    drive(app, scenario, size=SIZE)
    assert config.read_text() == '# mine\nnew_cards_per_day = 7\ntheme = "nord"\n'
    assert load_settings(config).theme == "nord"


def test_a_theme_that_cannot_be_written_applies_for_the_run_and_says_so(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("new_cards_per_day = = 7\n")  # broken: being edited, left alone
    app = make_app(config_path=config)

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        app.theme = "gruvbox"
        await wait_for(pilot, lambda: any("this run only" in n for n in notes(app)))
        assert app.theme == "gruvbox"

    drive(app, scenario, size=SIZE)
    assert config.read_text() == "new_cards_per_day = = 7\n"


def test_a_session_longer_than_the_deck_says_it_asks_them_all() -> None:
    app = make_app(length=1000)  # --length 1000
    total = len(load_bank([CORPUS / "good"]).questions)

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        await pilot.press("a")
        await wait_for(pilot, lambda: isinstance(app.screen, QuizScreen) and app.screen.is_mounted)
        assert len(app.screen.session.questions) == total
        assert f"Only {total} questions in All decks; asking all {total}." in notes(app)

    drive(app, scenario, size=SIZE)


def test_zero_in_the_questions_box_is_refused_not_read_as_all() -> None:
    app = make_app()

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        box = app.screen.query_one("#length", Input)
        box.focus()
        await pilot.press("0", "enter")
        await wait_for(pilot, lambda: any("0 questions is no session" in n for n in notes(app)))
        assert isinstance(app.screen, HomeScreen) and box.has_focus
        await pilot.press("a")  # typed into the box, which takes digits only: still home
        app.screen.query_one("#decks").focus()
        await pilot.press("a")  # everything: still refused while the box says 0
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        box.value = ""  # blank: every question, as the label says
        app.screen.query_one("#decks").focus()
        await pilot.press("a")
        await wait_for(pilot, lambda: isinstance(app.screen, QuizScreen) and app.screen.is_mounted)

    drive(app, scenario, size=SIZE)


def test_an_exam_longer_than_the_bank_says_so_at_the_start() -> None:
    app = make_app(start="exam", exam={"questions": 1000, "seed": 1})

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, ExamScreen) and app.screen.is_mounted)
        screen = app.screen
        asked = len(screen.exam.questions)
        assert asked < 1000
        expected = (
            f"Only {asked} questions in the bank can be in an exam (flashcards are left out); "
            f"asking all {asked}."
        )
        await wait_for(pilot, lambda: expected in notes(app))

    drive(app, scenario, size=SIZE)


def test_q_in_a_preview_asks_before_quitting() -> None:
    app = make_app(start="preview", preview=("t-tf", "t-single"))

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, QuizScreen) and app.screen.is_mounted)
        await pilot.pause()
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, Confirm) and app.screen.is_mounted)
        assert app.screen.question == "Quit the preview?"
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, QuizScreen) and app.screen.is_mounted)
        assert app.is_running
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, Confirm) and app.screen.is_mounted)
        await pilot.press("y")
        await wait_for(pilot, lambda: not app.is_running)

    drive(app, scenario, size=SIZE)


def test_the_session_length_typed_at_home_is_there_after_a_relaunch(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("# mine\nnew_cards_per_day = 5\n")

    def launch(**options: object) -> QuizApp:
        return make_app(config_path=config, settings=load_settings(config), **options)

    async def type_three_and_start(pilot: Pilot) -> None:
        app = pilot.app
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        box = app.screen.query_one("#length", Input)
        assert box.value == ""  # all, until a length is typed
        box.focus()
        await pilot.press("3")
        app.screen.query_one("#decks").focus()
        await pilot.press("a")
        await wait_for(pilot, lambda: isinstance(app.screen, QuizScreen) and app.screen.is_mounted)
        assert len(app.screen.session.questions) == 3
        await wait_for(pilot, lambda: load_settings(config).session_length == 3)

    drive(launch(), type_three_and_start, size=SIZE)
    assert config.read_text().startswith("# mine\nnew_cards_per_day = 5\n")  # the rest kept

    async def shows_it_and_length_wins_for_one_run(pilot: Pilot) -> None:
        app = pilot.app
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        assert app.screen.query_one("#length", Input).value == "2"  # --length 2, this run only
        await pilot.press("a")
        await wait_for(pilot, lambda: isinstance(app.screen, QuizScreen) and app.screen.is_mounted)
        assert len(app.screen.session.questions) == 2
        await app.workers.wait_for_complete()

    drive(launch(length=2), shows_it_and_length_wins_for_one_run, size=SIZE)
    assert load_settings(config).session_length == 3  # --length was not written

    async def relaunched_then_blanked(pilot: Pilot) -> None:
        app = pilot.app
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        box = app.screen.query_one("#length", Input)
        assert box.value == "3"
        box.value = ""  # all the questions again
        app.screen.query_one("#decks").focus()
        await pilot.press("a")
        await wait_for(pilot, lambda: isinstance(app.screen, QuizScreen) and app.screen.is_mounted)
        await wait_for(pilot, lambda: load_settings(config).session_length is None)

    drive(launch(), relaunched_then_blanked, size=SIZE)
    assert "session_length" not in config.read_text()
