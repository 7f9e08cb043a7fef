"""The class report from a SQLite history: the loader (an old history too), mock exams as
attempts, the filters, and `quizapp class report` in its three formats and with bad input."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import subprocess
import sys
from datetime import date, timedelta
from pathlib import Path

import pytest

from quizapp.classroom.history import parse_response
from quizapp.classroom.load import load_class_history
from quizapp.classroom.report import build_report, predicted_cell
from quizapp.srs.config import Settings
from quizapp.srs.store.sqlite.store import ReviewStore
from tests.classroom.helpers import START, deck, numeric, single
from tests.conftest import REPO
from tests.srs.readiness_helpers import answer

# An exam date a year ahead: the command line takes dates up to 3 years from today.
EXAM_DATE = (date.today() + timedelta(days=365)).isoformat()

HOSTILE_BANK = Path(__file__).parent / "hostile_bank.yaml"


@pytest.fixture(autouse=True)
def own_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QUIZAPP_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("LOGNAME", "=ann")  # the local student; a formula, for the CSV guard


def record(store: ReviewStore, question, right: bool, minutes: float) -> None:
    answer(store, question, START + timedelta(minutes=minutes), right)


def add_response_column(path: Path, responses: dict[int, str]) -> None:
    """Write a JSON text per review id into schema step 3's `response` column."""
    with sqlite3.connect(path) as connection:
        for review_id, text in responses.items():
            connection.execute("UPDATE reviews SET response = ? WHERE id = ?", (text, review_id))
    connection.close()


def test_the_loader_reads_responses_and_leaves_out_what_is_not_json(tmp_path: Path):
    q1, q2 = single("q1"), numeric("q2", traps=(64.0,))
    path = tmp_path / "history.db"
    with ReviewStore.open(path) as store:
        record(store, q1, False, 0)
        record(store, q2, False, 1)
        record(store, q1, True, 60 * 24 * 3)
        record(store, q2, True, 60 * 24 * 4)
    add_response_column(path, {1: '{"chosen": [2]}', 2: '{"value": 64, "trap": 0}', 4: "{oops"})
    history = load_class_history(path, [deck("d", [q1, q2])], Settings(), START)
    assert [a.response for a in history.answers] == [
        {"chosen": [2]},
        {"value": 64, "trap": 0},
        None,  # not captured
    ]  # the fourth is not JSON: no app wrote it, so the row is left out and counted
    assert history.ignored.lines() == [
        "1 row from =ann ignored: response not a JSON object, or too large"
    ]
    assert {a.student for a in history.answers} == {"=ann"}
    report = build_report(history, [deck("d", [q1, q2])], START)
    by_id = {item.question_id: item for item in report.items}
    assert by_id["q1"].facility == 0.0  # the first attempt, not the later right one
    assert [s.share for s in by_id["q1"].shares] == [0.0, 0.0, 1.0, 0.0]
    assert [s.share for s in by_id["q2"].shares] == [0.0, 1.0]


def test_an_older_history_is_read_as_it_is_and_left_as_it_was(tmp_path: Path):
    """A schema-2 file (no response column) is brought forward in memory by open_readonly:
    the answers read with no response, and the file is not touched."""
    from tests.srs.old_history import take_back_to

    q1 = single("q1")
    path = tmp_path / "history.db"
    with ReviewStore.open(path) as store:
        record(store, q1, False, 0)
        record(store, q1, True, 60)
    take_back_to(path, 2)
    before = path.read_bytes()
    history = load_class_history(path, [deck("d", [q1])], Settings(), START)
    assert [(a.correct, a.response) for a in history.answers] == [(False, None), (True, None)]
    assert path.read_bytes() == before


