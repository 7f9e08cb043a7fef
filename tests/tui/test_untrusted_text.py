"""Bank text is data: a hostile bank's markup shows as text on every screen and never acts.

The bank (tests/tui/hostile_bank.py) puts `[@click=app.quit]…`, a click that would write a
screenshot into a folder, `[bold red]` and `[link=…]` into every text field of every question
type and of the deck, and a file name. Each test walks screens through Pilot and reads what is
actually drawn (the screen's rendered lines, toasts included): the literal `[@click` text is
there where each field is shown, no drawn cell carries a click action other than a Markdown
link's, and clicking on the hostile text does nothing: the app runs on and no file appears.
"""

from __future__ import annotations

import argparse
import ast
import shutil
import tempfile
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from textual.command import CommandPalette
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Markdown

from quizapp.bank import load_bank
from quizapp.bank.answers import ChoiceAnswer, NumericAnswerText
from quizapp.cli.preview import add_preview_command, plan_preview
from quizapp.srs.memory.scheduling import utc_now
from quizapp.srs.store.sqlite.store import ReviewStore
from quizapp.tui.app import AppOptions, QuizApp
from quizapp.tui.screens.confirm import Confirm
from quizapp.tui.screens.exam import ExamScreen
from quizapp.tui.screens.exam_report import ExamReportScreen, ExamReviewScreen
from quizapp.tui.screens.home import HomeScreen
from quizapp.tui.screens.quiz import QuizScreen
from quizapp.tui.screens.review import ReviewScreen
from quizapp.tui.screens.stats import StatsScreen
from quizapp.tui.screens.summary import SummaryScreen
from quizapp.tui.screens.suspended import SuspendedCards
from quizapp.tui.screens.tag_picker import TagPicker
from quizapp.tui.widgets.bank_markdown import BankMarkdown
from quizapp.tui.widgets.lab_panel import LabPanel
from tests.conftest import REPO
from tests.srs.readiness_helpers import answer_given
from tests.tui.hostile_bank import BROKEN_FILE, DECK_FILE, QUIT, visible, write_hostile_bank
from tests.tui.screen_text import click_actions, drive_with_toasts, find, screen_lines
from tests.tui.test_sessions import wait_for
from tests.tui.toasts import said

# Wide and tall, so a whole question page with its feedback is on screen at once.
SIZE = (200, 70)


@dataclass(frozen=True)
class Hostile:
    folder: Path  # the bank
    drop: Path  # where the screenshot action would write, if it ever ran


@pytest.fixture
def hostile() -> Iterator[Hostile]:
    # A short folder name: it is part of every field's text, and the fields should fit.
    root = Path(tempfile.mkdtemp(prefix="qz-"))
    drop = root / "d"
    drop.mkdir()
    write_hostile_bank(root / "bank", drop)
    yield Hostile(root / "bank", drop)
    shutil.rmtree(root, ignore_errors=True)


def make_app(hostile: Hostile, **options: object) -> QuizApp:
    bank = load_bank([hostile.folder])
    # No torch unless a test asks for the lab (warm_up=True).
    defaults: dict[str, object] = {
        "device": "cpu",
        "shuffle": False,
        "watch": False,
        "warm_up": False,
    }
    return QuizApp(bank, AppOptions(**(defaults | options)))  # type: ignore[arg-type]


def drive(app: QuizApp, scenario: Callable[[Pilot], Awaitable[None]]) -> None:
    drive_with_toasts(app, scenario, SIZE)  # toasts show bank text too


# -- reading the screen ----------------------------------------------------------------------


async def shows(pilot: Pilot, *fields: str) -> None:
    """Each field's literal `[@click=app.quit]<field>` is drawn; nothing drawn can act."""
    await pilot.pause()
    for field in fields:
        await wait_for(pilot, lambda f=field: find(pilot.app, visible(f)) is not None, 10)
    # Markdown links are the only click actions bank text may carry, and those ask first.
    assert {a for a in click_actions(pilot.app) if not a.startswith("link(")} == set()
    assert all(isinstance(m, BankMarkdown) for m in pilot.app.screen.query(Markdown))


