"""Schema step 3: the history keeps what was answered, and an older history upgrades in place."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

from quizapp.srs.memory.scheduling import Rating, make_scheduler
from quizapp.srs.store.history import HistoryStore, PostgresLocation
from quizapp.srs.store.open_history import open_readonly, open_writer
from quizapp.srs.store.schema import MIGRATIONS, SCHEMA_VERSION
from quizapp.srs.store.sqlite.store import ReviewStore
from quizapp.srs.store.writer import HistoryWriter
from quizapp.srs.store.writes import AnswerWrite
from tests.srs.old_history import UNDO_STEP, take_back_to

T0 = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)


def answer(store: HistoryStore, qid: str, day: int, response: dict | None = None) -> None:
    store.record_answer(
        question_id=qid,
        deck_id="deck-a",
        topic="attention",
        rating=Rating.Again if response else Rating.Good,
        correct=not response,
        when=T0 + timedelta(days=day),
        duration_ms=3000,
        kind="drill",
        scheduler=make_scheduler(fuzz=False),
        response=response,
    )


def columns(path: Path) -> list[str]:
    db = sqlite3.connect(path)
    try:
        return [row[1] for row in db.execute("PRAGMA table_info(reviews)")]
    finally:
        db.close()


def test_every_later_step_can_be_taken_back_for_old_history_tests() -> None:
    assert set(UNDO_STEP) == set(MIGRATIONS) - {1}
    assert MIGRATIONS[3] == ("ALTER TABLE reviews ADD COLUMN response TEXT",)
    assert max(MIGRATIONS) == SCHEMA_VERSION


def test_a_version_2_history_with_reviews_upgrades_and_keeps_them(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    with ReviewStore.open(path) as store:
        for day, qid in enumerate(["q1", "q2", "q1"]):
            answer(store, qid, day)
    take_back_to(path, 2)
    assert "response" not in columns(path)
    db = sqlite3.connect(path)
    old_rows = db.execute("SELECT * FROM reviews ORDER BY id").fetchall()
    db.close()

    original = path.read_bytes()
    with ReviewStore.open_readonly(path) as store:  # stats: migrated in memory only
        assert store.review_count() == 3 and list(store.responses()) == []
    assert path.read_bytes() == original

    with ReviewStore.open(path) as store:
        assert store.notice is None
        assert [r.question_id for r in store.reviews()] == ["q1", "q2", "q1"]
        assert list(store.responses()) == []  # nothing was captured back then
        answer(store, "q2", 5, {"chosen": [2]})
    db = sqlite3.connect(path)
    try:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        rows = db.execute("SELECT * FROM reviews ORDER BY id").fetchall()
    finally:
        db.close()
    kept = len(old_rows[0])  # the later steps' columns come after the old ones
    assert [row[:kept] for row in rows[:3]] == old_rows
    response = columns(path).index("response")
    assert [row[response] for row in rows] == [None, None, None, '{"chosen": [2]}']
    assert not list(tmp_path.glob("*unusable*"))


def test_responses_are_read_back_oldest_first_and_junk_is_left_out(tmp_path: Path) -> None:
    with ReviewStore.open(tmp_path / "h.sqlite3") as store:
        answer(store, "q1", 1, {"chosen": True})
        answer(store, "q2", 0, {"value": 3.0, "text": "3", "trap": 0})
        answer(store, "q3", 2)
        answer(store, "q4", 3, {"order": [1, 0]})
        with store.transaction() as db:
            db.execute("UPDATE reviews SET response = 'not json' WHERE question_id = 'q4'")
        rows = list(store.responses())
        assert [(r.question_id, r.response) for r in rows] == [
            ("q2", {"value": 3.0, "text": "3", "trap": 0}),
            ("q1", {"chosen": True}),
        ]
        assert rows[0].reviewed_at == T0 and rows[0].kind == "drill" and not rows[0].correct
        assert [r.question_id for r in store.responses(since=T0 + timedelta(hours=1))] == ["q1"]


def test_both_stores_read_responses_back_oldest_first(location: Path | PostgresLocation) -> None:
    with open_writer(location) as store:
        answer(store, "q1", 1, {"chosen": True})
        answer(store, "q2", 0, {"value": 3.0, "text": "3", "trap": 0, "variant": {"n": 8}})
        answer(store, "q3", 2)
        rows = list(store.responses())
        assert [(r.question_id, r.response) for r in rows] == [
            ("q2", {"value": 3.0, "text": "3", "trap": 0, "variant": {"n": 8}}),
            ("q1", {"chosen": True}),
        ]
        assert rows[0].reviewed_at == T0 and rows[0].kind == "drill" and not rows[0].correct
        assert [r.question_id for r in store.responses(since=T0 + timedelta(hours=1))] == ["q1"]


def test_the_writer_saves_the_response_with_the_answer(location: Path | PostgresLocation) -> None:
    writer = HistoryWriter(lambda: open_writer(location))
    writer.start()
    writer.submit(
        AnswerWrite(
            question_id="q1",
            deck_id="d",
            topic="t",
            rating=Rating.Again,
            correct=False,
            when=T0,
            duration_ms=1000,
            kind="quiz",
            scheduler=make_scheduler(fuzz=False),
            response={"chosen": [1, 3]},
        )
    )
    assert writer.close(10) == 0
    with open_readonly(location) as store:
        assert [r.response for r in store.responses()] == [{"chosen": [1, 3]}]
