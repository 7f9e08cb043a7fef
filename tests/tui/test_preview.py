"""`quizapp preview`: the app opens on exactly the questions asked for, unrecorded, and a
previewed file that is saved again shows its new version on ctrl+r."""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path

import pytest
from textual.pilot import Pilot

from quizapp.bank import bundled_bank_path, load_bank
from quizapp.cli.preview import add_preview_command, plan_preview
from quizapp.tui.app import QuizApp
from quizapp.tui.screens.home import HomeScreen
from quizapp.tui.screens.quiz import QuizScreen
from tests.conftest import CORPUS
from tests.tui.test_reload import deck_text, save
from tests.tui.test_sessions import answer_current, drive, wait_for
from tests.tui.toasts import said


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="quizapp")
    add_preview_command(parser.add_subparsers(dest="command"))
    return parser.parse_args(["preview", *argv])


def preview_app(*argv: str) -> QuizApp:
    planned = plan_preview(parse(*argv))
    assert not isinstance(planned, int)
    bank, options = planned
    return QuizApp(bank, replace(options, device="cpu", warm_up=False, watch_interval=0.1))


async def quiz_screen(pilot: Pilot) -> QuizScreen:
    await wait_for(
        pilot, lambda: isinstance(pilot.app.screen, QuizScreen) and pilot.app.screen.is_mounted
    )
    await pilot.pause()
    return pilot.app.screen  # type: ignore[return-value]


def test_preview_by_id_opens_on_exactly_those_questions_in_order() -> None:
    app = preview_app("--no-default-bank", "--bank", str(CORPUS / "good"), "t-tf", "t-single")

    async def scenario(pilot: Pilot) -> None:
        screen = await quiz_screen(pilot)
        assert [q.id for q in screen.session.questions] == ["t-tf", "t-single"]
        assert screen.session.title == "Preview"
        assert screen.sub_title == "Preview"
        assert screen.session.display_orders["t-single"] == (0, 1)  # as written: no shuffle
        await answer_current(pilot, screen, right=False)
        assert app.history is None  # nothing is recorded

    drive(app, scenario)


def test_preview_by_id_looks_across_the_bundled_bank() -> None:
    bundled = load_bank([bundled_bank_path()])
    wanted = [q.id for q in bundled.decks[-1].questions[:2]]
    app = preview_app(*reversed(wanted))

    async def scenario(pilot: Pilot) -> None:
        screen = await quiz_screen(pilot)
        assert [q.id for q in screen.session.questions] == list(reversed(wanted))

    drive(app, scenario)


def test_preview_by_file_then_an_edit_and_ctrl_r(tmp_path: Path) -> None:
    deck = tmp_path / "alpha.yaml"
    deck.write_text(deck_text("alpha", ["a-1", "a-2"]))
    app = preview_app(str(deck))
    assert app.options.bank_paths == (deck,)  # a file alone: no bundled bank to load

    async def scenario(pilot: Pilot) -> None:
        screen = await quiz_screen(pilot)
        assert [q.id for q in screen.session.questions] == ["a-1", "a-2"]
        await pilot.press("space", "3")  # a-1 revealed and graded
        await wait_for(pilot, lambda: screen.state == "answered")
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.question is not None and screen.question.id == "a-2")
        # The instructor edits a-2 and adds a-3; the preview on screen is left alone…
        save(deck, deck_text("alpha", ["a-1", "a-2", "a-3"]).replace("Back of a-2", "New back"))
        await wait_for(pilot, lambda: "a-3" in app.bank.questions)
        assert app.screen is screen
        # …until ctrl+r opens it again on the new version, at the question on screen.
        await pilot.press("ctrl+r")
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, QuizScreen)
                and app.screen.is_mounted
                and app.screen is not screen
            ),
        )
        again: QuizScreen = app.screen  # type: ignore[assignment]
        assert [q.id for q in again.session.questions] == ["a-2", "a-3"]
        assert again.question.back == "New back"  # type: ignore[union-attr]
        assert [type(s) for s in app.screen_stack] == [HomeScreen, QuizScreen]

    drive(app, scenario)


def test_a_file_with_some_problems_previews_the_rest_and_shows_them(tmp_path: Path) -> None:
    deck = tmp_path / "alpha.yaml"
    text = deck_text("alpha", ["a-1", "a-2"]).replace("    back: Back of a-2\n", "")
    deck.write_text(text)
    app = preview_app(str(deck))

    async def scenario(pilot: Pilot) -> None:
        screen = await quiz_screen(pilot)
        assert [q.id for q in screen.session.questions] == ["a-1"]
        await wait_for(pilot, lambda: f"/{deck.name}:" in "\n".join(said(app)))
        shown = "\n".join(said(app))
        assert f"/{deck.name}:" in shown  # the toast may cut the path's start, not the file

    drive(app, scenario)


def test_ctrl_r_is_only_there_in_a_preview() -> None:
    app = QuizApp(load_bank([CORPUS / "good"]))
    assert app.check_action("restart_preview", ()) is False
    assert app.check_action("help", ()) is True


@pytest.mark.parametrize(
    ("argv", "code", "fragment"),
    [
        (["t-singel"], 2, "no question with id 't-singel' in the bank (did you mean t-single"),
        (["nothing-like-it"], 2, "no question with id 'nothing-like-it' in the bank\n"),
    ],
)
def test_unknown_ids_exit_2_naming_close_ones(argv, code, fragment, capsys) -> None:
    result = plan_preview(parse("--no-default-bank", "--bank", str(CORPUS / "good"), *argv))
    assert result == code
    assert fragment in capsys.readouterr().err


def test_a_preview_shuffles_the_options_unless_no_shuffle_asks_for_the_files_order() -> None:
    """The questions keep the order given either way."""
    good = ("--no-default-bank", "--bank", str(CORPUS / "good"))
    assert preview_app(*good, "t-multi").options.shuffle
    assert not preview_app(*good, "--no-shuffle", "t-multi").options.shuffle