def test_a_mock_exam_counts_as_an_attempt_unanswered_as_wrong(tmp_path: Path):
    """Moodle counts quiz attempts: a mock exam's questions are answers, at its submission."""
    q1, q2, q3 = single("q1"), single("q2"), single("q3")
    decks = [deck("d", [q1, q2, q3])]
    path = tmp_path / "history.db"
    with ReviewStore.open(path) as store:
        record(store, q1, False, 60)  # after the exam: a repeat
        store.record_exam(
            taken=START,
            questions=3,
            correct=1,
            passed=False,
            threshold=0.7,
            seconds=60.0,
            detail={
                "question_ids": ["q1", "q2", "q3", "gone"],
                "missed": ["q2", "q3"],
                "unanswered_ids": ["q3"],
                "responses": {"q1": {"chosen": [0]}, "q2": {"chosen": [2]}},
            },
        )
    history = load_class_history(path, decks, Settings(), START)
    report = build_report(history, decks, START)
    by_id = {item.question_id: item for item in report.items}
    assert [(q, by_id[q].facility, by_id[q].responded) for q in ("q1", "q2", "q3")] == [
        ("q1", 1.0, 1),
        ("q2", 0.0, 1),
        ("q3", 0.0, 0),  # unanswered: wrong, with nothing chosen
    ]
    assert {a.kind for a in history.answers if a.reviewed_at == START} == {"exam"}
    assert report.students[0].answered == 3


def test_parse_response_takes_json_objects_only():
    assert parse_response('{"chosen": true}') == {"chosen": True}
    assert parse_response("[1, 2]") is None
    assert parse_response(None) is None
    assert parse_response("nan nan") is None


def test_the_student_gets_mastery_and_a_forecast_only_with_an_exam_date(tmp_path: Path):
    q1, q2 = single("q1", topic="attention"), single("q2", topic="attention")
    decks = [deck("d", [q1, q2])]
    path = tmp_path / "history.db"
    with ReviewStore.open(path) as store:
        record(store, q1, True, 0)
        record(store, q2, False, 1)
    now = START + timedelta(minutes=2)
    without = load_class_history(path, decks, Settings(), now)
    assert without.students[0].predicted is None
    assert without.students[0].forecast_note is None  # nothing to gate: no exam date
    assert without.students[0].topic_mastery == {"attention": 0.0}  # one review masters nothing
    exam = (START + timedelta(days=30)).date()
    with_date = load_class_history(path, decks, Settings(), now, exam_date=exam)
    predicted = with_date.students[0].predicted
    assert predicted is not None and 0.0 < predicted.mean < 1.0
    assert with_date.students[0].basis == (
        "based on 2 first attempts on 2 of 2 exam questions; 0 unseen"
    )
    from_settings = load_class_history(path, decks, Settings(exam_date=exam), now)
    assert from_settings.students[0].predicted is not None


def test_the_report_gates_the_forecast_as_the_student_screen_does(tmp_path: Path):
    """No figure without evidence, and the plan's figure only with checked reviews: the class
    report must not tell the instructor what the student's own screen refuses to say."""
    questions = [single(f"q{n}", topic="attention") for n in range(3)]
    decks = [deck("d", questions)]
    exam = (START + timedelta(days=30)).date()
    path = tmp_path / "history.db"
    with ReviewStore.open(path) as store:
        record(store, questions[0], True, 0)
    history = load_class_history(path, decks, Settings(), START, exam_date=exam)
    one = history.students[0]
    assert build_report(history, decks, START).students[0].record == one  # kept whole
    assert one.predicted is None and one.no_study is None
    assert one.forecast_note == "not enough evidence yet: answer 2 more questions for a forecast"
    assert predicted_cell(one) == "not enough evidence"

    with ReviewStore.open(path) as store:
        for n in (1, 2):
            record(store, questions[n], n == 1, n)
    now = START + timedelta(minutes=3)
    first_day = load_class_history(path, decks, Settings(), now, exam_date=exam).students[0]
    assert first_day.forecast_note is None and first_day.predicted is not None
    # No review yet a day after an answer: the figure is the no-further-study one, marked so.
    assert first_day.no_study is None and first_day.plan_note is not None
    assert predicted_cell(first_day).endswith("no further study")

    with ReviewStore.open(path) as store:
        for n in range(3):
            record(store, questions[n], True, 60 * 24 * 2 + n)
    later = START + timedelta(days=2, minutes=5)
    checked = load_class_history(path, decks, Settings(), later, exam_date=exam).students[0]
    assert checked.plan_note is None and checked.no_study is not None
    assert checked.predicted is not None and checked.predicted != checked.no_study


