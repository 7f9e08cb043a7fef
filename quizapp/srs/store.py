"""Review history in SQLite: every answer committed the moment it is given.

- WAL mode and `synchronous=FULL`: a `kill -9` (or a power cut) loses nothing committed.
- A busy timeout, and `BEGIN IMMEDIATE` for every write, so two instances can share a file.
- `PRAGMA application_id` marks the file as ours and `user_version` carries the schema
  version, which `MIGRATIONS` brings forward one step at a time.
- A file at the path that is not ours, or is damaged, is moved aside (never overwritten) and
  a fresh database starts; `ReviewStore.notice` says what happened and where the file went.

Times are stored as integer milliseconds since the Unix epoch, UTC.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

from quizapp.srs.scheduling import Card, Rating, Scheduler, require_aware, review

APPLICATION_ID = 0x51554941  # "QUIA"
SCHEMA_VERSION = 1
BUSY_TIMEOUT_MS = 10_000
SQLITE_MAGIC = b"SQLite format 3\x00"

MIGRATIONS: dict[int, Sequence[str]] = {
    1: (
        """CREATE TABLE cards (
            question_id TEXT PRIMARY KEY,
            card_json TEXT NOT NULL,           -- py-fsrs Card.to_dict()
            state INTEGER NOT NULL,            -- fsrs State: 1 learning, 2 review, 3 relearning
            due_ms INTEGER NOT NULL,
            first_review_ms INTEGER NOT NULL,
            last_review_ms INTEGER NOT NULL
        )""",
        "CREATE INDEX cards_by_due ON cards(due_ms)",
        "CREATE INDEX cards_by_first_review ON cards(first_review_ms)",
        """CREATE TABLE reviews (
            id INTEGER PRIMARY KEY,
            question_id TEXT NOT NULL,
            deck_id TEXT NOT NULL,
            topic TEXT NOT NULL,
            kind TEXT NOT NULL,                -- quiz, drill or exam
            reviewed_ms INTEGER NOT NULL,
            rating INTEGER NOT NULL,           -- 1 Again, 2 Hard, 3 Good, 4 Easy
            correct INTEGER NOT NULL,
            duration_ms INTEGER,
            state_before INTEGER,              -- NULL for a card's first review
            card_before TEXT                   -- for undo; NULL when the card was new
        )""",
        "CREATE INDEX reviews_by_time ON reviews(reviewed_ms)",
        "CREATE INDEX reviews_by_question ON reviews(question_id, reviewed_ms)",
        """CREATE TABLE card_flags (
            question_id TEXT PRIMARY KEY,
            suspended INTEGER NOT NULL DEFAULT 0,
            buried_until_ms INTEGER
        )""",
        """CREATE TABLE exams (
            id INTEGER PRIMARY KEY,
            taken_ms INTEGER NOT NULL,
            questions INTEGER NOT NULL,
            correct INTEGER NOT NULL,
            passed INTEGER NOT NULL,
            threshold REAL NOT NULL,
            seconds REAL NOT NULL,
            detail TEXT NOT NULL               -- JSON: by-topic scores, seed, missed ids
        )""",
    ),
}


def to_ms(moment: datetime) -> int:
    return int(require_aware(moment).timestamp() * 1000)


def from_ms(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, tz=UTC)


@dataclass(frozen=True)
class ReviewRow:
    question_id: str
    deck_id: str
    topic: str
    kind: str
    reviewed_at: datetime
    rating: int
    correct: bool
    duration_ms: int | None
    state_before: int | None


class HistoryError(Exception):
    """The history file cannot be used (and could not be moved aside)."""


class ReviewStore:
    def __init__(
        self, connection: sqlite3.Connection, path: Path | None, notice: str | None
    ) -> None:
        self.connection = connection
        self.path = path
        self.last_review_id: int | None = None  # the row record_answer wrote last
        self.notice = notice  # e.g. "… was not a quizapp history; moved to …"

    # -- opening ------------------------------------------------------------------------------

    @classmethod
    def open(cls, path: str | Path) -> ReviewStore:
        path = Path(path)
        notice = None
        if str(path) != ":memory:":
            if path.is_dir():
                # A folder is never a history someone damaged: it is a mistyped --db. Refuse it
                # rather than rename someone's folder out of the way.
                raise HistoryError(f"{path} is a folder; give --db the path of a file")
            path.parent.mkdir(parents=True, exist_ok=True)
            problem = _while_busy(path, lambda: _inspect(path))
            if problem:
                moved = _move_aside(path)
                notice = f"{path} {problem}; it was moved to {moved} and a fresh history started"
        try:
            connection = _while_busy(path, lambda: _open_migrated(path))
        except sqlite3.DatabaseError as exc:
            if str(path) == ":memory:":
                raise
            # Damage that only shows once SQLite reads past the header.
            moved = _move_aside(path)
            notice = f"{path} could not be read ({exc}); it was moved to {moved} and a fresh history started"
            connection = _while_busy(path, lambda: _open_migrated(path))
        return cls(connection, None if str(path) == ":memory:" else path, notice)

    def close(self) -> None:
        self.connection.close()

    def __enter__(self) -> ReviewStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- answering ----------------------------------------------------------------------------

    def record_answer(
        self,
        *,
        question_id: str,
        deck_id: str,
        topic: str,
        rating: Rating,
        correct: bool,
        when: datetime,
        duration_ms: int | None,
        kind: str,
        scheduler: Scheduler,
    ) -> Card:
        """Schedule the card and commit the review in one transaction, before returning."""
        when_ms = to_ms(when)
        with self._write() as db:
            row = db.execute(
                "SELECT card_json, state, first_review_ms FROM cards WHERE question_id = ?",
                (question_id,),
            ).fetchone()
            before = Card.from_dict(json.loads(row[0])) if row else None
            after, _log = review(scheduler, before, rating, when, duration_ms)
            cursor = db.execute(
                "INSERT INTO reviews (question_id, deck_id, topic, kind, reviewed_ms, rating, correct,"
                " duration_ms, state_before, card_before) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    question_id,
                    deck_id,
                    topic,
                    kind,
                    when_ms,
                    int(rating),
                    int(correct),
                    duration_ms,
                    row[1] if row else None,
                    row[0] if row else None,
                ),
            )
            self.last_review_id = cursor.lastrowid
            db.execute(
                "INSERT INTO cards (question_id, card_json, state, due_ms, first_review_ms, last_review_ms)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(question_id) DO UPDATE SET"
                " card_json = excluded.card_json, state = excluded.state, due_ms = excluded.due_ms,"
                " last_review_ms = excluded.last_review_ms",
                (
                    question_id,
                    json.dumps(after.to_dict()),
                    int(after.state),
                    to_ms(after.due),
                    row[2] if row else when_ms,
                    when_ms,
                ),
            )
        return after

    def undo_last(self, kind: str | None = None) -> str | None:
        """Take back the latest review (of `kind`, if given): its row goes, the card returns to
        what it was before. Returns the question id, or None when there is nothing to undo."""
        query = "SELECT id FROM reviews"
        params: tuple[object, ...] = ()
        if kind is not None:
            query += " WHERE kind = ?"
            params = (kind,)
        row = self.connection.execute(query + " ORDER BY id DESC LIMIT 1", params).fetchone()
        return None if row is None else self.undo_review(row[0])

    def undo_review(self, review_id: int) -> str | None:
        """Take back one review, provided it is still its card's latest (restoring the card to
        before it would otherwise throw away what a later review did). Returns the question id,
        or None when the review is gone or a later one exists."""
        with self._write() as db:
            row = db.execute(
                "SELECT question_id, card_before FROM reviews WHERE id = ?", (review_id,)
            ).fetchone()
            if row is None:
                return None
            question_id, card_before = row
            later = db.execute(
                "SELECT 1 FROM reviews WHERE question_id = ? AND id > ? LIMIT 1",
                (question_id, review_id),
            ).fetchone()
            if later:
                return None
            db.execute("DELETE FROM reviews WHERE id = ?", (review_id,))
            if card_before is None:
                db.execute("DELETE FROM cards WHERE question_id = ?", (question_id,))
            else:
                card = Card.from_dict(json.loads(card_before))
                last = db.execute(
                    "SELECT MAX(reviewed_ms) FROM reviews WHERE question_id = ?", (question_id,)
                ).fetchone()[0]
                db.execute(
                    "UPDATE cards SET card_json = ?, state = ?, due_ms = ?, last_review_ms = ?"
                    " WHERE question_id = ?",
                    (card_before, int(card.state), to_ms(card.due), last or 0, question_id),
                )
        return question_id

    # -- burying and suspending ---------------------------------------------------------------

    def bury(self, question_id: str, until: datetime) -> None:
        """Hide a card from drills until `until` (Anki's bury: typically the next day)."""
        with self._write() as db:
            db.execute(
                "INSERT INTO card_flags (question_id, buried_until_ms) VALUES (?, ?)"
                " ON CONFLICT(question_id) DO UPDATE SET buried_until_ms = excluded.buried_until_ms",
                (question_id, to_ms(until)),
            )

    def unbury(self, question_id: str) -> None:
        with self._write() as db:
            db.execute(
                "UPDATE card_flags SET buried_until_ms = NULL WHERE question_id = ?", (question_id,)
            )

    def set_suspended(self, question_id: str, suspended: bool = True) -> None:
        """Keep a card out of drills until it is unsuspended."""
        with self._write() as db:
            db.execute(
                "INSERT INTO card_flags (question_id, suspended) VALUES (?, ?)"
                " ON CONFLICT(question_id) DO UPDATE SET suspended = excluded.suspended",
                (question_id, int(suspended)),
            )

    def suspended_ids(self) -> list[str]:
        rows = self.connection.execute(
            "SELECT question_id FROM card_flags WHERE suspended = 1 ORDER BY question_id"
        )
        return [r[0] for r in rows]

    def hidden_ids(self, now: datetime) -> set[str]:
        """Suspended cards, and cards buried until after `now`."""
        rows = self.connection.execute(
            "SELECT question_id FROM card_flags WHERE suspended = 1 OR buried_until_ms > ?",
            (to_ms(now),),
        )
        return {r[0] for r in rows}

    # -- reading ------------------------------------------------------------------------------

    def card(self, question_id: str) -> Card | None:
        row = self.connection.execute(
            "SELECT card_json FROM cards WHERE question_id = ?", (question_id,)
        ).fetchone()
        return Card.from_dict(json.loads(row[0])) if row else None

    def due_ids(self, now: datetime) -> list[str]:
        """Cards due by `now`, most overdue first (suspended and buried ones included)."""
        rows = self.connection.execute(
            "SELECT question_id FROM cards WHERE due_ms <= ? ORDER BY due_ms", (to_ms(now),)
        )
        return [r[0] for r in rows]

    def known_ids(self) -> set[str]:
        return {r[0] for r in self.connection.execute("SELECT question_id FROM cards")}

    def first_reviewed_since(self, since: datetime) -> int:
        """How many cards had their first review at or after `since` (new cards introduced)."""
        return self.connection.execute(
            "SELECT COUNT(*) FROM cards WHERE first_review_ms >= ?", (to_ms(since),)
        ).fetchone()[0]

    def next_due(self, after: datetime, exclude: set[str] = frozenset()) -> datetime | None:
        rows = self.connection.execute(
            "SELECT question_id, due_ms FROM cards WHERE due_ms > ? ORDER BY due_ms",
            (to_ms(after),),
        )
        for question_id, due_ms in rows:
            if question_id not in exclude:
                return from_ms(due_ms)
        return None

    def due_times(self) -> list[tuple[str, datetime]]:
        rows = self.connection.execute("SELECT question_id, due_ms FROM cards")
        return [(qid, from_ms(ms)) for qid, ms in rows]

    def reviews(self, since: datetime | None = None) -> Iterator[ReviewRow]:
        query = (
            "SELECT question_id, deck_id, topic, kind, reviewed_ms, rating, correct, duration_ms,"
            " state_before FROM reviews"
        )
        params: tuple[object, ...] = ()
        if since is not None:
            query += " WHERE reviewed_ms >= ?"
            params = (to_ms(since),)
        for row in self.connection.execute(query + " ORDER BY reviewed_ms", params):
            yield ReviewRow(
                row[0],
                row[1],
                row[2],
                row[3],
                from_ms(row[4]),
                row[5],
                bool(row[6]),
                row[7],
                row[8],
            )

    def review_count(self) -> int:
        return self.connection.execute("SELECT COUNT(*) FROM reviews").fetchone()[0]

    # -- exams --------------------------------------------------------------------------------

    def record_exam(
        self,
        *,
        taken: datetime,
        questions: int,
        correct: int,
        passed: bool,
        threshold: float,
        seconds: float,
        detail: dict[str, object],
    ) -> int:
        with self._write() as db:
            cursor = db.execute(
                "INSERT INTO exams (taken_ms, questions, correct, passed, threshold, seconds, detail)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    to_ms(taken),
                    questions,
                    correct,
                    int(passed),
                    threshold,
                    seconds,
                    json.dumps(detail),
                ),
            )
            return int(cursor.lastrowid or 0)

    def exams(self) -> list[dict[str, object]]:
        rows = self.connection.execute(
            "SELECT id, taken_ms, questions, correct, passed, threshold, seconds, detail FROM exams"
            " ORDER BY taken_ms"
        )
        return [
            {
                "id": r[0],
                "taken": from_ms(r[1]).isoformat(),
                "questions": r[2],
                "correct": r[3],
                "passed": bool(r[4]),
                "threshold": r[5],
                "seconds": r[6],
                "detail": json.loads(r[7]),
            }
            for r in rows
        ]

    # -- plumbing -----------------------------------------------------------------------------

    def _write(self) -> _Transaction:
        return _Transaction(self.connection)


