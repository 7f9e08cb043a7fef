"""`quizapp class report` on a PostgreSQL class whose tables hold rows no app writes.

The rows go in as the tables' owner, past the app, after the test drops, in its own schema,
the CHECK and NOT NULL constraints that a class's tables carry (what a store from before them
holds). Each is left out and counted per student and rule; the good rows' report stands."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from quizapp.bank import load_bank
from quizapp.srs.store.history import PostgresLocation
from quizapp.srs.store.open_history import open_writer
from quizapp.srs.times import to_ms
from tests.classroom.helpers import START
from tests.srs.readiness_helpers import answer

pytest.importorskip("psycopg")
import psycopg

HOSTILE_BANK = Path(__file__).parent / "hostile_bank.yaml"
BANK = load_bank([HOSTILE_BANK])
CHOICE = BANK.questions["hostile-choice"]
DAY_BEFORE = to_ms(START - timedelta(days=1))
MARKUP_NAME = "[bold red]bob[/]\x1b]0;owned\x07"  # Rich markup and a retitling escape
MARKUP_SHOWN = "[bold red]bob[/]]0;owned"


@pytest.fixture(autouse=True)
def own_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QUIZAPP_CONFIG", str(tmp_path / "config.toml"))
    for name in ("QUIZAPP_DB", "QUIZAPP_STUDENT"):
        monkeypatch.delenv(name, raising=False)


def without_constraints(db: psycopg.Connection) -> None:
    """Drop, in the test's own schema only, every CHECK constraint and the NOT NULLs the
    hostile rows need gone."""
    checks = db.execute(
        "SELECT c.conrelid::regclass::text, c.conname FROM pg_constraint c"
        " WHERE c.contype = 'c' AND c.connamespace = current_schema()::regnamespace"
    ).fetchall()
    for table, name in checks:
        db.execute(f'ALTER TABLE {table} DROP CONSTRAINT "{name}"')
    for column in ("correct", "topic", "student"):
        db.execute(f"ALTER TABLE reviews ALTER COLUMN {column} DROP NOT NULL")


def review(db: psycopg.Connection, student: str | None, **changes: object) -> None:
    row: dict[str, object] = {
        "student": student,
        "question_id": CHOICE.id,
        "deck_id": "hostile",
        "topic": "hostile-topic",
        "kind": "drill",
        "reviewed_ms": DAY_BEFORE,
        "rating": 1,
        "correct": False,
        "duration_ms": 4000,
        "response": '{"chosen": [0]}',
    } | changes
    columns = ", ".join(row)
    marks = ", ".join("%s" for _ in row)
    db.execute(f"INSERT INTO reviews ({columns}) VALUES ({marks})", tuple(row.values()))


def exam(db: psycopg.Connection, student: str, **changes: object) -> None:
    row: dict[str, object] = {
        "student": student,
        "taken_ms": DAY_BEFORE,
        "questions": 1,
        "correct": 0,
        "passed": False,
        "threshold": 0.7,
        "seconds": 60.0,
        "detail": json.dumps({"question_ids": [CHOICE.id], "missed": [CHOICE.id]}),
    } | changes
    columns = ", ".join(row)
    marks = ", ".join("%s" for _ in row)
    db.execute(f"INSERT INTO exams ({columns}) VALUES ({marks})", tuple(row.values()))


def test_hostile_rows_from_several_students_are_counted_each(pg_url: str, run_cli):
    """ada and cy answer well; the rows ada, bob and a nameless writer add past the app break
    one rule family each. A row ada's app would never write must not hide ada's good ones."""
    for student in ("ada", "cy"):
        with open_writer(PostgresLocation(pg_url, student)) as store:
            answer(store, CHOICE, START, True, response={"chosen": [1]})
    with psycopg.connect(pg_url, autocommit=True) as db:
        without_constraints(db)
        review(db, "ada", rating=9)
        review(db, "ada", rating=0)
        review(db, "ada", question_id="q" * 10_000)
        review(db, "ada", reviewed_ms=to_ms(datetime(2300, 1, 1, tzinfo=UTC)))
        review(db, "ada", duration_ms=-1)
        review(db, "ada", kind="hack")
        review(db, "ada", response=json.dumps({"chosen": [0] * 40_000}))
        review(db, "ada", correct=None)
        review(db, MARKUP_NAME, rating=7)
        review(db, "x" * 10_000)  # a name no role can have
        review(db, None)
        exam(db, MARKUP_NAME, correct=3)
        exam(db, MARKUP_NAME, seconds=float("nan"))
        exam(db, "cy", threshold=float("inf"))
        db.execute(
            "INSERT INTO cards (student, question_id, card_json, state, due_ms,"
            " first_review_ms, last_review_ms) VALUES ('cy', 'c', 'not json', 2, %s, %s, %s)",
            (DAY_BEFORE, DAY_BEFORE, DAY_BEFORE),
        )
    args = ("class", "report", "--db", pg_url, "--no-default-bank", "--bank", str(HOSTILE_BANK))
    result = run_cli(*args)
    assert result.returncode == 0, result.stderr
    said = " ".join(result.stdout.split())
    for note in (
        "2 rows from ada ignored: rating out of range",
        "1 row from ada ignored: question, deck or topic id too long",
        "1 row from ada ignored: time out of range",
        "1 row from ada ignored: duration not a finite, non-negative time",
        "1 row from ada ignored: unknown kind or attempt",
        "1 row from ada ignored: response not a JSON object, or too large",
        "1 row from ada ignored: a value missing or of the wrong type",
        f"1 row from {MARKUP_SHOWN} ignored: rating out of range",
        f"1 row from {'x' * 39}… ignored: student name too long",
        "1 row from (no name) ignored: a value missing or of the wrong type",
        f"1 row from {MARKUP_SHOWN} ignored: exam figures impossible",
        f"1 row from {MARKUP_SHOWN} ignored: duration not a finite, non-negative time",
        "1 row from cy ignored: exam figures impossible",
        "1 row from cy ignored: card not a JSON object, or out of range",
        "ada: mastery and forecast left out: rows ignored",
    ):
        assert note in said
    assert "\x1b" not in result.stdout and "\x07" not in result.stdout
    assert "Class report: 3 students, 1 questions answered" in said  # ada, bob's markup, cy

    data = json.loads(run_cli(*args, "--format", "json").stdout)
    ignored = {(r["student"], r["rule"]): r["rows"] for r in data["ignored_rows"]}
    assert ignored[("ada", "rating")] == 2 and ignored[(MARKUP_NAME, "exam_counts")] == 1
    assert sum(ignored.values()) == 15  # every hostile row written above, once
    [choice] = data["questions"]
    assert (choice["students"], choice["facility"]) == (2, 1.0)  # ada's and cy's good answers
    students = {s["student"]: s for s in data["students"]}
    assert set(students) == {"ada", "cy", MARKUP_NAME}
    assert (students["ada"]["answered"], students["ada"]["score"]) == (1, 1.0)
    assert students[MARKUP_NAME]["answered"] == 0