def test_since_keeps_first_attempts_from_that_day_and_deck_keeps_its_questions(tmp_path: Path):
    old, new, other = single("old"), single("new"), single("other", deck="e", topic="u")
    decks = [deck("d", [old, new]), deck("e", [other])]
    path = tmp_path / "history.db"
    with ReviewStore.open(path) as store:
        record(store, old, False, 0)
        record(store, other, True, 1)
        record(store, old, True, 60 * 24 * 2)  # a repeat after `since`: stays out
        record(store, new, True, 60 * 24 * 2 + 1)
    history = load_class_history(path, decks, Settings(), START)
    since = START + timedelta(days=1)
    report = build_report(history, decks, START, since=since)
    assert [i.question_id for i in report.items] == ["new"]
    assert report.students[0].answered == 1
    only_e = build_report(history, decks, START, deck="e")
    assert [i.question_id for i in only_e.items] == ["other"]
    assert set(only_e.students[0].record.topic_mastery) == {"u"}


# -- the command ---------------------------------------------------------------------------------


@pytest.fixture
def hostile_history(tmp_path: Path) -> Path:
    """The hostile bank's two questions answered once each, responses recorded."""
    from quizapp.bank import load_bank

    bank = load_bank([HOSTILE_BANK])
    path = tmp_path / "history.db"
    with ReviewStore.open(path) as store:
        record(store, bank.questions["hostile-choice"], False, 0)
        record(store, bank.questions["hostile-number"], False, 1)
    add_response_column(path, {1: '{"chosen": [0]}', 2: '{"value": 64, "text": "64", "trap": 0}'})
    return path


def _report(run_cli, db: Path | str, *extra: str):
    return run_cli(
        "class", "report", "--db", str(db), "--no-default-bank", "--bank", str(HOSTILE_BANK), *extra
    )


def test_json_reports_every_figure(run_cli, hostile_history: Path):
    result = _report(run_cli, hostile_history, "--format", "json", "--exam-date", EXAM_DATE)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    items = {q["question_id"]: q for q in data["questions"]}
    choice = items["hostile-choice"]
    assert (choice["students"], choice["facility"], choice["discrimination"]) == (1, 0.0, None)
    assert [(r["label"], r["key"], r["share"]) for r in choice["responses"]] == [
        ('=HYPERLINK("http://x","y")', False, 1.0),
        ("the key [red]x[/red]", True, 0.0),
    ]
    assert [r["share"] for r in items["hostile-number"]["responses"]] == [0.0, 1.0]
    (student,) = data["students"]
    assert student["student"] == "=ann" and student["score"] == 0.0
    assert student["topic_mastery"] == {"hostile-topic": 0.0}
    assert 0.0 <= student["predicted"]["expected_score"] <= 1.0
    assert student["forecast_basis"].startswith("based on 2 first attempts on 2 of 2")
    assert student["forecast_note"] is None


def test_csv_guards_every_text_cell_and_keeps_numbers_as_numbers(run_cli, hostile_history: Path):
    result = _report(run_cli, hostile_history, "--format", "csv")
    assert result.returncode == 0, result.stderr
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    question = next(r for r in rows if r["question_id"] == "hostile-choice")
    assert question["responses"].startswith("'=HYPERLINK")
    assert question["facility"] == "0.0"
    students = [r for r in rows if r["section"] == "student"]
    assert [r["student"] for r in students] == ["'=ann"]
    mastery = [r for r in rows if r["section"] == "mastery"]
    assert [(r["topic"], r["mastery"]) for r in mastery] == [("hostile-topic", "0.0")]


def test_the_table_reads_at_80_columns_and_shows_bank_text_literally(run_cli, hostile_history):
    result = _report(run_cli, hostile_history)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert "hostile-choice" in result.stdout and "hostile-numb" in result.stdout
    assert "A:100%" in result.stdout and "✓B:0%" in result.stdout
    assert "\x1b" not in result.stdout


