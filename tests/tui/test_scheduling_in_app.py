"""Scheduling a student can see and steer, through the app at 80×24 and 120×40.

The rating and the next due date on the feedback, 1–4 to change it; quizzes as practice and
the switch that makes them reschedule; a drill's learning steps; bury and suspend honoured
everywhere, with toasts that quote the question; home counts that follow the clock and a
second instance; the stats screen's two due figures.

A fake clock stands in for minutes passing: the app reads `utc_now`, and the tests move it.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable

from quizapp.srs.config import Settings
from quizapp.srs.memory.scheduling import Rating, State, make_scheduler
from quizapp.srs.memory.scheduling import utc_now as real_now
from quizapp.srs.store.sqlite.store import ReviewStore
from quizapp.srs.study.queue import tomorrow
from quizapp.srs.study.schedule_note import span_in_words
from quizapp.srs.times import to_ms
from quizapp.tui.app import QuizApp
from quizapp.tui.screens.home import HomeScreen
from quizapp.tui.screens.quiz import QuizScreen
from quizapp.tui.screens.stats import StatsScreen
from quizapp.tui.screens.summary import SummaryScreen
from tests.tui.screen_text import drive_with_toasts, find, screen_lines
from tests.tui.test_history_in_app import make_app, saved, start_drill
from tests.tui.test_lab_device import palette
from tests.tui.test_sessions import answer_current, drive, start_deck, wait_for
from tests.tui.toasts import said

SIZES = [(80, 24), (120, 40)]


class Clock:
    """utc_now, moved on by the tests instead of by waiting minutes."""

    def __init__(self) -> None:
        self.offset = timedelta()

    def __call__(self) -> datetime:
        return real_now() + self.offset

    def advance(self, **delta: float) -> None:
        self.offset += timedelta(**delta)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[Clock]:
    clock = Clock()
    monkeypatch.setattr("quizapp.srs.memory.scheduling.utc_now", clock)
    monkeypatch.setattr("quizapp.tui.components.learning_wait.utc_now", clock)
    yield clock


def answer_in(store: ReviewStore, qid: str, rating: Rating, when: datetime) -> None:
    """An answer given in a drill, straight into the history (as another quizapp would)."""
    store.record_answer(
        question_id=qid,
        deck_id="every-type",
        topic="testing",
        rating=rating,
        correct=rating != Rating.Again,
        when=when,
        duration_ms=2000,
        kind="drill",
        scheduler=make_scheduler(),
    )


def reviews(db: Path) -> list[tuple[str, str, int]]:
    with ReviewStore.open(db) as store:
        return [(r.question_id, r.kind, r.rating) for r in store.reviews()]


def shown(app: QuizApp, text: str) -> bool:
    return find(app, text) is not None


def rating_line(app: QuizApp) -> str:
    """The feedback's scheduling line, without its key hint."""
    line = str(app.screen.query_one("#rating-line").render())
    assert line.endswith(" · 1–4 change it")
    return line.removesuffix(" · 1–4 change it")


def progress(screen: QuizScreen) -> str:
    return str(screen.query_one("#position").render())


def asking(screen: QuizScreen) -> bool:
    """A question is on screen, ready for its answer (after a wait, not just about to be)."""
    focused = screen.focused
    return screen.state == "asking" and focused is not None and focused.id == "answer"


def seconds_to_wait(app: QuizApp) -> int:
    """The countdown a waiting drill shows, in seconds (-1 when none is drawn)."""
    for line in screen_lines(app):
        found = re.search(r"Next card in (\d+):(\d\d)", line)
        if found:
            return int(found[1]) * 60 + int(found[2])
    return -1


def home_row(app: QuizApp, row: int = 0) -> list[str]:
    table = app.screen.query_one("#decks", DataTable)
    return [str(c) for c in table.get_row_at(row)]


async def home_ready(pilot: Pilot, app: QuizApp) -> None:
    await wait_for(
        pilot,
        lambda: (
            isinstance(app.screen, HomeScreen)
            and app.history is not None
            and home_row(app)[1] != ""
        ),
    )


async def leave(pilot: Pilot, app: QuizApp) -> None:
    await pilot.press("escape")
    if not isinstance(app.screen, HomeScreen):
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "Confirm")
        await pilot.press("y")
    await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)


