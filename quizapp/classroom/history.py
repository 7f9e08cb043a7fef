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
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import TYPE_CHECKING

from quizapp.bank.model import Deck, Question
from quizapp.classroom.item_analysis import Answer
from quizapp.classroom.row_checks import (
    MAX_EXAM_DETAIL_LENGTH,
    MAX_JSON_LENGTH,
    IgnoredRows,
    check_card,
    check_exam,
    check_review,
)
from quizapp.srs.config import Settings
from quizapp.srs.readiness.exam_model import ScoreSummary
from quizapp.srs.times import from_ms

if TYPE_CHECKING:
    from quizapp.srs.store.history import HistoryStore

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
    # Why the mastery and forecast are left out (they read the whole history, ignored rows
    # too); None when they are given.
    left_out: str | None = None
    # Why there is no predicted figure although there is an exam date: the student's own
    # Readiness screen shows no figure either ("not enough evidence yet: ..."). None otherwise.
    forecast_note: str | None = None
    # Set when `predicted` is the score with no further study, not the plan followed to the
    # exam, because there is too little evidence of how fast they forget: says what is missing.
    plan_note: str | None = None
    basis: str | None = None  # what the figure rests on: "based on 37 first attempts on ..."


@dataclass(frozen=True)
class ClassHistory:
    answers: tuple[Answer, ...]
    students: tuple[StudentRecord, ...]
    # The role whose own rows are all the report could see (row-level security); None when
    # it saw the whole history.
    limited_to: str | None = None
    # Rows that broke a rule of quizapp/classroom/row_checks.py: left out, and counted.
    ignored: IgnoredRows = field(default_factory=IgnoredRows)


def local_student() -> str:
    """The one student of a local history: the OS user."""
    try:
        return getpass.getuser() or FALLBACK_STUDENT
    except (OSError, KeyError, ImportError):  # no user name in the environment or passwd
        return FALLBACK_STUDENT


def is_server_address(db: str) -> bool:
    return db.startswith(("postgresql://", "postgres://"))


# -- the rows, checked once (quizapp/classroom/row_checks.py) -------------------------------------
# Each query names its columns as the `check_*` rule reads them. Long JSON text is cut one
# character past its limit where it is read, so a huge value is never held whole and still
# reads as too large.

REVIEW_FIELDS = (
    "student",
    "question_id",
    "deck_id",
    "topic",
    "reviewed_ms",
    "kind",
    "correct",
    "rating",
    "duration_ms",
    "attempt",
    "response",
)
# Between the student and the response: the same columns in both stores.
REVIEW_COLUMNS = ", ".join(REVIEW_FIELDS[1:-1])
EXAM_FIELDS = ("student", "taken_ms", "questions", "correct", "passed", "threshold", "seconds")
EXAM_FIELDS += ("detail",)
CARD_FIELDS = ("student", "question_id", "card_json", "state", "due_ms", "first_review_ms")
CARD_FIELDS += ("last_review_ms",)


def sqlite_reviews_query() -> str:
    return (
        f"SELECT ?, {REVIEW_COLUMNS}, substr(response, 1, {MAX_JSON_LENGTH + 1})"
        " FROM reviews ORDER BY reviewed_ms, id"
    )


SQLITE_EXAMS = (
    "SELECT ?, taken_ms, questions, correct, passed, threshold, seconds,"
    f" substr(detail, 1, {MAX_EXAM_DETAIL_LENGTH + 1}) FROM exams ORDER BY taken_ms, id"
)
SQLITE_CARDS = (
    f"SELECT ?, question_id, substr(card_json, 1, {MAX_JSON_LENGTH + 1}), state, due_ms,"
    " first_review_ms, last_review_ms FROM cards"
)


