"""The class's answers and each student's standing, read from a history.

`load_class_history` picks the loader by the history's address:

- a SQLite file is one student's (named after the OS user): the report then covers that one
  student, so an instructor can try it locally;
- a PostgreSQL URL (quizapp/classroom/pg_history.py) is the class's: every student's rows as
  the tables' owner (the instructor), only the role's own rows as a student's role.

The answers are the reviews (with what exactly was answered, schema step 3) and the mock
exams' questions (`exam_answers`: the exam's questions at the moment it was submitted; an
unanswered one counts as wrong, as Moodle scores a quiz). Reads only: nothing is created or
moved (an old SQLite file is brought to the current schema in memory, not on disk).
"""

from __future__ import annotations

import getpass
import json
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from quizapp.bank.model import Deck, Question
from quizapp.classroom.item_analysis import Answer
from quizapp.srs.config import Settings
from quizapp.srs.exam_model import ScoreSummary
from quizapp.srs.history_file import HistoryError, reading_error
from quizapp.srs.store import ReviewStore, from_ms

if TYPE_CHECKING:
    from quizapp.srs.history import HistoryStore

FALLBACK_STUDENT = "me"


class ClassHistoryError(Exception):
    """The history cannot be read for the report (one line, naming it)."""


@dataclass(frozen=True)
class StudentRecord:
    """What the report says of one student beyond their answers."""

    student: str
    topic_mastery: Mapping[str, float | None]  # topic -> share of its bank questions mastered
    predicted: ScoreSummary | None  # the predicted exam score; None without an exam date
    # The score if they stopped studying now (None: no exam date, or the exam has passed and
    # `predicted` is that already): a plan followed to the letter can look far too rosy.
    no_study: ScoreSummary | None = None


@dataclass(frozen=True)
class ClassHistory:
    answers: tuple[Answer, ...]
    students: tuple[StudentRecord, ...]
    # The role whose own rows are all the report could see (row-level security); None when
    # it saw the whole history.
    limited_to: str | None = None


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
        from quizapp.classroom.pg_history import postgres_history

        return postgres_history(str(db).strip(), decks, settings, now, exam_date)
    return _sqlite_history(Path(db), decks, settings, now, exam_date)


def _sqlite_history(
    path: Path, decks: Sequence[Deck], settings: Settings, now: datetime, exam_date: date | None
) -> ClassHistory:
    student = local_student()
    try:
        with ReviewStore.open_readonly(path) as store:
            rows = store.connection.execute(
                f"SELECT ?, {REVIEW_COLUMNS}, response FROM reviews ORDER BY reviewed_ms, id",
                (student,),
            )
            answers = answers_from_rows(rows)
            answers += exam_answers_of(student, store.exams(), decks)
            record = student_record(store, decks, settings, now, student, exam_date)
    except HistoryError as exc:
        raise ClassHistoryError(str(exc)) from exc
    except sqlite3.Error as exc:
        raise ClassHistoryError(str(reading_error(path, exc))) from exc
    return ClassHistory(answers=tuple(answers), students=(record,))


# The review columns the report reads, between the student's name and the response (JSON
# text); the same in both stores.
REVIEW_COLUMNS = "question_id, deck_id, topic, reviewed_ms, kind, correct"


def parse_response(text: object) -> Mapping[str, object] | None:
    """A stored response, or None when absent or not a JSON object (a history is untrusted)."""
    if not isinstance(text, str | bytes):
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def answers_from_rows(rows: Iterable[Sequence[object]]) -> list[Answer]:
    """Answers from rows of (student, REVIEW_COLUMNS, response as JSON text)."""
    return [
        Answer(
            student=str(student),
            question_id=str(qid),
            deck_id=str(deck_id),
            topic=str(topic),
            reviewed_at=from_ms(int(reviewed_ms)),  # type: ignore[call-overload]
            kind=str(kind),
            correct=bool(correct),
            response=parse_response(stored),
        )
        for student, qid, deck_id, topic, reviewed_ms, kind, correct, stored in rows
    ]


EXAM = "exam"  # the kind of an answer given in a mock exam


def exam_answers_of(
    student: str, exams: list[dict[str, object]], decks: Sequence[Deck]
) -> list[Answer]:
    """The student's mock-exam answers to questions still in the bank, at submission time."""
    from quizapp.srs.traps import exam_answers

    questions = {q.id: q for d in decks for q in d.questions}
    return [
        Answer(
            student=student,
            question_id=given.question_id,
            deck_id=question.deck_id,
            topic=question.topic,
            reviewed_at=given.when,
            kind=EXAM,
            correct=given.correct,
            response=given.response,
        )
        for given in exam_answers(exams)
        if (question := questions.get(given.question_id)) is not None
    ]


def student_record(
    store: HistoryStore,
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
    predicted = no_study = None
    if exam_date is not None and any(d.questions for d in decks):
        report = assess(store, decks, settings, now, exam_date=exam_date)
        predicted = report.headline.overall
        no_study = report.as_is.overall if report.with_plan is not None else None
    return StudentRecord(student, mastery, predicted, no_study)
