"""The class's answers and each student's standing, read from a history.

`load_class_history` picks the loader by the history's address. The SQLite history is one
student's (named after the OS user): the report then covers that one student, so an instructor
can try it locally. A loader for a shared store (every student's rows, e.g. PostgreSQL) sits
next to `_sqlite_history` and returns the same `ClassHistory`.

The `response` column (what exactly was answered; schema step 3) is read when the history has
it and taken as NULL otherwise. Reads only: nothing is created, migrated or moved.
"""

from __future__ import annotations

import getpass
import json
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path

from quizapp.bank.model import Deck, Question
from quizapp.classroom.item_analysis import Answer
from quizapp.srs.config import Settings
from quizapp.srs.exam_model import ScoreSummary
from quizapp.srs.history_file import HistoryError, reading_error
from quizapp.srs.store import ReviewStore, from_ms

FALLBACK_STUDENT = "me"


class ClassHistoryError(Exception):
    """The history cannot be read for the report (one line, naming it)."""


@dataclass(frozen=True)
class StudentRecord:
    """What the report says of one student beyond their answers."""

    student: str
    topic_mastery: Mapping[str, float | None]  # topic -> share of its bank questions mastered
    predicted: ScoreSummary | None  # the predicted exam score; None without an exam date


@dataclass(frozen=True)
class ClassHistory:
    answers: tuple[Answer, ...]
    students: tuple[StudentRecord, ...]


def local_student() -> str:
    """The one student of a local history: the OS user."""
    try:
        return getpass.getuser() or FALLBACK_STUDENT
    except (OSError, KeyError, ImportError):  # no user name in the environment or passwd
        return FALLBACK_STUDENT


def is_server_address(db: str) -> bool:
    return db.startswith(("postgresql://", "postgres://"))


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
        raise ClassHistoryError(
            "a PostgreSQL history cannot be read by this version yet; give the path of a "
            "SQLite history"
        )
    return _sqlite_history(Path(db), decks, settings, now, exam_date)


def _sqlite_history(
    path: Path, decks: Sequence[Deck], settings: Settings, now: datetime, exam_date: date | None
) -> ClassHistory:
    student = local_student()
    try:
        with ReviewStore.open_readonly(path) as store:
            answers = sqlite_answers(store.connection, student)
            record = student_record(store, decks, settings, now, student, exam_date)
    except HistoryError as exc:
        raise ClassHistoryError(str(exc)) from exc
    except sqlite3.Error as exc:
        raise ClassHistoryError(str(reading_error(path, exc))) from exc
    return ClassHistory(answers=tuple(answers), students=(record,))


def has_column(connection: sqlite3.Connection, table: str, column: str) -> bool:
    return any(row[1] == column for row in connection.execute(f"PRAGMA table_info({table})"))


def parse_response(text: object) -> Mapping[str, object] | None:
    """A stored response, or None when absent or not a JSON object (a history is untrusted)."""
    if not isinstance(text, str | bytes):
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def sqlite_answers(connection: sqlite3.Connection, student: str) -> list[Answer]:
    """Every row of `reviews`, oldest first, as the one student's answers."""
    response = "response" if has_column(connection, "reviews", "response") else "NULL"
    rows = connection.execute(
        "SELECT question_id, deck_id, topic, reviewed_ms, kind, correct, "
        f"{response} FROM reviews ORDER BY reviewed_ms, id"
    )
    return [
        Answer(
            student=student,
            question_id=qid,
            deck_id=deck_id,
            topic=topic,
            reviewed_at=from_ms(reviewed_ms),
            kind=kind,
            correct=bool(correct),
            response=parse_response(stored),
        )
        for qid, deck_id, topic, reviewed_ms, kind, correct, stored in rows
    ]


def student_record(
    store: ReviewStore,
    decks: Sequence[Deck],
    settings: Settings,
    now: datetime,
    student: str,
    exam_date: date | None,
) -> StudentRecord:
    """Topic mastery as `quizapp stats` counts it, and the forecast `quizapp forecast` gives
    when an exam date is set."""
    from quizapp.srs.readiness import assess
    from quizapp.srs.stats import compute_stats

    questions: dict[str, Question] = {q.id: q for d in decks for q in d.questions}
    stats = compute_stats(store, questions, now, days=1, forecast_days=1)
    mastery = {t.topic: t.mastery for t in stats.topics if t.questions}
    exam_date = exam_date if exam_date is not None else settings.exam_date
    predicted = None
    if exam_date is not None and any(d.questions for d in decks):
        report = assess(store, decks, settings, now, exam_date=exam_date)
        predicted = report.headline.overall
    return StudentRecord(student=student, topic_mastery=mastery, predicted=predicted)
