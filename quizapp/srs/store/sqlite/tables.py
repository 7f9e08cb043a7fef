"""The SQLite history's whole-table reads, fitted parameters and plumbing: the part of
`HistoryStore` (quizapp/srs/store/history.py) beyond answering, mixed into `ReviewStore`."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    from quizapp.srs.store.history import AnswerRow

_FIT_COLUMNS = (
    "id, fitted_ms, parameters, reviews, held_out, log_loss_before, log_loss_after, in_use, detail"
)


class SqliteTables:
    connection: sqlite3.Connection

    def transaction(self) -> AbstractContextManager[sqlite3.Connection]:
        raise NotImplementedError  # ReviewStore's

    def card_rows(self) -> list[tuple[str, str, int, int]]:
        return self.connection.execute(
            "SELECT question_id, card_json, state, due_ms FROM cards"
        ).fetchall()

    def flag_rows(self) -> list[tuple[str, bool, int | None]]:
        rows = self.connection.execute(
            "SELECT question_id, suspended, buried_until_ms FROM card_flags"
        )
        return [(qid, bool(suspended), buried) for qid, suspended, buried in rows]

    def answer_rows(self) -> list[AnswerRow]:
        rows = self.connection.execute(
            "SELECT question_id, topic, reviewed_ms, correct, duration_ms, card_before, rating,"
            " attempt FROM reviews ORDER BY reviewed_ms, id"
        )
        return [(q, t, ms, bool(c), d, before, r, a) for q, t, ms, c, d, before, r, a in rows]

    def insert_fit(self, row: Mapping[str, Any], *, replace_in_use: bool) -> int:
        with self.transaction() as db:
            if replace_in_use:
                db.execute("UPDATE fsrs_fits SET in_use = 0 WHERE in_use = 1")
            cursor = db.execute(
                "INSERT INTO fsrs_fits (fitted_ms, parameters, reviews, held_out, log_loss_before,"
                " log_loss_after, in_use, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    row["fitted_ms"],
                    json.dumps(row["parameters"]),
                    row["reviews"],
                    row["held_out"],
                    row["log_loss_before"],
                    row["log_loss_after"],
                    int(row["in_use"]),
                    json.dumps(row["detail"]),
                ),
            )
            return int(cursor.lastrowid or 0)

    def stop_using_fits(self) -> int:
        with self.transaction() as db:
            return db.execute("UPDATE fsrs_fits SET in_use = 0 WHERE in_use = 1").rowcount

    def fit_rows(self, *, in_use_only: bool, limit: int | None = None) -> list[tuple[Any, ...]]:
        query = f"SELECT {_FIT_COLUMNS} FROM fsrs_fits"
        if in_use_only:
            query += " WHERE in_use = 1"
        query += " ORDER BY id DESC"
        if limit is not None:
            query += f" LIMIT {int(limit)}"
        return self.connection.execute(query).fetchall()

    def set_lock_timeout(self, seconds: float) -> None:
        self.connection.execute(f"PRAGMA busy_timeout = {int(seconds * 1000)}")

    def change_marker(self) -> int | None:
        """SQLite's count of commits by other connections to the file."""
        return self.connection.execute("PRAGMA data_version").fetchone()[0]
