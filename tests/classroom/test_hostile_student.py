"""The hostile student (issue 20): a real PostgreSQL with password authentication
(scram-sha-256), a class set up from the shell as an instructor would (`quizapp class init`,
`class add-student` as the database's owner, a role with CREATEROLE and nothing more), and
then every attack a student's own role could try, each refused.

Runs on the newest PostgreSQL installed (tests/postgres_server.py). The set-up commands
themselves (idempotence, refusals, one-line errors): test_class_admin_cli.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from tests.classroom.class_server import (
    CLASS_DB,
    T0,
    ClassServer,
    answer,
    class_server_on,
    newest_binaries,
    oldest_binaries_up_to,
)

psycopg = pytest.importorskip("psycopg")

from quizapp.classroom.roles import class_roles  # noqa: E402
from quizapp.srs.store.open_history import open_writer  # noqa: E402
from quizapp.srs.store.postgres.schema import CLASS_SCHEMA, CLASS_TABLES, PER_STUDENT_TABLES  # noqa: E402

TABLES = (*PER_STUDENT_TABLES, *CLASS_TABLES)
REFUSED_LOCK_MODES = ("SHARE", "SHARE ROW EXCLUSIVE", "EXCLUSIVE", "ACCESS EXCLUSIVE")


@pytest.fixture(scope="module")
def klass() -> Iterator[ClassServer]:
    binaries = newest_binaries()
    with class_server_on(binaries, students=("ada", "bob")) as server:
        with open_writer(server.location("bob")) as store:  # bob's history: ada must not see it
            answer(store, "bob-question")
        with server.owner() as owner:
            # A maintenance function the owner adds after class init, as a later migration
            # might: PUBLIC must not be able to call it either.
            owner.execute(
                f"CREATE FUNCTION {CLASS_SCHEMA}.stand_in_maintenance() RETURNS bigint"
                f" LANGUAGE sql AS 'SELECT count(*) FROM {CLASS_SCHEMA}.reviews'"
            )
        yield server


def _refused(server: ClassServer, statement: str, error: type[Exception] | None = None) -> None:
    """`statement`, as ada, inside a transaction (LOCK needs one), fails with `error`."""
    with server.connect_as("ada") as db:
        db.execute("SET lock_timeout = '5s'")  # a refusal, never a wait
        with pytest.raises(error or psycopg.errors.InsufficientPrivilege):
            db.execute(statement)


# -- creating ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "statement",
    [
        f"CREATE TABLE {CLASS_SCHEMA}.shadow (x int)",
        "CREATE TABLE public.reviews (x int)",
        "CREATE TEMP TABLE reviews (x int)",
        f"CREATE FUNCTION {CLASS_SCHEMA}.shadow() RETURNS int LANGUAGE sql AS 'SELECT 1'",
        "CREATE FUNCTION public.lower(text) RETURNS text LANGUAGE sql AS 'SELECT $1'",
        "CREATE FUNCTION pg_temp.shadow() RETURNS int LANGUAGE sql AS 'SELECT 1'",
        f"CREATE VIEW {CLASS_SCHEMA}.everyone AS SELECT 1 AS x",
        "CREATE SCHEMA mine",
    ],
    ids=[
        "table",
        "table-in-public",
        "temp-table",
        "function",
        "function-in-public",
        "temp-function",
        "view",
        "schema",
    ],
)
def test_a_student_creates_nothing(klass: ClassServer, statement: str) -> None:
    _refused(klass, statement)


# -- locking, changing, destroying -----------------------------------------------------------


def test_the_attacks_cover_every_table_of_the_class(klass: ClassServer) -> None:
    """A table a later migration adds is attacked too, or this fails."""
    with klass.owner() as owner:
        rows = owner.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = %s", (CLASS_SCHEMA,)
        ).fetchall()
    assert {name for (name,) in rows} == set(TABLES)


@pytest.mark.parametrize("mode", REFUSED_LOCK_MODES)
@pytest.mark.parametrize("table", TABLES)
def test_a_student_cannot_lock_a_table_against_the_class(
    klass: ClassServer, table: str, mode: str
) -> None:
    _refused(klass, f"LOCK TABLE {CLASS_SCHEMA}.{table} IN {mode} MODE")


@pytest.mark.parametrize("table", TABLES)
@pytest.mark.parametrize("verb", ["UPDATE", "DELETE", "TRUNCATE"])
def test_a_student_never_updates_deletes_or_truncates(
    klass: ClassServer, verb: str, table: str
) -> None:
    statement = {
        "UPDATE": f"UPDATE {CLASS_SCHEMA}.{table} SET student = student",
        "DELETE": f"DELETE FROM {CLASS_SCHEMA}.{table}",
        "TRUNCATE": f"TRUNCATE {CLASS_SCHEMA}.{table}",
    }[verb]
    if table in CLASS_TABLES and verb == "UPDATE":  # the instructor's tables: no student column
        column = {"schema_version": "version", "class_roles": "students"}[table]
        statement = f"UPDATE {CLASS_SCHEMA}.{table} SET {column} = {column}"
    _refused(klass, statement)


@pytest.mark.parametrize("table", TABLES)
@pytest.mark.parametrize(
    "change",
    [
        "ALTER TABLE {} ADD COLUMN evil int",
        "DROP TABLE {}",
        "ALTER TABLE {} DISABLE ROW LEVEL SECURITY",
    ],
)
def test_a_student_cannot_alter_or_drop_a_table(
    klass: ClassServer, table: str, change: str
) -> None:
    _refused(klass, change.format(f"{CLASS_SCHEMA}.{table}"))


# -- other students' rows ----------------------------------------------------------------------


def test_a_student_reads_no_one_elses_rows(klass: ClassServer) -> None:
    with klass.owner() as owner:
        everyone = {row[0] for row in owner.execute(f"SELECT student FROM {CLASS_SCHEMA}.reviews")}
    assert "bob" in everyone  # there is something of bob's to see
    with klass.connect_as("ada") as db:
        for table in PER_STUDENT_TABLES:
            seen = db.execute(f"SELECT DISTINCT student FROM {CLASS_SCHEMA}.{table}").fetchall()
            assert {row[0] for row in seen} <= {"ada"}, table


REVIEW = {
    "student": "ada",
    "question_id": "q",
    "deck_id": "deck",
    "topic": "attention",
    "kind": "drill",
    "reviewed_ms": int(T0.timestamp() * 1000),
    "rating": 3,
    "correct": True,
    "duration_ms": 4000,
}


def _insert_review(**changed: object) -> tuple[str, tuple[object, ...]]:
    row = REVIEW | changed
    columns = ", ".join(row)
    marks = ", ".join(["%s"] * len(row))
    return f"INSERT INTO {CLASS_SCHEMA}.reviews ({columns}) VALUES ({marks})", tuple(row.values())


def _refused_insert(server: ClassServer, statement: str, values: tuple[object, ...], error) -> None:
    with server.connect_as("ada") as db, pytest.raises(error):
        db.execute(statement, values)


def test_a_students_own_row_goes_in(klass: ClassServer) -> None:
    """The rows below are refused for their one bad value, not for being rows."""
    with klass.connect_as("ada", autocommit=True) as db:
        db.execute(*_insert_review())


def test_a_student_cannot_write_as_another(klass: ClassServer) -> None:
    statement, values = _insert_review(student="bob")
    _refused_insert(klass, statement, values, psycopg.errors.InsufficientPrivilege)


@pytest.mark.parametrize(
    "changed",
    [
        {"rating": 9},
        {"question_id": "q" * 10_240},
        {"reviewed_ms": int(datetime(2300, 1, 1, tzinfo=UTC).timestamp() * 1000)},
        {"duration_ms": -1},
    ],
    ids=["rating-9", "question-id-10kB", "year-2300", "negative-duration"],
)
def test_out_of_range_values_are_refused(klass: ClassServer, changed: dict[str, object]) -> None:
    statement, values = _insert_review(**changed)
    _refused_insert(klass, statement, values, psycopg.errors.CheckViolation)


def test_a_nan_duration_is_refused(klass: ClassServer) -> None:
    _refused_insert(
        klass,
        f"INSERT INTO {CLASS_SCHEMA}.exams (student, taken_ms, questions, correct, passed,"
        " threshold, seconds, detail) VALUES ('ada', %s, 1, 1, true, 0.7, 'NaN', '{}')",
        (REVIEW["reviewed_ms"],),
        psycopg.errors.CheckViolation,
    )


# -- functions, roles, settings -------------------------------------------------------------


def test_a_student_calls_no_function_in_the_class_schema(klass: ClassServer) -> None:
    with klass.owner() as owner:
        functions = owner.execute(
            "SELECT p.oid::regprocedure::text, p.proname,"
            " array(SELECT format_type(t, NULL) FROM unnest(p.proargtypes) t),"
            " p.prorettype = 'trigger'::regtype"
            " FROM pg_proc p WHERE p.pronamespace = %s::regnamespace",
            (CLASS_SCHEMA,),
        ).fetchall()
    assert "stand_in_maintenance" in {name for _sig, name, _args, _trigger in functions}
    for signature, name, argument_types, is_trigger in functions:
        if is_trigger:  # called by triggers only: the privilege is what would matter
            with klass.connect_as("ada") as db:
                allowed = db.execute(
                    "SELECT has_function_privilege(%s, 'EXECUTE')", (signature,)
                ).fetchone()
            assert allowed == (False,), signature
            continue
        nulls = ", ".join(f"NULL::{kind}" for kind in argument_types)
        _refused(klass, f'SELECT {CLASS_SCHEMA}."{name}"({nulls})')


@pytest.mark.parametrize("target", ["instructors", "owner"])
def test_a_student_cannot_become_the_instructor(klass: ClassServer, target: str) -> None:
    role = class_roles(CLASS_DB).instructors if target == "instructors" else klass.owner_role
    _refused(klass, f'SET ROLE "{role}"')


@pytest.mark.parametrize("table", PER_STUDENT_TABLES)
def test_a_student_acting_as_the_students_group_writes_and_reads_nothing(
    klass: ClassServer, table: str
) -> None:
    """A member may SET ROLE to its group (PostgreSQL before 16 has no SET FALSE); its rows
    are still only the signed-in student's own, never some under the group's name."""
    students = class_roles(CLASS_DB).students
    with klass.connect_as("ada", autocommit=True) as db:
        db.execute(f'SET ROLE "{students}"')
        assert db.execute("SELECT current_user").fetchone()[0] == students
        seen = db.execute(f"SELECT DISTINCT student FROM {CLASS_SCHEMA}.{table}").fetchall()
        assert {row[0] for row in seen} <= {"ada"}
    statement, values = _insert_review(student=students)
    with klass.connect_as("ada") as db, pytest.raises(psycopg.errors.InsufficientPrivilege):
        db.execute(f'SET ROLE "{students}"')
        db.execute(statement, values)


def test_a_students_session_has_the_groups_time_limits(klass: ClassServer) -> None:
    students = class_roles(CLASS_DB).students
    with klass.owner() as owner:
        row = owner.execute(
            "SELECT s.setconfig FROM pg_db_role_setting s JOIN pg_roles r ON r.oid = s.setrole"
            " WHERE r.rolname = %s AND s.setdatabase = 0",
            (students,),
        ).fetchone()
    assert row is not None, "class init gave the student group no settings"
    group_settings = dict(item.split("=", 1) for item in row[0])
    assert {"statement_timeout", "idle_in_transaction_session_timeout"} <= set(group_settings)
    with klass.owner() as owner:  # as SHOW writes them ("60s" reads back as "1min")
        for name, value in group_settings.items():
            with owner.transaction():
                owner.execute("SELECT set_config(%s, %s, true)", (name, value))
                shown = owner.execute(f"SHOW {name}").fetchone()
            group_settings[name] = shown[0] if shown else value
    with klass.connect_as("ada") as db:
        for name, value in group_settings.items():
            shown = db.execute(f"SHOW {name}").fetchone()
            assert shown == (value,), name


# -- signing in and drilling ----------------------------------------------------------------


def test_a_wrong_password_is_refused(klass: ClassServer) -> None:
    with pytest.raises(psycopg.OperationalError, match="password authentication failed"):
        psycopg.connect(klass.url("ada", password="not-adas-password"))


def test_a_student_drills_on_their_own_role(klass: ClassServer) -> None:
    with open_writer(klass.location("ada")) as store:
        answer(store, "ada-question")
        assert store.card("ada-question") is not None
        assert store.review_count() >= 1


def test_row_exclusive_comes_with_insert_and_the_session_is_bounded(klass: ClassServer) -> None:
    """ROW EXCLUSIVE comes with INSERT: it blocks only schema changes, and the student's
    session carries the group's timeouts so an open transaction ends on its own."""
    with klass.connect_as("ada") as db:
        db.execute(f"LOCK TABLE {CLASS_SCHEMA}.reviews IN ROW EXCLUSIVE MODE")
        timeout = db.execute("SHOW idle_in_transaction_session_timeout").fetchone()
    assert timeout is not None and timeout[0] not in ("0", "0ms")


# -- older servers --------------------------------------------------------------------------


def test_public_may_not_create_in_schema_public_on_postgresql_14_or_older() -> None:
    """PostgreSQL 14 and older let PUBLIC create in schema public by default (CVE-2018-1058);
    class init run by a superuser takes that away."""
    old = oldest_binaries_up_to(14)
    if old is None:
        pytest.skip("no PostgreSQL 14 or older installed (/usr/lib/postgresql/*/bin): only 15+")
    with class_server_on(old, students=("ada",), init_as_superuser=True) as server:
        _refused(server, "CREATE TABLE public.reviews (x int)")
