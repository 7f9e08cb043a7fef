"""The review history: what is recorded survives, undo is exact, migrations mark the file.

The tests taking `store` or `location` run on both stores: a SQLite file and a fresh
PostgreSQL schema (tests/postgres_server.py); those taking `db_path` are SQLite's own."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from quizapp.srs.memory.scheduling import Rating, make_scheduler
from quizapp.srs.store.history import HistoryStore, PostgresLocation
from quizapp.srs.store.open_history import open_writer
from quizapp.srs.store.sqlite.store import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    HistoryError,
    ReviewStore,
    from_ms,
    to_ms,
)

T0 = datetime(2025, 3, 10, 9, 0, tzinfo=UTC)
SCHEDULER = make_scheduler(fuzz=False)


def answer(
    store: HistoryStore,
    question_id: str,
    when: datetime,
    rating: Rating = Rating.Good,
    *,
    kind: str = "quiz",
    deck_id: str = "deck-a",
    topic: str = "attention",
    duration_ms: int | None = 5000,
):
    return store.record_answer(
        question_id=question_id,
        deck_id=deck_id,
        topic=topic,
        rating=rating,
        correct=rating != Rating.Again,
        when=when,
        duration_ms=duration_ms,
        kind=kind,
        scheduler=SCHEDULER,
    )


def card_json(store: HistoryStore, question_id: str) -> str | None:
    return next((row[1] for row in store.card_rows() if row[0] == question_id), None)


def card_times(store: HistoryStore) -> tuple[int, int, int, int] | None:
    # No parameters: the same SQL on both stores (one student, one card, in these tests).
    # PostgreSQL keeps every version of a card: the current one is the card.
    cards = "cards"
    if not isinstance(store.connection, sqlite3.Connection):  # type: ignore[attr-defined]
        from quizapp.srs.store.postgres.schema import CURRENT_CARDS

        cards = f"{CURRENT_CARDS} AS cards"
    row = store.connection.execute(  # type: ignore[attr-defined]
        f"SELECT state, due_ms, first_review_ms, last_review_ms FROM {cards}"
    ).fetchone()
    return None if row is None else tuple(row)


def in_transaction(store: HistoryStore) -> bool:
    connection = store.connection  # type: ignore[attr-defined]
    if isinstance(connection, sqlite3.Connection):
        return connection.in_transaction
    from psycopg.pq import TransactionStatus

    return connection.info.transaction_status != TransactionStatus.IDLE


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "history.sqlite3"


@pytest.fixture
def store(location: Path | PostgresLocation):
    with open_writer(location) as opened:
        yield opened


# -- times ----------------------------------------------------------------------------------


def test_times_round_trip_through_milliseconds() -> None:
    moment = datetime(2025, 3, 10, 9, 0, 1, 250_000, tzinfo=UTC)
    assert from_ms(to_ms(moment)) == moment
    with pytest.raises(ValueError):
        to_ms(datetime(2025, 3, 10))


# -- persistence ----------------------------------------------------------------------------


def test_cards_and_reviews_survive_close_and_reopen(location) -> None:
    with open_writer(location) as first:
        after_q1 = answer(first, "q1", T0)
        answer(first, "q2", T0 + timedelta(minutes=1), Rating.Again, kind="drill")
        after_q1 = answer(first, "q1", after_q1.due, Rating.Easy)
        assert first.notice is None
    with open_writer(location) as second:
        assert second.notice is None
        assert second.known_ids() == {"q1", "q2"}
        assert second.review_count() == 3
        reopened = second.card("q1")
        assert reopened is not None
        assert reopened.to_dict() == after_q1.to_dict()
        assert [(r.question_id, r.kind) for r in second.reviews()] == [
            ("q1", "quiz"),
            ("q2", "drill"),
            ("q1", "quiz"),
        ]


def test_record_answer_commits_before_returning(location, store: HistoryStore) -> None:
    answer(store, "q1", T0)
    # A second connection, while the first is still open, sees the committed row.
    with open_writer(location) as other:
        assert [r.question_id for r in other.reviews()] == ["q1"]
        assert other.known_ids() == {"q1"}
    assert not in_transaction(store)


def test_a_second_store_on_the_same_file_sees_answers_at_once(location) -> None:
    with open_writer(location) as first, open_writer(location) as second:
        answer(first, "q1", T0)
        assert second.review_count() == 1
        answer(second, "q2", T0)
        assert first.known_ids() == {"q1", "q2"}


def test_the_database_is_in_wal_mode_with_full_sync(db_path: Path) -> None:
    store = ReviewStore.open(db_path)
    assert store.connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.connection.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert store.connection.execute("PRAGMA busy_timeout").fetchone()[0] >= 1000
    store.close()


def test_the_card_row_follows_the_scheduler(store: HistoryStore) -> None:
    first = answer(store, "q1", T0)
    second = answer(store, "q1", first.due, Rating.Good)
    assert card_times(store) == (int(second.state), to_ms(second.due), to_ms(T0), to_ms(first.due))
    assert store.due_ids(second.due - timedelta(seconds=1)) == []
    assert store.due_ids(second.due) == ["q1"]


def test_a_failed_answer_leaves_nothing_behind(store: HistoryStore) -> None:
    answer(store, "q1", T0)
    before = store.card("q1")
    with pytest.raises(ValueError):
        store.record_answer(
            question_id="q1",
            deck_id="d",
            topic="t",
            rating=Rating(7),  # not a rating: fails inside the transaction
            correct=True,
            when=T0 + timedelta(hours=1),
            duration_ms=None,
            kind="quiz",
            scheduler=SCHEDULER,
        )
    assert store.review_count() == 1
    assert store.card("q1").to_dict() == before.to_dict()
    assert not in_transaction(store)


# -- undo -----------------------------------------------------------------------------------


def test_undo_restores_the_card_exactly(store: HistoryStore) -> None:
    first = answer(store, "q1", T0)
    first = answer(store, "q1", first.due, Rating.Good)
    saved = card_json(store, "q1")
    saved_row = card_times(store)
    answer(store, "q1", first.due + timedelta(days=2), Rating.Again)
    assert card_json(store, "q1") != saved
    assert store.undo_last() == "q1"
    assert card_json(store, "q1") == saved
    assert card_times(store) == saved_row
    assert store.review_count() == 2


def test_undo_of_a_new_cards_first_answer_deletes_the_card(store: HistoryStore) -> None:
    answer(store, "q1", T0)
    answer(store, "q2", T0 + timedelta(seconds=30))
    assert store.undo_last() == "q2"
    assert store.card("q2") is None
    assert store.known_ids() == {"q1"}
    assert [r.question_id for r in store.reviews()] == ["q1"]


def test_undo_with_nothing_to_undo(store: HistoryStore) -> None:
    assert store.undo_last() is None
    answer(store, "q1", T0, kind="quiz")
    assert store.undo_last(kind="exam") is None
    assert store.review_count() == 1


def test_undo_takes_back_one_answer_at_a_time(store: HistoryStore) -> None:
    when, snapshots = T0, []
    for rating in (Rating.Good, Rating.Hard, Rating.Easy, Rating.Again):
        snapshots.append(card_json(store, "q1"))
        card = answer(store, "q1", when, rating)
        when = card.due + timedelta(hours=1)
    for expected in reversed(snapshots):
        assert store.undo_last() == "q1"
        assert card_json(store, "q1") == expected
    assert store.undo_last() is None
    assert store.review_count() == 0


def test_undo_with_a_kind_skips_other_kinds(store: HistoryStore) -> None:
    answer(store, "q1", T0, kind="drill")
    q1_after_drill = card_json(store, "q1")
    answer(store, "q2", T0 + timedelta(minutes=1), kind="drill")
    q2_after_first = card_json(store, "q2")
    answer(store, "q2", T0 + timedelta(minutes=30), Rating.Again, kind="drill")
    answer(store, "q3", T0 + timedelta(minutes=31), kind="exam")
    assert store.undo_last(kind="drill") == "q2"
    assert card_json(store, "q2") == q2_after_first
    assert card_json(store, "q1") == q1_after_drill
    assert store.card("q3") is not None  # the later exam answer stays
    assert [(r.question_id, r.kind) for r in store.reviews()] == [
        ("q1", "drill"),
        ("q2", "drill"),
        ("q3", "exam"),
    ]
    assert store.undo_last(kind="quiz") is None


def test_undo_restores_last_review_time(store: HistoryStore) -> None:
    first = answer(store, "q1", T0)
    answer(store, "q1", first.due + timedelta(days=1))
    store.undo_last()
    assert card_times(store)[3] == to_ms(T0)


# -- burying and suspending -----------------------------------------------------------------


def test_a_buried_card_is_hidden_until_the_given_time(store: HistoryStore) -> None:
    until = T0 + timedelta(days=1)
    store.bury("q1", until)
    assert store.hidden_ids(T0) == {"q1"}
    assert store.hidden_ids(until - timedelta(milliseconds=1)) == {"q1"}
    assert store.hidden_ids(until) == set()
    assert store.hidden_ids(until + timedelta(hours=1)) == set()


def test_burying_again_moves_the_time(store: HistoryStore) -> None:
    store.bury("q1", T0 + timedelta(days=3))
    store.bury("q1", T0 + timedelta(hours=1))
    assert store.hidden_ids(T0 + timedelta(hours=2)) == set()


def test_suspend_and_unsuspend(store: HistoryStore) -> None:
    store.set_suspended("q1")
    far = T0 + timedelta(days=3650)
    assert store.hidden_ids(T0) == store.hidden_ids(far) == {"q1"}
    store.set_suspended("q1", False)
    assert store.hidden_ids(T0) == set()


def test_suspending_keeps_a_burial_and_vice_versa(store: HistoryStore) -> None:
    store.bury("q1", T0 + timedelta(days=1))
    store.set_suspended("q1")
    store.set_suspended("q1", False)
    assert store.hidden_ids(T0) == {"q1"}  # still buried
    store.set_suspended("q2")
    store.bury("q2", T0 - timedelta(days=1))
    assert store.hidden_ids(T0) == {"q1", "q2"}  # still suspended


def test_flags_survive_reopen(location) -> None:
    with open_writer(location) as store:
        store.set_suspended("q1")
        store.bury("q2", T0 + timedelta(days=1))
    with open_writer(location) as store:
        assert store.hidden_ids(T0) == {"q1", "q2"}


# -- reading --------------------------------------------------------------------------------


def test_due_ids_are_most_overdue_first(store: HistoryStore) -> None:
    for i, minutes in enumerate([5, 0, 30, 12]):
        answer(store, f"q{i}", T0 + timedelta(minutes=minutes), Rating.Again)
    dues = dict(store.due_times())
    later = T0 + timedelta(days=1)
    assert store.due_ids(later) == sorted(dues, key=dues.__getitem__)
    assert store.due_ids(T0) == []


def test_next_due_skips_excluded_cards(store: HistoryStore) -> None:
    a = answer(store, "a", T0, Rating.Again)
    b = answer(store, "b", T0 + timedelta(minutes=5), Rating.Again)
    assert a.due < b.due
    assert store.next_due(T0) == from_ms(to_ms(a.due))
    assert store.next_due(T0, exclude={"a"}) == from_ms(to_ms(b.due))
    assert store.next_due(T0, exclude={"a", "b"}) is None
    assert store.next_due(b.due) is None


def test_first_reviewed_since_counts_new_cards(store: HistoryStore) -> None:
    answer(store, "old", T0)
    answer(store, "old", T0 + timedelta(days=2))
    answer(store, "new", T0 + timedelta(days=2))
    assert store.first_reviewed_since(T0 + timedelta(days=1)) == 1
    assert store.first_reviewed_since(T0) == 2


def test_missed_in_practice_is_the_latest_answer_wrong_in_practice(store: HistoryStore) -> None:
    practice, wrong = "practice", Rating.Again
    answer(store, "missed", T0, wrong, kind=practice)
    answer(store, "then-right", T0, wrong, kind=practice)
    answer(store, "then-right", T0 + timedelta(minutes=1), kind=practice)
    answer(store, "then-drilled", T0, wrong, kind=practice)
    answer(store, "then-drilled", T0 + timedelta(minutes=1), wrong, kind="drill")
    answer(store, "right-then-wrong", T0, kind=practice)
    answer(store, "right-then-wrong", T0 + timedelta(minutes=1), wrong, kind=practice)
    answer(store, "drilled-wrong", T0, wrong, kind="drill")  # the drill asks it again itself
    # Answers within one millisecond: the one given last stands.
    answer(store, "same-instant", T0, kind=practice)
    answer(store, "same-instant", T0, wrong, kind=practice)
    asked = {"missed", "then-right", "then-drilled", "right-then-wrong", "drilled-wrong"}
    asked |= {"same-instant", "never-answered"}
    assert store.missed_in_practice_ids(asked) == {"missed", "right-then-wrong", "same-instant"}
    assert store.missed_in_practice_ids({"then-right", "right-then-wrong"}) == {"right-then-wrong"}
    answer(store, "missed", T0 + timedelta(minutes=2), kind=practice)
    assert "missed" not in store.missed_in_practice_ids(asked)
    assert store.undo_last() == "missed"  # taken back: missed again
    assert "missed" in store.missed_in_practice_ids(asked)


def test_review_rows_round_trip(store: HistoryStore) -> None:
    answer(
        store,
        "q1",
        T0,
        Rating.Hard,
        kind="drill",
        deck_id="deck-x",
        topic="norms",
        duration_ms=73_000,
    )
    later = answer(store, "q2", T0 + timedelta(minutes=1), Rating.Again, duration_ms=None)
    answer(store, "q2", later.due, Rating.Good, kind="exam")
    rows = list(store.reviews())
    assert len(rows) == 3
    first = rows[0]
    assert (first.question_id, first.deck_id, first.topic, first.kind) == (
        "q1",
        "deck-x",
        "norms",
        "drill",
    )
    assert first.reviewed_at == T0 and first.reviewed_at.tzinfo is not None
    assert (first.rating, first.correct, first.duration_ms, first.state_before) == (
        int(Rating.Hard),
        True,
        73_000,
        None,
    )
    assert (rows[1].rating, rows[1].correct, rows[1].duration_ms) == (1, False, None)
    assert rows[2].state_before == int(later.state)
    assert [r.question_id for r in store.reviews(since=T0 + timedelta(seconds=30))] == ["q2", "q2"]


def test_exams_round_trip(location) -> None:
    detail = {"by_topic": {"attention": [3, 4]}, "seed": 17, "missed": ["q1", "q9"]}
    with open_writer(location) as store:
        exam_id = store.record_exam(
            taken=T0 + timedelta(days=1),
            questions=40,
            correct=31,
            passed=True,
            threshold=0.7,
            seconds=1234.5,
            detail=detail,
        )
        store.record_exam(
            taken=T0,
            questions=10,
            correct=3,
            passed=False,
            threshold=0.7,
            seconds=60.0,
            detail={},
        )
    with open_writer(location) as store:
        exams = store.exams()
    assert [e["taken"] for e in exams] == [T0.isoformat(), (T0 + timedelta(days=1)).isoformat()]
    assert exams[1] == {
        "id": exam_id,
        "taken": (T0 + timedelta(days=1)).isoformat(),
        "questions": 40,
        "correct": 31,
        "passed": True,
        "threshold": 0.7,
        "seconds": 1234.5,
        "detail": detail,
    }
    assert exams[0]["passed"] is False
    json.dumps(exams)  # ready for `stats --json`


def test_an_in_memory_store_works() -> None:
    with ReviewStore.open(":memory:") as store:
        answer(store, "q1", T0)
        assert store.path is None and store.notice is None
        assert store.review_count() == 1


# -- migrations -----------------------------------------------------------------------------


def pragmas(path: Path) -> tuple[int, int]:
    db = sqlite3.connect(path)
    try:
        return (
            db.execute("PRAGMA user_version").fetchone()[0],
            db.execute("PRAGMA application_id").fetchone()[0],
        )
    finally:
        db.close()


def test_a_fresh_file_is_marked_as_ours(db_path: Path) -> None:
    with ReviewStore.open(db_path) as store:
        assert store.notice is None
    assert pragmas(db_path) == (SCHEMA_VERSION, APPLICATION_ID)
    db = sqlite3.connect(db_path)
    try:
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        indexes = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='index'")}
    finally:
        db.close()
    assert {"cards", "reviews", "card_flags", "exams"} <= tables
    assert {"cards_by_due", "cards_by_first_review", "reviews_by_question"} <= indexes


def test_the_parent_folder_is_created(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "history.sqlite3"
    with ReviewStore.open(path) as store:
        answer(store, "q1", T0)
    assert pragmas(path) == (SCHEMA_VERSION, APPLICATION_ID)


def test_reopening_does_not_migrate_again(db_path: Path) -> None:
    with ReviewStore.open(db_path) as store:
        answer(store, "q1", T0)
    with ReviewStore.open(db_path) as store:
        assert store.review_count() == 1
    assert pragmas(db_path) == (SCHEMA_VERSION, APPLICATION_ID)


def test_a_newer_schema_is_refused_and_left_alone(tmp_path: Path, db_path: Path) -> None:
    with ReviewStore.open(db_path) as store:
        answer(store, "q1", T0)
    db = sqlite3.connect(db_path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    original = db_path.read_bytes()
    with pytest.raises(HistoryError) as info:
        ReviewStore.open(db_path)
    message = str(info.value)
    assert "newer" in message
    assert str(SCHEMA_VERSION + 1) in message
    assert "upgrade" in message
    assert db_path.read_bytes() == original
    assert not list(tmp_path.glob("*unusable*"))
    assert pragmas(db_path) == (SCHEMA_VERSION + 1, APPLICATION_ID)
    # It is refused again, not moved aside, the next time too.
    with pytest.raises(HistoryError):
        ReviewStore.open(db_path)
    assert db_path.read_bytes() == original


def test_a_version_zero_file_of_ours_is_migrated(db_path: Path) -> None:
    # An empty database marked as ours but never migrated (e.g. a crash before the first commit).
    db = sqlite3.connect(db_path)
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.close()
    with ReviewStore.open(db_path) as store:
        assert store.notice is None
        answer(store, "q1", T0)
    assert pragmas(db_path) == (SCHEMA_VERSION, APPLICATION_ID)


def test_undo_review_refuses_when_a_later_review_of_the_card_exists(location) -> None:
    scheduler = make_scheduler(fuzz=False)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    with open_writer(location) as store:

        def answer(minutes: int, kind: str) -> int:
            store.record_answer(
                question_id="q",
                deck_id="d",
                topic="t",
                rating=Rating.Good,
                correct=True,
                when=start + timedelta(minutes=minutes),
                duration_ms=1000,
                kind=kind,
                scheduler=scheduler,
            )
            assert store.last_review_id is not None
            return store.last_review_id

        first = answer(0, "quiz")
        after_first = store.card("q").to_dict()
        second = answer(20, "exam")
        assert store.undo_review(first) is None  # the exam's later review stands
        assert store.review_count() == 2
        assert store.undo_review(second) == "q"
        assert store.card("q").to_dict() == after_first
        assert store.undo_review(first) == "q" and store.card("q") is None
