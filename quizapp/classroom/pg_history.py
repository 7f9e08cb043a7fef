"""The class report's reading of a PostgreSQL history: every student's rows at once.

Connected as the tables' owner (the instructor, who created the database and opened it first),
row-level security lets every row through, and the report covers the class. Connected as a
student's own role, the same queries return only that student's rows: the history says so
(`limited_to`), and the report tells the reader it covers only what this role can see.

Each student's mastery and forecast are worked out on a per-student view of the same
connection (a `PostgresStore` for that student), exactly as the app works them out for them.
Reads only; nothing is created or migrated. Every failure is one line (ClassHistoryError).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from typing import Any

from quizapp.bank.model import Deck
from quizapp.classroom.history import (
    REVIEW_COLUMNS,
    ClassHistory,
    ClassHistoryError,
    StudentRecord,
    answers_from_rows,
    exam_answers_of,
    student_record,
)
from quizapp.srs.config import Settings
from quizapp.srs.history import PostgresLocation, one_line, redacted
from quizapp.srs.history_file import HistoryError
from quizapp.srs.url_redaction import redacted_message


def postgres_history(
    url: str, decks: Sequence[Deck], settings: Settings, now: datetime, exam_date: date | None
) -> ClassHistory:
    try:
        import psycopg
    except ImportError:
        raise ClassHistoryError(
            'a PostgreSQL history needs psycopg (pip install "psycopg[binary]")'
        ) from None
    from quizapp.srs.pg_store import connect, require_history, role_reach

    where = redacted(url)
    try:
        connection = connect(url)
    except HistoryError as exc:
        raise ClassHistoryError(str(exc)) from exc
    try:
        with connection:
            require_history(connection, where)
            role, sees_all = role_reach(connection)
            with connection.transaction():  # one snapshot: the answers and the students agree
                connection.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
                answers = answers_from_rows(
                    connection.execute(
                        f"SELECT student, {REVIEW_COLUMNS}, response::text"
                        " FROM reviews ORDER BY student, reviewed_ms, id"
                    )
                )
                students = [
                    row[0]
                    for row in connection.execute(
                        "SELECT student FROM reviews UNION SELECT student FROM cards"
                        " UNION SELECT student FROM exams ORDER BY 1"
                    )
                ]
                records = []
                for student in students:
                    record, exams = _student(
                        connection, url, student, decks, settings, now, exam_date
                    )
                    records.append(record)
                    answers += exam_answers_of(student, exams, decks)
    except HistoryError as exc:
        raise ClassHistoryError(str(exc)) from exc
    except psycopg.Error as exc:
        message = redacted_message(one_line(str(exc)), url)
        raise ClassHistoryError(f"{where} cannot be read: {message}") from exc
    return ClassHistory(
        answers=tuple(answers),
        students=tuple(records),
        limited_to=None if sees_all else role,
    )


def _student(
    connection: Any,
    url: str,
    student: str,
    decks: Sequence[Deck],
    settings: Settings,
    now: datetime,
    exam_date: date | None,
) -> tuple[StudentRecord, list[dict[str, object]]]:
    """The student's record and mock exams, read through a view of the shared connection."""
    from quizapp.srs.pg_store import PostgresStore

    try:
        location = PostgresLocation(url, student)
    except ValueError:  # a name the app never writes (a hand-made row): its answers only
        return StudentRecord(student=student, topic_mastery={}, predicted=None), []
    view = PostgresStore(connection, location)
    return student_record(view, decks, settings, now, student, exam_date), view.exams()
