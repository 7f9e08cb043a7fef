"""Building a drill queue from a 100,000-card history against the bare indexed "due" query.

The history is written straight into the real schema (the store creates it; rows go in with
one executemany per table in one transaction), so setup takes seconds, not the hours that
1,000,000 real answers would: 100,000 cards with py-fsrs card JSON, 1,000,000 review rows,
a few thousand cards due now, some suspended or buried, a few introduced today, and a bank of
100,000 questions in 10 decks (5,000 never answered, and 5,000 cards of removed questions).
"""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

from harness import Benchmark

from quizapp.bank.model import (
    Choice,
    ChoiceQuestion,
    Difficulty,
    Flashcard,
    Location,
    Question,
    QuestionType,
)
from quizapp.srs.memory.scheduling import Card, Rating, make_scheduler
from quizapp.srs.store.sqlite.store import ReviewStore
from quizapp.srs.study.queue import build_drill_queue, start_of_day
from quizapp.srs.times import to_ms

N_CARDS = 100_000
N_REVIEWS = 1_000_000
N_QUESTIONS = 100_000
N_DECKS = 10
N_GONE = 5_000  # cards whose question left the bank
DUE_SHARE = 0.03  # about 3,000 cards due now
NEW_PER_DAY = 20
DAY_MS = 86_400_000
RATINGS = (1, 2, 3, 3, 3, 4, 3, 3)
KINDS = ("quiz", "drill", "exam")

_state: dict[str, object] = {}


def card_templates(now: datetime) -> list[dict[str, object]]:
    """Real py-fsrs cards in each state, to copy the JSON of (with a row's own id and due)."""
    scheduler = make_scheduler(fuzz=False)
    templates = []
    for ratings in (
        [Rating.Good],  # learning
        [Rating.Good, Rating.Good, Rating.Good],  # review
        [Rating.Good, Rating.Good, Rating.Easy, Rating.Good],
        [Rating.Good, Rating.Good, Rating.Good, Rating.Again],  # relearning
        [Rating.Hard, Rating.Good, Rating.Hard, Rating.Good, Rating.Good],
    ):
        when = now - timedelta(days=400)
        card = Card(card_id=1, due=when)
        for rating in ratings:
            card, _ = scheduler.review_card(card, rating, review_datetime=when)
            when = card.due
        templates.append(card.to_dict())
    return templates


def card_ids() -> list[str]:
    kept = N_CARDS - N_GONE
    return [f"deck{i % N_DECKS}-q{i}" for i in range(kept)] + [f"gone-q{i}" for i in range(N_GONE)]