# -- the rating, and 1–4 to change it --------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_feedback_says_the_rating_and_when_the_card_is_back_and_1_to_4_change_it(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    db = tmp_path / "history.sqlite3"
    app = make_app(db)

    def saved_due() -> str:
        with ReviewStore.open(db) as store:
            [row] = list(store.reviews())
            return span_in_words(store.card(row.question_id).due - row.reviewed_at)

    async def scenario(pilot: Pilot) -> None:
        screen = await start_drill(pilot, app)
        await answer_current(pilot, screen, right=True)  # t-single, right and fast: Easy
        await wait_for(pilot, lambda: rating_line(app).startswith("Rated Easy · back in "))
        await saved(pilot, app)
        assert rating_line(app) == f"Rated Easy · back in {saved_due()}"  # as saved
        line = rating_line(app) + " · 1–4 change it"
        await wait_for(pilot, lambda: shown(app, line))  # drawn whole, with its key
        # Every grade's interval before a key is pressed, as Anki shows them on its buttons.
        choices = str(app.screen.query_one("#rating-choices").render())
        grades = dict(part.split(" ", 2)[1:] for part in choices.split(" · "))
        assert list(grades) == ["Again", "Hard", "Good", "Easy"]
        assert grades["Easy"] == saved_due()
        await wait_for(pilot, lambda: shown(app, choices))  # drawn whole
        await pilot.press("2")  # Hard instead
        await wait_for(pilot, lambda: rating_line(app).startswith("Rated Hard · back in "))
        await saved(pilot, app)
        assert reviews(db) == [("t-single", "drill", 2)]  # the same one review, re-rated
        assert rating_line(app) == f"Rated Hard · back in {saved_due()}, in this drill"
        assert grades["Hard"] == saved_due()  # what the line said it would be
        await pilot.press("1")  # Again: back in a minute, in this drill
        await wait_for(
            pilot, lambda: rating_line(app) == "Rated Again · back in 1 min, in this drill"
        )
        await saved(pilot, app)
        assert reviews(db) == [("t-single", "drill", 1)]
        with ReviewStore.open(db) as store:
            assert store.card("t-single").state == State.Learning
        await pilot.press("u")  # undo still takes the answer back, whatever its rating
        await wait_for(pilot, lambda: screen.state == "asking")
        await saved(pilot, app)
        assert reviews(db) == []

    drive(app, scenario, size=size)


# -- practice, and the switch ------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_a_quiz_is_practice_until_the_switch_says_it_reschedules(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    db = tmp_path / "history.sqlite3"
    config = tmp_path / "config.toml"
    config.write_text("# mine\nnew_cards_per_day = 20\n")
    app = make_app(db, config_path=config)

    async def scenario(pilot: Pilot) -> None:
        await home_ready(pilot, app)
        await wait_for(pilot, lambda: shown(app, "Off (r): a quiz is"))
        screen = await start_deck(pilot)
        assert screen.session.kind == "practice" and "(practice)" in screen.sub_title
        await answer_current(pilot, screen, right=False)  # t-single, wrong
        await wait_for(
            pilot,
            lambda: rating_line(app) == "Rated Again · practice, schedule unchanged (still new)",
        )
        await saved(pilot, app)
        assert reviews(db) == [("t-single", "practice", 1)]
        with ReviewStore.open(db) as store:
            assert store.known_ids() == set()  # still new
        await leave(pilot, app)
        await wait_for(pilot, lambda: home_row(app)[1] == "8")  # New: all 8 still

        await pilot.press("r")  # quizzes reschedule from now on, and next time
        await wait_for(pilot, lambda: shown(app, "On (r): a quiz"))
        assert config.read_text() == "# mine\nnew_cards_per_day = 20\nquiz_reschedules = true\n"
        assert app.settings.quiz_reschedules is True
        screen = await start_deck(pilot)
        assert screen.session.kind == "quiz" and "(practice)" not in screen.sub_title
        await answer_current(pilot, screen, right=True)
        await saved(pilot, app)
        assert reviews(db)[-1] == ("t-single", "quiz", 4)
        await leave(pilot, app)
        await wait_for(pilot, lambda: home_row(app)[1] == "7")

    drive(app, scenario, size=size)


def offered_keys(app: QuizApp) -> set[str]:
    """The keys the footer offers now (a binding whose check_action says False is not)."""
    return {key for key, active in app.active_bindings.items() if active.enabled}


