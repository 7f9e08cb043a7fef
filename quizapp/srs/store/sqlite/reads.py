"""What the SQLite store reads (quizapp/srs/store/sqlite/store.py's `ReviewStore` inherits it):
cards and their due dates, reviews and responses, buried and suspended cards, exams.

Reads only: every write, and opening and migrating the file, is in store.py. The PostgreSQL
store has the same split (quizapp/srs/store/postgres/reads.py).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from datetime import datetime

from quizapp.bank.responses import from_json
from quizapp.srs.memory.scheduling import Card, Rating
from quizapp.srs.store.history import PRACTICE, ResponseRow, ReviewRow
from quizapp.srs.store.sqlite.tables import SqliteTables
from quizapp.srs.times import from_ms, to_ms


class SqliteReads(SqliteTables):  # and the whole-table reads in tables.py
    # -- buried and suspended -----------------------------------------------------------------

    def suspended_ids(self) -> list[str]:
        rows = self.connection.execute(
            "SELECT question_id FROM card_flags WHERE suspended = 1 ORDER BY question_id"
        )
        return [r[0] for r in rows]

    def buried_ids(self, now: datetime) -> set[str]:
        """Cards buried until after `now` (suspended or not)."""
        rows = self.connection.execute(
            "SELECT question_id FROM card_flags WHERE buried_until_ms > ?", (to_ms(now),)
        )
        return {r[0] for r in rows}

    def hidden_ids(self, now: datetime) -> set[str]:
        """Suspended cards, and cards buried until after `now`."""
        rows = self.connection.execute(
            "SELECT question_id FROM card_flags WHERE suspended = 1 OR buried_until_ms > ?",
            (to_ms(now),),
        )
        return {r[0] for r in rows}

    # -- cards and reviews ----------------------------------------------------------------------

    def card(self, question_id: str) -> Card | None:
        row = self.connection.execute(
            "SELECT card_json FROM cards WHERE question_id = ?", (question_id,)
        ).fetchone()
        return Card.from_dict(json.loads(row[0])) if row else None

    def review_card_before(self, review_id: int) -> tuple[str, Card | None] | None:
        """(question id, the card as it was before that review); None when the row is gone."""
        row = self.connection.execute(
            "SELECT question_id, card_before FROM reviews WHERE id = ?", (review_id,)
        ).fetchone()
        if row is None:
            return None
        return row[0], None if row[1] is None else Card.from_dict(json.loads(row[1]))

    def due_ids(self, now: datetime) -> list[str]:
        """Cards due by `now`, most overdue first (suspended and buried ones included)."""
        rows = self.connection.execute(
            "SELECT question_id FROM cards WHERE due_ms <= ? ORDER BY due_ms", (to_ms(now),)
        )
        return [r[0] for r in rows]

    def known_ids(self) -> set[str]:
        return {r[0] for r in self.connection.execute("SELECT question_id FROM cards")}

    def missed_in_practice_ids(self, question_ids: Iterable[str]) -> set[str]:
        """Those of `question_ids` whose latest answer, in any mode, was a wrong practice
        answer: a quiz leaves their cards alone, so without this list nothing would ask them
        again. One index probe per question (reviews_by_question orders each question's rows;
        id breaks ties within a millisecond), so the home screen's refresh costs the bank's
        size, not the history's: a window over a million reviews took 2 s."""
        latest = (
            "SELECT kind, correct FROM reviews WHERE question_id = ?"
            " ORDER BY reviewed_ms DESC, id DESC LIMIT 1"
        )
        missed = set()
        for question_id in question_ids:
            row = self.connection.execute(latest, (question_id,)).fetchone()
            if row is not None and row[0] == PRACTICE and not row[1]:
                missed.add(question_id)
        return missed

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

    def responses(self, since: datetime | None = None) -> Iterator[ResponseRow]:
        """Every review that kept what was answered (schema step 3 on), oldest first. A stored
        response that is not a JSON object (another program's writing) is left out."""
        query = (
            "SELECT question_id, kind, reviewed_ms, correct, response FROM reviews"
            " WHERE response IS NOT NULL"
        )
        params: tuple[object, ...] = ()
        if since is not None:
            query += " AND reviewed_ms >= ?"
            params = (to_ms(since),)
        for question_id, kind, reviewed_ms, correct, text in self.connection.execute(
            query + " ORDER BY reviewed_ms, id", params
        ):
            response = from_json(text)
            if response is not None:
                yield ResponseRow(question_id, kind, from_ms(reviewed_ms), bool(correct), response)

    def review_count(self) -> int:
        return self.connection.execute("SELECT COUNT(*) FROM reviews").fetchone()[0]

    def find_review(
        self,
        *,
        question_id: str,
        when: datetime,
        kind: str,
        rating: Rating,
        duration_ms: int | None,
    ) -> int | None:
        """The id of a review with exactly these fields, or None: a writer retrying an answer
        whose COMMIT reported an error looks first, so the answer is never stored twice."""
        row = self.connection.execute(
            "SELECT id FROM reviews WHERE question_id = ? AND reviewed_ms = ? AND kind = ?"
            " AND rating = ? AND duration_ms IS ? ORDER BY id DESC LIMIT 1",
            (question_id, to_ms(when), kind, int(rating), duration_ms),
        ).fetchone()
        return None if row is None else row[0]

    def has_review(self, review_id: int) -> bool:
        row = self.connection.execute("SELECT 1 FROM reviews WHERE id = ?", (review_id,))
        return row.fetchone() is not None

    # -- exams --------------------------------------------------------------------------------

    def find_exam(self, taken: datetime) -> int | None:
        """The id of the exam taken at `taken`, or None (for a writer's retry, as find_review)."""
        row = self.connection.execute(
            "SELECT id FROM exams WHERE taken_ms = ? ORDER BY id DESC LIMIT 1", (to_ms(taken),)
        ).fetchone()
        return None if row is None else row[0]

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
