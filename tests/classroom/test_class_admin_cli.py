"""`quizapp class init | add-student | remove-student | list-students` and who may run
`class report`, from the shell, on a real PostgreSQL with password authentication
(tests/classroom/class_server.py). What a student's role can then do: test_hostile_student.py.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from quizapp.classroom.roles import ROLE_NAME_MAX_BYTES, class_roles
from tests.classroom.class_server import (
    CLASS_DB,
    ClassServer,
    answer,
    class_server_on,
    newest_binaries,
    run_quizapp,
)

psycopg = pytest.importorskip("psycopg")
from psycopg import sql  # noqa: E402

from quizapp.srs.store.open_history import open_writer  # noqa: E402
from quizapp.srs.store.postgres.schema import CLASS_SCHEMA  # noqa: E402


@pytest.fixture(scope="module")
def klass() -> Iterator[ClassServer]:
    with class_server_on(newest_binaries(), students=("ada",)) as server:
        yield server


def one_line_error(done, code: int, *says: str) -> None:
    assert done.returncode == code, (done.stdout, done.stderr)
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "Traceback" not in done.stderr
    for words in says:
        assert words in done.stderr


def superuser(klass: ClassServer):
    return psycopg.connect(klass.server.url(CLASS_DB), autocommit=True)


# -- the groups' names ----------------------------------------------------------------------------


@pytest.mark.parametrize("database", ["class", "c" * 63, "é" * 31 + "x", "c" * 63 + "2"])
def test_group_names_fit_postgresql_and_name_their_database(database: str) -> None:
    roles = class_roles(database)
    for name, suffix in ((roles.students, "_students"), (roles.instructors, "_instructors")):
        assert len(name.encode("utf-8")) <= ROLE_NAME_MAX_BYTES
        assert name.endswith(suffix) and database[:8] in name


def test_two_long_database_names_get_different_groups() -> None:
    first, second = "c" * 70 + "1", "c" * 70 + "2"
    assert class_roles(first).students != class_roles(second).students


# -- init ------------------------------------------------------------------------------------------


def test_init_again_says_the_class_is_set_up(klass: ClassServer) -> None:
    again = klass.cli("class", "init")
    assert again.returncode == 0, again.stderr
    assert "the class is already set up" in again.stdout
    roles = class_roles(CLASS_DB)
    with klass.owner() as owner:
        groups = owner.execute(
            "SELECT rolname, rolcanlogin FROM pg_roles WHERE rolname = ANY(%s)",
            ([roles.students, roles.instructors],),
        ).fetchall()
        public_create = owner.execute(
            "SELECT has_database_privilege('public', current_database(), 'CREATE'),"
            " has_database_privilege('public', current_database(), 'TEMPORARY'),"
            " has_database_privilege('public', current_database(), 'CONNECT'),"
            " has_schema_privilege('public', 'public', 'CREATE')"
        ).fetchone()
    assert sorted(groups) == sorted([(roles.students, False), (roles.instructors, False)])
    assert public_create == (False, False, False, False)


def test_init_is_refused_to_a_role_that_does_not_own_the_database(klass: ClassServer) -> None:
    done = klass.cli("class", "init", db=klass.url("ada"))
    one_line_error(done, 2, "does not own the database", "ada")


def test_init_is_refused_to_an_owner_that_may_not_create_roles(klass: ClassServer) -> None:
    with superuser(klass) as admin:
        admin.execute("CREATE ROLE plain LOGIN PASSWORD 'plain-pw'")
        admin.execute("CREATE DATABASE plain_class OWNER plain")
    done = klass.cli("class", "init", db=klass.server.url("plain_class", "plain", "plain-pw"))
    one_line_error(done, 2, "may not create roles")
    assert "plain-pw" not in done.stderr + done.stdout


def test_a_wrong_password_is_one_line_without_the_password(klass: ClassServer) -> None:
    url = klass.server.url(CLASS_DB, klass.owner_role, "wrong-secret")
    done = run_quizapp("class", "list-students", "--db", url, home=klass.folder)
    one_line_error(done, 1, "cannot be reached")
    assert "wrong-secret" not in done.stderr


def test_no_database_or_a_sqlite_one_is_misuse(klass: ClassServer) -> None:
    one_line_error(run_quizapp("class", "init", home=klass.folder), 2, "--db")
    sqlite = run_quizapp("--db", str(klass.folder / "h.db"), "class", "init", home=klass.folder)
    one_line_error(sqlite, 2, "not a postgresql:// URL")


@pytest.mark.parametrize("command", ["init", "add-student", "remove-student", "list-students"])
def test_every_command_has_help(klass: ClassServer, command: str) -> None:
    done = run_quizapp("class", command, "--help", home=klass.folder)
    assert done.returncode == 0 and "--db" in done.stdout


# -- students --------------------------------------------------------------------------------------


def test_the_command_reads_its_own_db_option_too(klass: ClassServer) -> None:
    done = run_quizapp("class", "list-students", "--db", klass.owner_url(), home=klass.folder)
    assert done.returncode == 0, done.stderr
    assert "ada" in done.stdout.split()


def test_a_student_gets_login_and_the_group_and_nothing_else(klass: ClassServer) -> None:
    with klass.owner() as owner:
        role = owner.execute(
            "SELECT rolcanlogin, rolsuper, rolcreaterole, rolcreatedb, rolreplication,"
            " rolbypassrls FROM pg_roles WHERE rolname = 'ada'"
        ).fetchone()
        groups = owner.execute(
            "SELECT g.rolname FROM pg_auth_members m JOIN pg_roles g ON g.oid = m.roleid"
            " JOIN pg_roles r ON r.oid = m.member WHERE r.rolname = 'ada'"
        ).fetchall()
    assert role == (True, False, False, False, False, False)
    assert groups == [(class_roles(CLASS_DB).students,)]


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("pg_ada", "pg_"),
        ("ev\x1bil", "control character"),
        (" ada", "space"),
        ("teacher", "class's own roles"),
    ],
)
def test_bad_student_names_are_refused(klass: ClassServer, name: str, says: str) -> None:
    done = klass.add_student(name)
    one_line_error(done, 2, says)
    assert "\x1b" not in done.stderr


def test_an_existing_role_that_is_no_student_is_refused(klass: ClassServer) -> None:
    with superuser(klass) as admin:
        admin.execute("CREATE ROLE carol LOGIN")
    one_line_error(klass.add_student("carol"), 2, "not a student of this class")


@pytest.mark.parametrize("content", [None, "", "\nsecond line"])
def test_a_missing_or_empty_password_file_is_one_line(
    klass: ClassServer, content: str | None, tmp_path: Path
) -> None:
    file = tmp_path / "password"
    if content is not None:
        file.write_text(content)
    done = klass.cli("class", "add-student", "dan", "--password-file", str(file))
    one_line_error(done, 2, "--password-file")


def test_a_generated_password_is_printed_once_and_signs_in(klass: ClassServer) -> None:
    done = klass.cli("class", "add-student", "eve")
    assert done.returncode == 0, done.stderr
    [line] = [line for line in done.stdout.splitlines() if "shown once" in line]
    password = line.rsplit(" ", 1)[1]
    with psycopg.connect(klass.url("eve", password)) as db:
        assert db.execute("SELECT current_user").fetchone() == ("eve",)


def test_adding_a_student_again_changes_their_password(klass: ClassServer) -> None:
    assert klass.add_student("fay").returncode == 0
    old = klass.passwords["fay"]
    again = klass.add_student("fay")
    assert again.returncode == 0 and "password is changed" in again.stdout
    with pytest.raises(psycopg.OperationalError, match="password authentication failed"):
        psycopg.connect(klass.url("fay", old))
    psycopg.connect(klass.url("fay")).close()


def test_a_removed_student_cannot_sign_in_and_their_rows_stay(klass: ClassServer) -> None:
    assert klass.add_student("gus").returncode == 0
    with open_writer(klass.location("gus")) as store:
        answer(store, "gus-question")
    listed = klass.cli("class", "list-students")
    assert "gus" in listed.stdout.split()
    removed = klass.cli("class", "remove-student", "gus")
    assert removed.returncode == 0 and "history rows are kept" in removed.stdout
    with pytest.raises(psycopg.OperationalError):
        psycopg.connect(klass.url("gus"))
    assert "gus" not in klass.cli("class", "list-students").stdout.split()
    with klass.owner() as owner:
        kept = owner.execute(
            f"SELECT count(*) FROM {CLASS_SCHEMA}.reviews WHERE student = 'gus'"
        ).fetchone()
    assert kept == (1,)
    one_line_error(klass.cli("class", "remove-student", "carol_never_added"), 2, "not a student")
    group = class_roles(CLASS_DB).students
    one_line_error(klass.cli("class", "remove-student", group), 2, "class's own roles")


# -- the report ------------------------------------------------------------------------------------


def _report(klass: ClassServer, url: str, *options: str):
    # The class's schema named in the URL until the store pins it itself.
    with_schema = url + f"?options=-csearch_path%3D{CLASS_SCHEMA}"
    return run_quizapp("class", "report", "--db", with_schema, *options, home=klass.folder)


def test_the_report_is_refused_to_a_student(klass: ClassServer) -> None:
    done = _report(klass, klass.url("ada"))
    one_line_error(done, 2, "may not read the class report")
    assert klass.passwords["ada"] not in done.stderr


@pytest.fixture(scope="module")
def colleague_url(klass: ClassServer) -> str:
    """A colleague, made an instructor by hand as the README says."""
    with klass.owner() as owner:
        owner.execute("CREATE ROLE colleague LOGIN PASSWORD 'colleague-pw'")
        owner.execute(
            sql.SQL("GRANT {} TO colleague").format(
                sql.Identifier(class_roles(CLASS_DB).instructors)
            )
        )
    return klass.server.url(CLASS_DB, "colleague", "colleague-pw")


def test_the_report_opens_for_the_owner_and_the_instructor_group(
    klass: ClassServer, colleague_url: str
) -> None:
    assert _report(klass, klass.owner_url()).returncode == 0
    done = _report(klass, colleague_url)
    assert done.returncode == 0, done.stderr


def test_the_instructor_groups_report_covers_the_class(
    klass: ClassServer, colleague_url: str
) -> None:
    with open_writer(klass.location("ada")) as store:
        answer(store, "ada-for-the-report")
    done = _report(klass, colleague_url, "--format", "json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["limited_to_role"] is None
    assert "ada" in {row["student"] for row in report["students"]}


# -- where a password comes from (no server) ----------------------------------------------------


class _Terminal:
    def __init__(self, is_one: bool = True) -> None:
        self.is_one = is_one

    def isatty(self) -> bool:
        return self.is_one


def test_at_a_terminal_the_password_is_typed_twice(monkeypatch: pytest.MonkeyPatch) -> None:
    from quizapp.cli import class_admin

    typed = iter(["s3cret", "s3cret", "s3cret", "other"])
    monkeypatch.setattr("sys.stdin", _Terminal())
    monkeypatch.setattr("getpass.getpass", lambda prompt="": next(typed))
    assert class_admin._password(None) == ("s3cret", "")
    assert class_admin._password(None) == (None, "the two passwords differ")


def test_the_first_line_of_the_file_is_the_password(tmp_path: Path) -> None:
    from quizapp.cli import class_admin

    file = tmp_path / "password"
    file.write_text("correct horse\r\nnot this\n")
    assert class_admin._password(file) == ("correct horse", "")


def test_without_file_or_terminal_a_fresh_password_is_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from quizapp.cli import class_admin

    monkeypatch.setattr("sys.stdin", _Terminal(is_one=False))
    first, second = class_admin._password(None)[0], class_admin._password(None)[0]
    assert first and second and first != second and len(first) >= 20


def test_init_migrates_under_a_lock_timeout(
    klass: ClassServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A student's open transaction can hold ROW EXCLUSIVE on a table; a migration waiting
    behind it gives up rather than wait (and stall every student queued behind it)."""
    from quizapp.classroom import roles

    seen: list[str] = []
    real_set_up = roles.set_up_class

    def set_up_recording_the_timeout(connection, class_roles_, schema):
        seen.append(connection.execute("SHOW lock_timeout").fetchone()[0])
        return real_set_up(connection, class_roles_, schema)

    monkeypatch.setattr(roles, "set_up_class", set_up_recording_the_timeout)
    with klass.owner() as owner:
        done = roles.init_class(owner)
    assert done.already_set_up
    assert seen and seen[0] not in ("0", "0ms")
