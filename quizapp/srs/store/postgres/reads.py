"""What the PostgreSQL store reads (quizapp/srs/store/postgres/store.py's `PostgresStore` inherits it).

The tables are append-only (quizapp/srs/store/postgres/schema.py): every read goes through the fragments
that say which rows stand: `EFFECTIVE_REVIEWS` (withdrawn reviews count nowhere; a re-rating is
the newest rating), `CURRENT_CARDS`, `CURRENT_FLAGS` and `FITS`. Every query names the student;
row-level security keeps a student's own role to its rows whatever it asks.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import Any

import psycopg

from quizapp.bank.responses import from_json
from quizapp.srs.memory.scheduling import Card, Rating
from quizapp.srs.store.history import PRACTICE, AnswerRow, ResponseRow, ReviewRow
from quizapp.srs.store.postgres.schema import CURRENT_CARDS, CURRENT_FLAGS, EFFECTIVE_REVIEWS, FITS
from quizapp.srs.times import from_ms, to_ms

REVIEWS = f"{EFFECTIVE_REVIEWS} AS reviews"
CARDS = f"{CURRENT_CARDS} AS cards"
FLAGS = f"{CURRENT_FLAGS} AS card_flags"
# Every table a student's change adds a row to: their counts move on with every write.
_CHANGING_TABLES = (
    "reviews",
    "review_ratings",
    "review_withdrawals",
    "cards",
    "card_flags",
    "exams",
    "fsrs_fits",
    "fit_resets",
)


class PostgresReads:
    connection: psycopg.Connection[Any]
    student: str

    def _one(self, query: str, *params: object) -> tuple[Any, ...] | None:
        return self.connection.execute(query, params).fetchone()  # type: ignore[arg-type]

    def _all(self, query: str, *params: object) -> list[tuple[Any, ...]]:
        return self.connection.execute(query, params).fetchall()  # type: ignore[arg-type]

    # -- flags --------------------------------------------------------------------------------

    def suspended_ids(self) -> list[str]:
        rows = self._all(
            f"SELECT question_id FROM {FLAGS} WHERE student = %s AND suspended"
            ' ORDER BY question_id COLLATE "C"',
            self.student,
        )
        return [r[0] for r in rows]

    def buried_ids(self, now: datetime) -> set[str]:
        rows = self._all(
            f"SELECT question_id FROM {FLAGS} WHERE student = %s AND buried_until_ms > %s",
            self.student,
            to_ms(now),
        )
        return {r[0] for r in rows}

    def hidden_ids(self, now: datetime) -> set[str]:
        rows = self._all(
            f"SELECT question_id FROM {FLAGS} WHERE student = %s"
            " AND (suspended OR buried_until_ms > %s)",
            self.student,
            to_ms(now),
        )
        return {r[0] for r in rows}

    # -- cards --------------------------------------------------------------------------------

    def card(self, question_id: str) -> Card | None:
        row = self._one(
            f"SELECT card_json FROM {CARDS} WHERE student = %s AND question_id = %s",
            self.student,
            question_id,
        )
        return Card.from_dict(json.loads(row[0])) if row else None

    def due_ids(self, now: datetime) -> list[str]:
        rows = self._all(
            f"SELECT question_id FROM {CARDS} WHERE student = %s AND due_ms <= %s ORDER BY due_ms",
            self.student,
            to_ms(now),
        )
        return [r[0] for r in rows]

    def known_ids(self) -> set[str]:
        return {
            r[0]
            for r in self._all(f"SELECT question_id FROM {CARDS} WHERE student = %s", self.student)
        }

    def missed_in_practice_ids(self, question_ids: Iterable[str]) -> set[str]:
        """As the SQLite store's: those of `question_ids` whose latest standing answer was a
        wrong practice answer (a withdrawn answer counts nowhere, so the one before it stands).
        reviews_by_question (student, question_id, reviewed_ms) reads only their rows."""
        rows = self._all(
            f"SELECT DISTINCT ON (question_id) question_id, kind, correct FROM {REVIEWS}"
            " WHERE student = %s AND question_id = ANY(%s)"
            " ORDER BY question_id, reviewed_ms DESC, id DESC",
            self.student,
            list(question_ids),
        )
        return {qid for qid, kind, correct in rows if kind == PRACTICE and not correct}

    def first_reviewed_since(self, since: datetime) -> int:
        row = self._one(
            f"SELECT count(*) FROM {CARDS} WHERE student = %s AND first_review_ms >= %s",
            self.student,
            to_ms(since),
        )
        return int(row[0]) if row else 0

    def next_due(self, after: datetime, exclude: set[str] = frozenset()) -> datetime | None:  # type: ignore[assignment]
        rows = self._all(
            f"SELECT question_id, due_ms FROM {CARDS} WHERE student = %s AND due_ms > %s"
            " ORDER BY due_ms",
            self.student,
            to_ms(after),
        )
        for question_id, due_ms in rows:
            if question_id not in exclude:
                return from_ms(due_ms)
        return None

    def due_times(self) -> list[tuple[str, datetime]]:
        rows = self._all(
            f"SELECT question_id, due_ms FROM {CARDS} WHERE student = %s", self.student
        )
        return [(qid, from_ms(ms)) for qid, ms in rows]

    # -- reviews ------------------------------------------------------------------------------

    def review_card_before(self, review_id: int) -> tuple[str, Card | None] | None:
        row = self._one(
            f"SELECT question_id, card_before FROM {REVIEWS} WHERE student = %s AND id = %s",
            self.student,
            review_id,
        )
        if row is None:
            return None
        return row[0], None if row[1] is None else Card.from_dict(json.loads(row[1]))

    def reviews(self, since: datetime | None = None) -> Iterator[ReviewRow]:
        query = (
            "SELECT question_id, deck_id, topic, kind, reviewed_ms, rating, correct, duration_ms,"
            f" state_before FROM {REVIEWS} WHERE student = %s"
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
            "SELECT question_id, kind, reviewed_ms, correct, response::text"
            f" FROM {REVIEWS} WHERE student = %s AND response IS NOT NULL"
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
        row = self._one(f"SELECT count(*) FROM {REVIEWS} WHERE student = %s", self.student)
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
            f"SELECT id FROM {REVIEWS} WHERE student = %s AND question_id = %s"
            " AND reviewed_ms = %s AND kind = %s AND rating = %s"
            " AND duration_ms IS NOT DISTINCT FROM %s ORDER BY id DESC LIMIT 1",
            self.student,
            question_id,
            to_ms(when),
            kind,
            int(rating),
            duration_ms,
        )
        return None if row is None else int(row[0])

    def review_id_for_answer(self, answer_id: str) -> int | None:
        """The row stored under `answer_id`, withdrawn or not: sending an answer again never
        brings back one that was taken back."""
        row = self._one(
            "SELECT id FROM reviews WHERE student = %s AND answer_id = %s", self.student, answer_id
        )
        return None if row is None else int(row[0])

    def has_review(self, review_id: int) -> bool:
        found = self._one(
            f"SELECT 1 FROM {REVIEWS} WHERE student = %s AND id = %s", self.student, review_id
        )
        return found is not None

    def _later_review(self, question_id: str, review_id: int) -> bool:
        """Whether a review after this one changed the card (practice answers did not)."""
        later = self._one(
            f"SELECT 1 FROM {REVIEWS} WHERE student = %s AND question_id = %s AND id > %s"
            " AND kind != %s LIMIT 1",
            self.student,
            question_id,
            review_id,
            PRACTICE,
        )
        return later is not None

    # -- exams --------------------------------------------------------------------------------

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
            f"SELECT question_id, card_json, state, due_ms FROM {CARDS} WHERE student = %s",
            self.student,
        )

    def flag_rows(self) -> list[tuple[str, bool, int | None]]:
        return self._all(  # type: ignore[return-value]
            f"SELECT question_id, suspended, buried_until_ms FROM {FLAGS} WHERE student = %s",
            self.student,
        )

    def answer_rows(self) -> list[AnswerRow]:
        return self._all(  # type: ignore[return-value]
            "SELECT question_id, topic, reviewed_ms, correct, duration_ms, card_before, rating,"
            f" attempt FROM {REVIEWS} WHERE student = %s ORDER BY reviewed_ms, id",
            self.student,
        )

    def fit_rows(self, *, in_use_only: bool, limit: int | None = None) -> list[tuple[Any, ...]]:
        query = (
            "SELECT id, fitted_ms, parameters::text, reviews, held_out, log_loss_before,"
            f" log_loss_after, in_use, detail::text FROM {FITS} AS fits WHERE student = %s"
        )
        if in_use_only:
            query += " AND in_use"
        query += " ORDER BY id DESC"
        if limit is not None:
            query += f" LIMIT {int(limit)}"
        return self._all(query, self.student)

    # -- plumbing -----------------------------------------------------------------------------

    def change_marker(self) -> int | None:
        """Moves on whenever this student's rows change. Every change adds a row, and rows are
        never taken away, so the counts say it (ids would not: a transaction that commits
        later may hold a smaller one)."""
        counts = ", ".join(
            f"(SELECT count(*) FROM {table} WHERE student = %(s)s)" for table in _CHANGING_TABLES
        )
        row = self.connection.execute(f"SELECT {counts}", {"s": self.student}).fetchone()  # type: ignore[arg-type]
        return hash(row)
