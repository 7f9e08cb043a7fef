"""The review history's interface, and where a history lives.

Two stores implement `HistoryStore`: the embedded SQLite file (quizapp/srs/store/sqlite/store.py, the
default) and a shared PostgreSQL database (quizapp/srs/store/postgres/store.py), where every row belongs to
a student. Callers depend on the protocol only; `open_writer`, `open_reader`,
`open_readonly` and `open_in_place` pick the store from the location.

A location is a `Path` (SQLite, exactly as before) or a `PostgresLocation`: a
`postgresql://` (or `postgres://`) URL and the student whose history it is.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from quizapp.srs.store.url_redaction import redacted, redacted_message

PRACTICE = "practice"  # the kind of review that leaves the card's schedule alone

if TYPE_CHECKING:
    from quizapp.srs.memory.scheduling import Card, Rating, Scheduler

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
STUDENT_MAX_BYTES = 63  # PostgreSQL's longest role name: a student's role is named after them


def is_postgres_url(text: str) -> bool:
    return text.strip().lower().startswith(POSTGRES_SCHEMES)


def student_problem(name: str) -> str | None:
    """Why `name` cannot be a student id, or None."""
    if not name or not name.strip():
        return "is empty"
    if name != name.strip():
        return "starts or ends with a space"
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") for ch in name):
        return "holds a control character"
    if len(name.encode("utf-8")) > STUDENT_MAX_BYTES:
        return f"is longer than {STUDENT_MAX_BYTES} bytes"
    return None


@dataclass(frozen=True)
class PostgresLocation:
    url: str
    student: str

    def __post_init__(self) -> None:
        problem = student_problem(self.student)
        if problem:
            raise ValueError(f"the student id {self.student!r} {problem}")

    def __str__(self) -> str:
        return f"{redacted(self.url)} (student {self.student})"


@dataclass(frozen=True)
class StudentToAsk:
    """A PostgreSQL history whose student is not known yet: the app asks at start."""

    url: str

    def named(self, student: str) -> PostgresLocation:
        return PostgresLocation(self.url, student)

    def __str__(self) -> str:
        return redacted(self.url)


HistoryLocation = Path | PostgresLocation


# (question id, topic, reviewed ms, correct, duration ms, card before as JSON, rating, attempt:
# first, repeat, aided, or None when not recorded)
# The rows both stores read back (quizapp/srs/store/sqlite/store.py re-exports them, as before).
@dataclass(frozen=True)
class ReviewRow:
    question_id: str
    deck_id: str
    topic: str
    kind: str
    reviewed_at: datetime
    rating: int
    correct: bool
    duration_ms: int | None
    state_before: int | None


@dataclass(frozen=True)
class ResponseRow:
    """A review and what was answered in it (quizapp/bank/responses.py's JSON forms)."""

    question_id: str
    kind: str
    reviewed_at: datetime
    correct: bool
    response: dict[str, object]


AnswerRow = tuple[str, str, int, bool, int | None, str | None, int, str | None]


class HistoryStore(Protocol):
    """What the app, the CLI and the statistics use of a review history. Times are aware
    datetimes; `*_ms` values are integer milliseconds since the epoch, UTC."""

    path: Path | None  # the SQLite file; None in memory and on PostgreSQL
    notice: str | None  # e.g. a damaged file moved aside on opening
    last_review_id: int | None  # the row record_answer wrote last

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
        attempt: str | None = None,
    ) -> Card | None: ...
    def rerate_review(self, review_id: int, rating: Rating, scheduler: Scheduler) -> bool: ...
    def undo_last(self, kind: str | None = None) -> str | None: ...
    def undo_review(self, review_id: int) -> str | None: ...
    def bury(self, question_id: str, until: datetime) -> None: ...
    def unbury(self, question_id: str) -> None: ...
    def set_suspended(self, question_id: str, suspended: bool = True) -> None: ...
    def suspended_ids(self) -> list[str]: ...
    def buried_ids(self, now: datetime) -> set[str]: ...
    def hidden_ids(self, now: datetime) -> set[str]: ...
    def card(self, question_id: str) -> Card | None: ...
    def review_card_before(self, review_id: int) -> tuple[str, Card | None] | None: ...
    def due_ids(self, now: datetime) -> list[str]: ...
    def known_ids(self) -> set[str]: ...
    def missed_in_practice_ids(self, question_ids: Iterable[str]) -> set[str]: ...
    def first_reviewed_since(self, since: datetime) -> int: ...
    def next_due(self, after: datetime, exclude: set[str] = ...) -> datetime | None: ...
    def due_times(self) -> list[tuple[str, datetime]]: ...
    def reviews(self, since: datetime | None = None) -> Iterator[ReviewRow]: ...
    def responses(self, since: datetime | None = None) -> Iterator[ResponseRow]: ...
    def review_count(self) -> int: ...
    def find_review(
        self,
        *,
        question_id: str,
        when: datetime,
        kind: str,
        rating: Rating,
        duration_ms: int | None,
    ) -> int | None: ...
    def has_review(self, review_id: int) -> bool: ...
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
    ) -> int: ...
    def find_exam(self, taken: datetime) -> int | None: ...
    def exams(self) -> list[dict[str, object]]: ...

    # -- whole tables, for the statistics and the exam-readiness model ---------------------
    def card_rows(self) -> list[tuple[str, str, int, int]]:
        """(question id, card JSON, state, due ms) of every card."""
        ...

    def flag_rows(self) -> list[tuple[str, bool, int | None]]:
        """(question id, suspended, buried until ms) of every flagged card."""
        ...

    def answer_rows(self) -> list[AnswerRow]:
        """`AnswerRow` of every review, oldest first."""
        ...

    # -- fitted FSRS parameters (quizapp/srs/store/fits.py) ----------------------------------
    def insert_fit(self, row: Mapping[str, Any], *, replace_in_use: bool) -> int: ...
    def stop_using_fits(self) -> int: ...
    def fit_rows(self, *, in_use_only: bool, limit: int | None = None) -> list[tuple[Any, ...]]:
        """(id, fitted ms, parameters JSON, reviews, held out, log-loss before, after,
        in use, detail JSON), newest first."""
        ...

    # -- plumbing ----------------------------------------------------------------------------
    def set_lock_timeout(self, seconds: float) -> None: ...
    def change_marker(self) -> int | None:
        """Changes when another connection commits to this history (cheap, asked often)."""
        ...

    def reopen(self) -> None: ...
    def close(self) -> None: ...
    def __enter__(self) -> HistoryStore: ...
    def __exit__(self, *exc: object) -> None: ...


def read_errors() -> tuple[type[BaseException], ...]:
    """The errors a read of either store raises when the database is in trouble."""
    import sqlite3
    import sys

    errors: list[type[BaseException]] = [sqlite3.Error]
    psycopg = sys.modules.get("psycopg")
    if psycopg is not None:
        errors.append(psycopg.Error)
    return tuple(errors)


def reading_problem(location: HistoryLocation, exc: BaseException) -> Exception:
    """A HistoryError for trouble met while reading: SQLite's verdict (damage or trouble) for
    a file, the server's message in one line for PostgreSQL."""
    from quizapp.srs.store.sqlite.history_file import HistoryError, reading_error

    if isinstance(location, Path):
        import sqlite3

        if isinstance(exc, sqlite3.Error):
            return reading_error(location, exc)
    message = one_line(str(exc))
    if isinstance(location, PostgresLocation):
        message = redacted_message(message, location.url)
    return HistoryError(f"{location} cannot be read: {message}")


def one_line(text: str) -> str:
    """A driver's message (PostgreSQL's span several lines) as one line."""
    return " ".join(part.strip() for part in text.splitlines() if part.strip())