def test_questions_missed_in_practice_come_back_from_home_until_answered_right(
    tmp_path: Path,
) -> None:
    db = tmp_path / "history.sqlite3"
    app = make_app(db, settings=Settings(new_cards_per_day=20))

    async def scenario(pilot: Pilot) -> None:
        await home_ready(pilot, app)
        assert not shown(app, "Missed in practice")
        screen = await start_deck(pilot)
        missed = screen.question.id
        await answer_current(pilot, screen, right=False)  # practice: the card is left alone
        await saved(pilot, app)
        await leave(pilot, app)
        await wait_for(pilot, lambda: shown(app, "Missed in practice (m): 1, not answered right"))
        assert "m" in offered_keys(app)

        await pilot.press("m")  # the missed question again, a quiz of its own
        await wait_for(pilot, lambda: isinstance(app.screen, QuizScreen) and app.screen.is_mounted)
        screen = app.screen
        assert [q.id for q in screen.session.questions] == [missed]
        assert "Missed in practice" in screen.sub_title
        await answer_current(pilot, screen, right=True)
        await saved(pilot, app)
        await leave(pilot, app)
        await wait_for(pilot, lambda: not shown(app, "Missed in practice"))
        assert "m" not in offered_keys(app)

    drive(app, scenario, size=(80, 24))


def test_the_switch_starts_as_the_config_says(tmp_path: Path) -> None:
    app = make_app(tmp_path / "h.db", settings=Settings(quiz_reschedules=True))

    async def scenario(pilot: Pilot) -> None:
        await home_ready(pilot, app)
        assert app.screen.query_one("#reschedule").value is True
        await wait_for(pilot, lambda: shown(app, "On (r): a quiz"))

    drive(app, scenario, size=(80, 24))


# -- learning steps in a drill -----------------------------------------------------------------


def test_a_missed_card_comes_back_when_due_between_other_cards(
    tmp_path: Path, clock: Clock
) -> None:
    db = tmp_path / "history.sqlite3"
    app = make_app(db, settings=Settings(new_cards_per_day=2), warm_up=False)

    async def scenario(pilot: Pilot) -> None:
        screen = await start_drill(pilot, app)
        assert [q.id for q in screen.session.questions] == ["t-single", "t-multi"]
        await answer_current(pilot, screen, right=False)  # Again: back in 1 min
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.state == "asking")
        assert screen.question.id == "t-multi"  # the missed one is not due yet
        assert screen.sub_title == "Drill: 0 due, 2 new · 1 learning"
        assert progress(screen) == "Question 2 of 3"
        clock.advance(seconds=61)
        await answer_current(pilot, screen, right=True)
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.state == "asking")
        assert screen.question.id == "t-single"  # due now: asked again
        assert progress(screen) == "Question 3 of 3"
        await answer_current(pilot, screen, right=True)  # Easy: graduates
        await pilot.press("enter")
        await wait_for(
            pilot, lambda: isinstance(app.screen, SummaryScreen) and app.screen.is_mounted
        )
        await saved(pilot, app)
        assert [(q, r) for q, _, r in reviews(db)] == [
            ("t-single", 1),
            ("t-multi", 4),
            ("t-single", 4),
        ]

    drive(app, scenario)


@pytest.mark.parametrize("size", SIZES)
def test_the_drill_waits_for_a_learning_card_asks_it_when_due_or_now_or_ends(
    tmp_path: Path, clock: Clock, size: tuple[int, int]
) -> None:
    db = tmp_path / "history.sqlite3"
    app = make_app(db, settings=Settings(new_cards_per_day=1), warm_up=False)

    async def scenario(pilot: Pilot) -> None:
        screen = await start_drill(pilot, app)
        await answer_current(pilot, screen, right=False)
        await pilot.press("enter")
        await wait_for(pilot, lambda: shown(app, "1 learning card comes back in this drill."))
        assert 55 <= seconds_to_wait(app) <= 60
        assert shown(app, "Enter asks it now · e ends the drill")
        assert screen.in_progress  # quitting now asks first
        clock.advance(seconds=30)
        await wait_for(pilot, lambda: 0 < seconds_to_wait(app) <= 30)  # counting down
        clock.advance(seconds=31)
        await wait_for(pilot, lambda: asking(screen))  # due: asked by itself
        assert screen.question.id == "t-single"
        await answer_current(pilot, screen, right=False)  # missed again
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.state == "waiting")
        await pilot.press("enter")  # asked now, early
        await wait_for(pilot, lambda: asking(screen))
        assert screen.question.id == "t-single"
        await answer_current(pilot, screen, right=False)
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.state == "waiting")
        await pilot.press("e")  # ends the drill
        await wait_for(
            pilot, lambda: isinstance(app.screen, SummaryScreen) and app.screen.is_mounted
        )
        await saved(pilot, app)
        assert [r for _, _, r in reviews(db)] == [1, 1, 1]

    drive(app, scenario, size=size)


