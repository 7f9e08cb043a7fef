"""The instructor's class report screen, through Pilot at 80x24: opened from the palette on the
app's own history, and on a class's report with flagged items first and Enter to an item."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable

from quizapp.bank import load_bank
from quizapp.classroom.history import ClassHistory, StudentRecord
from quizapp.classroom.item_analysis import Answer
from quizapp.classroom.report import build_report
from quizapp.srs.config import Settings
from quizapp.srs.store.sqlite.store import ReviewStore
from quizapp.tui.app import AppOptions, QuizApp
from quizapp.tui.screens.class_report import ClassReportScreen, ItemScreen
from quizapp.tui.screens.home import HomeScreen
from tests.conftest import CORPUS
from tests.postgres_server import STUDENTS_GROUP
from tests.srs.readiness_helpers import answer
from tests.tui.screen_text import screen_lines
from tests.tui.test_lab_device import pick, toasts
from tests.tui.test_sessions import drive, wait_for

BANK = load_bank([CORPUS / "good"])
SIZE = (80, 24)


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """t-single answered wrong (option B chosen), t-tf right, with their responses."""
    monkeypatch.setenv("QUIZAPP_CONFIG", str(tmp_path / "config.toml"))
    path = tmp_path / "history.sqlite3"
    with ReviewStore.open(path) as store:
        record_two_answers(store)
    return path


def record_two_answers(store) -> None:
    when = datetime.now(UTC) - timedelta(days=2)
    answer(store, BANK.questions["t-single"], when, False, response={"chosen": [1]})
    answer(store, BANK.questions["t-tf"], when, True, response={"chosen": False})


def make_app(db: Path) -> QuizApp:
    options = AppOptions(db_path=db, device="cpu", warm_up=False, watch=False, settings=Settings())
    return QuizApp(BANK, options)


def cells(table: DataTable, row: int) -> list[str]:
    return [str(cell) for cell in table.get_row_at(row)]


def assert_fits(app: QuizApp) -> None:
    lines = screen_lines(app)
    assert len(lines) <= SIZE[1]
    assert all(len(line) <= SIZE[0] for line in lines)


async def open_from_palette(pilot: Pilot, app: QuizApp) -> ClassReportScreen:
    """Class report from the palette, once the history is open; back when it is laid out."""
    await wait_for(
        pilot,
        lambda: (
            isinstance(app.screen, HomeScreen) and app.screen.is_mounted and app.history is not None
        ),
    )
    await pick(pilot, "Class report")
    await wait_for(
        pilot, lambda: isinstance(app.screen, ClassReportScreen) and app.screen.is_mounted
    )
    screen = app.screen
    assert isinstance(screen, ClassReportScreen)
    await wait_for(pilot, lambda: screen.report is not None)
    await pilot.pause()
    return screen


def test_the_palette_opens_the_report_on_the_apps_own_history(db: Path) -> None:
    app = make_app(db)

    async def scenario(pilot: Pilot) -> None:
        screen = await open_from_palette(pilot, app)
        items = screen.query_one("#class-items", DataTable)
        assert items.row_count == 2
        by_id = {cells(items, r)[0]: cells(items, r) for r in range(items.row_count)}
        single, tf = by_id["t-single"], by_id["t-tf"]
        assert single[1:4] == ["1", "0%", "—"]  # one student: no discrimination
        assert single[4] == "✓A 0% B 100%"
        assert tf[2] == "100%" and tf[4] == "T 0% ✓F 100%"  # the key is False
        students = screen.query_one("#class-students", DataTable)
        assert students.row_count == 1
        assert cells(students, 0)[1:4] == ["2", "50%", "no exam date"]
        mastery = screen.query_one("#class-mastery", DataTable)
        topics = {cells(mastery, r)[1]: cells(mastery, r)[2] for r in range(mastery.row_count)}
        assert topics == {q.topic: "0%" for q in BANK.questions.values()}
        assert_fits(app)
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)

    drive(app, scenario, size=SIZE)


def class_report():
    """Twenty students. The four strongest get the other questions right, pick option B of
    t-single (a distractor) and say the wrong thing on t-tf; the next six get half the others
    and t-single right; the ten weakest only t-tf. So t-tf discriminates negatively, and on
    t-single a distractor beats the key in the upper group."""
    single, tf = BANK.questions["t-single"], BANK.questions["t-tf"]
    others = [BANK.questions[q] for q in ("t-multi", "t-numeric", "t-numeric-short", "t-order")]
    key = single_key(single)
    start = datetime(2026, 11, 2, tzinfo=UTC)
    answers = []

    def add(student: str, question, right: bool, response) -> None:
        answers.append(
            Answer(
                student,
                question.id,
                question.deck_id,
                question.topic,
                start,
                "drill",
                right,
                response,
            )
        )

    for i in range(20):
        student = f"student {i:02d}"
        top, middle = i >= 16, 10 <= i < 16
        picked = key if middle else 1
        add(student, single, picked == key, {"chosen": [picked]})
        weak = not (top or middle)
        add(student, tf, weak, {"chosen": tf.answer if weak else not tf.answer})
        for n, other in enumerate(others):
            add(student, other, top or (middle and n < 2), None)
    records = tuple(StudentRecord(f"student {i:02d}", {"testing": 0.5}, None) for i in range(20))
    history = ClassHistory(answers=tuple(answers), students=records)
    return build_report(history, BANK.decks, start)


def single_key(question) -> int:
    return next(i for i, c in enumerate(question.choices) if c.correct)


def test_flagged_items_come_first_and_enter_opens_the_item(db: Path) -> None:
    app = make_app(db)
    report = class_report()

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        app.push_screen(ClassReportScreen(report))
        await wait_for(
            pilot, lambda: isinstance(app.screen, ClassReportScreen) and app.screen.is_mounted
        )
        await pilot.pause()
        items = app.screen.query_one("#class-items", DataTable)
        first = cells(items, 0)
        assert first[0] == "t-tf" and first[3].startswith("-") and "D<0" in first[5]
        flagged_ids = [cells(items, r)[0] for r in range(items.row_count) if cells(items, r)[5]]
        assert flagged_ids == ["t-tf", "t-single"]
        assert "distractor" in cells(items, 1)[5]
        assert_fits(app)
        # Twenty students: the page keys bring their tables into view, the arrows stay on
        # the questions.
        assert "student 19" not in "\n".join(screen_lines(app))
        await pilot.press("pagedown", "pagedown", "pagedown", "pagedown")
        await wait_for(pilot, lambda: "student 19" in "\n".join(screen_lines(app)))
        assert items.cursor_row == 0
        await pilot.press("pageup", "pageup", "pageup", "pageup")
        await pilot.press("down", "enter")  # the second row: t-single
        await wait_for(pilot, lambda: isinstance(app.screen, ItemScreen) and app.screen.is_mounted)
        screen = app.screen
        assert isinstance(screen, ItemScreen) and screen.question.id == "t-single"
        text = "\n".join(screen_lines(app))
        assert "distractor beats the key in the upper group" in text
        assert "upper group" in text
        assert_fits(app)
        await pilot.press("end")
        await pilot.pause()
        assert "Explanation" in "\n".join(screen_lines(app))
        await pilot.press("escape")
        await wait_for(
            pilot, lambda: isinstance(app.screen, ClassReportScreen) and app.screen.is_mounted
        )

    drive(app, scenario, size=SIZE)


# -- on a class's PostgreSQL history ---------------------------------------------------------


@pytest.fixture
def ann_role(postgres_server):
    """A student's own login role (roles are the cluster's: the name is unique)."""
    import uuid

    import psycopg

    name = f"ann_{uuid.uuid4().hex[:6]}"
    with psycopg.connect(postgres_server.url(), autocommit=True) as admin:
        admin.execute(f'CREATE ROLE "{name}" LOGIN IN ROLE {STUDENTS_GROUP}')
    yield name
    with psycopg.connect(postgres_server.url(), autocommit=True) as admin:
        admin.execute(f'DROP OWNED BY "{name}"')
        admin.execute(f'DROP ROLE "{name}"')


def two_students_answered(pg_url: str, ann_role: str) -> None:
    """bob's answers written by the owner (who creates the tables), ann's by her own role."""
    from quizapp.srs.store.history import PostgresLocation
    from quizapp.srs.store.open_history import open_writer
    from tests.srs.test_pg_store import with_user

    with open_writer(PostgresLocation(pg_url, "bob")) as bob:
        record_two_answers(bob)
    with open_writer(PostgresLocation(with_user(pg_url, ann_role), ann_role)) as ann:
        record_two_answers(ann)


def test_on_postgresql_the_owner_sees_the_whole_class(
    pg_url: str, ann_role: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from quizapp.srs.store.history import PostgresLocation

    monkeypatch.setenv("QUIZAPP_CONFIG", str(tmp_path / "config.toml"))
    two_students_answered(pg_url, ann_role)
    app = make_app(PostgresLocation(pg_url, ann_role))  # type: ignore[arg-type]

    async def scenario(pilot: Pilot) -> None:
        screen = await open_from_palette(pilot, app)
        students = screen.query_one("#class-students", DataTable)
        names = sorted(cells(students, r)[0] for r in range(students.row_count))
        summary = str(screen.query_one("#class-summary").content)
        assert names == sorted([ann_role, "bob"])
        assert summary.startswith("2 students") and "Only the rows" not in summary
        items = screen.query_one("#class-items", DataTable)
        by_id = {cells(items, r)[0]: cells(items, r) for r in range(items.row_count)}
        assert by_id["t-single"][1] == "2"
        assert_fits(app)

    drive(app, scenario, size=SIZE)


def test_a_students_own_role_is_neither_offered_the_class_report_nor_let_open_it(
    pg_url: str, ann_role: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from quizapp.srs.store.history import PostgresLocation
    from quizapp.tui.components.palette import palette_commands
    from quizapp.tui.screens.class_report import NOT_FOR_STUDENTS, open_class_report
    from tests.srs.test_pg_store import with_user

    monkeypatch.setenv("QUIZAPP_CONFIG", str(tmp_path / "config.toml"))
    two_students_answered(pg_url, ann_role)
    app = make_app(PostgresLocation(with_user(pg_url, ann_role), ann_role))  # type: ignore[arg-type]

    async def scenario(pilot: Pilot) -> None:
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, HomeScreen) and app.history is not None,
        )
        titles = {command.title for command in palette_commands(app)}
        assert "Stats" in titles and "Class report" not in titles
        open_class_report(app)  # as the palette's entry would, were it there
        await wait_for(pilot, lambda: toasts(app, NOT_FOR_STUDENTS) == 1)
        assert isinstance(app.screen, HomeScreen)

    drive(app, scenario, size=SIZE)


def summary_text(app: QuizApp) -> str:
    """The report screen's summary; "" until the screen is up and composed."""
    if not isinstance(app.screen, ClassReportScreen):
        return ""
    return "".join(str(summary.content) for summary in app.screen.query("#class-summary"))


