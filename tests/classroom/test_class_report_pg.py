"""The class report on a real PostgreSQL history (tests/postgres_server.py): the class as the
instructor (the tables' owner) sees it, a student's role limited to its own rows by row-level
security, mock-exam answers as first attempts, the command's formats and bad addresses."""

from __future__ import annotations

import csv
import io
import json
import uuid
from datetime import date, timedelta
from pathlib import Path

import pytest

from quizapp.bank import load_bank
from quizapp.classroom.load import load_class_history
from quizapp.classroom.report import build_report
from quizapp.srs.config import Settings
from quizapp.srs.store.history import PostgresLocation
from quizapp.srs.store.open_history import open_writer
from quizapp.srs.times import to_ms
from tests.classroom.helpers import START
from tests.postgres_server import STUDENTS_GROUP
from tests.srs.readiness_helpers import answer

pytest.importorskip("psycopg")
import psycopg

# An exam date a year ahead: the command line takes dates up to 3 years from today.
EXAM_DATE = (date.today() + timedelta(days=365)).isoformat()

HOSTILE_BANK = Path(__file__).parent / "hostile_bank.yaml"
BANK = load_bank([HOSTILE_BANK])
CHOICE, NUMBER = BANK.questions["hostile-choice"], BANK.questions["hostile-number"]
PICKED_OPTION = {0: {"chosen": [0]}, 1: {"chosen": [1]}}  # option 1 is the key
KEY, TRAP = {"value": 8.0, "text": "8", "trap": None}, {"value": 64.0, "text": "64", "trap": 0}


@pytest.fixture(autouse=True)
def own_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QUIZAPP_CONFIG", str(tmp_path / "config.toml"))
    for name in ("QUIZAPP_DB", "QUIZAPP_STUDENT"):
        monkeypatch.delenv(name, raising=False)


def with_user(url: str, role: str) -> str:
    scheme, rest = url.split("://", 1)
    return f"{scheme}://{role}@{rest.split('@', 1)[1]}"


@pytest.fixture
def class_roles(postgres_server):
    """Three students' login roles (roles are the cluster's: the names are unique)."""
    tag = uuid.uuid4().hex[:6]
    names = [f"{name}_{tag}" for name in ("ann", "bob", "cy")]
    with psycopg.connect(postgres_server.url(), autocommit=True) as admin:
        for name in names:
            admin.execute(f'CREATE ROLE "{name}" LOGIN IN ROLE {STUDENTS_GROUP}')
    yield names
    with psycopg.connect(postgres_server.url(), autocommit=True) as admin:
        admin.execute("DROP OWNED BY " + ", ".join(f'"{n}"' for n in names))
        for name in names:
            admin.execute(f'DROP ROLE "{name}"')


@pytest.fixture
def class_history(pg_url: str, class_roles) -> tuple[str, list[str]]:
    """Three students, each on their own role, answer the hostile bank's two questions:

    | student | choice (key B)  | number (key 8, trap 64)             |
    | ann     | B, right        | 64, the trap; later 8 (a repeat)    |
    | bob     | A, wrong        | 8, right                            |
    | cy      | A, wrong        | 64 in a mock exam (its first try)   |
    """
    ann, bob, cy = class_roles
    with open_writer(PostgresLocation(pg_url, "instructor")):
        pass  # the instructor (the owner) creates the tables; students' roles may not
    at = [START + timedelta(minutes=m) for m in range(4)]
    with open_writer(PostgresLocation(with_user(pg_url, ann), ann)) as store:
        answer(store, CHOICE, at[0], True, response=PICKED_OPTION[1])
        answer(store, NUMBER, at[1], False, response=TRAP)
        answer(store, NUMBER, at[0] + timedelta(days=3), True, response=KEY)
    with open_writer(PostgresLocation(with_user(pg_url, bob), bob)) as store:
        answer(store, CHOICE, at[0], False, response=PICKED_OPTION[0])
        answer(store, NUMBER, at[1], True, response=KEY)
    with open_writer(PostgresLocation(with_user(pg_url, cy), cy)) as store:
        answer(store, CHOICE, at[0], False, response=PICKED_OPTION[0])
        store.record_exam(
            taken=at[2],
            questions=1,
            correct=0,
            passed=False,
            threshold=0.7,
            seconds=60.0,
            detail={
                "question_ids": [NUMBER.id],
                "missed": [NUMBER.id],
                "responses": {NUMBER.id: TRAP},
            },
        )
    return pg_url, class_roles


