"""Review history in PostgreSQL (psycopg 3): a class's histories in one database.

The same behaviour as the SQLite `ReviewStore` (quizapp/srs/store.py), through the same
`HistoryStore` interface (quizapp/srs/history.py), with every row belonging to a student:
each query names `student`, and row-level security (quizapp/srs/pg_schema.py) keeps a
student's own role to its rows. Every write is one transaction, committed before the method
returns; the card's row is locked (`FOR UPDATE`) while an answer reschedules it, so two of a
student's instances never interleave an answer.

Anything that stands in the way (a bad URL, a server that is down, a refused password, a
newer schema) is a `HistoryError` whose one line names the URL (without its password).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from quizapp.bank.responses import from_json
from quizapp.srs.history import AnswerRow, PostgresLocation, one_line, redacted
from quizapp.srs.history_file import HistoryError
from quizapp.srs.pg_schema import MIGRATIONS, SCHEMA_VERSION
from quizapp.srs.scheduling import Card, Rating, Scheduler, review
from quizapp.srs.store import PRACTICE, ResponseRow, ReviewRow, from_ms, to_ms
from quizapp.srs.url_redaction import redacted_message

CONNECT_TIMEOUT_S = 10
_MIGRATION_LOCK = "SELECT pg_advisory_xact_lock(hashtext('quizapp schema ' || current_schema()))"


def connect(url: str) -> psycopg.Connection[Any]:
    """A connection in autocommit mode (we open every transaction ourselves)."""
    try:
        return psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S)
    except psycopg.Error as exc:
        # libpq's message can quote the URL, or the part it could not read: its password.
        message = redacted_message(one_line(str(exc)), url)
        raise HistoryError(f"{redacted(url)} cannot be reached: {message}") from exc


def schema_version(db: psycopg.Connection[Any]) -> int:
    if db.execute("SELECT to_regclass('schema_version')").fetchone()[0] is None:  # type: ignore[index]
        return 0
    row = db.execute("SELECT max(version) FROM schema_version").fetchone()
    return int(row[0] or 0) if row else 0


def migrate(db: psycopg.Connection[Any], where: str) -> None:
    """Bring the schema forward one step at a time, each step in its own transaction."""
    version = _refuse_newer(db, where)
    for step in range(version + 1, SCHEMA_VERSION + 1):
        with db.transaction():
            db.execute(_MIGRATION_LOCK)  # another instance may be migrating right now
            db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            if schema_version(db) >= step:
                continue
            for statement in MIGRATIONS[step]:
                db.execute(statement)  # type: ignore[arg-type]  # our own constant SQL
            db.execute("INSERT INTO schema_version (version) VALUES (%s)", (step,))


def _refuse_newer(db: psycopg.Connection[Any], where: str) -> int:
    version = schema_version(db)
    if version > SCHEMA_VERSION:
        raise HistoryError(
            f"{where} was written by a newer quizapp (schema {version}; this one reads up to "
            f"{SCHEMA_VERSION}); upgrade quizapp to use it"
        )
    return version


class PostgresStore:
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
        """Connect, migrate if need be (`migrate`), and check the role may use this student's
        rows. Every failure is a one-line HistoryError."""
        where = redacted(location.url)
        connection = connect(location.url)
        try:
            if migrate:
                _migrate_or_explain(connection, where)
            require_history(connection, where)
            _check_role(connection, location.student, where)
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

    def _one(self, query: str, *params: object) -> tuple[Any, ...] | None:
        return self.connection.execute(query, params).fetchone()  # type: ignore[arg-type]

    def _all(self, query: str, *params: object) -> list[tuple[Any, ...]]:
        return self.connection.execute(query, params).fetchall()  # type: ignore[arg-type]

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
        when_ms = to_ms(when)
        with self.connection.transaction():
            row = self._one(
                "SELECT card_json, state, first_review_ms FROM cards"
                " WHERE student = %s AND question_id = %s FOR UPDATE",
                self.student,
                question_id,
            )
            before = Card.from_dict(json.loads(row[0])) if row else None
            practice = kind == PRACTICE
            inserted = self._one(
                "INSERT INTO reviews (student, question_id, deck_id, topic, kind, reviewed_ms,"
                " rating, correct, duration_ms, state_before, card_before, response, answer_id,"
                " attempt) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
                " ON CONFLICT (student, answer_id) DO NOTHING RETURNING id",
                self.student,
                question_id,
                deck_id,
                topic,
                kind,
                when_ms,
                int(Rating(rating)),
                bool(correct),
                duration_ms,
                row[1] if row else None,
                None if practice or not row else row[0],
                None if response is None else Jsonb(dict(response)),
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
            self._save_card(question_id, after, row[2] if row else when_ms, when_ms)
        return after

    def _save_card(self, question_id: str, card: Card, first_ms: int, last_ms: int) -> None:
        self.connection.execute(
            "INSERT INTO cards (student, question_id, card_json, state, due_ms, first_review_ms,"
            " last_review_ms) VALUES (%s, %s, %s, %s, %s, %s, %s)"
            " ON CONFLICT (student, question_id) DO UPDATE SET card_json = excluded.card_json,"
            " state = excluded.state, due_ms = excluded.due_ms,"
            " last_review_ms = excluded.last_review_ms",
            (
                self.student,
                question_id,
                json.dumps(card.to_dict()),
                int(card.state),
                to_ms(card.due),
                first_ms,
                last_ms,
            ),
        )

    def rerate_review(self, review_id: int, rating: Rating, scheduler: Scheduler) -> bool:
        with self.connection.transaction():
            row = self._one(
                "SELECT question_id, kind, reviewed_ms, duration_ms, card_before FROM reviews"
                " WHERE student = %s AND id = %s FOR UPDATE",
                self.student,
                review_id,
            )
            if row is None or self._later_review(row[0], review_id):
                return False
            question_id, kind, reviewed_ms, duration_ms, card_before = row
            self.connection.execute(
                "UPDATE reviews SET rating = %s WHERE id = %s", (int(rating), review_id)
            )
            if kind == PRACTICE:
                return True
            before = None if card_before is None else Card.from_dict(json.loads(card_before))
            first = self._one(
                "SELECT first_review_ms FROM cards WHERE student = %s AND question_id = %s",
                self.student,
                question_id,
            )
            after, _log = review(
                scheduler, before, rating, from_ms(reviewed_ms), duration_ms, fuzz_key=question_id
            )
            self._save_card(question_id, after, first[0] if first else reviewed_ms, reviewed_ms)
        return True

    def _later_review(self, question_id: str, review_id: int) -> bool:
        return (
            self._one(
                "SELECT 1 FROM reviews WHERE student = %s AND question_id = %s AND id > %s"
                " AND kind != %s LIMIT 1",
                self.student,
                question_id,
                review_id,
                PRACTICE,
            )
            is not None
        )

    def undo_last(self, kind: str | None = None) -> str | None:
        query, params = "SELECT id FROM reviews WHERE student = %s", [self.student]
        if kind is not None:
            query += " AND kind = %s"
            params.append(kind)
        row = self._one(query + " ORDER BY id DESC LIMIT 1", *params)
        return None if row is None else self.undo_review(row[0])

    def undo_review(self, review_id: int) -> str | None:
        with self.connection.transaction():
            row = self._one(
                "SELECT question_id, kind, card_before FROM reviews"
                " WHERE student = %s AND id = %s FOR UPDATE",
                self.student,
                review_id,
            )
            if row is None:
                return None
            question_id, kind, card_before = row
            if kind != PRACTICE and self._later_review(question_id, review_id):
                return None
            self.connection.execute("DELETE FROM reviews WHERE id = %s", (review_id,))
            if kind == PRACTICE:  # the card never moved: only the row goes
                return question_id
            if card_before is None:
                self.connection.execute(
                    "DELETE FROM cards WHERE student = %s AND question_id = %s",
                    (self.student, question_id),
                )
                return question_id
            card = Card.from_dict(json.loads(card_before))
            last = self._one(
                "SELECT max(reviewed_ms) FROM reviews WHERE student = %s AND question_id = %s"
                " AND kind != %s",
                self.student,
                question_id,
                PRACTICE,
            )
            self.connection.execute(
                "UPDATE cards SET card_json = %s, state = %s, due_ms = %s, last_review_ms = %s"
                " WHERE student = %s AND question_id = %s",
                (
                    card_before,
                    int(card.state),
                    to_ms(card.due),
                    (last[0] if last else None) or 0,
                    self.student,
                    question_id,
                ),
            )
        return question_id

    # -- burying and suspending ---------------------------------------------------------------

    def bury(self, question_id: str, until: datetime) -> None:
        with self.connection.transaction():
            self.connection.execute(
                "INSERT INTO card_flags (student, question_id, buried_until_ms) VALUES (%s, %s, %s)"
                " ON CONFLICT (student, question_id)"
                " DO UPDATE SET buried_until_ms = excluded.buried_until_ms",
                (self.student, question_id, to_ms(until)),
            )

    def unbury(self, question_id: str) -> None:
        with self.connection.transaction():
            self.connection.execute(
                "UPDATE card_flags SET buried_until_ms = NULL"
                " WHERE student = %s AND question_id = %s",
                (self.student, question_id),
            )

    def set_suspended(self, question_id: str, suspended: bool = True) -> None:
        with self.connection.transaction():
            self.connection.execute(
                "INSERT INTO card_flags (student, question_id, suspended) VALUES (%s, %s, %s)"
                " ON CONFLICT (student, question_id) DO UPDATE SET suspended = excluded.suspended",
                (self.student, question_id, bool(suspended)),
            )

    def suspended_ids(self) -> list[str]:
        rows = self._all(
            "SELECT question_id FROM card_flags WHERE student = %s AND suspended"
            ' ORDER BY question_id COLLATE "C"',
            self.student,
        )
        return [r[0] for r in rows]

    def buried_ids(self, now: datetime) -> set[str]:
        rows = self._all(
            "SELECT question_id FROM card_flags WHERE student = %s AND buried_until_ms > %s",
            self.student,
            to_ms(now),
        )
        return {r[0] for r in rows}

    def hidden_ids(self, now: datetime) -> set[str]:
        rows = self._all(
            "SELECT question_id FROM card_flags WHERE student = %s"
            " AND (suspended OR buried_until_ms > %s)",
            self.student,
            to_ms(now),
        )
        return {r[0] for r in rows}

    # -- reading ------------------------------------------------------------------------------

    def card(self, question_id: str) -> Card | None:
        row = self._one(
            "SELECT card_json FROM cards WHERE student = %s AND question_id = %s",
            self.student,
            question_id,
        )
        return Card.from_dict(json.loads(row[0])) if row else None

    def review_card_before(self, review_id: int) -> tuple[str, Card | None] | None:
        row = self._one(
            "SELECT question_id, card_before FROM reviews WHERE student = %s AND id = %s",
            self.student,
            review_id,
        )
        if row is None:
            return None
        return row[0], None if row[1] is None else Card.from_dict(json.loads(row[1]))

    def due_ids(self, now: datetime) -> list[str]:
        rows = self._all(
            "SELECT question_id FROM cards WHERE student = %s AND due_ms <= %s ORDER BY due_ms",
            self.student,
            to_ms(now),
        )
        return [r[0] for r in rows]

    def known_ids(self) -> set[str]:
        return {
            r[0]
            for r in self._all("SELECT question_id FROM cards WHERE student = %s", self.student)
        }

    def first_reviewed_since(self, since: datetime) -> int:
        row = self._one(
            "SELECT count(*) FROM cards WHERE student = %s AND first_review_ms >= %s",
            self.student,
            to_ms(since),
        )
        return int(row[0]) if row else 0

    def next_due(self, after: datetime, exclude: set[str] = frozenset()) -> datetime | None:  # type: ignore[assignment]
        rows = self.connection.execute(
            "SELECT question_id, due_ms FROM cards WHERE student = %s AND due_ms > %s"
            " ORDER BY due_ms",
            (self.student, to_ms(after)),
        )
        for question_id, due_ms in rows:
            if question_id not in exclude:
                return from_ms(due_ms)
        return None

    def due_times(self) -> list[tuple[str, datetime]]:
        rows = self._all("SELECT question_id, due_ms FROM cards WHERE student = %s", self.student)
        return [(qid, from_ms(ms)) for qid, ms in rows]

    def reviews(self, since: datetime | None = None) -> Iterator[ReviewRow]:
        query = (
            "SELECT question_id, deck_id, topic, kind, reviewed_ms, rating, correct, duration_ms,"
            " state_before FROM reviews WHERE student = %s"
        )
        params: list[object] = [self.student]
        if since is not None:
            query += " AND reviewed_ms >= %s"
            params.append(to_ms(since))
        # id breaks ties between answers given in the same millisecond, in the order given.
        for row in self._all(query + " ORDER BY reviewed_ms, id", *params):
            yield ReviewRow(*row[:4], from_ms(row[4]), row[5], bool(row[6]), *row[7:9])

    def responses(self, since: datetime | None = None) -> Iterator[ResponseRow]:
        """As the SQLite store's: the reviews that kept what was answered, oldest first."""
        query = (
            "SELECT question_id, kind, reviewed_ms, correct, response::text FROM reviews"
            " WHERE student = %s AND response IS NOT NULL"
        )
        params: list[object] = [self.student]
        if since is not None:
            query += " AND reviewed_ms >= %s"
            params.append(to_ms(since))
        for question_id, kind, reviewed_ms, correct, text in self._all(
            query + " ORDER BY reviewed_ms, id", *params
        ):
            response = from_json(text)
            if response is not None:
                yield ResponseRow(question_id, kind, from_ms(reviewed_ms), bool(correct), response)

    def review_count(self) -> int:
        row = self._one("SELECT count(*) FROM reviews WHERE student = %s", self.student)
        return int(row[0]) if row else 0

    def find_review(
        self,
        *,
        question_id: str,
        when: datetime,
        kind: str,
        rating: Rating,
        duration_ms: int | None,
    ) -> int | None:
        row = self._one(
            "SELECT id FROM reviews WHERE student = %s AND question_id = %s AND reviewed_ms = %s"
            " AND kind = %s AND rating = %s AND duration_ms IS NOT DISTINCT FROM %s"
            " ORDER BY id DESC LIMIT 1",
            self.student,
            question_id,
            to_ms(when),
            kind,
            int(rating),
            duration_ms,
        )
        return None if row is None else int(row[0])

    def review_id_for_answer(self, answer_id: str) -> int | None:
        row = self._one(
            "SELECT id FROM reviews WHERE student = %s AND answer_id = %s", self.student, answer_id
        )
        return None if row is None else int(row[0])

    def has_review(self, review_id: int) -> bool:
        found = self._one(
            "SELECT 1 FROM reviews WHERE student = %s AND id = %s", self.student, review_id
        )
        return found is not None

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
        with self.connection.transaction():
            row = self._one(
                "INSERT INTO exams (student, taken_ms, questions, correct, passed, threshold,"
                " seconds, detail) VALUES (%s, %s, %s, %s, %s, %s, %s, %s) RETURNING id",
                self.student,
                to_ms(taken),
                questions,
                correct,
                bool(passed),
                threshold,
                seconds,
                Jsonb(detail),
            )
        return int(row[0]) if row else 0

    def find_exam(self, taken: datetime) -> int | None:
        row = self._one(
            "SELECT id FROM exams WHERE student = %s AND taken_ms = %s ORDER BY id DESC LIMIT 1",
            self.student,
            to_ms(taken),
        )
        return None if row is None else int(row[0])

    def exams(self) -> list[dict[str, object]]:
        rows = self._all(
            "SELECT id, taken_ms, questions, correct, passed, threshold, seconds, detail::text"
            " FROM exams WHERE student = %s ORDER BY taken_ms",
            self.student,
        )
        return [
            {
                "id": int(r[0]),
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

    # -- whole tables -------------------------------------------------------------------------

    def card_rows(self) -> list[tuple[str, str, int, int]]:
        return self._all(  # type: ignore[return-value]
            "SELECT question_id, card_json, state, due_ms FROM cards WHERE student = %s",
            self.student,
        )

    def flag_rows(self) -> list[tuple[str, bool, int | None]]:
        return self._all(  # type: ignore[return-value]
            "SELECT question_id, suspended, buried_until_ms FROM card_flags WHERE student = %s",
            self.student,
        )

    def answer_rows(self) -> list[AnswerRow]:
        return self._all(  # type: ignore[return-value]
            "SELECT question_id, topic, reviewed_ms, correct, duration_ms, card_before, rating,"
            " attempt FROM reviews WHERE student = %s ORDER BY reviewed_ms, id",
            self.student,
        )

    # -- fitted FSRS parameters ---------------------------------------------------------------

    def insert_fit(self, row: Mapping[str, Any], *, replace_in_use: bool) -> int:
        with self.connection.transaction():
            if replace_in_use:
                self.connection.execute(
                    "UPDATE fsrs_fits SET in_use = false WHERE student = %s AND in_use",
                    (self.student,),
                )
            inserted = self._one(
                "INSERT INTO fsrs_fits (student, fitted_ms, parameters, reviews, held_out,"
                " log_loss_before, log_loss_after, in_use, detail)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) RETURNING id",
                self.student,
                row["fitted_ms"],
                Jsonb(list(row["parameters"])),
                row["reviews"],
                row["held_out"],
                row["log_loss_before"],
                row["log_loss_after"],
                bool(row["in_use"]),
                Jsonb(dict(row["detail"])),
            )
        return int(inserted[0]) if inserted else 0

    def stop_using_fits(self) -> int:
        with self.connection.transaction():
            cursor = self.connection.execute(
                "UPDATE fsrs_fits SET in_use = false WHERE student = %s AND in_use",
                (self.student,),
            )
            return cursor.rowcount

    def fit_rows(self, *, in_use_only: bool, limit: int | None = None) -> list[tuple[Any, ...]]:
        query = (
            "SELECT id, fitted_ms, parameters::text, reviews, held_out, log_loss_before,"
            " log_loss_after, in_use, detail::text FROM fsrs_fits WHERE student = %s"
        )
        if in_use_only:
            query += " AND in_use"
        query += " ORDER BY id DESC"
        if limit is not None:
            query += f" LIMIT {int(limit)}"
        return self._all(query, self.student)

    # -- plumbing -----------------------------------------------------------------------------

    def set_lock_timeout(self, seconds: float) -> None:
        self.connection.execute(f"SET lock_timeout = {int(seconds * 1000)}")

    def change_marker(self) -> int | None:
        """Moves on whenever this student's rows change: a review added or taken back, a card
        rescheduled, a flag set, an exam recorded (xmin: the transaction that wrote a row)."""
        row = self.connection.execute(
            "SELECT (SELECT count(*) FROM reviews WHERE student = %(s)s),"
            " (SELECT coalesce(max(id), 0) FROM reviews WHERE student = %(s)s),"
            " (SELECT coalesce(max(xmin::text::bigint), 0) FROM cards WHERE student = %(s)s),"
            " (SELECT coalesce(max(xmin::text::bigint), 0) FROM card_flags WHERE student = %(s)s),"
            " (SELECT count(*) FROM exams WHERE student = %(s)s)",
            {"s": self.student},
        ).fetchone()
        return hash(row)


def _migrate_or_explain(connection: psycopg.Connection[Any], where: str) -> None:
    try:
        migrate(connection, where)
    except (psycopg.errors.InsufficientPrivilege, psycopg.errors.InvalidSchemaName) as exc:
        # InvalidSchemaName: no schema this role may use, so none to create the tables in.
        raise HistoryError(
            f"{where} needs its tables created or upgraded, and this role may not: the "
            f"instructor (the database's owner) opens it once first ({one_line(str(exc))})"
        ) from exc


def require_history(connection: psycopg.Connection[Any], where: str) -> None:
    """Refuse, in one line, a database without a quizapp history or with a newer one."""
    version = _refuse_newer(connection, where)
    if version < SCHEMA_VERSION:
        raise HistoryError(
            f"{where} holds no quizapp history yet (schema {version} of "
            f"{SCHEMA_VERSION}); open it once with the app to create it"
        )


def role_reach(connection: psycopg.Connection[Any]) -> tuple[str, bool]:
    """The connected role, and whether it sees every student's rows: the tables' owner (or a
    member of the owner's role), a superuser or a role above row security. Any other role
    sees only the rows whose student is its own name."""
    row = connection.execute(
        "SELECT current_user, r.rolsuper OR r.rolbypassrls"
        " OR pg_has_role(current_user, c.relowner, 'MEMBER')"
        " FROM pg_roles r, pg_class c WHERE r.rolname = current_user"
        " AND c.oid = 'reviews'::regclass"
    ).fetchone()
    if row is None:  # no catalogue row for the role: row security decides, as for a student
        role = connection.execute("SELECT current_user").fetchone()
        return (str(role[0]) if role else ""), False
    return str(row[0]), bool(row[1])


def _check_role(connection: psycopg.Connection[Any], student: str, where: str) -> None:
    """A role that is not the student's own, the tables' owner or above row security would
    see nothing and be refused every write: say so now, in one line."""
    role, sees_all = role_reach(connection)
    if role != student and not sees_all:
        raise HistoryError(
            f"{where}: the role {role!r} may only use its own history (student {role!r}), "
            f"not student {student!r}; give --student {role}"
        )