def assert_harmless(app: QuizApp, hostile: Hostile) -> None:
    assert app.is_running and app.return_code is None, "a click in bank text quit the app"
    assert not isinstance(app.screen, Confirm), "a click in bank text asked to quit"
    assert list(hostile.drop.iterdir()) == [], "a click in bank text wrote a file"


async def click_fields(pilot: Pilot, hostile: Hostile, *fields: str) -> None:
    """Click on each field's name, where its quit action would be if it were markup."""
    for field in fields:
        where = find(pilot.app, visible(field))
        assert where is not None, f"{field} is not on screen"
        x, y = where
        screen = pilot.app.screen
        await pilot.click(offset=(x + len(QUIT), y))
        await pilot.pause()
        assert_harmless(pilot.app, hostile)
        if pilot.app.screen is not screen:  # a click that opens something (a deck's row)
            await pilot.press("escape")
            await wait_for(pilot, lambda s=screen: pilot.app.screen is s)


# -- the walks -------------------------------------------------------------------------------


def test_home_palette_tags_and_problems_show_bank_text_as_text(hostile: Hostile) -> None:
    app = make_app(hostile)

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        await shows(pilot, "deck-title")
        # The problems panel names the broken file, whose name is markup too.
        assert find(app, f"{QUIT}broken.yaml") is not None
        await click_fields(pilot, hostile, "deck-title")
        table = app.screen.query_one("#decks", DataTable)
        # The Domain column is the last: scroll the table across to where it starts.
        before = list(table.columns.values())[:-1]
        table.scroll_to(x=sum(c.get_render_width(table) for c in before), animate=False)
        await shows(pilot, "deck-domain")
        await click_fields(pilot, hostile, "deck-domain")

        await pilot.press("ctrl+p")
        await wait_for(
            pilot, lambda: isinstance(app.screen, CommandPalette) and app.screen.is_mounted
        )
        await pilot.press(*"deck-title")
        await wait_for(pilot, lambda: find(app, f"Deck: {QUIT}deck-title") is not None)
        assert find(app, f"Start a session on {QUIT}deck-title") is not None
        await shows(pilot)
        x, y = find(app, visible("deck-title")) or (0, 0)
        await pilot.click(offset=(x + len(QUIT), y))  # runs the hit: the deck's session
        await wait_for(pilot, lambda: isinstance(app.screen, QuizScreen) and app.screen.is_mounted)
        assert_harmless(app, hostile)
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)

        await pilot.press("t")
        await wait_for(pilot, lambda: isinstance(app.screen, TagPicker) and app.screen.is_mounted)
        await wait_for(pilot, lambda: find(app, "hostile (7)") is not None)
        await shows(pilot)
        await pilot.press("escape")
        assert_harmless(app, hostile)

    drive(app, scenario)


async def _wait_for_lab(pilot: Pilot, screen) -> LabPanel:
    panel = screen.query_one("#lab", LabPanel)
    await wait_for(pilot, lambda: panel.compute is not None and not panel.running, 60)
    await pilot.pause()
    return panel


