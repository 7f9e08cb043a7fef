"""The PostgreSQL store against SQLite's, on a class's data (issue 13): 300 students, 100,000
cards and 1,000,000 reviews (bench/store_data.py, seeded, made afresh each run in ~5 s: no
cache).

A class on SQLite is one file per student, so the two are compared per student: the PostgreSQL
database holds all 300 students' rows, the SQLite file (the baseline) one student's own history.
Both commit durably: the cluster runs with PostgreSQL's defaults (fsync, synchronous commit,
full page writes), the SQLite store with WAL and synchronous=FULL as always, both on the same
disk. The bench starts its own cluster as the tests do (tests/postgres_server.py) and removes it
at the end; without the server binaries or psycopg it skips with one line.

- answer commit: `record_answer`, the call the app's writer makes for every answer (the card
  locked, the review inserted, FSRS rescheduling, the card saved, committed).
- drill queue: `build_drill_queue`, as the app builds a student's due queue at the start of a
  drill, over a 480-question bank.
- 50 students at once: 50 threads, each a student with its own connection (PostgreSQL) or its
  own file (SQLite), answering at once; the answers per second are printed.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib.util
import shutil
import sqlite3
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench_drill import build_bank, card_templates
from harness import Benchmark, Result, percentile
from store_data import Shape, StudentHistory, class_histories, student_name

from quizapp.srs.memory.scheduling import Rating, make_scheduler
from quizapp.srs.store.history import HistoryStore, PostgresLocation
from quizapp.srs.store.sqlite.store import ReviewStore
from quizapp.srs.study.queue import build_drill_queue
from tests.postgres_server import running_server, server_binaries

SHAPE = Shape()
CONCURRENT = 50  # students answering at once
ANSWERS_EACH = 20  # per student per timed run
NEW_PER_DAY = 20
# Targets (docs/postgresql-bench.md says why):
MAX_COMMIT_RATIO = 3.0  # PostgreSQL's median answer commit within 3x SQLite's, both durable
MAX_COMMIT_S = 0.05  # and within 50 ms: committed before the next question shows, unnoticed
MAX_QUEUE_S = 0.1  # a drill queue within bench_drill's budget for 100k cards
MIN_ANSWERS_PER_S = 150  # 300 students each answering every 2 s, at once
DATABASE = "quizapp_bench"
COMPARED = "PostgreSQL holds all 300 students; SQLite (baseline) one student's own file"

_CARD_COLUMNS = "question_id, card_json, state, due_ms, first_review_ms, last_review_ms"
_REVIEW_COLUMNS = (
    "question_id, deck_id, topic, kind, reviewed_ms, rating, correct, duration_ms,"
    " state_before, card_before"
)
_FLAG_COLUMNS = "question_id, suspended, buried_until_ms"

_state: dict[str, Any] = {}


def skip_reason() -> str | None:
    if server_binaries() is None:
        return "PostgreSQL server binaries not found (/usr/lib/postgresql/*/bin, QUIZAPP_PG_BIN)"
    if importlib.util.find_spec("psycopg") is None:
        return "psycopg is not installed"
    return None


# -- the class, loaded once for the three benchmarks, removed at exit ----------------------------


def setup() -> None:
    if _state:
        return
    exits = contextlib.ExitStack()
    atexit.register(exits.close)
    folder = Path(tempfile.mkdtemp(prefix="quizapp-bench-store-"))
    exits.callback(shutil.rmtree, folder, ignore_errors=True)
    binaries = server_binaries()
    assert binaries is not None
    server = exits.enter_context(running_server(binaries, durable=True))
    import psycopg

    with psycopg.connect(server.url(), autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {DATABASE}")
        version = admin.execute("SHOW server_version").fetchone()[0]  # type: ignore[index]
    url = server.url(DATABASE)
    now = datetime.now(UTC).replace(microsecond=0)
    started = time.perf_counter()
    compared = load_class(url, folder, now)
    loaded_s = time.perf_counter() - started
    stores = {
        "pg": exits.enter_context(open_pg(url, compared[0].student)),
        "sqlite": exits.enter_context(ReviewStore.open(sqlite_path(folder, 0))),
    }
    _state.update(
        folder=folder,
        url=url,
        stores=stores,
        questions=build_bank(SHAPE.questions),
        cards={side: [c[0] for c in compared[0].cards] for side in stores},
        scheduler=make_scheduler(),
        answered=0,
        answered_lock=threading.Lock(),
        rates={},
    )
    print(
        f"store: {SHAPE.students} students, {SHAPE.cards:,} cards, {SHAPE.reviews:,} reviews made"
        f" and loaded in {loaded_s:.0f} s (PostgreSQL {version}: COPY; SQLite: one file for each"
        f" of the first {CONCURRENT} students); both durable (fsync; synchronous=FULL)"
    )


def load_class(url: str, folder: Path, now: datetime) -> list[StudentHistory]:
    """Every student into PostgreSQL (COPY, secondary indexes built after), the first
    CONCURRENT students each into their own SQLite file too. Returns those students."""
    import psycopg

    from quizapp.srs.store.postgres.schema import CLASS_SCHEMA
    from quizapp.srs.store.postgres.setup import ClassRoles, set_up_class
    from quizapp.srs.store.postgres.store import pin_schema

    with psycopg.connect(url, autocommit=True) as admin:  # the real schema, as class init makes it
        for group in ("quizapp_bench_students", "quizapp_bench_instructors"):
            admin.execute(f"CREATE ROLE {group} NOLOGIN")
        set_up_class(admin, ClassRoles("quizapp_bench_students", "quizapp_bench_instructors"))
    templates = card_templates(now)
    kept: list[StudentHistory] = []
    with psycopg.connect(url) as db:
        pin_schema(db, CLASS_SCHEMA)
        # Secondary indexes are built once after the load rather than row by row during it.
        indexes = db.execute(
            "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema()"
            " AND tablename IN ('cards', 'reviews', 'card_flags') AND indexname NOT LIKE '%pkey'"
            " AND indexname NOT LIKE '%versions'"  # the versions' unique keys stay: rows need them
        ).fetchall()
        for name, _definition in indexes:
            db.execute(f'DROP INDEX "{name}"')
        for history in class_histories(SHAPE, now, templates):
            if len(kept) < CONCURRENT:
                kept.append(history)
            copy_student(db, history)
        for _name, definition in indexes:
            db.execute(definition)
        db.commit()
        db.autocommit = True
        db.execute("ANALYZE")
    for index, history in enumerate(kept):
        load_sqlite(sqlite_path(folder, index), history)
    return kept


def copy_student(db: Any, history: StudentHistory) -> None:
    student = history.student
    for table, columns, rows in (
        ("cards", _CARD_COLUMNS, history.cards),
        ("reviews", _REVIEW_COLUMNS, history.reviews),
        ("card_flags", _FLAG_COLUMNS, history.flags),
    ):
        with db.cursor().copy(f"COPY {table} (student, {columns}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row((student, *row))


def load_sqlite(path: Path, history: StudentHistory) -> None:
    """The store makes the file (its real schema); the rows go in with executemany in one
    transaction. The file is then exactly as the app keeps it (WAL, synchronous=FULL)."""
    ReviewStore.open(path).close()
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("BEGIN")
        for table, columns, rows in (
            ("cards", _CARD_COLUMNS, history.cards),
            ("reviews", _REVIEW_COLUMNS, history.reviews),
            ("card_flags", _FLAG_COLUMNS, history.flags),
        ):
            marks = ", ".join("?" * len(columns.split(",")))
            db.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", rows)
        db.execute("COMMIT")
        db.execute("ANALYZE")
    finally:
        db.close()


def sqlite_path(folder: Path, index: int) -> Path:
    return folder / f"{student_name(index)}.sqlite3"


def open_pg(url: str, student: str) -> HistoryStore:
    from quizapp.srs.store.postgres.store import PostgresStore

    return PostgresStore.open(PostgresLocation(url, student))


def open_side(side: str, index: int) -> HistoryStore:
    if side == "pg":
        return open_pg(_state["url"], student_name(index))
    return ReviewStore.open(sqlite_path(_state["folder"], index))


# -- answer commit ------------------------------------------------------------------------------


def answer(store: HistoryStore, question_id: str) -> None:
    """One answer, as the app's writer records it (quizapp/srs/store/writer.py)."""
    store.record_answer(
        question_id=question_id,
        deck_id=question_id.split("-", 1)[0],
        topic="topic-" + question_id.split("-", 1)[0].removeprefix("deck"),
        rating=Rating.Good,
        correct=True,
        when=datetime.now(UTC),
        duration_ms=8_000,
        kind="drill",
        scheduler=_state["scheduler"],
    )


