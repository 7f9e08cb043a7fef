"""Review history in SQLite: every answer committed in one transaction.

- WAL mode and `synchronous=FULL`: a `kill -9` (or a power cut) loses nothing committed.
- A busy timeout, and `BEGIN IMMEDIATE` for every write, so two instances can share a file.
- `PRAGMA application_id` marks the file as ours and `user_version` carries the schema
  version, which `MIGRATIONS` brings forward one step at a time (quizapp/srs/store/schema.py).
- Opening (quizapp/srs/store/sqlite/history_file.py) moves a file aside only when it is proved damaged or
  foreign, and `ReviewStore.notice` says where it went; anything else that stands in the way
  (a full disk, a lock, a device at the path…) is a HistoryError and the file stays as it was.
- `open_readonly` (for `quizapp stats`) creates, migrates and moves nothing.

The app writes through quizapp/srs/store/writer.py, off the UI thread. Times are stored as integer
milliseconds since the Unix epoch, UTC.

A review of kind `practice` (a quiz that does not reschedule) is a row in `reviews` and
nothing else: the card, its due date and whether it counts as new stay as they were.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path

from quizapp.bank.responses import to_json
from quizapp.srs.memory.scheduling import Card, Rating, Scheduler, review
from quizapp.srs.store.history import PRACTICE
from quizapp.srs.store.schema import APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION
from quizapp.srs.store.sqlite import history_file
from quizapp.srs.store.sqlite.history_file import BUSY_TIMEOUT_MS, MEMORY, HistoryError
from quizapp.srs.store.sqlite.reads import SqliteReads
from quizapp.srs.times import from_ms, to_ms

__all__ = [
    "APPLICATION_ID",
    "BUSY_TIMEOUT_MS",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "HistoryError",
    "ReviewStore",
]


class ReviewStore(SqliteReads):  # what it reads: quizapp/srs/store/sqlite/reads.py
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
        """Open (creating or migrating if need be) the history to read and write."""
        path = Path(path)
        connection, notice = history_file.open_for_writing(path)
        return cls(connection, None if path == MEMORY else path, notice)

    @classmethod
    def open_in_place(cls, path: str | Path) -> ReviewStore:
        """Open an existing history to write, migrating it if need be, but never moving it
        aside: a damaged or foreign file is a HistoryError and stays as it was (for commands
        that write beside the app, such as `quizapp optimize`)."""
        path = Path(path)
        if history_file.stat_history(path) is None:
            raise HistoryError(f"{path}: there is no review history there yet")
        # Damaged, foreign or newer: a HistoryError here, and the file stays as it was.
        history_file.open_for_reading(path).close()
        try:
            connection = history_file.while_busy(path, lambda: history_file.open_migrated(path))
        except sqlite3.Error as exc:
            raise history_file.reading_error(path, exc) from exc
        return cls(connection, path, None)

    @classmethod
    def open_readonly(cls, path: str | Path) -> ReviewStore:
        """Open the history to read only: nothing is created, migrated or moved, and a missing
        history reads as empty."""
        path = Path(path)
        return cls(history_file.open_for_reading(path), path, None)

    @classmethod
    def open_reader(cls, path: str | Path) -> ReviewStore:
        """A read-only connection beside a writer that has opened the file already."""
        path = Path(path)
        return cls(history_file.open_reader(path), path, None)

    def reopen(self) -> None:
        """Replace the connection with a fresh one to the same file (after I/O errors)."""
        if self.path is None:
            return
        connection = history_file.reconnect(self.path)
        self.connection.close()
        self.connection = connection

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
        response: Mapping[str, object] | None = None,
        attempt: str | None = None,
    ) -> Card | None:
        """Schedule the card and commit the review in one transaction, before returning.
        `response`: what was answered, JSON-ready (quizapp/bank/responses.py), or None.
        `attempt`: how it came in its session (first, repeat, aided), or None: not said.
        Returns the card as it now stands (None: a practice answer to a card never scheduled)."""
        when_ms = to_ms(when)
        with self._write() as db:
            row = db.execute(
                "SELECT card_json, state, first_review_ms FROM cards WHERE question_id = ?",
                (question_id,),
            ).fetchone()
            before = Card.from_dict(json.loads(row[0])) if row else None
            practice = kind == PRACTICE
            cursor = db.execute(
                "INSERT INTO reviews (question_id, deck_id, topic, kind, reviewed_ms, rating, correct,"
                " duration_ms, state_before, card_before, response, attempt)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
                    # Undo restores this; a practice answer changes nothing to restore.
                    None if practice or not row else row[0],
                    to_json(response),
                    attempt,
                ),
            )
            self.last_review_id = cursor.lastrowid
            if practice:
                return before
            after, _log = review(scheduler, before, rating, when, duration_ms, fuzz_key=question_id)
            self._save_card(db, question_id, after, row[2] if row else when_ms, when_ms)
        return after

    @staticmethod
    def _save_card(
        db: sqlite3.Connection, question_id: str, card: Card, first_ms: int, last_ms: int
    ) -> None:
        db.execute(
            "INSERT INTO cards (question_id, card_json, state, due_ms, first_review_ms, last_review_ms)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(question_id) DO UPDATE SET"
            " card_json = excluded.card_json, state = excluded.state, due_ms = excluded.due_ms,"
            " last_review_ms = excluded.last_review_ms",
            (
                question_id,
                json.dumps(card.to_dict()),
                int(card.state),
                to_ms(card.due),
                first_ms,
                last_ms,
            ),
        )

    def rerate_review(self, review_id: int, rating: Rating, scheduler: Scheduler) -> bool:
        """Give a saved review another rating (the student's choice on the feedback screen): the
        same row, rescheduled from the card it was given to. False when the review is gone, or a
        later review of the card would be thrown away."""
        with self._write() as db:
            row = db.execute(
                "SELECT question_id, kind, reviewed_ms, duration_ms, card_before FROM reviews"
                " WHERE id = ?",
                (review_id,),
            ).fetchone()
            if row is None or self._later_review(db, row[0], review_id):
                return False
            question_id, kind, reviewed_ms, duration_ms, card_before = row
            db.execute("UPDATE reviews SET rating = ? WHERE id = ?", (int(rating), review_id))
            if kind == PRACTICE:
                return True
            before = None if card_before is None else Card.from_dict(json.loads(card_before))
            first = db.execute(
                "SELECT first_review_ms FROM cards WHERE question_id = ?", (question_id,)
            ).fetchone()
            after, _log = review(
                scheduler, before, rating, from_ms(reviewed_ms), duration_ms, fuzz_key=question_id
            )
            self._save_card(db, question_id, after, first[0] if first else reviewed_ms, reviewed_ms)
        return True

    @staticmethod
    def _later_review(db: sqlite3.Connection, question_id: str, review_id: int) -> bool:
        """Whether a review after this one changed the card (practice answers did not)."""
        later = db.execute(
            "SELECT 1 FROM reviews WHERE question_id = ? AND id > ? AND kind != ? LIMIT 1",
            (question_id, review_id, PRACTICE),
        ).fetchone()
        return later is not None

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
                "SELECT question_id, kind, card_before FROM reviews WHERE id = ?", (review_id,)
            ).fetchone()
            if row is None:
                return None
            question_id, kind, card_before = row
            if kind == PRACTICE:  # the card never moved: only the row goes
                db.execute("DELETE FROM reviews WHERE id = ?", (review_id,))
                return question_id
            if self._later_review(db, question_id, review_id):
                return None
            db.execute("DELETE FROM reviews WHERE id = ?", (review_id,))
            if card_before is None:
                db.execute("DELETE FROM cards WHERE question_id = ?", (question_id,))
            else:
                card = Card.from_dict(json.loads(card_before))
                last = db.execute(
                    "SELECT MAX(reviewed_ms) FROM reviews WHERE question_id = ? AND kind != ?",
                    (question_id, PRACTICE),
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

    # -- plumbing -----------------------------------------------------------------------------

    def _write(self) -> _Transaction:
        return _Transaction(self.connection)

    def transaction(self) -> _Transaction:
        """`with store.transaction() as db:` one write transaction, for the history's other
        tables (quizapp/srs/store/fits.py)."""
        return self._write()


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
            history_file.rollback(self.connection)