def test_a_session_of_every_type_its_lab_summary_and_review(hostile: Hostile) -> None:
    app = make_app(hostile, warm_up=True)

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, QuizScreen) and app.screen.is_mounted)
        quiz: QuizScreen = app.screen  # type: ignore[assignment]

        async def answered(*keys: str) -> None:
            await pilot.press(*keys)
            await wait_for(pilot, lambda: quiz.state == "answered", 60)
            await pilot.pause()

        async def next_question(qid: str | None) -> None:
            if isinstance(app.focused, Input):  # a click put the keys in the lab's form
                await pilot.press("escape")
            await pilot.press("enter")
            if qid is None:
                return
            await wait_for(pilot, lambda: quiz.question is not None and quiz.question.id == qid)
            await pilot.pause()

        # The session's title (the deck's) in the header.
        assert find(app, f"{QUIT}deck-title") is not None
        await shows(pilot, "prompt-h-single", "choice-single-1", "choice-single-2")
        await click_fields(pilot, hostile, "prompt-h-single", "choice-single-2")
        await answered("2", "enter")  # the click picked 2; the wrong one
        fields = ("why-single-1", "why-single-2", "explanation-h-single")
        await shows(pilot, *fields)
        await click_fields(pilot, hostile, *fields)

        await next_question("h-multi")
        await shows(pilot, "prompt-h-multi", "choice-multi-1", "choice-multi-2")
        await answered("2", "enter")
        await shows(pilot, "why-multi-1", "why-multi-2", "explanation-h-multi")
        await click_fields(pilot, hostile, "why-multi-2", "explanation-h-multi")

        await next_question("h-tf")
        await shows(pilot, "prompt-h-tf")
        await answered("1", "enter")  # true: the trap
        await shows(pilot, "why-true", "why-false", "explanation-h-tf")
        await click_fields(pilot, hostile, "why-true", "why-false")

        await next_question("h-numeric")
        await shows(pilot, "prompt-h-numeric", "unit")  # the unit: in the box's placeholder
        await click_fields(pilot, hostile, "unit")
        await answered(*"7", "enter")  # the trap
        await shows(pilot, "trap-why", "explanation-h-numeric", "unit")
        await click_fields(pilot, hostile, "trap-why")

        await next_question("h-derived")
        panel = await _wait_for_lab(pilot, quiz)  # the computation fails (torch loads first)
        await answered(*"1", "enter")  # not scored: the key could not be computed
        # The failure quotes the computation's argument back, in the key hint and the lab.
        await shows(pilot, "argword", "prompt-h-derived")
        assert "[@click=app.quit]argword" in str(quiz.query_one("#key-hint").render())
        # The computation refused the bank's own argument: said beside the form, naming it.
        assert "swapped" in str(panel.query_one("#lab-arg-error").render())
        await click_fields(pilot, hostile, "argword")

        await next_question("h-order")
        await shows(pilot, "prompt-h-order", "step-1", "step-2")
        await answered("enter")  # as first shown, which is never the right order
        await shows(pilot, "step-why-1", "explanation-h-order")
        await click_fields(pilot, hostile, "step-1", "step-why-1")

        await next_question("h-card")
        await shows(pilot, "prompt-h-card")
        await pilot.press("space")
        await shows(pilot, "back")
        await answered("1")  # Again
        await _wait_for_lab(pilot, quiz)
        # The computation's summary quotes its (lowercased) sentence.
        await shows(pilot, "back", "explanation-h-card", "argword")
        await click_fields(pilot, hostile, "back", "argword")

        await next_question(None)
        await wait_for(
            pilot, lambda: isinstance(app.screen, SummaryScreen) and app.screen.is_mounted
        )
        missed = ("prompt-h-single", "prompt-h-multi", "prompt-h-tf", "prompt-h-numeric")
        await shows(pilot, *missed, "prompt-h-order", "prompt-h-card")
        summary = app.screen
        await click_fields(pilot, hostile, "prompt-h-tf")  # opens its review
        await pilot.press("enter")
        await wait_for(
            pilot, lambda: isinstance(app.screen, ReviewScreen) and app.screen.is_mounted
        )
        await shows(pilot, "prompt-h-tf", "why-true", "why-false", "explanation-h-tf")
        await click_fields(pilot, hostile, "prompt-h-tf", "explanation-h-tf")
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is summary)
        assert_harmless(app, hostile)

    drive(app, scenario)


