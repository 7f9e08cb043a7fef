"""The class report's read boundary: each row of a history checked once, by named rules.

A history is untrusted. The app never writes a rating of 9, a question id of 10 kB, a time in
2300, a NaN duration or an exam with more right than asked, but a student can write such rows
into their own history (a store without constraints, or rows from before them), and one of them
must never stop the report for the whole class. Every row the report reads passes `check_*`
here first: a row that breaks a rule is left out and counted, per student and rule, in
`IgnoredRows`, which the report prints after itself ("3 rows from ada ignored: rating out of
range") and carries in its JSON.

Pure Python: no store, no torch, no textual.
"""

from __future__ import annotations

import json
import math
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum

from quizapp.bank.session import AIDED, FIRST, REPEAT


class Rule(StrEnum):
    """Why a row was left out: the words the report prints after "ignored: "."""

    MISSING = "a value missing or of the wrong type"
    NAME = "student name too long"
    TEXT = "question, deck or topic id too long"
    RATING = "rating out of range"
    TIME = "time out of range"
    DURATION = "duration not a finite, non-negative time"
    KIND = "unknown kind or attempt"
    RESPONSE = "response not a JSON object, or too large"
    EXAM_COUNTS = "exam figures impossible"
    EXAM_DETAIL = "exam detail not a JSON object, or too large"
    CARD = "card not a JSON object, or out of range"


# What the app itself writes, with room to spare; anything beyond is not its.
MAX_NAME_LENGTH = 200  # PostgreSQL role names stop at 63 bytes; OS user names are shorter
MAX_ID_LENGTH = 500  # the bank's ids run to about 40 characters
MAX_JSON_LENGTH = 64_000  # a response or a card is a few hundred characters
MAX_EXAM_DETAIL_LENGTH = 1_000_000  # an exam's ids, missed list and responses
MAX_EXAM_QUESTIONS = 10_000
MAX_DURATION_MS = 7 * 24 * 3600 * 1000  # a question left open for a week is not an answer
EARLIEST_MS = int(datetime(2000, 1, 1, tzinfo=UTC).timestamp() * 1000)
LATEST_MS = int(datetime(2100, 1, 1, tzinfo=UTC).timestamp() * 1000)
RATINGS = range(1, 5)  # Again, Hard, Good, Easy
KINDS = frozenset({"quiz", "drill", "practice", "exam"})
ATTEMPTS = frozenset({FIRST, REPEAT, AIDED})
CARD_STATES = range(0, 4)  # py-fsrs: new (older files), learning, review, relearning

# How a name is shown: at most this many characters, with nothing that is not visible text.
SHOWN_NAME_LENGTH = 40
NO_NAME = "(no name)"
# Unicode categories that show nothing or act on the terminal: controls, format characters
# (zero-width spaces, bidirectional overrides), surrogates, private use, unassigned, and the
# line and paragraph separators.
_INVISIBLE = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_text(value: object, limit: int) -> bool | None:
    """True: text within `limit`; False: text too long; None: not text at all."""
    if not isinstance(value, str):
        return None
    return len(value) <= limit


def _is_time(value: object) -> bool:
    return _is_int(value) and EARLIEST_MS <= value <= LATEST_MS  # type: ignore[operator]


def _is_flag(value: object) -> bool:
    """A boolean as either store keeps it: PostgreSQL's boolean, SQLite's 0 or 1."""
    return isinstance(value, bool) or (_is_int(value) and value in (0, 1))


