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
    check_cards,
    checked_answers,
    checked_exams,
    exam_answers_of,
    guarded_record,
    student_record,
)
from quizapp.classroom.row_checks import (
    MAX_EXAM_DETAIL_LENGTH,
    MAX_JSON_LENGTH,
    IgnoredRows,
    check_student,
)
from quizapp.srs.config import Settings
from quizapp.srs.store.history import PostgresLocation, one_line, redacted
from quizapp.srs.store.postgres.schema import CURRENT_CARDS, EFFECTIVE_REVIEWS
from quizapp.srs.store.sqlite.history_file import HistoryError
from quizapp.srs.store.url_redaction import redacted_message

# The review rows that count (an undo is a withdrawal row, a re-rating a correction row: the
# store is append-only) and each question's newest card, as the store itself reads them.

PG_REVIEWS = (
    f"SELECT student, {REVIEW_COLUMNS}, left(response::text, {MAX_JSON_LENGTH + 1})"
    f" FROM {EFFECTIVE_REVIEWS} AS effective ORDER BY student, reviewed_ms, id"
)
PG_EXAMS = (
    "SELECT student, taken_ms, questions, correct, passed, threshold, seconds,"
    f" left(detail::text, {MAX_EXAM_DETAIL_LENGTH + 1}) FROM exams ORDER BY student, taken_ms, id"
)
PG_CARDS = (
    f"SELECT student, question_id, left(card_json, {MAX_JSON_LENGTH + 1}), state, due_ms,"
    f" first_review_ms, last_review_ms FROM {CURRENT_CARDS} AS current"
)


def postgres_history(
    url: str, decks: Sequence[Deck], settings: Settings, now: datetime, exam_date: date | None
) -> ClassHistory:
    try:
        import psycopg
    except ImportError:
        raise ClassHistoryError(
            'a PostgreSQL history needs psycopg (pip install "psycopg[binary]")'
        ) from None
    from quizapp.srs.store.postgres.store import connect, require_history, role_reach

    where = redacted(url)
    try:
        connection = connect(url)
    except HistoryError as exc:
        raise ClassHistoryError(str(exc)) from exc
    ignored = IgnoredRows()
    try:
        with connection:
            require_history(connection, where)
            role, sees_all = role_reach(connection)
            with connection.transaction():  # one snapshot: the answers and the students agree
                connection.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
                answers = checked_answers(connection.execute(PG_REVIEWS), ignored)
                exams = checked_exams(connection.execute(PG_EXAMS), ignored)
                with_cards = check_cards(connection.execute(PG_CARDS), ignored)
                named = {a.student for a in answers} | set(exams) | with_cards
                students = sorted(
                    name for name in named | ignored.students() if check_student(name) is None
                )
                records = []
                for student in students:
                    records.append(
                        _student(connection, url, student, decks, settings, now, exam_date, ignored)
                    )
                    answers += exam_answers_of(student, exams.get(student, []), decks)
    except HistoryError as exc:
        raise ClassHistoryError(str(exc)) from exc
    except psycopg.Error as exc:
        message = redacted_message(one_line(str(exc)), url)
        raise ClassHistoryError(f"{where} cannot be read: {message}") from exc
    return ClassHistory(
        answers=tuple(answers),
        students=tuple(records),
        limited_to=None if sees_all else role,
        ignored=ignored,
    )


def _student(
    connection: Any,
    url: str,
    student: str,
    decks: Sequence[Deck],
    settings: Settings,
    now: datetime,
    exam_date: date | None,
    ignored: IgnoredRows,
) -> StudentRecord:
    """The student's record, worked out through a view of the shared connection, inside a
    savepoint: a value the server refuses to convert leaves the rest of the report alone."""
    import psycopg

    from quizapp.classroom.history import DATA_ERRORS
    from quizapp.srs.store.postgres.store import PostgresStore

    try:
        location = PostgresLocation(url, student)
    except ValueError:  # a name the app never writes (a hand-made row): its answers only
        return StudentRecord(student=student, topic_mastery={}, predicted=None)
    view = PostgresStore(connection, location)

    def work_out() -> StudentRecord:
        with connection.transaction():
            return student_record(view, decks, settings, now, student, exam_date)

    return guarded_record(student, ignored, work_out, (*DATA_ERRORS, psycopg.DataError))