def test_an_exam_its_report_and_a_missed_question(hostile: Hostile) -> None:
    app = make_app(hostile, warm_up=True)  # a derived key to compute

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        app.start_exam(questions=6, seed=3)
        await wait_for(pilot, lambda: isinstance(app.screen, ExamScreen) and app.screen.is_mounted)
        exam: ExamScreen = app.screen  # type: ignore[assignment]
        for index, question in enumerate(exam.exam.questions):
            await wait_for(pilot, lambda q=question: exam._showing == q.id)
            await shows(pilot, f"prompt-{question.id}")
            await click_fields(pilot, hostile, f"prompt-{question.id}")
            if index < len(exam.exam.questions) - 1:
                await pilot.press("n")  # on (a number box leaves n to the exam)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, Confirm) and app.screen.is_mounted)
        await pilot.press("y")
        await wait_for(
            pilot, lambda: isinstance(app.screen, ExamReportScreen) and app.screen.is_mounted, 60
        )
        await shows(pilot, "prompt-h-single", "prompt-h-tf", "prompt-h-order")
        assert find(app, "hostile-topic") is not None
        await click_fields(pilot, hostile, "prompt-h-single")
        await pilot.press("enter")
        await wait_for(
            pilot, lambda: isinstance(app.screen, ExamReviewScreen) and app.screen.is_mounted
        )
        await shows(pilot, "prompt-h-single", "why-single-1", "explanation-h-single")
        await click_fields(pilot, hostile, "why-single-1")
        assert_harmless(app, hostile)

    drive(app, scenario)


def test_notifications_suspended_cards_and_stats(hostile: Hostile, tmp_path: Path) -> None:
    app = make_app(
        hostile,
        db_path=tmp_path / "history.db",
        bank_paths=(hostile.folder,),
        watch=True,
        watch_interval=0.1,
    )

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        await wait_for(pilot, lambda: app.history is not None)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, QuizScreen) and app.screen.is_mounted)
        await pilot.press("exclamation_mark")  # suspend h-single: a toast quotes its prompt
        await wait_for(pilot, lambda: find(app, "Suspended (ctrl+p brings it back)") is not None)
        await shows(pilot, "prompt-h-single")  # as text, in the toast
        await click_fields(pilot, hostile, "prompt-h-single")
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)

        # A save of the deck file: the reload toast names the deck by its title.
        deck = hostile.folder / DECK_FILE
        deck.write_text(deck.read_text() + "\n# saved again\n")
        await wait_for(pilot, lambda: find(app, f"Reloaded deck {QUIT}deck-title") is not None)
        await shows(pilot, "deck-title")
        await click_fields(pilot, hostile, "deck-title")

        app.action_suspended()
        await wait_for(
            pilot, lambda: isinstance(app.screen, SuspendedCards) and app.screen.is_mounted
        )
        await shows(pilot, "prompt-h-single")
        await click_fields(pilot, hostile, "prompt-h-single")
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)

        # A wrong option and the numeric trap picked: "Your traps" quotes them and their why.
        with ReviewStore.open(tmp_path / "history.db") as store:
            questions = app.bank.questions
            answer_given(store, questions["h-single"], ChoiceAnswer(frozenset({1})), utc_now())
            answer_given(store, questions["h-numeric"], NumericAnswerText("7"), utc_now())
        await pilot.press("S")
        await wait_for(pilot, lambda: isinstance(app.screen, StatsScreen) and app.screen.is_mounted)
        await wait_for(pilot, lambda: find(app, "hostile-topic") is not None)
        await shows(pilot)
        app.screen.query_one("#stats-traps").scroll_visible(animate=False, top=True)
        await shows(pilot, "choice-single-2", "why-single-2", "trap-why")
        await click_fields(pilot, hostile, "why-single-2", "trap-why")
        assert_harmless(app, hostile)

    drive(app, scenario)


