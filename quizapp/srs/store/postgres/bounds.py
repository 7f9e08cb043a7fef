"""The bounds on every column a student writes to the class store, in one place: the CHECK
constraints (quizapp/srs/store/postgres/schema.py, migration 6) are built from them, and the store
(quizapp/srs/store/postgres/store.py) applies them before writing, so the app itself never writes a row
the server would refuse. A hostile student writing by hand meets the constraints instead.

Values the app can sensibly bring into range are brought into range (a duration longer than
the bound is the bound; a response too big to keep is not kept); anything else is refused
with a one-line `HistoryError` before anything is written.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from quizapp.srs.store.sqlite.history_file import HistoryError

REVIEW_KINDS = ("quiz", "drill", "exam", "practice")
ATTEMPTS = ("first", "repeat", "aided")
TEXT_MAX_CHARS = 200  # a question id, a deck id, a topic
STUDENT_MAX_BYTES = 63  # PostgreSQL's longest role name
JSON_MAX_BYTES = 64 * 1024  # a card, a response, a fit's parameters or detail
EXAM_DETAIL_MAX_BYTES = 1024 * 1024  # an exam's detail holds every question's response
EARLIEST_MS = 946_684_800_000  # 2000-01-01T00:00:00Z
LATEST_MS = 7_258_118_400_000  # 2200-01-01T00:00:00Z
DURATION_MAX_MS = 24 * 3600 * 1000  # an answer left open longer than a day counts as a day
COUNT_MAX = 1_000_000  # questions in an exam, reviews behind a fit
SECONDS_MAX = 10_000_000.0  # an exam's length
CARD_STATES = (0, 1, 2, 3)  # py-fsrs's State values (and 0, which older cards may hold)


def text(value: str, what: str) -> str:
    if len(value) > TEXT_MAX_CHARS:
        raise HistoryError(f"{what} {value[:40]!r}... is longer than {TEXT_MAX_CHARS} characters")
    return value


def moment(ms: int, what: str) -> int:
    if not EARLIEST_MS <= ms < LATEST_MS:
        raise HistoryError(f"{what} ({ms} ms) is not between 2000 and 2200")
    return ms


def duration(ms: int | None) -> int | None:
    return None if ms is None else min(max(int(ms), 0), DURATION_MAX_MS)


def kind(value: str) -> str:
    if value not in REVIEW_KINDS:
        raise HistoryError(f"{value!r} is not a kind of answer ({', '.join(REVIEW_KINDS)})")
    return value


def attempt(value: str | None) -> str | None:
    if value is not None and value not in ATTEMPTS:
        raise HistoryError(f"{value!r} is not an attempt ({', '.join(ATTEMPTS)})")
    return value


def count(value: int, what: str) -> int:
    if not 0 <= int(value) <= COUNT_MAX:
        raise HistoryError(f"{what} ({value}) is not between 0 and {COUNT_MAX}")
    return int(value)


def finite(value: float, what: str, *, low: float, high: float) -> float:
    number = float(value)
    if not (math.isfinite(number) and low <= number <= high):
        raise HistoryError(f"{what} ({value}) is not a number between {low} and {high}")
    return number


def fits_in(json_text: str, limit: int) -> bool:
    # A tenth to spare: PostgreSQL prints some numbers longer than Python does (1e-05 as
    # 0.00001), and the constraint measures PostgreSQL's text.
    return len(json_text.encode("utf-8")) <= limit * 0.9


def json_text(value: object, what: str, limit: int = JSON_MAX_BYTES) -> str:
    """`value` as the JSON text PostgreSQL will store, refused when it is over `limit`."""
    import json

    encoded = json.dumps(value)
    if not fits_in(encoded, limit):
        raise HistoryError(f"{what} is larger than {limit // 1024} kB")
    return encoded


def response_to_keep(response: Mapping[str, object] | None) -> dict[str, object] | None:
    """What was answered, or None when it is too big to keep (the answer itself still counts)."""
    import json

    if response is None:
        return None
    kept = dict(response)
    return kept if fits_in(json.dumps(kept), JSON_MAX_BYTES) else None