def parse_response(text: object) -> Mapping[str, object] | None:
    """A stored response, or None when absent or not a JSON object (a history is untrusted)."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    if not isinstance(text, str):
        return None
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def checked_answers(rows: Iterable[Sequence[object]], ignored: IgnoredRows) -> list[Answer]:
    """Answers from review rows (REVIEW_FIELDS) that keep every rule; the others are counted
    in `ignored`."""
    answers = []
    for values in rows:
        row = dict(zip(REVIEW_FIELDS, values, strict=True))
        rule = check_review(row)
        if rule is not None:
            ignored.add(row["student"], rule)
            continue
        answers.append(
            Answer(
                student=str(row["student"]),
                question_id=str(row["question_id"]),
                deck_id=str(row["deck_id"]),
                topic=str(row["topic"]),
                reviewed_at=from_ms(int(row["reviewed_ms"])),  # type: ignore[call-overload]
                kind=str(row["kind"]),
                correct=bool(row["correct"]),
                response=parse_response(row["response"]),
            )
        )
    return answers


def checked_exams(
    rows: Iterable[Sequence[object]], ignored: IgnoredRows
) -> dict[str, list[dict[str, object]]]:
    """Each student's mock exams (EXAM_FIELDS rows), as the stores' `exams()` gives them, from
    the rows that keep every rule; the others are counted in `ignored`."""
    exams: dict[str, list[dict[str, object]]] = {}
    for values in rows:
        row = dict(zip(EXAM_FIELDS, values, strict=True))
        rule = check_exam(row)
        if rule is not None:
            ignored.add(row["student"], rule)
            continue
        exams.setdefault(str(row["student"]), []).append(
            {
                "taken": from_ms(int(row["taken_ms"])).isoformat(),  # type: ignore[call-overload]
                "questions": row["questions"],
                "correct": row["correct"],
                "passed": bool(row["passed"]),
                "threshold": row["threshold"],
                "seconds": row["seconds"],
                "detail": parse_response(row["detail"]),
            }
        )
    return exams


def check_cards(rows: Iterable[Sequence[object]], ignored: IgnoredRows) -> set[str]:
    """Count the card rows (CARD_FIELDS) that break a rule; the students with cards."""
    students = set()
    for values in rows:
        row = dict(zip(CARD_FIELDS, values, strict=True))
        rule = check_card(row)
        if rule is not None:
            ignored.add(row["student"], rule)
        elif isinstance(row["student"], str):
            students.add(row["student"])
    return students


# What working out a student's mastery and forecast may raise on values no rule foresaw: the
# student's record is then left out, never the report. Not a HistoryError: a history that
# cannot be reached or read at all is the whole report's failure, and said as such.
DATA_ERRORS: tuple[type[Exception], ...] = (
    ArithmeticError,
    KeyError,
    IndexError,
    TypeError,
    ValueError,
    RecursionError,
)
LEFT_OUT_FOR_IGNORED_ROWS = "left out: rows ignored"
LEFT_OUT_FOR_ERROR = "left out: history unreadable"


def guarded_record(
    student: str,
    ignored: IgnoredRows,
    work_out: Callable[[], StudentRecord],
    data_errors: tuple[type[Exception], ...] = DATA_ERRORS,
) -> StudentRecord:
    """The student's mastery and forecast, or a record saying why they are left out: they
    read the whole history through the app's store, so not with rows the report ignored."""
    if student in ignored.students():
        return StudentRecord(student, {}, None, left_out=LEFT_OUT_FOR_IGNORED_ROWS)
    try:
        return work_out()
    except data_errors:
        return StudentRecord(student, {}, None, left_out=LEFT_OUT_FOR_ERROR)


EXAM = "exam"  # the kind of an answer given in a mock exam


def exam_answers_of(
    student: str, exams: list[dict[str, object]], decks: Sequence[Deck]
) -> list[Answer]:
    """The student's mock-exam answers to questions still in the bank, at submission time."""
    from quizapp.srs.study.traps import exam_answers

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
    from quizapp.srs.readiness.report import assess
    from quizapp.srs.study.stats import compute_stats

    questions: dict[str, Question] = {q.id: q for d in decks for q in d.questions}
    stats = compute_stats(store, questions, now, days=1, forecast_days=1)
    mastery = {t.topic: t.mastery for t in stats.topics if t.questions}
    exam_date = exam_date if exam_date is not None else settings.exam_date
    if exam_date is None or not any(d.questions for d in decks):
        return StudentRecord(student, mastery, None)
    # The instructor sees what the student is shown, gated the same way: no figure without
    # evidence, and the plan's figure only where there is evidence of how fast they forget.
    report = assess(store, decks, settings, now, exam_date=exam_date)
    basis = report.basis
    if not report.enough_evidence:
        return StudentRecord(student, mastery, None, forecast_note=basis.not_enough)
    plan = report.plan_shown
    return StudentRecord(
        student,
        mastery,
        predicted=report.shown.overall,
        no_study=report.as_is.overall if plan is not None else None,
        plan_note=basis.plan_not_enough if report.planning and plan is None else None,
        basis=basis.text,
    )