def test_preview_of_the_hostile_folder_and_its_broken_file(hostile: Hostile) -> None:
    parser = argparse.ArgumentParser(prog="quizapp")
    add_preview_command(parser.add_subparsers(dest="command"))
    planned = plan_preview(parser.parse_args(["preview", str(hostile.folder)]))
    assert not isinstance(planned, int)
    bank, options = planned
    app = QuizApp(bank, replace(options, device="cpu", warm_up=False, watch=False))

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, QuizScreen) and app.screen.is_mounted)
        # The bank-problems toast names the broken file, as written.
        await wait_for(pilot, lambda: find(app, f"{QUIT}broken.yaml") is not None)
        assert (hostile.folder / BROKEN_FILE).name in "\n".join(screen_lines(app))
        await shows(pilot, "prompt-h-single", "choice-single-1")
        await click_fields(pilot, hostile, "prompt-h-single", "choice-single-1")
        await pilot.press("ctrl+r")  # restart the preview
        await wait_for(pilot, lambda: isinstance(app.screen, QuizScreen) and app.screen.is_mounted)
        await shows(pilot, "prompt-h-single")
        assert_harmless(app, hostile)

    drive(app, scenario)


# A file name may hold anything but `/` and NUL: from a downloaded folder, ESC ]0;… BEL would
# retitle the terminal and U+202E reverse what follows, if a toast sent it out as it is.
HOSTILE_NAME = "n\x1b]0;pwned\x07\u202e"
SHOWN_NAME = "n\\x1b]0;pwned\\x07\\u202e"


def no_control_characters_drawn(app: QuizApp) -> None:
    drawn = "\n".join(screen_lines(app))
    assert not any((c < " " and c not in "\t\n") or c in "\x7f\u202e" for c in drawn), drawn


def test_a_file_name_with_control_characters_is_shown_escaped(tmp_path: Path) -> None:
    import os

    bank = tmp_path / "bank"
    bank.mkdir()
    broken = bank / f"{HOSTILE_NAME}.yaml"
    broken.write_text("format: 1\ndeck: [\n", encoding="utf-8")
    history = tmp_path / f"{HOSTILE_NAME}.db"
    os.mkfifo(history)  # cannot be a history: the app says so, naming it
    app = QuizApp(
        load_bank([bank]),
        AppOptions(
            device="cpu",
            warm_up=False,
            db_path=history,
            bank_paths=(bank,),
            watch=True,
            watch_interval=0.1,
        ),
    )

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        await wait_for(pilot, lambda: any("Answers will not be saved" in m for m in said(app)))
        await wait_for(pilot, lambda: find(app, SHOWN_NAME) is not None)
        no_control_characters_drawn(app)
        shutil.copy(REPO / "tests" / "authoring" / "data" / "every_type.yaml", broken)
        await wait_for(pilot, lambda: any(m.startswith("Problems fixed") for m in said(app)))
        [fixed] = [m for m in said(app) if m.startswith("Problems fixed")]
        assert fixed == f"Problems fixed: {bank}/{SHOWN_NAME}.yaml"
        await wait_for(pilot, lambda: find(app, f"{SHOWN_NAME}.yaml") is not None)
        no_control_characters_drawn(app)

    drive_with_toasts(app, scenario, SIZE)


# -- the rule behind it ----------------------------------------------------------------------


def _notify_calls_without_markup_false() -> list[str]:
    found = []
    for path in sorted((REPO / "quizapp" / "tui").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "notify"
            ):
                continue
            message = node.args[0] if node.args else None
            fixed = isinstance(message, ast.Constant) and isinstance(message.value, str)
            plain = any(
                k.arg == "markup" and isinstance(k.value, ast.Constant) and k.value.value is False
                for k in node.keywords
            )
            # QuizApp.notify passes its caller's own choice on (markup=markup).
            passed_on = any(
                k.arg == "markup" and isinstance(k.value, ast.Name) and k.value.id == "markup"
                for k in node.keywords
            )
            if not (fixed or plain or passed_on):
                found.append(f"{path.relative_to(REPO)}:{node.lineno}")
    return found


def test_every_notification_built_from_values_is_plain_text() -> None:
    """A toast's message is markup unless markup=False; only fixed strings may skip it."""
    assert _notify_calls_without_markup_false() == []


def test_no_bank_markdown_is_shown_with_the_plain_markdown_widget() -> None:
    """Markdown that opens links on one click: only BankMarkdown subclasses it."""
    offenders = []
    for path in sorted((REPO / "quizapp" / "tui").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Markdown":
                offenders.append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert offenders == []