def commit_on(side: str) -> Callable[[], None]:
    def commit() -> None:
        cards = _state["cards"][side]
        question_id = cards.pop(0)  # the student's cards in turn, the same turn on both sides
        cards.append(question_id)
        answer(_state["stores"][side], question_id)
        if side == "pg":
            count_answers(1)

    return commit


def percentiles(result: Result) -> list[str]:
    return [
        f"95th percentile: PostgreSQL {percentile(result.candidate_times, 0.95) * 1000:.1f}ms,"
        f" SQLite {percentile(result.baseline_times, 0.95) * 1000:.1f}ms"
        f" ({len(result.candidate_times)} answers each)",
        COMPARED,
    ]


# -- drill queue --------------------------------------------------------------------------------


def queue_on(side: str) -> Callable[[], None]:
    def build() -> None:
        queue = build_drill_queue(
            _state["stores"][side], _state["questions"], datetime.now(UTC), new_per_day=NEW_PER_DAY
        )
        assert queue.due, "the student has cards due"  # a queue of nothing measures nothing

    return build


# -- 50 students at once ------------------------------------------------------------------------


def concurrently_on(side: str) -> Callable[[], float]:
    """CONCURRENT threads, each a student with their own store, ANSWERS_EACH answers each; the
    time from all being ready to the last answer committed (opening and closing not timed)."""

    def run() -> float:
        ready = threading.Barrier(CONCURRENT + 1)
        finished: list[float] = []
        failures: list[BaseException] = []

        def student(index: int) -> None:
            try:
                with open_side(side, index) as store:
                    cards = [qid for qid, *_ in store.card_rows()][:ANSWERS_EACH]
                    ready.wait()
                    for question_id in cards:
                        answer(store, question_id)
                        if side == "pg":
                            count_answers(1)
                    finished.append(time.perf_counter())
            except BaseException as exc:  # reported in the main thread
                failures.append(exc)
                ready.abort()

        threads = [threading.Thread(target=student, args=(i,)) for i in range(CONCURRENT)]
        for thread in threads:
            thread.start()
        with contextlib.suppress(threading.BrokenBarrierError):
            ready.wait()
        start = time.perf_counter()
        for thread in threads:
            thread.join()
        if failures:
            raise failures[0]
        elapsed = max(finished) - start
        _state["rates"].setdefault(side, []).append(CONCURRENT * ANSWERS_EACH / elapsed)
        return elapsed

    return run


