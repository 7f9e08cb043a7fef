"""The review history through the app: answers stored as given, drills, undo, bury, counts.

Answers are written by the history's own thread; a test reads the file once `saved(app)`.
"""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import DataTable

from quizapp.bank import load_bank
from quizapp.srs.config import Settings
from quizapp.srs.store.sqlite.store import ReviewStore
from quizapp.tui.app import AppOptions, QuizApp
from quizapp.tui.screens.home import HomeScreen
from quizapp.tui.screens.quiz import QuizScreen
from tests.conftest import CORPUS
from tests.tui.test_sessions import answer_current, drive, start_deck, wait_for
from tests.tui.toasts import said


def make_app(db: Path, **options: object) -> QuizApp:
    bank = load_bank([CORPUS / "good"])
    return QuizApp(bank, AppOptions(db_path=db, device="cpu", shuffle=False, **options))  # type: ignore[arg-type]


def stored(db: Path) -> list[tuple[str, int, bool, str]]:
    with ReviewStore.open(db) as store:
        return [(r.question_id, r.rating, r.correct, r.kind) for r in store.reviews()]


async def saved(pilot: Pilot, app: QuizApp) -> None:
    """Wait until the writer has nothing pending."""
    await wait_for(pilot, lambda: app.history_writes.writer.status().pending == 0)


async def start_drill(pilot: Pilot, app: QuizApp) -> QuizScreen:
    """From the home screen, once the history is open: d, and wait for the drill."""
    await wait_for(
        pilot,
        lambda: (
            isinstance(app.screen, HomeScreen) and app.screen.is_mounted and app.history is not None
        ),
    )
    await pilot.press("d")
    await wait_for(pilot, lambda: isinstance(app.screen, QuizScreen) and app.screen.is_mounted)
    return app.screen  # type: ignore[return-value]


def test_each_answer_is_saved_as_it_is_given(tmp_path: Path) -> None:
    db = tmp_path / "history.sqlite3"
    app = make_app(db, settings=Settings(quiz_reschedules=True))

    async def scenario(pilot: Pilot) -> None:
        screen = await start_deck(pilot)
        await answer_current(pilot, screen, right=True)  # t-single, right
        await saved(pilot, app)
        # Read through a second connection while the app is still running: committed already.
        assert [(q, c, k) for q, _, c, k in stored(db)] == [("t-single", True, "quiz")]
        await pilot.press("enter")
        await answer_current(pilot, screen, right=False)  # t-multi, wrong → Again
        await saved(pilot, app)
        rows = stored(db)
        assert rows[-1][0] == "t-multi" and rows[-1][1] == 1 and rows[-1][2] is False

    drive(app, scenario)


def test_home_shows_due_and_new_counts_and_they_move_after_a_session(tmp_path: Path) -> None:
    db = tmp_path / "history.sqlite3"
    app = make_app(db, settings=Settings(quiz_reschedules=True))

    def row(app: QuizApp) -> list[str]:
        table = app.screen.query_one("#decks", DataTable)
        return [str(c) for c in table.get_row_at(0)]

    async def scenario(pilot: Pilot) -> None:
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, HomeScreen) and app.screen.is_mounted and row(app)[1] != ""
            ),
        )
        assert row(app)[:3] == ["0", "8", "8"]  # due, new, questions
        screen = await start_deck(pilot)
        await answer_current(pilot, screen, right=True)
        await pilot.press("escape")  # leave the session…
        await pilot.press("y")  # …confirming
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        await wait_for(pilot, lambda: row(app)[1] == "7")

    drive(app, scenario)


def test_a_drill_undo_and_bury(tmp_path: Path) -> None:
    db = tmp_path / "history.sqlite3"
    app = make_app(db)

    async def scenario(pilot: Pilot) -> None:
        screen = await start_drill(pilot, app)
        assert screen.session.kind == "drill"
        assert "8 new" in screen.session.title  # default limit 20 covers all 8
        first = screen.question.id
        await answer_current(pilot, screen, right=True)
        await saved(pilot, app)
        assert [r[0] for r in stored(db)] == [first]
        await pilot.press("u")  # undo: out of the history, and asked again
        await wait_for(pilot, lambda: screen.state == "asking")
        await saved(pilot, app)
        assert screen.question.id == first and stored(db) == []
        await pilot.press("b")  # bury it instead
        await wait_for(pilot, lambda: screen.question is not None and screen.question.id != first)
        await saved(pilot, app)
        with ReviewStore.open(db) as store:
            from quizapp.srs.memory.scheduling import utc_now

            assert first in store.hidden_ids(utc_now())

    drive(app, scenario)