def test_the_instructor_sees_the_whole_class(class_history):
    url, (ann, bob, cy) = class_history
    history = load_class_history(url, BANK.decks, Settings(), START + timedelta(days=4))
    assert history.limited_to is None
    report = build_report(history, BANK.decks, START)
    data = report.as_json()
    items = {q["question_id"]: q for q in data["questions"]}
    choice, number = items["hostile-choice"], items["hostile-number"]
    assert (choice["students"], choice["right"], choice["facility"]) == (3, 1, 1 / 3)
    assert choice["discrimination"] is None  # three students: groups of 0.81
    assert [(r["key"], r["share"]) for r in choice["responses"]] == [(False, 2 / 3), (True, 1 / 3)]
    # cy's mock exam is cy's first attempt; ann's later right answer is a repeat.
    assert (number["students"], number["right"], number["facility"]) == (3, 1, 1 / 3)
    assert [(r["key"], r["share"]) for r in number["responses"]] == [(True, 1 / 3), (False, 2 / 3)]
    students = {s["student"]: s for s in data["students"]}
    assert set(students) == {ann, bob, cy}  # the instructor's own (empty) history is no student
    assert [(students[n]["answered"], students[n]["score"]) for n in (ann, bob, cy)] == [
        (2, 0.5),
        (2, 0.5),
        (2, 0.0),
    ]
    assert data["limited_to_role"] is None


def test_each_student_is_forecast_on_their_own_rows(class_history):
    from quizapp.srs.readiness.report import assess
    from quizapp.srs.store.open_history import open_readonly

    url, (ann, bob, cy) = class_history
    now = START + timedelta(days=4)
    exam = (START + timedelta(days=30)).date()
    history = load_class_history(url, BANK.decks, Settings(), now, exam_date=exam)
    records = {r.student: r for r in history.students}
    for name in (ann, bob, cy):
        assert records[name].topic_mastery == {"hostile-topic": 0.0}
        # What the student's own app forecasts, through their own role, is what the
        # instructor's report says of them.
        with open_readonly(PostgresLocation(with_user(url, name), name)) as own:
            expected = assess(own, BANK.decks, Settings(), now, exam_date=exam)
        # The figure the student is shown, gated the same way: the plan's where there are
        # checked reviews to rest it on, else the no-further-study one, marked.
        if not expected.enough_evidence:
            assert records[name].predicted is None
            assert records[name].forecast_note == expected.basis.not_enough
            continue
        assert records[name].predicted == expected.shown.overall
        assert records[name].basis == expected.basis.text
        if expected.plan_shown is not None:
            assert records[name].no_study == expected.as_is.overall
            assert records[name].no_study.mean < records[name].predicted.mean
        else:
            assert records[name].no_study is None
            assert records[name].plan_note == expected.basis.plan_not_enough
    # cy's one answer in the app is too little to forecast from (the mock exam is not
    # evidence of recall on the exam's day); ann answered both questions.
    assert records[cy].predicted is None and records[ann].predicted is not None


def test_a_students_role_sees_only_its_own_rows_and_the_report_says_so(class_history):
    url, (ann, _bob, _cy) = class_history
    history = load_class_history(with_user(url, ann), BANK.decks, Settings(), START)
    assert history.limited_to == ann
    assert {a.student for a in history.answers} == {ann}
    assert [r.student for r in history.students] == [ann]
    report = build_report(history, BANK.decks, START)
    assert report.as_json()["limited_to_role"] == ann
    assert report.scope_note is not None and ann in report.scope_note
    items = {i.question_id: i for i in report.items}
    assert (items["hostile-choice"].students, items["hostile-choice"].facility) == (1, 1.0)


def test_discrimination_over_twenty_students_with_ties_at_the_group_edges(pg_url: str):
    """Students 0-4 get both right (score 1), 5-9 only the choice, 10-14 only the number
    (0.5 each), 15-19 neither. Each 27 % group holds 5.4: five students and 0.04 of each of
    the ten tied at 0.5. Upper group right on either question: 5 + 5 × 0.04 = 5.2; lower:
    5 × 0.04 = 0.2. Discrimination (5.2 - 0.2) / 5.4 = 25/27."""
    for i in range(20):
        with open_writer(PostgresLocation(pg_url, f"s{i:02d}")) as store:
            answer(store, CHOICE, START, i < 10, response=PICKED_OPTION[int(i < 10)])
            answer(store, NUMBER, START, i < 5 or 10 <= i < 15, response=KEY if i < 5 else TRAP)
    history = load_class_history(pg_url, BANK.decks, Settings(), START)
    items = {i.question_id: i for i in build_report(history, BANK.decks, START).items}
    for item in items.values():
        assert item.students == 20 and item.facility == 0.5
        assert item.group_size == pytest.approx(5.4)
        assert item.discrimination == pytest.approx(25 / 27)
    assert [s.upper_share for s in items["hostile-choice"].shares] == pytest.approx(
        [0.2 / 5.4, 5.2 / 5.4]
    )