def build_history(path: Path, now: datetime) -> None:
    rng = random.Random(20250312)
    now_ms = to_ms(now)
    today_ms = to_ms(start_of_day(now))
    templates = card_templates(now)
    ids = card_ids()

    cards = []
    for n, qid in enumerate(ids):
        if rng.random() < DUE_SHARE:
            due_ms = now_ms - rng.randrange(1, 30 * DAY_MS)
        else:
            due_ms = now_ms + rng.randrange(60_000, 365 * DAY_MS)
        # A handful of cards were first reviewed today: the new-card allowance is part used.
        first_ms = (
            today_ms + 60_000 * n if n < 5 else now_ms - rng.randrange(2 * DAY_MS, 700 * DAY_MS)
        )
        last_ms = max(first_ms, now_ms - rng.randrange(DAY_MS, 60 * DAY_MS))
        template = dict(templates[n % len(templates)])
        template["card_id"] = 1_700_000_000_000 + n
        template["due"] = datetime.fromtimestamp(due_ms / 1000, tz=UTC).isoformat()
        cards.append((qid, json.dumps(template), int(template["state"]), due_ms, first_ms, last_ms))

    per_card = N_REVIEWS // N_CARDS
    topics = [f"topic-{d}" for d in range(N_DECKS)]

    def reviews():
        # Cheap arithmetic spread instead of a random draw per row: 1M rows stay quick.
        for n, (qid, card_json, state, _due, first_ms, last_ms) in enumerate(cards):
            deck, topic = qid.split("-")[0], topics[n % N_DECKS]
            step = max(1, (last_ms - first_ms) // per_card)
            for k in range(per_card):
                rating = RATINGS[(n * 7 + k * 3) % len(RATINGS)]
                yield (
                    qid,
                    deck,
                    topic,
                    KINDS[k % 3],
                    first_ms + k * step,
                    rating,
                    rating > 1,
                    2_000 + (n * 7_919 + k * 104_729) % 88_000,
                    None if k == 0 else state,
                    None if k == 0 else card_json,
                )

    # About 300 suspended and 300 buried until tomorrow.
    flags = {
        i: (f"deck{i % N_DECKS}-q{i}", 0, now_ms + DAY_MS) for i in range(11, N_QUESTIONS, 337)
    }
    flags |= {i: (f"deck{i % N_DECKS}-q{i}", 1, None) for i in range(7, N_QUESTIONS, 331)}

    with ReviewStore.open(path):  # the real schema and indexes, exactly as the app makes them
        pass
    # Bulk loading only: no journal and no fsync (the file is thrown away if setup fails), then
    # back to WAL as the store keeps it.
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode = OFF")
        db.execute("PRAGMA synchronous = OFF")
        db.execute("PRAGMA cache_size = -262144")  # 256 MB
        db.execute("BEGIN")
        db.executemany(
            "INSERT INTO cards (question_id, card_json, state, due_ms, first_review_ms,"
            " last_review_ms) VALUES (?, ?, ?, ?, ?, ?)",
            cards,
        )
        db.executemany(
            "INSERT INTO reviews (question_id, deck_id, topic, kind, reviewed_ms, rating, correct,"
            " duration_ms, state_before, card_before) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            reviews(),
        )
        db.executemany(
            "INSERT INTO card_flags (question_id, suspended, buried_until_ms) VALUES (?, ?, ?)",
            flags.values(),
        )
        db.execute("COMMIT")
        db.execute("PRAGMA journal_mode = WAL")
    finally:
        db.close()


def build_bank(n_questions: int = N_QUESTIONS) -> dict[str, Question]:
    """Light questions `deck{i % 10}-q{i}` in 10 decks. The default 100,000: the carded ones
    minus the removed, plus 5,000 new."""
    locations = [Location(f"deck_{d}.yaml", 1, 1) for d in range(N_DECKS)]
    choices = (Choice("right", True, None), Choice("wrong", False, None))
    questions: dict[str, Question] = {}
    for i in range(n_questions):
        deck = i % N_DECKS
        qid = f"deck{deck}-q{i}"
        common = dict(
            id=qid,
            prompt="prompt",
            explanation="explanation",
            topic=f"topic-{deck}",
            tags=(),
            difficulty=Difficulty.MEDIUM,
            deck_id=f"deck{deck}",
            location=locations[deck],
        )
        if i % 2:
            questions[qid] = Flashcard(type=QuestionType.FLASHCARD, back="back", **common)
        else:
            questions[qid] = ChoiceQuestion(
                type=QuestionType.SINGLE_CHOICE, choices=choices, **common
            )
    return questions


def setup() -> None:
    folder = Path(tempfile.mkdtemp(prefix="quizapp-bench-drill-"))
    now = datetime.now(UTC).replace(microsecond=0)
    path = folder / "history.sqlite3"
    build_history(path, now)
    store = ReviewStore.open(path)
    assert store.notice is None, store.notice
    assert store.review_count() == N_REVIEWS
    questions = build_bank()
    _state.update(folder=folder, store=store, questions=questions, now=now, now_ms=to_ms(now))
    queue = build_drill_queue(store, questions, now, new_per_day=NEW_PER_DAY)
    assert 2_000 < len(queue.due) < 5_000, len(queue.due)
    assert len(queue.new) == NEW_PER_DAY - 5, len(queue.new)
    assert queue.next_due is not None


def teardown() -> None:
    store = _state.pop("store")
    assert isinstance(store, ReviewStore)
    store.close()
    shutil.rmtree(_state.pop("folder"), ignore_errors=True)
    _state.clear()


def candidate() -> None:
    build_drill_queue(_state["store"], _state["questions"], _state["now"], new_per_day=NEW_PER_DAY)


def baseline() -> None:
    store = _state["store"]
    rows = store.connection.execute(
        "SELECT question_id FROM cards WHERE due_ms <= ?", (_state["now_ms"],)
    )
    [r[0] for r in rows]


BENCHMARKS = [
    Benchmark(
        name="drill queue, 100k cards",
        description="build_drill_queue over 100k cards / 1M reviews / 100k questions, 20 new a day",
        candidate=candidate,
        baseline=baseline,
        max_ratio=None,
        max_seconds=0.1,
        setup=setup,
        teardown=teardown,
        repeats=9,
        baseline_label="SELECT question_id FROM cards WHERE due_ms <= now, fetched into a list",
    )
]
