"""The PostgreSQL history's own behaviour: migrations, responses as jsonb, students kept apart
by row-level security, fifty students answering at once, and failures said in one line.
(The behaviour both stores share is tested on both in test_store.py.)"""

from __future__ import annotations

import threading
import time
import uuid
from datetime import UTC, datetime, timedelta

import pytest

psycopg = pytest.importorskip("psycopg")

from quizapp.srs.memory.scheduling import Rating, make_scheduler  # noqa: E402
from quizapp.srs.store.history import PostgresLocation  # noqa: E402
from quizapp.srs.store.open_history import open_readonly, open_writer  # noqa: E402
from quizapp.srs.store.postgres.schema import (  # noqa: E402
    CLASS_TABLES,
    CURRENT_CARDS,
    PER_STUDENT_TABLES,
    SCHEMA_VERSION,
)
from quizapp.srs.store.postgres.setup import ClassRoles, grant_privileges, set_up_class  # noqa: E402
from quizapp.srs.store.postgres.store import (  # noqa: E402
    PostgresStore,
    class_schema,
    connect,
    migrate,
    schema_version,
)
from quizapp.srs.store.sqlite.history_file import HistoryError  # noqa: E402
from tests.postgres_server import INSTRUCTORS_GROUP, STUDENTS_GROUP  # noqa: E402

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
SCHEDULER = make_scheduler(fuzz=False)


def answer(store, question_id: str, when: datetime, **extra) -> None:
    store.record_answer(
        question_id=question_id,
        deck_id="deck",
        topic="attention",
        rating=Rating.Good,
        correct=True,
        when=when,
        duration_ms=4000,
        kind="drill",
        scheduler=SCHEDULER,
        **extra,
    )


def owner(url: str):
    return psycopg.connect(url, autocommit=True)


def with_user(url: str, role: str) -> str:
    """The same database and schema, connecting as another role."""
    scheme, rest = url.split("://", 1)
    return f"{scheme}://{role}@{rest.split('@', 1)[1]}"


# -- migrations -------------------------------------------------------------------------------


def test_every_step_is_recorded_and_reopening_migrates_nothing(pg_url: str) -> None:
    with open_writer(PostgresLocation(pg_url, "ada")) as store:
        answer(store, "q1", T0)
    with open_writer(PostgresLocation(pg_url, "ada")) as store:
        assert store.review_count() == 1
    with owner(pg_url) as db:
        versions = [r[0] for r in db.execute("SELECT version FROM schema_version ORDER BY 1")]
        tables = {
            r[0]
            for r in db.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
            )
        }
    assert versions == list(range(1, SCHEMA_VERSION + 1))
    assert set(PER_STUDENT_TABLES) | set(CLASS_TABLES) == tables


def older_class(url: str, version: int) -> None:
    """A class as `class init` of an older quizapp left it: schema `version`, groups granted."""
    with connect(url) as db:
        schema = db.execute("SELECT current_schema()").fetchone()[0]
        migrate(db, url, target=version)
        db.execute(
            "INSERT INTO class_roles (students, instructors) VALUES (%s, %s)",
            (STUDENTS_GROUP, INSTRUCTORS_GROUP),
        )
        grant_privileges(db, ClassRoles(STUDENTS_GROUP, INSTRUCTORS_GROUP), schema)


def test_the_instructors_opening_an_older_class_at_once_upgrade_it_once(
    empty_pg_url: str,
) -> None:
    older_class(empty_pg_url, SCHEMA_VERSION - 1)
    errors: list[BaseException] = []

    def open_one(i: int) -> None:
        try:
            with open_writer(PostgresLocation(empty_pg_url, f"s{i}")) as store:
                answer(store, "q1", T0)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=open_one, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    with owner(empty_pg_url) as db:
        versions = [r[0] for r in db.execute("SELECT version FROM schema_version ORDER BY 1")]
        assert db.execute("SELECT count(*) FROM reviews").fetchone()[0] == 8
    assert versions == list(range(1, SCHEMA_VERSION + 1))


def test_a_student_meeting_an_older_class_is_told_to_ask_the_instructor(
    empty_pg_url: str, student_role
) -> None:
    older_class(empty_pg_url, SCHEMA_VERSION - 1)
    ada = student_role("ada")
    with pytest.raises(HistoryError) as info:
        open_writer(PostgresLocation(with_user(empty_pg_url, ada), ada))
    message = str(info.value)
    assert "instructor" in message and "class init" in message and "\n" not in message
    with connect(empty_pg_url) as db:
        assert schema_version(db) == SCHEMA_VERSION - 1


