"""Review history in PostgreSQL (psycopg 3): a class's histories in one database.

The same behaviour as the SQLite `ReviewStore` (quizapp/srs/store/sqlite/store.py), through the same
`HistoryStore` interface (quizapp/srs/store/history.py), with every row belonging to a student:
each query names `student`, and row-level security (quizapp/srs/store/postgres/schema.py) keeps a
student's own role to its rows.

Append-only: a student's role may only SELECT and INSERT (quizapp/srs/store/postgres/setup.py grants no
more). A reschedule adds a card version, a re-rating a rating row, an undo a withdrawal row,
a flag change a flag version; the reads (quizapp/srs/store/postgres/reads.py) take the newest. Two of a
student's instances writing the same card cannot interleave: each version's `seq` is unique
per (student, question), so the second writer's insert fails and its transaction runs again
on what the first committed. No lock is taken that another role could hold against them.
Every write is one transaction, committed before the method returns, and every value is
brought within the schema's bounds (quizapp/srs/store/postgres/bounds.py) before it is written.

Connecting, pinning the class's schema and checking the class: quizapp/srs/store/postgres/connect.py.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

import psycopg
from psycopg.types.json import Jsonb

from quizapp.srs.memory.scheduling import Card, Rating, Scheduler, review
from quizapp.srs.store.history import PRACTICE, PostgresLocation, one_line, redacted
from quizapp.srs.store.postgres import bounds
from quizapp.srs.store.postgres.connect import (
    check_role,
    class_schema,
    connect,
    require_class,
    require_history,
    role_reach,
)
from quizapp.srs.store.postgres.migrate import migrate, pin_schema, schema_version
from quizapp.srs.store.postgres.reads import REVIEWS, PostgresReads
from quizapp.srs.store.postgres.schema import FITS
from quizapp.srs.store.sqlite.history_file import HistoryError
from quizapp.srs.store.url_redaction import redacted_message
from quizapp.srs.times import from_ms, to_ms

WRITE_ATTEMPTS = 8  # a card written by another of the student's instances: read it and try again
_VERSION_KEYS = frozenset({"cards_versions", "card_flags_versions"})
T = TypeVar("T")
# What other modules import from here (the class report, pg_setup, the tests).
__all__ = [
    "PostgresStore",
    "class_schema",
    "connect",
    "migrate",
    "pin_schema",
    "require_class",
    "require_history",
    "role_reach",
    "schema_version",
]


class _Version(NamedTuple):
    """A question's newest card version."""

    seq: int
    removed: bool
    card_json: str
    state: int
    due_ms: int
    first_review_ms: int
    last_review_ms: int


class _Flags(NamedTuple):
    seq: int
    suspended: bool
    buried_until_ms: int | None