def count_answers(n: int) -> None:
    with _state["answered_lock"]:
        _state["answered"] += n


def class_keeps_up() -> bool:
    """PostgreSQL's median rate reaches MIN_ANSWERS_PER_S, and every answer given to it in
    this run is stored, once: the class's review count is the loaded count plus them."""
    stored = _state["stores"]["pg"].connection.execute("SELECT count(*) FROM reviews").fetchone()
    all_stored = stored[0] == SHAPE.reviews + _state["answered"]
    if not all_stored:
        print(f"    {stored[0]} reviews stored, {SHAPE.reviews + _state['answered']} expected")
    return statistics.median(_state["rates"]["pg"]) >= MIN_ANSWERS_PER_S and all_stored


def throughput(result: Result) -> list[str]:
    answers = CONCURRENT * ANSWERS_EACH
    return [
        f"{CONCURRENT} students at once: PostgreSQL {answers / result.candidate_s:.0f}"
        f" answers/s, SQLite (a file each) {answers / result.baseline_s:.0f} answers/s",
    ]


BENCHMARKS = [
    Benchmark(
        name="store: answer commit",
        description="record_answer committed, one student of 300 on PostgreSQL vs their SQLite",
        candidate=commit_on("pg"),
        baseline=commit_on("sqlite"),
        max_ratio=MAX_COMMIT_RATIO,
        max_seconds=MAX_COMMIT_S,
        setup=setup,
        repeats=200,
        baseline_label="the same answers to the student's own SQLite file (WAL, synchronous=FULL)",
        notes=percentiles,
    ),
    Benchmark(
        name="store: drill queue",
        description="build_drill_queue for one student of 300 (~333 cards, 480 questions)",
        candidate=queue_on("pg"),
        baseline=queue_on("sqlite"),
        max_ratio=None,  # SQLite reads ~333 rows in-process; PostgreSQL pays 5 round trips
        max_seconds=MAX_QUEUE_S,
        setup=setup,
        repeats=15,
        baseline_label="the same student's queue from their own SQLite file",
        notes=lambda result: [COMPARED],
    ),
    Benchmark(
        name="store: 50 students at once",
        description=f"{CONCURRENT} threads, each a student, {ANSWERS_EACH} answers each, at once",
        candidate=concurrently_on("pg"),
        baseline=concurrently_on("sqlite"),
        max_ratio=None,
        setup=setup,
        repeats=3,
        self_timed=True,
        verdict=class_keeps_up,
        verdict_label=f">={MIN_ANSWERS_PER_S}/s, all kept",
        baseline_label="the same 50 students, each on their own SQLite file",
        notes=throughput,
    ),
]