def test_a_newer_schema_is_refused_in_one_line(pg_url: str) -> None:
    with owner(pg_url) as db:
        db.execute("INSERT INTO schema_version VALUES (%s)", (SCHEMA_VERSION + 1,))
    with pytest.raises(HistoryError) as info:
        open_writer(PostgresLocation(pg_url, "ada"))
    message = str(info.value)
    assert "newer" in message and str(SCHEMA_VERSION + 1) in message and "\n" not in message


def test_an_upgrade_a_students_lock_stands_in_the_way_of_fails_fast_in_one_line(
    empty_pg_url: str, student_role
) -> None:
    """A student's open transaction holds ROW EXCLUSIVE on reviews (INSERT allows it): the
    instructor's upgrade gives up after its lock timeout with a message, never hangs."""
    older_class(empty_pg_url, SCHEMA_VERSION - 1)
    ada = student_role("ada")
    with psycopg.connect(with_user(empty_pg_url, ada)) as holding:  # a transaction left open
        holding.execute("LOCK TABLE reviews IN ROW EXCLUSIVE MODE")
        with connect(empty_pg_url) as db:
            started = time.monotonic()
            with pytest.raises(HistoryError) as info:
                set_up_class(
                    db, ClassRoles(STUDENTS_GROUP, INSTRUCTORS_GROUP), class_schema(empty_pg_url)
                )
            waited = time.monotonic() - started
            assert schema_version(db) == SCHEMA_VERSION - 1
    message = str(info.value)
    assert "could not be locked" in message and "\n" not in message
    assert waited < 30


@pytest.mark.parametrize("opening", [open_writer, open_readonly])
def test_a_database_without_a_class_is_one_line_naming_class_init(
    postgres_server, empty_pg_url: str, opening
) -> None:
    url = empty_pg_url.replace("@", ":secret@", 1)
    with pytest.raises(HistoryError) as info:
        opening(PostgresLocation(url, "ada"))
    message = str(info.value)
    assert message.startswith("no quizapp class at ") and "\n" not in message
    assert "`quizapp class init --db " in message and "secret" not in message
    with owner(empty_pg_url) as db:
        assert db.execute("SELECT to_regclass('reviews')").fetchone()[0] is None


# -- what is stored ---------------------------------------------------------------------------


def test_the_response_is_stored_as_jsonb(pg_url: str) -> None:
    response = {"chosen": [1, 3], "variant": {"heads": 8}}
    with open_writer(PostgresLocation(pg_url, "ada")) as store:
        answer(store, "q1", T0, response=response)
        answer(store, "q2", T0 + timedelta(seconds=5))
    with owner(pg_url) as db:
        rows = db.execute(
            "SELECT question_id, response, jsonb_typeof(response) FROM reviews ORDER BY id"
        ).fetchall()
    assert rows == [("q1", response, "object"), ("q2", None, None)]


def test_each_students_history_is_their_own(pg_url: str) -> None:
    with (
        open_writer(PostgresLocation(pg_url, "ada")) as ada,
        open_writer(PostgresLocation(pg_url, "bob")) as bob,
    ):
        answer(ada, "q1", T0)
        answer(bob, "q2", T0)
        bob.set_suspended("q1")
        bob.record_exam(
            taken=T0, questions=1, correct=1, passed=True, threshold=0.7, seconds=3.0, detail={}
        )
        assert ada.known_ids() == {"q1"} and bob.known_ids() == {"q2"}
        assert ada.hidden_ids(T0) == set() and bob.hidden_ids(T0) == {"q1"}
        assert ada.exams() == [] and len(bob.exams()) == 1
        assert ada.undo_last() == "q1"
        assert bob.review_count() == 1 and ada.review_count() == 0


# -- roles and row-level security -------------------------------------------------------------


@pytest.fixture
def student_roles(student_role):
    """Two real login roles in the class's students group."""
    return [student_role("ada"), student_role("bob")]