def _json_object(text: object, limit: int) -> bool:
    """Whether `text` is a JSON object of at most `limit` characters."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            return False
    if not isinstance(text, str) or len(text) > limit:
        return False
    try:
        return isinstance(json.loads(text), dict)
    except (ValueError, RecursionError):
        return False


def _finite(value: object, low: float, high: float) -> bool:
    if not isinstance(value, int | float) or isinstance(value, bool):
        return False
    return math.isfinite(value) and low <= value <= high


def check_student(name: object) -> Rule | None:
    if not isinstance(name, str) or not name:
        return Rule.MISSING
    return None if len(name) <= MAX_NAME_LENGTH else Rule.NAME


def check_review(row: Mapping[str, object]) -> Rule | None:
    """A review row: student, question_id, deck_id, topic, reviewed_ms, kind, correct,
    rating, duration_ms, attempt and response (JSON text, or None when not captured)."""
    if (rule := check_student(row["student"])) is not None:
        return rule
    ids = [_is_text(row[column], MAX_ID_LENGTH) for column in ("question_id", "deck_id", "topic")]
    if None in ids or not isinstance(row["kind"], str) or not _is_flag(row["correct"]):
        return Rule.MISSING
    if not all(ids):
        return Rule.TEXT
    if not _is_int(row["rating"]) or row["rating"] not in RATINGS:
        return Rule.RATING
    if not _is_time(row["reviewed_ms"]):
        return Rule.TIME
    duration = row["duration_ms"]
    if duration is not None and not _finite(duration, 0, MAX_DURATION_MS):
        return Rule.DURATION
    if row["kind"] not in KINDS or (row["attempt"] is not None and row["attempt"] not in ATTEMPTS):
        return Rule.KIND
    response = row["response"]
    if response is not None and not _json_object(response, MAX_JSON_LENGTH):
        return Rule.RESPONSE
    return None


def check_exam(row: Mapping[str, object]) -> Rule | None:
    """A mock exam row: student, taken_ms, questions, correct, passed, threshold, seconds and
    detail (JSON text)."""
    if (rule := check_student(row["student"])) is not None:
        return rule
    if not _is_flag(row["passed"]):
        return Rule.MISSING
    if not _is_time(row["taken_ms"]):
        return Rule.TIME
    questions, correct = row["questions"], row["correct"]
    if not (_is_int(questions) and _is_int(correct)):
        return Rule.EXAM_COUNTS
    if not 0 <= correct <= questions <= MAX_EXAM_QUESTIONS:  # type: ignore[operator]
        return Rule.EXAM_COUNTS
    if not _finite(row["threshold"], 0.0, 1.0):
        return Rule.EXAM_COUNTS
    if not _finite(row["seconds"], 0.0, MAX_DURATION_MS / 1000):
        return Rule.DURATION
    if not _json_object(row["detail"], MAX_EXAM_DETAIL_LENGTH):
        return Rule.EXAM_DETAIL
    return None


def check_card(row: Mapping[str, object]) -> Rule | None:
    """A card row: student, question_id, card_json, state, due_ms, first_review_ms and
    last_review_ms. The report does not show cards; the mastery and forecast read them."""
    if (rule := check_student(row["student"])) is not None:
        return rule
    shape = _is_text(row["question_id"], MAX_ID_LENGTH)
    if shape is None:
        return Rule.MISSING
    if not shape:
        return Rule.TEXT
    times = ("due_ms", "first_review_ms", "last_review_ms")
    if not all(_is_time(row[column]) for column in times):
        return Rule.TIME
    if not _is_int(row["state"]) or row["state"] not in CARD_STATES:
        return Rule.CARD
    if not _json_object(row["card_json"], MAX_JSON_LENGTH):
        return Rule.CARD
    return None


def shown_name(name: object) -> str:
    """A student's name as the report may print it: no control or invisible characters, at
    most SHOWN_NAME_LENGTH characters ("…" ends a cut one)."""
    if not isinstance(name, str):
        return NO_NAME
    visible = "".join(
        " " if c.isspace() else c for c in name if unicodedata.category(c) not in _INVISIBLE
    )
    visible = " ".join(visible.split())
    if len(visible) > SHOWN_NAME_LENGTH:
        visible = visible[: SHOWN_NAME_LENGTH - 1] + "…"
    return visible or NO_NAME


@dataclass
class IgnoredRows:
    """Rows left out, counted per student (as stored) and rule, in the order first met."""

    counts: dict[tuple[str | None, Rule], int] = field(default_factory=dict)

    def add(self, student: object, rule: Rule) -> None:
        key = (student if isinstance(student, str) else None, rule)
        self.counts[key] = self.counts.get(key, 0) + 1

    def students(self) -> set[str]:
        """The students (as stored) with a row left out."""
        return {student for student, _ in self.counts if student is not None}

    def __bool__(self) -> bool:
        return bool(self.counts)

    def lines(self) -> list[str]:
        """ "3 rows from ada ignored: rating out of range", one per student and rule."""
        return [
            f"{count} row{'s' if count != 1 else ''} from {shown_name(student)} ignored: {rule}"
            for (student, rule), count in self.counts.items()
        ]

    def as_json(self) -> list[dict[str, object]]:
        """One entry per student and rule: the name as stored when it keeps the rules (as the
        report's students list gives it), else as `shown_name` shows it."""
        return [
            {
                "student": student if check_student(student) is None else shown_name(student),
                "rule": rule.name.lower(),
                "reason": str(rule),
                "rows": count,
            }
            for (student, rule), count in self.counts.items()
        ]