# -- the command -------------------------------------------------------------------------------


def _report(run_cli, *extra: str):
    return run_cli("class", "report", "--no-default-bank", "--bank", str(HOSTILE_BANK), *extra)


def test_the_command_reads_the_class_in_every_format(run_cli, class_history, monkeypatch):
    url, (ann, bob, cy) = class_history
    done = _report(run_cli, "--db", url, "--format", "json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert sorted(s["student"] for s in data["students"]) == [ann, bob, cy]
    assert all(s["predicted"] is s["predicted_no_study"] is None for s in data["students"])
    facility = {q["question_id"]: q["facility"] for q in data["questions"]}
    assert facility == {"hostile-choice": 1 / 3, "hostile-number": 1 / 3}
    monkeypatch.setenv("QUIZAPP_DB", url)  # the address from the environment; no student
    monkeypatch.setenv("QUIZAPP_STUDENT", bob)  # and the report does not narrow to one
    rows = list(csv.DictReader(io.StringIO(_report(run_cli, "--format", "csv").stdout)))
    assert sorted(r["student"] for r in rows if r["section"] == "student") == [ann, bob, cy]
    table = _report(run_cli, "--db", url, "--exam-date", EXAM_DATE)
    assert table.returncode == 0, table.stderr
    assert "Class report: 3 students," in table.stdout
    assert "no study" in table.stdout  # beside the score with the plan followed
    assert max(len(line) for line in table.stdout.splitlines()) <= 80
    # A student's own role is refused the report (issue 20): one line, exit 2. The report's
    # note for a role limited to its own rows: test_a_students_role_sees_only_its_own_rows...
    refused = _report(run_cli, "--db", with_user(url, ann), "--format", "json")
    assert refused.returncode == 2 and refused.stdout == ""
    assert "may not read the class report" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1


def test_bad_addresses_get_one_line_and_exit_1(run_cli, postgres_server, empty_pg_url: str):
    from tests.postgres_server import _free_port as free_port

    port = free_port()
    cases = {
        "postgresql://u@127.0.0.1:notaport/db": "notaport",
        f"postgresql://u:secret@127.0.0.1:{port}/db": "cannot be reached",
        empty_pg_url: "no quizapp class at",  # nobody ran `quizapp class init`
    }
    for url, says in cases.items():
        result = _report(run_cli, "--db", url)
        assert result.returncode == 1, (url, result.stderr)
        assert says in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1
        assert "secret" not in result.stderr and "Traceback" not in result.stderr


def test_a_hand_written_row_with_a_hostile_student_name_is_reported_as_text(run_cli, pg_url):
    """The owner can write any student name by hand; the app never would. Its answers count,
    its name reaches the terminal as text, and it gets no mastery (no store opens for it)."""
    with open_writer(PostgresLocation(pg_url, "ann")) as store:
        answer(store, CHOICE, START, True, response=PICKED_OPTION[1])
    with psycopg.connect(pg_url, autocommit=True) as db:
        db.execute(
            "INSERT INTO reviews (student, question_id, deck_id, topic, kind, reviewed_ms, rating,"
            " correct, response) VALUES (%s, %s, 'hostile', 'hostile-topic', 'drill', %s, 1,"
            " false, %s)",
            ("evil\x1b[31m\n", CHOICE.id, to_ms(START), '{"chosen": [0]}'),
        )
    history = load_class_history(pg_url, BANK.decks, Settings(), START)
    assert {a.student for a in history.answers} == {"ann", "evil\x1b[31m\n"}
    records = {r.student: r for r in history.students}
    assert records["evil\x1b[31m\n"].topic_mastery == {}
    assert records["ann"].topic_mastery == {"hostile-topic": 0.0}
    result = _report(run_cli, "--db", pg_url)
    assert result.returncode == 0, result.stderr
    assert "\x1b" not in result.stdout and "Class report: 2 students" in result.stdout
