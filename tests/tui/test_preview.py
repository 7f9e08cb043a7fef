"""`quizapp preview`: the app opens on exactly the questions asked for, unrecorded, and a
previewed file that is saved again shows its new version on ctrl+r."""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path

import pytest
from textual.pilot import Pilot

from quizapp.bank import bundled_bank_path, load_bank
from quizapp.bank.session import QuizSession, SessionOptions
from quizapp.cli.preview import add_preview_command, plan_preview
from quizapp.tui.app import QuizApp
from quizapp.tui.components.lab_service import LabService
from quizapp.tui.screens.help import HelpScreen
from quizapp.tui.screens.home import HomeScreen
from quizapp.tui.screens.preview import PreviewScreen
from quizapp.tui.screens.quiz import QuizScreen
from tests.conftest import CORPUS
from tests.tui.screen_text import screen_lines
from tests.tui.test_reload import HEADER, deck_text, save
from tests.tui.test_sessions import (
    answer_current,
    drive,
    help_as_drawn,
    ready_for_an_answer,
    text_of,
    wait_for,
)
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


def test_ctrl_r_puts_the_edits_into_the_session_and_stays_on_the_question(
    tmp_path: Path,
) -> None:
    deck = tmp_path / "alpha.yaml"
    deck.write_text(deck_text("alpha", ["a-1", "a-2"]))
    app = preview_app(str(deck))
    assert app.options.bank_paths == (deck,)  # a file alone: no bundled bank to load

    async def scenario(pilot: Pilot) -> None:
        screen = await quiz_screen(pilot)
        await pilot.press("space", "3")  # a-1 revealed and graded
        await wait_for(pilot, lambda: screen.state == "answered")
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.question is not None and screen.question.id == "a-2")
        # The instructor edits a-1, already answered, and a-2, and adds a-3; the preview on
        # screen is left alone…
        edited = deck_text("alpha", ["a-1", "a-2", "a-3"])
        save(deck, edited.replace("Back of a-2", "New back").replace("Front of a-1", "Edited"))
        await wait_for(pilot, lambda: "a-3" in app.bank.questions)
        assert screen.question.back == "Back of a-2"  # type: ignore[union-attr]
        # …until ctrl+r: the same session, still on a-2, with every question's new version.
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: screen.question.back == "New back")  # type: ignore[union-attr]
        assert app.screen is screen and [type(s) for s in app.screen_stack] == [
            HomeScreen,
            PreviewScreen,
        ]
        assert [q.id for q in screen.session.questions] == ["a-1", "a-2", "a-3"]
        # Going back to the earlier question shows its edit.
        await wait_for(pilot, lambda: ready_for_an_answer(screen))
        await pilot.press("u")
        await wait_for(pilot, lambda: "Edited" in drawn(app))
        assert screen.question.id == "a-1"  # type: ignore[union-attr]

    drive(app, scenario)


VARIED_CHOICE = """\
  - id: v-width
    type: single_choice
    prompt: "With d_model = {d_model} and {n_heads} heads, how wide is each head?"
    vary: {d_model: [256, 512, 1024], n_heads: [4, 8]}
    choices:
      - text: "d_model / n_heads"
        correct: true
      - text: "d_model"
      - text: "d_model * n_heads"
      - text: "n_heads"
    explanation: Split, not copied.
    difficulty: easy
    tags: [basics]
"""


def varied_deck(tmp_path: Path) -> Path:
    deck = tmp_path / "varied.yaml"
    deck.write_text(HEADER.format(deck="varied", title="Varied") + VARIED_CHOICE)
    return deck


def drawn(app: QuizApp) -> str:
    return "\n".join(screen_lines(app))


def note(screen: QuizScreen) -> str:
    return text_of(screen.query_one("#preview-note"))


def test_v_steps_through_the_variants_from_the_one_asked_for(tmp_path: Path) -> None:
    app = preview_app(str(varied_deck(tmp_path)), "--variant", "5")

    async def scenario(pilot: Pilot) -> None:
        screen = await quiz_screen(pilot)
        assert note(screen).startswith("variant 5 of 6: d_model=1024, n_heads=4")
        assert "d_model = 1024 and 4 heads" in drawn(app)
        assert "v" in screen.active_bindings
        await pilot.press("v", "v")  # the last, then round to the first
        await wait_for(pilot, lambda: note(screen).startswith("variant 1 of 6: d_model=256,"))
        await wait_for(pilot, lambda: "d_model = 256 and 4 heads" in drawn(app))
        await pilot.press("question_mark")  # ? says what the footer's short words mean
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        await wait_for(pilot, lambda: "Previewing" in drawn(app))
        assert "the next variant of a vary: question" in help_as_drawn(app)

    drive(app, scenario)


def test_o_shows_the_files_order_and_back(tmp_path: Path) -> None:
    app = preview_app(str(varied_deck(tmp_path)))

    async def scenario(pilot: Pilot) -> None:
        screen = await quiz_screen(pilot)
        student = screen.session.display_orders["v-width"]
        assert "options shuffled as for a student" in note(screen)
        await pilot.press("o")
        await wait_for(pilot, lambda: "options in file order" in note(screen))
        assert screen.session.display_orders["v-width"] == (0, 1, 2, 3)
        await pilot.press("o")
        await wait_for(pilot, lambda: "shuffled" in note(screen))
        assert screen.session.display_orders["v-width"] == student

    drive(app, scenario)


def test_the_preview_keys_are_only_offered_in_a_preview() -> None:
    bank = load_bank([CORPUS / "good"])
    session = QuizSession.start([bank.questions["t-multi"]], SessionOptions(seed=1))
    plain = QuizScreen(session, LabService("cpu"))
    assert "toggle_order" not in {b.action for b in plain._bindings.key_to_bindings.get("o", [])}
    preview = PreviewScreen(session, LabService("cpu"), [bank.questions["t-multi"]])
    assert preview.check_action("toggle_order", ()) is True
    assert preview.check_action("next_variant", ()) is False  # t-multi does not vary


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["7"], "--variant 7: must be 1 to 6 (question 'v-width' has 6 variants)"),
        (["0"], "argument --variant: must be a whole number from 1 to 1000, not 0"),
        (["two"], "argument --variant: must be a whole number from 1 to 1000, not 'two'"),
    ],
)
def test_a_variant_out_of_range_is_a_usage_error(tmp_path: Path, argv, fragment, capsys) -> None:
    deck = varied_deck(tmp_path)
    if argv != ["7"]:  # refused by the flag's own range, before the bank is read
        with pytest.raises(SystemExit) as exit_:
            parse(str(deck), "--variant", *argv)
        assert exit_.value.code == 2
    else:
        assert plan_preview(parse(str(deck), "--variant", *argv)) == 2
    assert fragment in capsys.readouterr().err


def test_a_variant_for_questions_that_do_not_vary_is_a_usage_error(capsys) -> None:
    good = ("--no-default-bank", "--bank", str(CORPUS / "good"))
    assert plan_preview(parse(*good, "t-tf", "--variant", "1")) == 2
    assert "none of the previewed questions has a vary: block" in capsys.readouterr().err


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