class _Transaction:
    """BEGIN IMMEDIATE … COMMIT: takes the write lock up front (waiting out the busy timeout),
    so a second instance never fails half-way through an answer."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection

    def __enter__(self) -> sqlite3.Connection:
        self.connection.execute("BEGIN IMMEDIATE")
        return self.connection

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        if exc_type is None:
            self.connection.execute("COMMIT")
        else:
            self.connection.execute("ROLLBACK")


def _configure(connection: sqlite3.Connection, path: Path) -> None:
    # The caller connects with isolation_level=None (we issue BEGIN/COMMIT ourselves, so
    # nothing is left uncommitted) and has set the busy timeout.
    if str(path) != ":memory:":
        connection.execute("PRAGMA journal_mode = WAL")
    connection.execute("PRAGMA synchronous = FULL")
    connection.execute("PRAGMA foreign_keys = ON")


def _open_migrated(path: Path) -> sqlite3.Connection:
    # A connection that fails here is closed: it must not hold a file that is refused (a newer
    # schema) or about to be moved aside.
    connection = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
    try:
        connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        _refuse_newer(connection)  # before the switch to WAL: a refused file is left as it was
        _configure(connection, path)
        _migrate(connection)
    except BaseException:
        connection.close()
        raise
    return connection


def _refuse_newer(connection: sqlite3.Connection) -> int:
    version = connection.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise HistoryError(
            f"this history was written by a newer quizapp (schema {version}; this one reads up to "
            f"{SCHEMA_VERSION}); upgrade quizapp to use it"
        )
    return version


def _is_busy(exc: sqlite3.Error) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
    return "locked" in str(exc) or "busy" in str(exc)


_T = TypeVar("_T")


def _while_busy(path: Path, attempt: Callable[[], _T]) -> _T:
    """Retry `attempt` while another instance holds a lock the busy timeout does not cover.

    Switching a new file to WAL needs an exclusive lock, and SQLite answers SQLITE_BUSY at
    once (without waiting) when two connections both try; so can a read-only probe racing
    that switch. Busy means "in use", never "damaged": nothing is moved aside for it."""
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    delay = 0.005
    while True:
        try:
            return attempt()
        except sqlite3.OperationalError as exc:
            if not _is_busy(exc):
                raise
            if time.monotonic() > deadline:
                raise HistoryError(
                    f"{path} is in use by another program and stayed locked ({exc})"
                ) from exc
        time.sleep(delay)
        delay = min(delay * 2, 0.1)


def _migrate(connection: sqlite3.Connection) -> None:
    version = _refuse_newer(connection)
    if version == SCHEMA_VERSION:
        return
    connection.execute("BEGIN IMMEDIATE")
    try:
        # Another instance may have migrated while we waited for the lock.
        version = connection.execute("PRAGMA user_version").fetchone()[0]
        for step in range(version + 1, SCHEMA_VERSION + 1):
            for statement in MIGRATIONS[step]:
                connection.execute(statement)
            connection.execute(f"PRAGMA user_version = {step}")
        connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        connection.execute("COMMIT")
    except BaseException:
        connection.execute("ROLLBACK")
        raise


def _inspect(path: Path) -> str | None:
    """Why the file at `path` cannot be our history, or None if it can (or is not there)."""
    if not path.exists():
        return None
    if path.is_dir():
        return "is a folder"
    try:
        with path.open("rb") as handle:
            header = handle.read(100)
    except OSError as exc:
        return f"cannot be read ({exc.strerror})"
    if not header:
        return None  # an empty file: SQLite starts a database in it
    if not header.startswith(SQLITE_MAGIC):
        return "is not a SQLite database"
    if len(header) < 100:
        return "is a truncated SQLite database"
    application_id = int.from_bytes(header[68:72], "big")
    if application_id not in (0, APPLICATION_ID):
        return "belongs to another application"
    try:
        # as_uri() percent-encodes the path: a bare `file:{path}` would stop at a `?` or `#`
        # in a folder name and probe (and create) some other file.
        probe = sqlite3.connect(
            f"{path.absolute().as_uri()}?mode=ro", uri=True, timeout=BUSY_TIMEOUT_MS / 1000
        )
        try:
            # One read transaction: the id and the tables from the same snapshot, even while
            # another instance is migrating this file.
            probe.execute("BEGIN")
            # The header on disk can lag the WAL (where our migration wrote application_id
            # until a checkpoint); SQLite's own answer includes the WAL.
            application_id = probe.execute("PRAGMA application_id").fetchone()[0]
            if application_id not in (0, APPLICATION_ID):
                return "belongs to another application"
            tables = {
                r[0] for r in probe.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            }
            if application_id == 0 and tables:
                # Our migration marks the file in the transaction that creates the tables.
                return "is a SQLite database of another application"
            verdict = probe.execute("PRAGMA quick_check").fetchone()[0]
            if verdict != "ok":
                return f"is damaged ({verdict})"
        finally:
            probe.close()
    except sqlite3.DatabaseError as exc:
        if isinstance(exc, sqlite3.OperationalError) and _is_busy(exc):
            raise  # in use, not damaged: the caller waits and looks again
        return f"is damaged ({exc})"
    return None


def _move_aside(path: Path) -> Path:
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    target = path.with_name(f"{path.name}.unusable-{stamp}")
    counter = 1
    while target.exists():
        target = path.with_name(f"{path.name}.unusable-{stamp}-{counter}")
        counter += 1
    try:
        os.replace(path, target)
        for suffix in ("-wal", "-shm"):
            side = path.with_name(path.name + suffix)
            if side.exists():
                os.replace(side, target.with_name(target.name + suffix))
    except OSError as exc:
        raise HistoryError(
            f"{path} cannot be used and cannot be moved aside: {exc.strerror}"
        ) from exc
    return target
