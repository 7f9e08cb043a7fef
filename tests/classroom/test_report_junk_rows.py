"""Property: whatever junk a history's tables hold, the class report is built, printed in each
format, keeps the good rows' answers, and counts no more rows than were written."""

from __future__ import annotations

import io
import json
import sqlite3
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from quizapp.bank import load_bank
from quizapp.classroom.load import load_class_history
from quizapp.classroom.report import build_report
from quizapp.srs.config import Settings
from tests.classroom.helpers import START
from tests.classroom.test_report_hostile_rows import (
    HOSTILE_BANK,
    card_row,
    exam_row,
    good_history,
    insert,
    review_row,
)

BANK = load_bank([HOSTILE_BANK])

# Junk of every type SQLite keeps, and values close enough to the app's to pass some rules.
JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=300),
    st.binary(max_size=40),
    st.sampled_from(
        [0, 1, 3, 9, "drill", "exam", "first", "{}", "[]", '{"chosen": [1]}', "hostile-choice",
         1_800_000_000_000, '{"question_ids": ["hostile-choice"], "missed": []}']
    ),
)  # fmt: skip


def junk_rows(template: dict[str, object]) -> st.SearchStrategy[list[dict[str, object]]]:
    """Rows shaped like `template`, each column kept or replaced by junk."""
    row = st.fixed_dictionaries(
        {column: st.one_of(st.just(value), JUNK) for column, value in template.items()}
    )
    return st.lists(row, max_size=6)


@pytest.fixture(autouse=True)
def own_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QUIZAPP_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("LOGNAME", "ada")


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    reviews=junk_rows({k: v for k, v in review_row().items() if k != "id"}),
    exams=junk_rows({k: v for k, v in exam_row().items() if k != "id"}),
    cards=junk_rows(card_row()),
)
def test_junk_rows_never_stop_the_report(reviews, exams, cards):
    from rich.console import Console

    from quizapp.cli.class_report import render, write_csv

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "history.sqlite3"
        good_history(path)
        insert(path, "reviews", reviews)
        insert(path, "exams", exams)
        insert(path, "cards", cards)
        history = load_class_history(path, BANK.decks, Settings(), START)
    report = build_report(history, BANK.decks, START)
    out = io.StringIO()
    render(report, Console(file=out, width=80, highlight=False))
    json.dumps(report.as_json(), allow_nan=False)
    write_csv(report, io.StringIO())
    good = {(a.question_id, a.reviewed_at) for a in history.answers}
    assert {("hostile-choice", START), ("hostile-number", START.replace(minute=1))} <= good
    assert sum(history.ignored.counts.values()) <= len(reviews) + len(exams) + len(cards)
    low, high = datetime(2000, 1, 1, tzinfo=UTC), datetime(2100, 1, 1, tzinfo=UTC)
    assert all(low <= a.reviewed_at <= high for a in history.answers)
    written = "".join(report.notes())
    assert all(c.isprintable() for c in written)


FLAG = {"question_id": "hostile-choice", "suspended": 0, "buried_until_ms": None}
FIT = {
    "fitted_ms": 1_800_000_000_000,
    "parameters": "[]",
    "reviews": 10,
    "held_out": 2,
    "log_loss_before": 0.5,
    "log_loss_after": 0.4,
    "in_use": 1,
    "detail": "{}",
}


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(flags=junk_rows(FLAG), fits=junk_rows(FIT))
def test_junk_in_the_tables_only_the_forecast_reads_never_stops_the_report(flags, fits):
    """Flags and fitted parameters are not rows the report reads: the student's mastery and
    forecast read them through the app's store. Junk there leaves that student's standing out
    at worst ("history unreadable"), never the report."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "history.sqlite3"
        good_history(path)
        with sqlite3.connect(path) as db:
            for table in ("card_flags", "fsrs_fits"):
                db.execute(f"ALTER TABLE {table} RENAME TO old_{table}")
                db.execute(f"CREATE TABLE {table} AS SELECT * FROM old_{table}")
        db.close()
        insert(path, "card_flags", flags)
        insert(path, "fsrs_fits", fits)
        exam = START.date() + timedelta(days=30)
        history = load_class_history(path, BANK.decks, Settings(), START, exam_date=exam)
    report = build_report(history, BANK.decks, START)
    json.dumps(report.as_json(), allow_nan=False)
    assert len(history.answers) == 2
    [student] = history.students
    assert student.left_out is not None or student.predicted is not None
