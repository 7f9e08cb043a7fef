"""How an answer came in its session is stored with it (schema step 4, SQLite and PostgreSQL),
through the writer and the outbox; an older history gains the column in place, keeps every
row, and its answers are then read as evidence only when they are the first of their day."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from quizapp.bank.session import AIDED, FIRST, REPEAT
from quizapp.srs.memory.scheduling import Rating, make_scheduler
from quizapp.srs.readiness.report import read_history
from quizapp.srs.store.history import PostgresLocation
from quizapp.srs.store.open_history import open_writer
from quizapp.srs.store.outbox import decode, encode
from quizapp.srs.store.schema import SCHEMA_VERSION
from quizapp.srs.store.sqlite.store import ReviewStore
from quizapp.srs.store.writer import HistoryWriter
from quizapp.srs.store.writes import AnswerWrite
from tests.srs.old_history import take_back_to
from tests.srs.readiness_helpers import numeric
from tests.srs.test_writer import wait_until

T0 = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)
SCHEDULER = make_scheduler(fuzz=False)
pytestmark = pytest.mark.usefixtures("utc_local_time")  # days start at UTC midnight


def write(qid: str, minutes: int, attempt: str | None) -> AnswerWrite:
    return AnswerWrite(
        question_id=qid,
        deck_id="d",
        topic="t",
        rating=Rating.Good,
        correct=True,
        when=T0 + timedelta(minutes=minutes),
        duration_ms=2000,
        kind="drill",
        scheduler=SCHEDULER,
        attempt=attempt,
    )


def test_the_writer_stores_how_each_answer_came_on_both_stores(location) -> None:
    writes = [write("q1", 0, FIRST), write("q1", 5, REPEAT), write("q1", 9, AIDED)]
    writer = HistoryWriter(lambda: open_writer(location))
    writer.start()
    for answer in writes:
        writer.submit(answer)
    wait_until(lambda: writer.status().pending == 0, "every answer saved")
    assert writer.close(5) == 0
    with open_writer(location) as store:
        assert [row[-1] for row in store.answer_rows()] == [FIRST, REPEAT, AIDED]
        assert [row[-2] for row in store.answer_rows()] == [int(Rating.Good)] * 3


def test_the_outbox_keeps_how_an_answer_came_and_reads_older_entries_as_not_said() -> None:
    kept = decode(encode(write("q1", 0, AIDED)) or "")
    assert isinstance(kept, AnswerWrite) and kept.attempt == AIDED
    older = (encode(write("q1", 0, None)) or "").replace(', "attempt": null', "")
    assert "attempt" not in older
    assert decode(older) == write("q1", 0, None)


def _columns(path: Path) -> list[str]:
    db = sqlite3.connect(path)
    try:
        return [row[1] for row in db.execute("PRAGMA table_info(reviews)")]
    finally:
        db.close()


def test_an_older_sqlite_history_upgrades_in_place_and_its_first_answers_of_a_day_count(
    tmp_path: Path,
) -> None:
    path = tmp_path / "history.sqlite3"
    with ReviewStore.open(path) as store:
        for minutes in (0, 10, 1440):  # q1 twice on day 0 (a learning step), then day 1
            store.record_answer(
                question_id="q1",
                deck_id="d",
                topic="t",
                rating=Rating.Good,
                correct=True,
                when=T0 + timedelta(minutes=minutes),
                duration_ms=2000,
                kind="drill",
                scheduler=SCHEDULER,
            )
    take_back_to(path, 3)
    assert "attempt" not in _columns(path)
    db = sqlite3.connect(path)
    old_rows = db.execute("SELECT * FROM reviews ORDER BY id").fetchall()
    db.close()

    original = path.read_bytes()
    with ReviewStore.open_readonly(path) as store:  # stats, forecast: migrated in memory only
        assert [row[-1] for row in store.answer_rows()] == [None, None, None]
        facts = read_history(store, {"q1": numeric("q1")}, T0 + timedelta(days=3))
    assert path.read_bytes() == original
    # The day-0 learning step is practice; the day's first answers are evidence.
    assert facts.reviews == 3 and facts.evidence_answers == 2
    assert [r.reviewed_ms for r in facts.past_reviews] == [
        old_rows[0][5],
        old_rows[2][5],
    ]

    with ReviewStore.open(path) as store:
        assert store.notice is None
    db = sqlite3.connect(path)
    try:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        rows = db.execute("SELECT * FROM reviews ORDER BY id").fetchall()
    finally:
        db.close()
    attempt = _columns(path).index("attempt")
    assert [row[:attempt] for row in rows] == old_rows
    assert [row[attempt] for row in rows] == [None, None, None]
    assert not list(tmp_path.glob("*unusable*"))


def test_an_older_postgresql_history_upgrades_in_place(empty_pg_url: str) -> None:
    """A class a step-3 quizapp made, with an answer in it: `class init` (set_up_class)
    brings it forward, the answer kept and read with no attempt, new ones with theirs."""
    psycopg = pytest.importorskip("psycopg")
    from quizapp.srs.store.postgres.schema import SCHEMA_VERSION as PG_SCHEMA_VERSION
    from quizapp.srs.store.postgres.setup import ClassRoles, set_up_class
    from quizapp.srs.store.postgres.store import class_schema, connect, migrate
    from tests.postgres_server import INSTRUCTORS_GROUP, STUDENTS_GROUP

    with connect(empty_pg_url) as db:
        migrate(db, "the test class", target=3)
        db.execute(
            "INSERT INTO reviews (student, question_id, deck_id, topic, kind, reviewed_ms, rating,"
            " correct, duration_ms) VALUES ('ada', 'q1', 'd', 't', 'drill', %s, 3, true, 2000)",
            (int(T0.timestamp() * 1000),),
        )
        old = db.execute("SELECT id, question_id, reviewed_ms FROM reviews").fetchall()
        roles = ClassRoles(STUDENTS_GROUP, INSTRUCTORS_GROUP)
        set_up = set_up_class(db, roles, class_schema(empty_pg_url))
    assert (set_up.version_before, set_up.version_after) == (3, PG_SCHEMA_VERSION)
    with open_writer(PostgresLocation(empty_pg_url, "ada")) as store:
        assert [row[-1] for row in store.answer_rows()] == [None]
        store.record_answer(
            question_id="q1",
            deck_id="d",
            topic="t",
            rating=Rating.Good,
            correct=True,
            when=T0 + timedelta(days=1),
            duration_ms=2000,
            kind="drill",
            scheduler=SCHEDULER,
            attempt=FIRST,
        )
        assert [row[-1] for row in store.answer_rows()] == [None, FIRST]
    with psycopg.connect(empty_pg_url, autocommit=True) as db:
        kept = db.execute(
            "SELECT id, question_id, reviewed_ms FROM reviews ORDER BY id LIMIT 1"
        ).fetchall()
    assert kept == old
