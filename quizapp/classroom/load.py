"""Loading the class history from either store: a local SQLite history (its one student) or
the class's PostgreSQL database (quizapp/classroom/pg_history.py), as one `ClassHistory`.

The shared row checks and per-student records live in quizapp/classroom/history.py; this module
only picks the backend and reads the local one.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import date, datetime
from pathlib import Path

from quizapp.bank.model import Deck
from quizapp.classroom.history import (
    SQLITE_CARDS,
    SQLITE_EXAMS,
    ClassHistory,
    ClassHistoryError,
    check_cards,
    checked_answers,
    checked_exams,
    exam_answers_of,
    guarded_record,
    is_server_address,
    local_student,
    sqlite_reviews_query,
    student_record,
)
from quizapp.classroom.row_checks import IgnoredRows
from quizapp.srs.config import Settings
from quizapp.srs.store.sqlite.history_file import HistoryError, reading_error
from quizapp.srs.store.sqlite.store import ReviewStore


def load_class_history(
    db: str | Path,
    decks: Sequence[Deck],
    settings: Settings,
    now: datetime,
    *,
    exam_date: date | None = None,
) -> ClassHistory:
    """Every answer in the history and each student's mastery and forecast, as of `now`."""
    if is_server_address(str(db)):
        from quizapp.classroom.pg_history import postgres_history

        return postgres_history(str(db).strip(), decks, settings, now, exam_date)
    return _sqlite_history(Path(db), decks, settings, now, exam_date)


def _sqlite_history(
    path: Path, decks: Sequence[Deck], settings: Settings, now: datetime, exam_date: date | None
) -> ClassHistory:
    student = local_student()
    ignored = IgnoredRows()
    try:
        with ReviewStore.open_readonly(path) as store:
            db = store.connection
            answers = checked_answers(db.execute(sqlite_reviews_query(), (student,)), ignored)
            exams = checked_exams(db.execute(SQLITE_EXAMS, (student,)), ignored)
            answers += exam_answers_of(student, exams.get(student, []), decks)
            check_cards(db.execute(SQLITE_CARDS, (student,)), ignored)
            record = guarded_record(
                student,
                ignored,
                lambda: student_record(store, decks, settings, now, student, exam_date),
            )
    except HistoryError as exc:
        raise ClassHistoryError(str(exc)) from exc
    except sqlite3.Error as exc:
        raise ClassHistoryError(str(reading_error(path, exc))) from exc
    return ClassHistory(answers=tuple(answers), students=(record,), ignored=ignored)