def test_a_server_that_cannot_be_reached_is_said_in_one_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("psycopg")
    from quizapp.srs.store.history import PostgresLocation
    from tests.postgres_server import _free_port

    monkeypatch.setenv("QUIZAPP_CONFIG", str(tmp_path / "config.toml"))
    url = f"postgresql://instructor@127.0.0.1:{_free_port()}/class"
    app = make_app(PostgresLocation(url, "instructor"))  # type: ignore[arg-type]

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        app.push_screen(ClassReportScreen())
        await wait_for(pilot, lambda: "could not be worked out" in summary_text(app))
        text = summary_text(app)
        assert f"{url} cannot be reached" in text and "Error:" not in text

    drive(app, scenario, size=SIZE)


def test_rows_a_student_broke_the_rules_with_are_counted_on_the_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As `quizapp class report` prints it: the report of the good rows, then the count of
    the rows left out, with the student's name shown literally."""
    from tests.classroom.test_report_hostile_rows import (
        HOSTILE_BANK,
        SHOWN,
        STUDENT,
        good_history,
        insert,
        review_row,
    )

    monkeypatch.setenv("QUIZAPP_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("LOGNAME", STUDENT)
    path = tmp_path / "history.sqlite3"
    good_history(path)
    insert(path, "reviews", [review_row(rating=9), review_row(id=1001, rating=-1)])
    bank = load_bank([HOSTILE_BANK])
    options = AppOptions(
        db_path=path, device="cpu", warm_up=False, watch=False, settings=Settings()
    )
    app = QuizApp(bank, options)

    async def scenario(pilot: Pilot) -> None:
        screen = await open_from_palette(pilot, app)
        assert screen.query_one("#class-items", DataTable).row_count == 2
        text = "\n".join(screen_lines(app))
        assert f"2 rows from {SHOWN} ignored: rating out of range" in text

    drive(app, scenario, size=(120, 40))
