"""A simulated student's review history, for fitting tests.

The student's memory follows FSRS with `true_parameters` (a py-fsrs `Scheduler` of its own
tracks each card's true state); the app schedules with its own parameters (py-fsrs's defaults
unless given) and records every answer through `ReviewStore.record_answer`, as a drill does.
Whether an answer is right is drawn from the true recall probability with a seeded generator.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

from fsrs import Card, Rating, Scheduler
from fsrs.scheduler import DEFAULT_PARAMETERS

from quizapp.srs.memory.scheduling import make_scheduler, review
from quizapp.srs.store.history import ReviewRow
from quizapp.srs.store.sqlite.store import ReviewStore

START = datetime(2025, 1, 6, 18, 0, tzinfo=UTC)

# A student who forgets much faster than py-fsrs's defaults assume: far lower initial
# stabilities, slower growth after a success. Scheduled with the defaults, this student recalls
# about 80 % at review time where the defaults predict about 90 %.
FORGETFUL = list(DEFAULT_PARAMETERS)
FORGETFUL[0:4] = [0.05, 0.15, 0.4, 1.2]
FORGETFUL[8] = 0.7

# Big enough for py-fsrs's optimizer (600-odd learnable reviews in the fitted-on 80 %, some
# 240 scored held-out ones), small enough to fit in about ten seconds.
FIT_SIZE = {"cards": 150, "days": 40, "new_per_day": 8}


Record = Callable[[str, Rating, datetime, int], datetime]  # an answer -> the card's next due


def simulate_history(
    db: Path,
    *,
    cards: int,
    days: int,
    new_per_day: int,
    true_parameters: Sequence[float] = FORGETFUL,
    seed: int = 7,
    first_sight_right: float = 0.6,
) -> int:
    """Write a simulated history to `db`; returns how many reviews it holds."""
    scheduler = make_scheduler(fuzz=False)
    with ReviewStore.open(db) as store:
        store.connection.execute("PRAGMA synchronous = OFF")  # a test fixture, not a student

        def record(qid: str, rating: Rating, when: datetime, duration_ms: int) -> datetime:
            after = store.record_answer(
                question_id=qid,
                deck_id="deck",
                topic="topic",
                rating=rating,
                correct=rating != Rating.Again,
                when=when,
                duration_ms=duration_ms,
                kind="drill",
                scheduler=scheduler,
            )
            assert after is not None
            return after.due

        _study(record, cards, days, new_per_day, true_parameters, seed, first_sight_right)
        return store.review_count()


def simulate_rows(
    *,
    cards: int,
    days: int,
    new_per_day: int,
    true_parameters: Sequence[float] = FORGETFUL,
    seed: int = 7,
    first_sight_right: float = 0.6,
) -> list[ReviewRow]:
    """The same student, the history kept in memory: the rows `store.reviews()` would give
    (a drill's scheduling through py-fsrs, without the database, for tests that need many
    students)."""
    scheduler = make_scheduler(fuzz=False)
    app_cards: dict[str, Card] = {}
    rows: list[ReviewRow] = []

    def record(qid: str, rating: Rating, when: datetime, duration_ms: int) -> datetime:
        app_cards[qid], _ = review(scheduler, app_cards.get(qid), rating, when, duration_ms)
        correct = rating != Rating.Again
        rows.append(
            ReviewRow(qid, "deck", "topic", "drill", when, int(rating), correct, duration_ms, None)
        )
        return app_cards[qid].due

    _study(record, cards, days, new_per_day, true_parameters, seed, first_sight_right)
    return rows


def _study(
    record: Record,
    cards: int,
    days: int,
    new_per_day: int,
    true_parameters: Sequence[float],
    seed: int,
    first_sight_right: float,
) -> None:
    rng = random.Random(seed)
    truth = Scheduler(parameters=tuple(true_parameters), enable_fuzzing=False)
    true_cards: dict[str, Card] = {}
    due: dict[str, datetime] = {}
    introduced = 0
    for day in range(days):
        session = START + timedelta(days=day)
        end = session + timedelta(hours=1)
        for _ in range(new_per_day):
            if introduced < cards:
                qid = f"q{introduced:04d}"
                due[qid] = session
                true_cards[qid] = Card(card_id=introduced + 1, due=session)
                introduced += 1
        while True:
            ready = sorted((when, qid) for qid, when in due.items() if when <= end)
            if not ready:
                break
            when, qid = ready[0]
            when = max(when, session)
            true_card = true_cards[qid]
            recall = (
                truth.get_card_retrievability(true_card, when)
                if true_card.last_review is not None
                else first_sight_right
            )
            if rng.random() >= recall:
                rating = Rating.Again
            else:
                rating = rng.choices([Rating.Hard, Rating.Good, Rating.Easy], [1, 8, 1])[0]
            due[qid] = record(qid, rating, when, rng.randint(3_000, 20_000))
            true_cards[qid], _ = truth.review_card(true_card, rating, when)