class PostgresStore(PostgresReads):
    def __init__(self, connection: psycopg.Connection[Any], location: PostgresLocation) -> None:
        self.connection = connection
        self.location = location
        self.student = location.student
        self.path: Path | None = None
        self.notice: str | None = None
        self.last_review_id: int | None = None

    # -- opening ------------------------------------------------------------------------------

    @classmethod
    def open(cls, location: PostgresLocation, *, migrate: bool = True) -> PostgresStore:
        """Connect, check the class is there and current (its owner brings it forward when
        `migrate`), and check the role may use this student's rows. Every failure is a
        one-line HistoryError."""
        where = redacted(location.url)
        connection = connect(location.url)
        try:
            require_class(connection, where, upgrade=migrate)
            check_role(connection, location.student, where)
        except psycopg.Error as exc:
            connection.close()
            message = redacted_message(one_line(str(exc)), location.url)
            raise HistoryError(f"{where} cannot be used: {message}") from exc
        except BaseException:
            connection.close()
            raise
        return cls(connection, location)

    def reopen(self) -> None:
        connection = connect(self.location.url)
        self.connection.close()
        self.connection = connection

    def close(self) -> None:
        self.connection.close()

    def __enter__(self) -> PostgresStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _write(self, work: Callable[[], T]) -> T:
        """`work` in one transaction; run again (on what is now committed) when another of the
        student's instances added the same card or flag version first."""
        for attempt in range(WRITE_ATTEMPTS):
            try:
                with self.connection.transaction():
                    return work()
            except psycopg.errors.UniqueViolation as exc:
                if exc.diag.constraint_name not in _VERSION_KEYS or attempt + 1 == WRITE_ATTEMPTS:
                    raise
        raise AssertionError("unreachable")  # the last attempt returns or raises

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
        answer_id: str | None = None,
        attempt: str | None = None,
    ) -> Card | None:
        """As ReviewStore.record_answer: the review and the card in one transaction.
        `answer_id` (a UUID the app made when the answer was given): an answer already stored
        under it is left as it is, and its card too; `last_review_id` is its row."""
        values = (
            self.student,
            bounds.text(question_id, "the question id"),
            bounds.text(deck_id, "the deck id"),
            bounds.text(topic, "the topic"),
            bounds.kind(kind),
            bounds.moment(to_ms(when), "the answer's time"),
            int(Rating(rating)),
            bool(correct),
            bounds.duration(duration_ms),
        )
        kept = bounds.response_to_keep(response)
        attempt = bounds.attempt(attempt)
        practice = kind == PRACTICE

        def work() -> Card | None:
            current = self._card_version(question_id)
            row = None if current is None or current.removed else current
            before = Card.from_dict(json.loads(row.card_json)) if row else None
            inserted = self._one(
                "INSERT INTO reviews (student, question_id, deck_id, topic, kind, reviewed_ms,"
                " rating, correct, duration_ms, state_before, card_before, response, answer_id,"
                " attempt) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
                " ON CONFLICT (student, answer_id) DO NOTHING RETURNING id",
                *values,
                row.state if row else None,
                # Undo restores this; a practice answer changes nothing to restore.
                None if practice or not row else row.card_json,
                None if kept is None else Jsonb(kept),
                answer_id,
                attempt,
            )
            if inserted is None:  # sent before: its commit reached us, its acknowledgment did not
                self.last_review_id = self.review_id_for_answer(answer_id or "")
                return before
            self.last_review_id = int(inserted[0])
            if practice:
                return before
            after, _log = review(scheduler, before, rating, when, duration_ms, fuzz_key=question_id)
            first_ms = row.first_review_ms if row else values[5]
            self._add_card_version(question_id, current, after, first_ms, values[5])
            return after

        return self._write(work)

    def _card_version(self, question_id: str) -> _Version | None:
        row = self._one(
            "SELECT seq, removed, card_json, state, due_ms, first_review_ms, last_review_ms"
            " FROM cards WHERE student = %s AND question_id = %s ORDER BY seq DESC LIMIT 1",
            self.student,
            question_id,
        )
        return None if row is None else _Version(*row)

    def _add_card_version(
        self,
        question_id: str,
        current: _Version | None,
        card: Card | None,
        first_ms: int,
        last_ms: int,
        card_json: str | None = None,
    ) -> None:
        """The card's next version after `current`: `card` (or its JSON), or, for None, a
        version saying the card is gone (it repeats `current`'s values, which no read uses)."""
        seq = current.seq + 1 if current else 1
        if card is None:
            if current is None:
                return  # nothing to remove
            values = (current.card_json, current.state, current.due_ms, first_ms, last_ms, True)
        else:
            text = card_json or bounds.json_text(card.to_dict(), "the card")
            values = (text, int(card.state), to_ms(card.due), first_ms, last_ms, False)
        self.connection.execute(
            "INSERT INTO cards (student, question_id, seq, card_json, state, due_ms,"
            " first_review_ms, last_review_ms, removed) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (self.student, question_id, seq, *values),
        )

    def rerate_review(self, review_id: int, rating: Rating, scheduler: Scheduler) -> bool:
        """A new rating for a saved review: a rating row (the newest counts), and the card
        rescheduled from the card the review was given to."""
        new_rating = int(Rating(rating))

        def work() -> bool:
            row = self._one(
                "SELECT question_id, kind, reviewed_ms, duration_ms, card_before"
                f" FROM {REVIEWS} WHERE student = %s AND id = %s",
                self.student,
                review_id,
            )
            if row is None or self._later_review(row[0], review_id):
                return False
            question_id, kind, reviewed_ms, duration_ms, card_before = row
            self.connection.execute(
                "INSERT INTO review_ratings (student, review_id, rating) VALUES (%s, %s, %s)",
                (self.student, review_id, new_rating),
            )
            if kind == PRACTICE:
                return True
            before = None if card_before is None else Card.from_dict(json.loads(card_before))
            current = self._card_version(question_id)
            first_ms = current.first_review_ms if current and not current.removed else reviewed_ms
            after, _log = review(
                scheduler, before, rating, from_ms(reviewed_ms), duration_ms, fuzz_key=question_id
            )
            self._add_card_version(question_id, current, after, first_ms, reviewed_ms)
            return True

        return self._write(work)

    def undo_last(self, kind: str | None = None) -> str | None:
        query, params = f"SELECT id FROM {REVIEWS} WHERE student = %s", [self.student]
        if kind is not None:
            query += " AND kind = %s"
            params.append(kind)
        row = self._one(query + " ORDER BY id DESC LIMIT 1", *params)
        return None if row is None else self.undo_review(row[0])

    def undo_review(self, review_id: int) -> str | None:
        """Take a review back: a withdrawal row (the review then counts nowhere), and the card
        as it was before it, as a new version."""

        def work() -> str | None:
            row = self._one(
                f"SELECT question_id, kind, card_before FROM {REVIEWS}"
                " WHERE student = %s AND id = %s",
                self.student,
                review_id,
            )
            if row is None:
                return None
            question_id, kind, card_before = row
            if kind != PRACTICE and self._later_review(question_id, review_id):
                return None
            self.connection.execute(
                "INSERT INTO review_withdrawals (student, review_id) VALUES (%s, %s)"
                " ON CONFLICT (student, review_id) DO NOTHING",
                (self.student, review_id),
            )
            if kind == PRACTICE:  # the card never moved: only the review goes
                return question_id
            current = self._card_version(question_id)
            if current is None or current.removed:
                return question_id
            if card_before is None:  # the card's first answer: the card goes too
                self._add_card_version(
                    question_id, current, None, current.first_review_ms, current.last_review_ms
                )
                return question_id
            card = Card.from_dict(json.loads(card_before))
            last = self._one(
                f"SELECT max(reviewed_ms) FROM {REVIEWS} WHERE student = %s"
                " AND question_id = %s AND kind != %s",
                self.student,
                question_id,
                PRACTICE,
            )
            last_ms = (last[0] if last else None) or current.first_review_ms
            self._add_card_version(
                question_id, current, card, current.first_review_ms, last_ms, card_before
            )
            return question_id

        return self._write(work)

    # -- burying and suspending ---------------------------------------------------------------

    def _flags(self, question_id: str) -> _Flags | None:
        row = self._one(
            "SELECT seq, suspended, buried_until_ms FROM card_flags"
            " WHERE student = %s AND question_id = %s ORDER BY seq DESC LIMIT 1",
            self.student,
            question_id,
        )
        return None if row is None else _Flags(*row)

    def _set_flags(
        self, question_id: str, *, suspended: bool | None = None, buried: object = ...
    ) -> None:
        """A new flags version: what is given changes, the rest stays as it was. `buried`:
        milliseconds, None (not buried), or left out (unchanged)."""
        text = bounds.text(question_id, "the question id")

        def work() -> None:
            current = self._flags(text)
            if current is None and suspended is None and buried is None:
                return  # unburying a card never flagged: nothing changes
            self.connection.execute(
                "INSERT INTO card_flags (student, question_id, seq, suspended, buried_until_ms)"
                " VALUES (%s, %s, %s, %s, %s)",
                (
                    self.student,
                    text,
                    current.seq + 1 if current else 1,
                    (current.suspended if current else False) if suspended is None else suspended,
                    (current.buried_until_ms if current else None) if buried is ... else buried,
                ),
            )

        self._write(work)

    def bury(self, question_id: str, until: datetime) -> None:
        until_ms = min(max(to_ms(until), bounds.EARLIEST_MS), bounds.LATEST_MS - 1)
        self._set_flags(question_id, buried=until_ms)

    def unbury(self, question_id: str) -> None:
        self._set_flags(question_id, buried=None)

    def set_suspended(self, question_id: str, suspended: bool = True) -> None:
        self._set_flags(question_id, suspended=bool(suspended))

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
        values = (
            self.student,
            bounds.moment(to_ms(taken), "the exam's time"),
            bounds.count(questions, "the exam's questions"),
            min(bounds.count(correct, "the exam's right answers"), int(questions)),
            bool(passed),
            bounds.finite(threshold, "the pass mark", low=0, high=1),
            bounds.finite(seconds, "the exam's length", low=0, high=bounds.SECONDS_MAX),
        )
        bounds.json_text(detail, "the exam's detail", bounds.EXAM_DETAIL_MAX_BYTES)
        with self.connection.transaction():
            row = self._one(
                "INSERT INTO exams (student, taken_ms, questions, correct, passed, threshold,"
                " seconds, detail) VALUES (%s, %s, %s, %s, %s, %s, %s, %s) RETURNING id",
                *values,
                Jsonb(detail),
            )
        return int(row[0]) if row else 0

    # -- fitted FSRS parameters ---------------------------------------------------------------

    def insert_fit(self, row: Mapping[str, Any], *, replace_in_use: bool) -> int:
        """The fit as a new row; `replace_in_use`: a reset row first ends every older fit's use."""
        values = (
            self.student,
            bounds.moment(int(row["fitted_ms"]), "the fit's time"),
            Jsonb(json.loads(bounds.json_text(list(row["parameters"]), "the fit's parameters"))),
            bounds.count(row["reviews"], "the fit's reviews"),
            bounds.count(row["held_out"], "the fit's held-out reviews"),
            bounds.finite(row["log_loss_before"], "the log-loss before", low=0, high=1e6),
            bounds.finite(row["log_loss_after"], "the log-loss after", low=0, high=1e6),
            bool(row["in_use"]),
            Jsonb(json.loads(bounds.json_text(dict(row["detail"]), "the fit's detail"))),
        )
        with self.connection.transaction():
            if replace_in_use:
                self._reset_fits()
            inserted = self._one(
                "INSERT INTO fsrs_fits (student, fitted_ms, parameters, reviews, held_out,"
                " log_loss_before, log_loss_after, in_use, detail)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) RETURNING id",
                *values,
            )
        return int(inserted[0]) if inserted else 0

    def stop_using_fits(self) -> int:
        with self.connection.transaction():
            row = self._one(
                f"SELECT count(*) FROM {FITS} AS fits WHERE student = %s AND in_use", self.student
            )
            in_use = int(row[0]) if row else 0
            if in_use:
                self._reset_fits()
        return in_use

    def _reset_fits(self) -> None:
        self.connection.execute(
            "INSERT INTO fit_resets (student, up_to_fit_id) SELECT %s, coalesce(max(id), 0)"
            " FROM fsrs_fits WHERE student = %s",
            (self.student, self.student),
        )

    # -- plumbing -----------------------------------------------------------------------------

    def set_lock_timeout(self, seconds: float) -> None:
        self.connection.execute(f"SET lock_timeout = {int(seconds * 1000)}")  # type: ignore[arg-type]
