"""`quizapp class report` on a SQLite history holding rows no app writes: each is left out
and counted by its rule (quizapp/classroom/row_checks.py), the report of the good rows stands,
and the command exits 0. The rows are written with sqlite3, past the app; a copy of the tables
without their NOT NULL constraints takes the NULLs."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from quizapp.srs.store.sqlite.store import ReviewStore
from quizapp.srs.times import to_ms
from tests.classroom.helpers import START
from tests.srs.readiness_helpers import answer

HOSTILE_BANK = Path(__file__).parent / "hostile_bank.yaml"
STUDENT = "[bold]ada[/bold]\x1b[31m\u200b"  # markup, an escape and a zero-width space
SHOWN = "[bold]ada[/bold][31m"  # as the report prints it: the markup literal, the rest gone
DAY_BEFORE = to_ms(START - timedelta(days=1))  # a hostile row would be the first attempt


@pytest.fixture(autouse=True)
def own_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QUIZAPP_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("LOGNAME", STUDENT)  # the local history's one student
    for name in ("QUIZAPP_DB", "QUIZAPP_STUDENT"):
        monkeypatch.delenv(name, raising=False)


def good_history(path: Path) -> None:
    """Right on the choice question (option 1, the key), wrong on the number (the trap)."""
    from quizapp.bank import load_bank

    bank = load_bank([HOSTILE_BANK])
    choice, number = bank.questions["hostile-choice"], bank.questions["hostile-number"]
    with ReviewStore.open(path) as store:
        answer(store, choice, START, True, response={"chosen": [1]})
        answer(store, number, START + timedelta(minutes=1), False, response={"trap": 0})
    with sqlite3.connect(path) as db:  # the same tables, without NOT NULL: any value goes in
        for table in ("reviews", "exams", "cards"):
            db.execute(f"ALTER TABLE {table} RENAME TO old_{table}")
            db.execute(f"CREATE TABLE {table} AS SELECT * FROM old_{table}")
            db.execute(f"DROP TABLE old_{table}")
    db.close()


def review_row(**changes: object) -> dict[str, object]:
    """A review of the choice question the app could have written, wrong, a day early."""
    row: dict[str, object] = {
        "id": 1000,
        "question_id": "hostile-choice",
        "deck_id": "hostile",
        "topic": "hostile-topic",
        "kind": "drill",
        "reviewed_ms": DAY_BEFORE,
        "rating": 1,
        "correct": 0,
        "duration_ms": 4000,
        "response": '{"chosen": [0]}',
        "attempt": "first",
    }
    return row | changes


def exam_row(**changes: object) -> dict[str, object]:
    detail = {"question_ids": ["hostile-choice"], "missed": ["hostile-choice"]}
    row: dict[str, object] = {
        "id": 1000,
        "taken_ms": DAY_BEFORE,
        "questions": 1,
        "correct": 0,
        "passed": 0,
        "threshold": 0.7,
        "seconds": 60.0,
        "detail": json.dumps(detail),
    }
    return row | changes


def card_row(**changes: object) -> dict[str, object]:
    row: dict[str, object] = {
        "question_id": "hostile-choice",
        "card_json": '{"card_id": 1}',
        "state": 2,
        "due_ms": DAY_BEFORE,
        "first_review_ms": DAY_BEFORE,
        "last_review_ms": DAY_BEFORE,
    }
    return row | changes


def insert(path: Path, table: str, rows: list[dict[str, object]]) -> None:
    with sqlite3.connect(path) as db:
        for row in rows:
            columns = ", ".join(row)
            marks = ", ".join("?" for _ in row)
            db.execute(f"INSERT INTO {table} ({columns}) VALUES ({marks})", tuple(row.values()))
    db.close()


def at(year: int) -> int:
    return to_ms(datetime(year, 6, 1, tzinfo=UTC))


HUGE_RESPONSE = '{"chosen": [' + "0, " * 40_000 + "0]}"

# (table, the hostile rows, the note the report prints for them)
CASES = {
    "rating": ("reviews", [review_row(rating=9), review_row(id=1001, rating=-1)], "2 rows", "rating out of range"),
    "long id": ("reviews", [review_row(question_id="q" * 10_000)], "1 row", "question, deck or topic id too long"),
    "time 2300": ("reviews", [review_row(reviewed_ms=at(2300))], "1 row", "time out of range"),
    "time 1999": ("reviews", [review_row(reviewed_ms=at(1999))], "1 row", "time out of range"),
    "duration": ("reviews", [review_row(duration_ms=float("inf")), review_row(id=1001, duration_ms=-5)], "2 rows", "duration not a finite, non-negative time"),
    "kind": ("reviews", [review_row(kind="hack"), review_row(id=1001, attempt="sneaky")], "2 rows", "unknown kind or attempt"),
    "response": ("reviews", [review_row(response="{oops"), review_row(id=1001, response=HUGE_RESPONSE)], "2 rows", "response not a JSON object, or too large"),
    "null": ("reviews", [review_row(correct=None), review_row(id=1001, topic=None), review_row(id=1002, correct="yes")], "3 rows", "a value missing or of the wrong type"),
    "exam counts": ("exams", [exam_row(correct=5), exam_row(id=1001, threshold=float("inf"))], "2 rows", "exam figures impossible"),
    "exam detail": ("exams", [exam_row(detail="[1, 2"), exam_row(id=1001, detail="x" * 2_000_000)], "2 rows", "exam detail not a JSON object, or too large"),
    "card": ("cards", [card_row(card_json="not json"), card_row(question_id="c2", state=17)], "2 rows", "card not a JSON object, or out of range"),
}  # fmt: skip


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_a_hostile_row_is_left_out_counted_and_the_report_stands(case, tmp_path, run_cli):
    table, rows, count, rule = CASES[case]
    path = tmp_path / "history.sqlite3"
    good_history(path)
    insert(path, table, rows)
    common = (
        "class",
        "report",
        "--db",
        str(path),
        "--no-default-bank",
        "--bank",
        str(HOSTILE_BANK),
    )
    result = run_cli(*common)
    assert result.returncode == 0, result.stderr
    said = " ".join(result.stdout.split())  # a long note wraps at 80 columns
    assert f"{count} from {SHOWN} ignored: {rule}" in said
    assert f"{SHOWN}: mastery and forecast left out: rows ignored" in said
    assert "\x1b" not in result.stdout and "\u200b" not in result.stdout
    data = json.loads(run_cli(*common, "--format", "json").stdout)
    assert [(r["reason"], r["rows"]) for r in data["ignored_rows"]] == [(rule, int(count[0]))]
    # The good rows' report, as if the hostile ones were not there: each a first attempt.
    facility = {q["question_id"]: q["facility"] for q in data["questions"]}
    assert facility == {"hostile-choice": 1.0, "hostile-number": 0.0}
    [student] = data["students"]
    assert (student["answered"], student["score"]) == (2, 0.5)
    assert student["left_out"] is not None and student["topic_mastery"] == {}


def test_a_clean_history_has_no_notes_and_its_mastery(tmp_path, run_cli):
    path = tmp_path / "history.sqlite3"
    good_history(path)
    common = (
        "class",
        "report",
        "--db",
        str(path),
        "--no-default-bank",
        "--bank",
        str(HOSTILE_BANK),
    )
    result = run_cli(*common, "--format", "json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["ignored_rows"] == [] and "note:" not in result.stderr
    [student] = data["students"]
    assert student["left_out"] is None and student["topic_mastery"] == {"hostile-topic": 0.0}
    table = run_cli(*common)
    assert "ignored" not in table.stdout and SHOWN in table.stdout


def test_a_standing_that_cannot_be_worked_out_is_left_out_alone():
    """Values no rule foresaw may still break the mastery or forecast: that student's standing
    is left out and said; an error that is not the data's (a disk, a server) is not hidden."""
    from quizapp.classroom.history import LEFT_OUT_FOR_ERROR, guarded_record
    from quizapp.classroom.row_checks import IgnoredRows

    def bad_card():
        raise ValueError("Expecting value: line 1 column 1")

    assert guarded_record("ada", IgnoredRows(), bad_card).left_out == LEFT_OUT_FOR_ERROR

    def disk_gone():
        raise OSError("I/O error")

    with pytest.raises(OSError):
        guarded_record("ada", IgnoredRows(), disk_gone)
