"""What the student answered, through the app: shuffled options and steps stored in the bank's
order, "Your traps" on the Stats screen, and the trap drill (`drill --traps`, the palette)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Static

from quizapp.bank import load_bank
from quizapp.bank.answers import ChoiceAnswer, TrueFalseAnswer
from quizapp.bank.model import (
    ChoiceQuestion,
    Flashcard,
    NumericQuestion,
    OrderingQuestion,
    TrueFalseQuestion,
)
from quizapp.bank.session import QuizSession, SessionOptions
from quizapp.srs.memory.scheduling import utc_now
from quizapp.srs.store.sqlite.store import ReviewStore
from quizapp.tui.app import AppOptions, QuizApp
from quizapp.tui.components.trap_drill import NO_TRAPS_YET
from quizapp.tui.screens.home import HomeScreen
from quizapp.tui.screens.quiz import QuizScreen
from quizapp.tui.screens.stats import StatsScreen
from tests.conftest import CORPUS
from tests.srs.readiness_helpers import answer_given
from tests.tui.test_history_in_app import saved
from tests.tui.test_sessions import answer_current, drive, start_deck, wait_for
from tests.tui.toasts import said

BANK = load_bank([CORPUS / "good"])


def shuffling_seed() -> int:
    """A seed under which the quiz shows t-multi's options and t-order's steps out of order."""
    questions = list(BANK.questions.values())
    for seed in range(100):
        orders = QuizSession.start(questions, SessionOptions(seed=seed)).display_orders
        if all(orders[q] != tuple(sorted(orders[q])) for q in ("t-multi", "t-order")):
            return seed
    raise AssertionError("no seed shuffles both")


def responses(db: Path) -> dict[str, dict]:
    with ReviewStore.open(db) as store:
        return {r.question_id: r.response for r in store.responses()}


def test_shuffled_answers_are_stored_in_the_banks_order(tmp_path: Path) -> None:
    db = tmp_path / "history.sqlite3"
    seed = shuffling_seed()
    app = QuizApp(BANK, AppOptions(db_path=db, device="cpu", shuffle=True, seed=seed))
    expected: dict[str, dict] = {}

    async def scenario(pilot: Pilot) -> None:
        screen = await start_deck(pilot)
        for _ in range(len(screen.session.questions)):
            question = screen.question
            shown = screen.session.display_orders[question.id]
            if isinstance(question, ChoiceQuestion):
                await pilot.press("1", "enter")  # the option shown first
                expected[question.id] = {"chosen": [shown[0]]}
            elif isinstance(question, TrueFalseQuestion):
                await pilot.press("1", "enter")  # True
                expected[question.id] = {"chosen": True}
            elif isinstance(question, OrderingQuestion):
                await pilot.press("enter")  # the steps as shown
                expected[question.id] = {"order": list(shown)}
            elif isinstance(question, NumericQuestion):
                await answer_current(pilot, screen, right=False)  # types 7
                expected[question.id] = {"value": 7.0, "text": "7", "trap": None}
            else:
                assert isinstance(question, Flashcard)
                await answer_current(pilot, screen, right=False)  # Again
                expected[question.id] = {"grade": 1}
            await wait_for(pilot, lambda: screen.state == "answered")
            await pilot.press("enter")
        await saved(pilot, app)

    drive(app, scenario)
    assert responses(db) == expected
    assert len(expected) == len(BANK.questions)


def history_with_a_trap(db: Path) -> None:
    """t-single answered with its wrong option yesterday."""
    with ReviewStore.open(db) as store:
        answer_given(
            store,
            BANK.questions["t-single"],
            ChoiceAnswer(frozenset({1})),
            utc_now() - timedelta(days=1),
        )


def test_the_stats_screen_lists_the_traps_at_80_columns(tmp_path: Path) -> None:
    db = tmp_path / "history.sqlite3"
    history_with_a_trap(db)
    with ReviewStore.open(db) as store:  # the tf trap too
        answer_given(store, BANK.questions["t-tf"], TrueFalseAnswer(True), utc_now(), "quiz")
    app = QuizApp(BANK, AppOptions(db_path=db, device="cpu", warm_up=False))

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: app.history is not None)
        await pilot.press("S")  # the home screen's key for the statistics
        await wait_for(pilot, lambda: isinstance(app.screen, StatsScreen) and app.screen.is_mounted)
        table = app.screen.query_one("#stats-traps", Static)
        await pilot.pause()
        lines = [line.text.rstrip() for line in table.render_lines(table.region.reset_offset)]
        text = "\n".join(lines)
        assert "Wrong" in text and "The trap." in text and "True" in text
        assert table.region.right <= 80
        assert not app.screen.query("#no-traps")

    drive(app, scenario, size=(80, 24))


def test_the_trap_drill_asks_the_questions_fallen_for(tmp_path: Path) -> None:
    db = tmp_path / "history.sqlite3"
    history_with_a_trap(db)
    app = QuizApp(BANK, AppOptions(db_path=db, device="cpu", warm_up=False, start="traps"))

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, QuizScreen) and app.screen.is_mounted)
        screen = app.screen
        await wait_for(
            pilot, lambda: screen.query("#answer") and screen.query_one("#answer").has_focus
        )
        assert [q.id for q in screen.session.questions] == ["t-single"]
        assert screen.session.title == "Trap drill: 1 question"
        await answer_current(pilot, screen, right=True)
        await saved(pilot, app)
        assert responses(db)["t-single"] == {"chosen": [0]}
        commands = [c.title for c in app.get_system_commands(app.screen)]
        assert "Drill my traps" in commands

    drive(app, scenario)


def test_the_trap_drill_says_when_there_are_no_traps_yet(tmp_path: Path) -> None:
    db = tmp_path / "history.sqlite3"
    app = QuizApp(BANK, AppOptions(db_path=db, device="cpu", warm_up=False, start="traps"))

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: app.history is not None)
        await wait_for(pilot, lambda: NO_TRAPS_YET in said(app))
        assert isinstance(app.screen, HomeScreen)

    drive(app, scenario)