def test_undo_takes_back_the_learning_step_with_the_answer(tmp_path: Path) -> None:
    db = tmp_path / "history.sqlite3"
    app = make_app(db, settings=Settings(new_cards_per_day=2), warm_up=False)

    async def scenario(pilot: Pilot) -> None:
        screen = await start_drill(pilot, app)
        await answer_current(pilot, screen, right=False)
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.state == "asking" and screen.question.id == "t-multi")
        assert len(screen.drill.steps) == 1
        await pilot.press("u")
        await wait_for(pilot, lambda: screen.question.id == "t-single")
        assert len(screen.drill.steps) == 0
        assert screen.sub_title == "Drill: 0 due, 2 new" and progress(screen) == "Question 1 of 2"
        await saved(pilot, app)
        assert reviews(db) == []

    drive(app, scenario)


# -- bury and suspend --------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_a_bury_moves_the_title_and_the_count_and_its_toast_quotes_the_question(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    app = make_app(tmp_path / "history.sqlite3", warm_up=False)

    async def scenario(pilot: Pilot) -> None:
        screen = await start_drill(pilot, app)
        assert screen.sub_title == "Drill: 0 due, 8 new" and progress(screen) == "Question 1 of 8"
        await pilot.press("b")
        await wait_for(pilot, lambda: screen.question.id == "t-multi")
        assert screen.sub_title == "Drill: 0 due, 7 new" and progress(screen) == "Question 1 of 7"
        await wait_for(pilot, lambda: shown(app, "Buried until tomorrow"))
        await wait_for(pilot, lambda: shown(app, "Which is right?"))  # the prompt, whole
        assert not any("t-single" in line for line in screen_lines(app))  # not its id
        await pilot.press("exclamation_mark")
        await wait_for(pilot, lambda: shown(app, "Suspended (ctrl+p brings it back)"))
        await wait_for(pilot, lambda: shown(app, "Pick all that apply."))
        assert screen.sub_title == "Drill: 0 due, 6 new" and progress(screen) == "Question 1 of 6"

    drive_with_toasts(app, scenario, size)


def test_buried_cards_come_back_from_the_palette(tmp_path: Path) -> None:
    app = make_app(tmp_path / "history.sqlite3", warm_up=False)

    async def scenario(pilot: Pilot) -> None:
        screen = await start_drill(pilot, app)
        await pilot.press("b")
        await wait_for(pilot, lambda: screen.question.id == "t-multi")
        await saved(pilot, app)
        assert app.history_writes.buried_ids() == ["t-single"]
        await palette(pilot, "Buried cards")  # waits until the palette offers it
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "BuriedCards")
        await wait_for(pilot, lambda: shown(app, "t-single: Which is right?"))
        await pilot.press("space", "enter")
        await wait_for(pilot, lambda: app.history_writes.buried_ids() == [])
        await saved(pilot, app)
        with ReviewStore.open(app.options.db_path) as store:  # type: ignore[arg-type]
            assert store.hidden_ids(real_now()) == set()

    drive(app, scenario, size=(80, 24))


