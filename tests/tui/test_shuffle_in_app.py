"""In the app: the Shuffle switch orders the questions only, each card's options are shuffled
by the session's seed and its id (the same when it is shown again after an undo), and only
the authoring aid --no-shuffle shows them as the file writes them."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Switch

from quizapp.bank import ChoiceQuestion, load_bank
from quizapp.bank.display_order import display_order, session_seed_text
from quizapp.tui.app import AppOptions, QuizApp
from quizapp.tui.screens.quiz import QuizScreen
from quizapp.tui.widgets.choice_list import ChoiceList
from tests.conftest import CORPUS
from tests.tui.test_sessions import (
    advance_to,
    answer_current,
    drive,
    ready_for_an_answer,
    start_deck,
    wait_for,
)

BANK = load_bank([CORPUS / "good"])
MULTI = BANK.questions["t-multi"]
assert isinstance(MULTI, ChoiceQuestion)
WRITTEN = [c.text for c in MULTI.choices]
# A seed under which t-multi's options are not shown as written, so the test can tell.
SEED = next(
    s for s in range(100) if display_order(MULTI, session_seed_text(s, MULTI.id)) != (0, 1, 2)
)


def shown_options(screen: QuizScreen) -> list[str]:
    return list(screen.query_one(ChoiceList).labels)


def test_with_the_shuffle_switch_off_the_options_are_still_shuffled(tmp_path: Path) -> None:
    app = QuizApp(
        BANK,
        AppOptions(db_path=tmp_path / "h.sqlite3", device="cpu", warm_up=False, seed=SEED),
    )
    expected = [WRITTEN[i] for i in display_order(MULTI, session_seed_text(SEED, MULTI.id))]

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: pilot.app.screen.is_mounted)
        assert pilot.app.screen.query_one("#shuffle", Switch).value  # on by default
        await pilot.press("s")  # the switch off: the deck's order
        assert not pilot.app.screen.query_one("#shuffle", Switch).value
        screen = await start_deck(pilot)
        deck = next(d for d in BANK.decks if d.id == MULTI.deck_id)
        assert [q.id for q in screen.session.questions] == [q.id for q in deck.questions]
        await advance_to(pilot, screen, MULTI.id)
        await wait_for(pilot, lambda: ready_for_an_answer(screen))
        assert shown_options(screen) == expected != WRITTEN
        await answer_current(pilot, screen, right=True)
        await pilot.press("u")  # undo: the card is asked again, as it was shown
        await wait_for(pilot, lambda: ready_for_an_answer(screen) and screen.question is MULTI)
        assert shown_options(screen) == expected

    drive(app, scenario)


def test_the_authoring_aid_shows_the_options_as_written() -> None:
    app = QuizApp(BANK, AppOptions(device="cpu", warm_up=False, shuffle=False, seed=SEED))

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: pilot.app.screen.is_mounted)
        assert not pilot.app.screen.query_one("#shuffle", Switch).value
        screen = await start_deck(pilot)
        await advance_to(pilot, screen, MULTI.id)
        await wait_for(pilot, lambda: ready_for_an_answer(screen))
        assert shown_options(screen) == WRITTEN

    drive(app, scenario)
