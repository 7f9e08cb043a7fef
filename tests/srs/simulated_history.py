"""A simulated student's review history, for fitting tests.

The student's memory follows FSRS with `true_parameters` (a py-fsrs `Scheduler` of its own
tracks each card's true state); the app schedules with its own parameters (py-fsrs's defaults
unless given) and records every answer through `ReviewStore.record_answer`, as a drill does.
Whether an answer is right is drawn from the true recall probability with a seeded generator.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

from fsrs import Card, Rating, Scheduler
from fsrs.scheduler import DEFAULT_PARAMETERS

from quizapp.srs.scheduling import make_scheduler
from quizapp.srs.store import ReviewStore

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
    rng = random.Random(seed)
    truth = Scheduler(parameters=tuple(true_parameters), enable_fuzzing=False)
    scheduler = make_scheduler(fuzz=False)
    true_cards: dict[str, Card] = {}
    due: dict[str, datetime] = {}
    introduced = 0
    with ReviewStore.open(db) as store:
        store.connection.execute("PRAGMA synchronous = OFF")  # a test fixture, not a student
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
                after = store.record_answer(
                    question_id=qid,
                    deck_id="deck",
                    topic="topic",
                    rating=rating,
                    correct=rating != Rating.Again,
                    when=when,
                    duration_ms=rng.randint(3_000, 20_000),
                    kind="drill",
                    scheduler=scheduler,
                )
                true_cards[qid], _ = truth.review_card(true_card, rating, when)
                due[qid] = after.due
        return store.review_count()