def test_nothing_due_says_when_the_next_card_is(tmp_path: Path) -> None:
    db = tmp_path / "history.sqlite3"
    app = make_app(db, settings=Settings(new_cards_per_day=1))

    async def scenario(pilot: Pilot) -> None:
        screen = await start_drill(pilot, app)
        assert len(screen.session.questions) == 1  # the daily new-card limit
        await answer_current(pilot, screen, right=True)  # fast: Easy, out of learning at once
        await pilot.press("enter")  # to the summary
        await saved(pilot, app)
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        await pilot.press("d")
        await wait_for(
            pilot,
            lambda: any("Nothing is due right now. The next card is due" in m for m in said(app)),
        )

    drive(app, scenario)


def test_an_exam_started_by_the_app_is_recorded_in_the_history(tmp_path: Path) -> None:
    from quizapp.tui.screens.exam import ExamScreen
    from quizapp.tui.screens.exam_report import ExamReportScreen

    db = tmp_path / "history.sqlite3"
    app = make_app(db)

    async def scenario(pilot: Pilot) -> None:
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, HomeScreen)
                and app.screen.is_mounted
                and app.history is not None
            ),
        )
        app.start_exam(questions=3, seed=5)
        await wait_for(pilot, lambda: isinstance(app.screen, ExamScreen) and app.screen.is_mounted)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "Confirm")
        await pilot.press("y")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, ExamReportScreen) and app.screen.is_mounted,
            timeout=60,
        )
        await saved(pilot, app)
        with ReviewStore.open(db) as store:
            [exam] = store.exams()
        assert exam["questions"] == 3 and exam["correct"] == 0 and exam["passed"] is False
        assert exam["detail"]["seed"] == 5

    drive(app, scenario)


def test_a_suspended_card_can_be_brought_back(tmp_path: Path) -> None:
    from quizapp.srs.memory.scheduling import utc_now

    db = tmp_path / "history.sqlite3"
    app = make_app(db)

    async def scenario(pilot: Pilot) -> None:
        screen = await start_drill(pilot, app)
        first = screen.question.id
        await pilot.press("exclamation_mark")
        await wait_for(pilot, lambda: screen.question is not None and screen.question.id != first)
        await saved(pilot, app)
        assert app.history.suspended_ids() == [first]
        app.action_suspended()
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "SuspendedCards")
        await pilot.press("space", "enter")
        await wait_for(pilot, lambda: app.history.suspended_ids() == [])
        assert first not in app.history.hidden_ids(utc_now())

    drive(app, scenario)


def test_bury_is_not_an_answer_and_undo_takes_it_back(tmp_path: Path) -> None:
    from quizapp.srs.memory.scheduling import utc_now
    from quizapp.tui.widgets.session_progress import SessionProgress

    db = tmp_path / "history.sqlite3"
    app = make_app(db)

    async def scenario(pilot: Pilot) -> None:
        screen = await start_drill(pilot, app)
        await answer_current(pilot, screen, right=True)
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.state == "asking")
        buried = screen.question.id
        await pilot.press("b")
        await wait_for(pilot, lambda: screen.question is not None and screen.question.id != buried)
        score = str(screen.query_one(SessionProgress).query_one("#score").render())
        assert score == "Score 1/1"  # a bury is not a wrong answer
        await pilot.press("u")  # undoes the bury, not the answer before it
        await wait_for(pilot, lambda: screen.question is not None and screen.question.id == buried)
        await saved(pilot, app)
        assert buried not in app.history.hidden_ids(utc_now())
        assert len(stored(db)) == 1

    drive(app, scenario)