@pytest.mark.parametrize("size", SIZES)
def test_quizzes_leave_out_suspended_and_buried_cards_and_home_says_so(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    app = make_app(tmp_path / "history.sqlite3", warm_up=False)

    async def scenario(pilot: Pilot) -> None:
        screen = await start_drill(pilot, app)
        await pilot.press("exclamation_mark")  # t-single
        await wait_for(pilot, lambda: screen.question.id == "t-multi")
        await pilot.press("b")  # t-multi
        await wait_for(pilot, lambda: screen.question.id == "t-tf")
        await saved(pilot, app)
        await leave(pilot, app)
        await wait_for(pilot, lambda: shown(app, "Left out of sessions: 1 suspended, 1 buried"))
        assert home_row(app)[1] == "6"  # New leaves them out too
        await pilot.press("a")  # everything
        await wait_for(pilot, lambda: isinstance(app.screen, QuizScreen) and app.screen.is_mounted)
        asked = {q.id for q in app.screen.session.questions}  # type: ignore[attr-defined]
        assert len(asked) == 6 and not asked & {"t-single", "t-multi"}

    drive(app, scenario, size=size)


def test_a_deck_with_every_card_put_away_says_how_to_bring_them_back(tmp_path: Path) -> None:
    db = tmp_path / "history.sqlite3"
    with ReviewStore.open(db) as store:
        for qid in ("t-single", "t-multi", "t-tf", "t-numeric", "t-numeric-derived"):
            store.set_suspended(qid)
        for qid in ("t-numeric-short", "t-order", "t-card"):
            store.bury(qid, tomorrow(real_now()))
    app = make_app(db, warm_up=False)

    async def scenario(pilot: Pilot) -> None:
        await home_ready(pilot, app)
        await pilot.press("enter")
        await wait_for(pilot, lambda: any("are suspended or buried" in m for m in said(app)))
        assert isinstance(app.screen, HomeScreen)

    drive(app, scenario, size=(80, 24))


# -- the home screen's counts ------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_home_says_what_a_drill_takes_and_why_fewer_new_than_the_column(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    app = make_app(tmp_path / "history.sqlite3", settings=Settings(new_cards_per_day=2))

    async def scenario(pilot: Pilot) -> None:
        await home_ready(pilot, app)
        assert home_row(app)[:2] == ["0", "8"]
        await wait_for(pilot, lambda: shown(app, "Drill (d): 0 due + 2 new of 8 not yet scheduled"))
        assert shown(app, "New cards: 2 a day, 0 started today")
        screen = await start_drill(pilot, app)
        await answer_current(pilot, screen, right=True)  # Easy: out of learning
        await leave(pilot, app)
        await wait_for(pilot, lambda: shown(app, "Drill (d): 0 due + 1 new of 7 not yet scheduled"))
        assert shown(app, "New cards: 2 a day, 1 started today")

    drive(app, scenario, size=size)


def test_home_counts_follow_another_instance_and_the_clock(tmp_path: Path) -> None:
    db = tmp_path / "history.sqlite3"
    app = make_app(db, warm_up=False)

    async def scenario(pilot: Pilot) -> None:
        await home_ready(pilot, app)
        assert home_row(app)[:2] == ["0", "8"]
        # Another program (a second quizapp) answers a card in the same history.
        with ReviewStore.open(db) as other:
            answer_in(other, "t-single", Rating.Easy, real_now())
        await wait_for(pilot, lambda: home_row(app)[:2] == ["0", "7"], timeout=15)
        # …and moves it to fall due in two seconds: no key is pressed, the Due count moves.
        soon = to_ms(real_now() + timedelta(seconds=2))
        connection = sqlite3.connect(db)
        with connection:
            connection.execute(
                "UPDATE cards SET due_ms = ? WHERE question_id = 't-single'", (soon,)
            )
        connection.close()
        await wait_for(pilot, lambda: home_row(app)[:2] == ["1", "7"], timeout=15)
        await wait_for(pilot, lambda: shown(app, "Drill (d): 1 due + 7 new"))

    drive(app, scenario, size=(80, 24))


# -- the stats screen --------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_stats_label_due_now_and_due_today(tmp_path: Path, size: tuple[int, int]) -> None:
    db = tmp_path / "history.sqlite3"
    now = real_now()
    with ReviewStore.open(db) as store:
        for qid in ("t-single", "t-multi", "t-tf"):
            answer_in(store, qid, Rating.Good, now - timedelta(days=3))
        later_today = min(now + timedelta(minutes=30), tomorrow(now) - timedelta(seconds=1))
        for qid, due in (
            ("t-single", now - timedelta(days=1)),
            ("t-multi", later_today),
            ("t-tf", now + timedelta(days=3)),
        ):
            store.connection.execute(
                "UPDATE cards SET due_ms = ? WHERE question_id = ?", (to_ms(due), qid)
            )
    app = make_app(db, warm_up=False)

    async def scenario(pilot: Pilot) -> None:
        await home_ready(pilot, app)
        await pilot.press("S")
        await wait_for(pilot, lambda: isinstance(app.screen, StatsScreen) and app.screen.is_mounted)
        await wait_for(pilot, lambda: shown(app, "Due: 1 now, 2 by the end of today"))

    drive(app, scenario, size=size)
