"""A right answer is rated by how long it took, against the user's own `fast_seconds` and
`slow_seconds` (config.toml): faster than fast → Easy, slower than slow → Hard, otherwise Good
(quizapp/srs/memory/scheduling.py). The feedback says the rating and the history keeps it. (A
`record_answer` that ignored the settings, rating every answer by the defaults, once survived
the whole suite: the thresholds here are far from the defaults of 10 s and 60 s, so the defaults
would rate all three answers alike.)"""

from __future__ import annotations

import time
from pathlib import Path

from fsrs import Rating
from textual.pilot import Pilot
from textual.widgets import Label

from quizapp.srs.config import Settings
from quizapp.srs.memory.scheduling import DEFAULT_FAST_SECONDS, DEFAULT_SLOW_SECONDS
from quizapp.tui.widgets.feedback import Feedback
from tests.tui.test_history_in_app import make_app, saved, stored
from tests.tui.test_sessions import answer_current, drive, ready_for_an_answer, start_deck, wait_for

FAST_SECONDS = 20.0
SLOW_SECONDS = 30.0
# How long each answer takes (the question shown that long ago), and the rating it earns.
TIMINGS = [(15.0, Rating.Easy), (25.0, Rating.Good), (45.0, Rating.Hard)]


def test_the_thresholds_here_rate_differently_from_the_defaults() -> None:
    # The test below only tells the settings from the defaults if they disagree on its answers.
    assert DEFAULT_FAST_SECONDS < FAST_SECONDS < SLOW_SECONDS < DEFAULT_SLOW_SECONDS


def test_a_fast_a_normal_and_a_slow_right_answer_are_rated_easy_good_and_hard(
    tmp_path: Path,
) -> None:
    db = tmp_path / "history.sqlite3"
    settings = Settings(fast_seconds=FAST_SECONDS, slow_seconds=SLOW_SECONDS, quiz_reschedules=True)
    app = make_app(db, settings=settings)
    answered: list[str] = []
    said: list[str] = []

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: app.history is not None)
        screen = await start_deck(pilot)
        for took, _ in TIMINGS:
            await wait_for(pilot, lambda: ready_for_an_answer(screen))
            answered.append(screen.question.id)
            screen.shown_at = time.monotonic() - took  # as if the student thought that long
            await answer_current(pilot, screen, right=True)
            await wait_for(pilot, lambda: bool(screen.query(Feedback)))
            said.append(str(screen.query_one("#rating-line", Label).content))
            await pilot.press("enter")
        await saved(pilot, app)

    drive(app, scenario)
    names = [rating.name for _, rating in TIMINGS]
    assert [line.split(" · ")[0] for line in said] == [f"Rated {name}" for name in names]
    history = stored(db)
    assert [(qid, correct) for qid, _, correct, _ in history] == [(q, True) for q in answered]
    assert [Rating(rating) for _, rating, _, _ in history] == [r for _, r in TIMINGS]