def test_a_students_role_reaches_only_its_own_rows(pg_url: str, student_roles) -> None:
    ada, bob = student_roles
    with open_writer(PostgresLocation(pg_url, "instructor")) as mine:  # the owner's own
        answer(mine, "q0", T0)
    for name in (ada, bob):
        with open_writer(PostgresLocation(with_user(pg_url, name), name)) as store:
            answer(store, f"{name}-q", T0)
            store.bury(f"{name}-q", T0 + timedelta(days=1))
    # Each role, even with hand-written SQL, sees its own rows and nothing else.
    with owner(with_user(pg_url, ada)) as as_ada:
        for table in ("reviews", "cards", "card_flags"):
            students = {r[0] for r in as_ada.execute(f"SELECT student FROM {table}")}
            assert students == {ada}, table
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            as_ada.execute(
                "INSERT INTO reviews (student, question_id, deck_id, topic, kind, reviewed_ms,"
                " rating, correct) VALUES (%s, 'q', 'd', 't', 'drill', 0, 3, true)",
                (bob,),
            )
        for statement in ("DELETE FROM reviews", "UPDATE cards SET state = 3"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                as_ada.execute(statement)
    # The instructor (the tables' owner) sees the whole class.
    with owner(pg_url) as db:
        rows = db.execute("SELECT student, count(*) FROM reviews GROUP BY 1 ORDER BY 1").fetchall()
    assert rows == sorted([(ada, 1), (bob, 1), ("instructor", 1)])


def test_a_role_cannot_open_another_students_history(pg_url: str, student_roles) -> None:
    ada, bob = student_roles
    with open_writer(PostgresLocation(pg_url, bob)) as store:  # the owner may
        answer(store, "q1", T0)
    with pytest.raises(HistoryError) as info:
        open_writer(PostgresLocation(with_user(pg_url, ada), bob))
    assert f"--student {ada}" in str(info.value) and "\n" not in str(info.value)


# -- fifty students at once -------------------------------------------------------------------

STUDENTS = 50
ANSWERS_EACH = 12


def test_fifty_students_answering_at_once_store_every_answer_exactly_once(
    postgres_server, pg_url: str
) -> None:
    """Fifty threads, each a student on their own role and connection, answer the same
    questions at the same time; every answer is stored once, under its student."""
    tag = uuid.uuid4().hex[:6]
    names = [f"student{i:02d}_{tag}" for i in range(STUDENTS)]
    with owner(postgres_server.url()) as admin:
        for name in names:
            admin.execute(f'CREATE ROLE "{name}" LOGIN IN ROLE {STUDENTS_GROUP}')
    start = threading.Barrier(STUDENTS)
    errors: list[BaseException] = []

    def student(name: str) -> None:
        try:
            with PostgresStore.open(PostgresLocation(with_user(pg_url, name), name)) as store:
                start.wait()
                for i in range(ANSWERS_EACH):
                    answer(store, f"q{i % 5}", T0 + timedelta(minutes=i), response={"n": i})
        except BaseException as exc:
            errors.append(exc)
            start.abort()

    threads = [threading.Thread(target=student, args=(name,)) for name in names]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        assert errors == []
        with owner(pg_url) as db:
            stored = db.execute(
                "SELECT student, (response->>'n')::int, count(*) FROM reviews"
                " WHERE student <> 'instructor' GROUP BY 1, 2"
            ).fetchall()
            cards = db.execute(
                "SELECT count(*), count(DISTINCT student)"
                f" FROM {CURRENT_CARDS} AS cards WHERE student <> 'instructor'"
            ).fetchone()
        assert sorted((s, n) for s, n, _ in stored) == sorted(
            (name, i) for name in names for i in range(ANSWERS_EACH)
        )
        assert {count for _, _, count in stored} == {1}  # exactly once
        assert cards == (STUDENTS * 5, STUDENTS)
    finally:
        with owner(postgres_server.url()) as admin:
            for name in names:
                admin.execute(f'DROP OWNED BY "{name}"')
                admin.execute(f'DROP ROLE "{name}"')


# -- what goes wrong is said in one line -------------------------------------------------------


def test_an_unreachable_server_is_one_line_naming_the_url(postgres_server) -> None:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # free: nobody listens there
    url = f"postgresql://ada:secret@127.0.0.1:{port}/class"
    with pytest.raises(HistoryError) as info:
        open_writer(PostgresLocation(url, "ada"))
    message = str(info.value)
    assert f"127.0.0.1:{port}/class" in message and "\n" not in message
    assert "secret" not in message


def test_a_missing_database_is_one_line(postgres_server) -> None:
    url = postgres_server.url("no_such_database")
    with pytest.raises(HistoryError) as info:
        open_writer(PostgresLocation(url, "ada"))
    assert "no_such_database" in str(info.value) and "\n" not in str(info.value)