def test_the_table_keeps_question_ids_whole_and_cuts_only_an_overlong_one(run_cli, tmp_path: Path):
    from quizapp.bank import load_bank

    whole, overlong = "norm-placement-same-computation", "a-question-id-" + "x" * 60
    bank_path = tmp_path / "long_ids.yaml"
    text = HOSTILE_BANK.read_text(encoding="utf-8")
    # Five options: their shares need the room the old table took from the ids.
    choices = "".join(f'      - text: "option {n}"\n        why: "no"\n' for n in range(3))
    text = text.replace("    choices:\n", "    choices:\n" + choices, 1)
    bank_path.write_text(
        text.replace("hostile-choice", whole).replace("hostile-number", overlong),
        encoding="utf-8",
    )
    bank = load_bank([bank_path])
    db = tmp_path / "history.db"
    with ReviewStore.open(db) as store:
        record(store, bank.questions[whole], False, 0)
        record(store, bank.questions[overlong], True, 1)
    add_response_column(db, {1: '{"chosen": [0]}', 2: '{"value": 8, "text": "8"}'})

    result = run_cli(
        "class", "report", "--db", str(db), "--no-default-bank", "--bank", str(bank_path)
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert any(f"│ {whole} " in line for line in lines)  # whole, on one line
    cut = next(line for line in lines if "a-question-id-" in line)
    assert "…" in cut and overlong not in result.stdout
    assert not any(line.startswith("│ xxx") for line in lines)  # no id's tail on a line below


@pytest.mark.parametrize(
    ("args", "code", "says"),
    [
        (("--deck", "nope"), 2, "--deck 'nope' is not a deck"),
        (("--since", "yesterday"), 2, "--since"),
        (("--format", "xml"), 2, "--format"),
        (("--exam-date", "soon"), 2, "--exam-date"),
    ],
)
def test_bad_arguments_get_one_line(run_cli, hostile_history: Path, args, code, says):
    result = _report(run_cli, hostile_history, *args)
    assert result.returncode == code
    assert says in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_quizapps_own_db_is_honoured_and_the_commands_own_wins(
    run_cli, hostile_history: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.delenv("QUIZAPP_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # the default: no history
    bank = ("--no-default-bank", "--bank", str(HOSTILE_BANK), "--format", "json")

    def reported(*args: str) -> list[str]:
        result = run_cli(*args)
        assert result.returncode == 0, result.stderr
        return sorted(q["question_id"] for q in json.loads(result.stdout)["questions"])

    answered = ["hostile-choice", "hostile-number"]
    assert reported("--db", str(hostile_history), "class", "report", *bank) == answered
    empty = tmp_path / "none.db"
    assert reported("--db", str(empty), "class", "report", "--db", str(hostile_history), *bank) == (
        answered
    )
    assert (
        reported("--db", str(hostile_history), "class", "report", "--db", str(empty), *bank) == []
    )


def test_a_folder_and_a_damaged_history_get_one_line(run_cli, tmp_path: Path):
    folder = _report(run_cli, tmp_path)
    assert folder.returncode == 2 and "is a folder" in folder.stderr
    damaged = tmp_path / "damaged.db"
    damaged.write_bytes(b"SQLite format 3\x00" + b"\xff" * 600)
    broken = _report(run_cli, damaged)
    assert broken.returncode == 1
    assert len(broken.stderr.strip().splitlines()) == 1
    assert "Traceback" not in broken.stderr


def test_a_history_not_started_reports_no_answers(run_cli, tmp_path: Path):
    result = _report(run_cli, tmp_path / "none.db")
    assert result.returncode == 0, result.stderr
    assert "No first attempts to report yet." in result.stdout
    assert not (tmp_path / "none.db").exists()  # read only: nothing created


def test_the_report_imports_neither_torch_nor_textual(tmp_path: Path, hostile_history: Path):
    code = (
        "import sys\n"
        "from quizapp.cli import main\n"
        f"code = main(['class', 'report', '--db', {str(hostile_history)!r}, '--no-default-bank',"
        f" '--bank', {str(HOSTILE_BANK)!r}, '--format', 'json', '--exam-date', {EXAM_DATE!r}])\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in {'torch', 'textual'})\n"
        "print(code, ','.join(heavy), file=sys.stderr)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=REPO
    )
    assert result.stderr.strip().splitlines()[-1] == "0"
