"""Who may do what in a class on PostgreSQL: the group roles `quizapp class init` makes, the
students' login roles `class add-student` makes, and the checks that come before each.

Roles are the cluster's, not the database's, so a class's two groups are named after its
database (`<db>_students`, `<db>_instructors`). The tables and what each group may do in them
are quizapp/srs/store/postgres/setup.py's (`set_up_class`); this module makes the roles, closes the
database to everyone else, and keeps a student's role to LOGIN and the student group.

Every statement is built with psycopg's `sql` composition: names as identifiers, values
(a password's verifier) as literals. No torch, no textual.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg import sql

from quizapp.srs.store.history import one_line, student_problem
from quizapp.srs.store.postgres.schema import CLASS_SCHEMA
from quizapp.srs.store.postgres.setup import ClassRoles, set_up_class

ROLE_NAME_MAX_BYTES = 63  # PostgreSQL's NAMEDATALEN - 1: longer names are cut silently
STUDENTS_SUFFIX = "_students"
INSTRUCTORS_SUFFIX = "_instructors"
# A student's session may not stall the class: a statement, an open transaction and an idle
# connection each end on their own. PostgreSQL applies a role's settings only to sessions that
# log in as that role (never to a group's members), so init records them on the student group
# and add-student gives each student the same, for this database only.
STUDENT_SETTINGS = {
    "statement_timeout": "30s",
    "idle_in_transaction_session_timeout": "60s",
}
IDLE_SESSION_TIMEOUT = ("idle_session_timeout", "1h")  # PostgreSQL 14 and newer only
IDLE_SESSION_TIMEOUT_SINCE = 140000  # server_version_num
# init's migrations wait this long at most for a table a student's transaction holds.
MIGRATION_LOCK_TIMEOUT = "10s"
# A browser tab holds two connections; ten is five tabs. More would let one student fill the
# server's max_connections and keep the class out.
STUDENT_CONNECTION_LIMIT = 10
STUDENT_COMMENT = "quizapp student of {database}"


class ClassAdminError(Exception):
    """One line saying why a class command cannot go on. `status` is the exit status: 2 for
    a refusal or misuse (the wrong role, a bad name), 1 for the server's own trouble."""

    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.status = status


def class_roles(database: str) -> ClassRoles:
    """The class's two group roles, named after its database and at most 63 bytes each."""
    return ClassRoles(
        students=_bounded_role_name(database, STUDENTS_SUFFIX),
        instructors=_bounded_role_name(database, INSTRUCTORS_SUFFIX),
    )


def _bounded_role_name(database: str, suffix: str) -> str:
    """`<database><suffix>`; where that is over 63 bytes, the database's name is cut (on a
    character boundary) and a hash of the whole name keeps two long names apart."""
    name = database + suffix
    if len(name.encode("utf-8")) <= ROLE_NAME_MAX_BYTES:
        return name
    tag = "_" + hashlib.sha256(database.encode("utf-8")).hexdigest()[:8]
    room = ROLE_NAME_MAX_BYTES - len((tag + suffix).encode("utf-8"))
    cut = database.encode("utf-8")[:room].decode("utf-8", errors="ignore")
    return cut + tag + suffix


@dataclass(frozen=True)
class Caller:
    role: str
    database: str
    superuser: bool
    may_create_roles: bool
    owns_database: bool
    server_version: int


def caller(connection: psycopg.Connection[Any]) -> Caller:
    row = connection.execute(
        "SELECT current_user, current_database(), r.rolsuper, r.rolcreaterole,"
        " d.datdba = r.oid, current_setting('server_version_num')::int"
        " FROM pg_roles r, pg_database d"
        " WHERE r.rolname = current_user AND d.datname = current_database()"
    ).fetchone()
    if row is None:  # cannot happen for a connected role; refuse rather than guess
        raise ClassAdminError("cannot tell which role this connection is")
    return Caller(str(row[0]), str(row[1]), bool(row[2]), bool(row[3]), bool(row[4]), int(row[5]))


def init_refusal(who: Caller) -> str | None:
    """Why this role may not set the class up, or None: it must own the database (or be a
    superuser) and be allowed to create roles."""
    if not (who.owns_database or who.superuser):
        return (
            f"the role {who.role!r} does not own the database {who.database!r}: run class init "
            "as its owner (ALTER DATABASE ... OWNER TO that role)"
        )
    if not (who.may_create_roles or who.superuser):
        return (
            f"the role {who.role!r} may not create roles: a superuser gives it "
            f"CREATEROLE (ALTER ROLE {who.role} CREATEROLE)"
        )
    return None


@dataclass(frozen=True)
class InitDone:
    already_set_up: bool
    said: list[str]  # what was done, a line each, to print


def init_class(connection: psycopg.Connection[Any], schema: str = CLASS_SCHEMA) -> InitDone:
    """Set the class up in the connected database (in `schema`), or bring it forward:
    idempotent."""
    who = caller(connection)
    refusal = init_refusal(who)
    if refusal:
        raise ClassAdminError(refusal)
    roles = class_roles(who.database)
    said: list[str] = []
    for group in (roles.students, roles.instructors):
        said.append(_make_group(connection, group))
    _student_settings(connection, roles.students, who.server_version, database=None)
    said.append(f"student sessions bounded: {', '.join(_settings_said(who.server_version))}")
    said += _close_database(connection, who, roles)
    # Migrations wait for the tables' locks only so long: a student's open transaction
    # cannot hold class init up for good.
    connection.execute(sql.SQL("SET lock_timeout = {}").format(sql.Literal(MIGRATION_LOCK_TIMEOUT)))
    done = set_up_class(connection, roles, schema)
    _no_functions_for_public(connection, schema)
    already = done.version_before > 0
    if already and done.version_after == done.version_before:
        said.append(f"the class is already set up (schema {done.version_after})")
    elif already:
        said.append(
            f"the class is already set up; migrated schema {done.version_before} to "
            f"{done.version_after}"
        )
    else:
        said.append(f"created schema {schema} and its tables (schema {done.version_after})")
    return InitDone(already, said)


def _make_group(connection: psycopg.Connection[Any], group: str) -> str:
    row = connection.execute(
        "SELECT rolcanlogin FROM pg_roles WHERE rolname = %s", (group,)
    ).fetchone()
    if row is None:
        connection.execute(sql.SQL("CREATE ROLE {} NOLOGIN").format(sql.Identifier(group)))
        return f"created group role {group}"
    if row[0]:
        raise ClassAdminError(
            f"the role {group!r} exists and can log in: it is not a group class init made; "
            "rename or drop it first"
        )
    return f"group role {group} exists"


def _settings_said(server_version: int) -> list[str]:
    return [f"{name} {value}" for name, value in _student_settings_for(server_version).items()]


def _student_settings_for(server_version: int) -> dict[str, str]:
    settings = dict(STUDENT_SETTINGS)
    if server_version >= IDLE_SESSION_TIMEOUT_SINCE:
        settings[IDLE_SESSION_TIMEOUT[0]] = IDLE_SESSION_TIMEOUT[1]
    return settings


def _student_settings(
    connection: psycopg.Connection[Any], role: str, server_version: int, database: str | None
) -> None:
    where = sql.SQL(" IN DATABASE {}").format(sql.Identifier(database)) if database else sql.SQL("")
    for name, value in _student_settings_for(server_version).items():
        connection.execute(
            sql.SQL("ALTER ROLE {}{} SET {} = {}").format(
                sql.Identifier(role), where, sql.Identifier(name), sql.Literal(value)
            )
        )


def _close_database(
    connection: psycopg.Connection[Any], who: Caller, roles: ClassRoles
) -> list[str]:
    """Nobody else connects, nobody creates anything outside the class's own schema."""
    database = sql.Identifier(who.database)
    groups = sql.SQL(", ").join(map(sql.Identifier, (roles.students, roles.instructors)))
    connection.execute(
        sql.SQL("REVOKE CONNECT, CREATE, TEMPORARY ON DATABASE {} FROM PUBLIC").format(database)
    )
    connection.execute(sql.SQL("GRANT CONNECT ON DATABASE {} TO {}").format(database, groups))
    said = [f"only {roles.students} and {roles.instructors} may connect; PUBLIC may not create"]
    public = connection.execute("SELECT 1 FROM pg_namespace WHERE nspname = 'public'").fetchone()
    if public is not None:
        try:
            with connection.transaction():
                connection.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC")
            said.append("PUBLIC may not create in schema public")
        except psycopg.errors.InsufficientPrivilege:
            # PostgreSQL 14 and older: schema public belongs to the bootstrap superuser.
            said.append(
                "warning: could not revoke CREATE on schema public (it is not this role's): "
                "a superuser runs REVOKE CREATE ON SCHEMA public FROM PUBLIC"
            )
    return said


def _no_functions_for_public(connection: psycopg.Connection[Any], schema: str) -> None:
    """PostgreSQL lets PUBLIC execute every new function: not those in the class's schema,
    and not those this role makes later in this database. (Default privileges per schema can
    only add to the global ones, so the revoke for later functions is the global one; it holds
    in this database only.)"""
    connection.execute(
        sql.SQL("REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA {} FROM PUBLIC").format(
            sql.Identifier(schema)
        )
    )
    connection.execute("ALTER DEFAULT PRIVILEGES REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC")


# -- students -----------------------------------------------------------------------------------


def _class_of(connection: psycopg.Connection[Any]) -> tuple[Caller, ClassRoles]:
    """The caller and the class's roles; refused before class init has made them."""
    who = caller(connection)
    roles = class_roles(who.database)
    made = connection.execute(
        "SELECT count(*) FROM pg_roles WHERE rolname = %s", (roles.students,)
    ).fetchone()
    if not made or not made[0]:
        raise ClassAdminError(
            f"the database {who.database!r} has no class yet: run `quizapp class init` first"
        )
    return who, roles


def _student_name_problem(name: str, roles: ClassRoles, who: Caller) -> str | None:
    problem = student_problem(name)
    if problem:
        return f"the student id {name!r} {problem}"
    if name.lower().startswith("pg_"):
        return f"the student id {name!r} starts with pg_, which PostgreSQL keeps for itself"
    if name in (roles.students, roles.instructors, who.role):
        return f"{name!r} is not a student's name here: it is one of the class's own roles"
    return None


def _is_student(connection: psycopg.Connection[Any], name: str, roles: ClassRoles) -> bool:
    """Whether `name` is (or was, before remove-student) a student of this class: a direct
    member of the student group, or a role add-student made here. Never a superuser."""
    row = connection.execute(
        "SELECT NOT r.rolsuper AND (EXISTS (SELECT 1 FROM pg_auth_members m"
        "   JOIN pg_roles g ON g.oid = m.roleid WHERE g.rolname = %s AND m.member = r.oid)"
        " OR shobj_description(r.oid, 'pg_authid') = %s)"
        " FROM pg_roles r WHERE r.rolname = %s",
        (roles.students, STUDENT_COMMENT.format(database=_database(connection)), name),
    ).fetchone()
    return bool(row and row[0])


def _database(connection: psycopg.Connection[Any]) -> str:
    row = connection.execute("SELECT current_database()").fetchone()
    return str(row[0]) if row else ""


def _role_exists(connection: psycopg.Connection[Any], name: str) -> bool:
    return (
        connection.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (name,)).fetchone()
        is not None
    )


def add_student(connection: psycopg.Connection[Any], name: str, password: str) -> str:
    """Make `name` a login role in the student group, with `password` (only its SCRAM
    verifier reaches the server), or give an existing student of this class a new password.
    Returns what was done, in a line."""
    who, roles = _class_of(connection)
    problem = _student_name_problem(name, roles, who)
    if problem:
        raise ClassAdminError(problem)
    role = sql.Identifier(name)
    existed = _role_exists(connection, name)
    if existed and not _is_student(connection, name, roles):
        raise ClassAdminError(
            f"the role {name!r} exists and is not a student of this class: choose another name"
        )
    # The verifier is worked out here (libpq's PQencryptPasswordConn): the password itself
    # never travels, so no server log or pg_stat_activity can show it.
    verifier = connection.pgconn.encrypt_password(
        password.encode("utf-8"), name.encode("utf-8"), b"scram-sha-256"
    ).decode("ascii")
    with connection.transaction():
        if not existed:
            connection.execute(
                sql.SQL(
                    "CREATE ROLE {} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION"
                    " NOBYPASSRLS INHERIT CONNECTION LIMIT {}"
                ).format(role, sql.Literal(STUDENT_CONNECTION_LIMIT))
            )
        else:
            connection.execute(sql.SQL("ALTER ROLE {} LOGIN").format(role))
        connection.execute(sql.SQL("ALTER ROLE {} PASSWORD {}").format(role, sql.Literal(verifier)))
        connection.execute(sql.SQL("GRANT {} TO {}").format(sql.Identifier(roles.students), role))
        _student_settings(connection, name, who.server_version, database=who.database)
        connection.execute(
            sql.SQL("COMMENT ON ROLE {} IS {}").format(
                role, sql.Literal(STUDENT_COMMENT.format(database=who.database))
            )
        )
    if existed:
        return f"{name} is a student of {who.database}; their password is changed"
    return f"added student {name} to {who.database} (group {roles.students})"


def remove_student(connection: psycopg.Connection[Any], name: str) -> str:
    """Take the student's login and group away; their history rows stay."""
    who, roles = _class_of(connection)
    problem = _student_name_problem(name, roles, who)
    if problem:
        raise ClassAdminError(problem)
    if not _is_student(connection, name, roles):
        raise ClassAdminError(f"{name!r} is not a student of this class")
    role = sql.Identifier(name)
    with connection.transaction():
        connection.execute(
            sql.SQL("REVOKE {} FROM {}").format(sql.Identifier(roles.students), role)
        )
        connection.execute(sql.SQL("ALTER ROLE {} NOLOGIN PASSWORD NULL").format(role))
    return (
        f"removed student {name}: they can no longer sign in; their history rows are kept "
        "(the class report still counts them)"
    )


def list_students(connection: psycopg.Connection[Any]) -> list[tuple[str, bool]]:
    """The student group's members (name, may sign in), by name."""
    _who, roles = _class_of(connection)
    rows = connection.execute(
        "SELECT r.rolname, r.rolcanlogin FROM pg_auth_members m"
        " JOIN pg_roles g ON g.oid = m.roleid JOIN pg_roles r ON r.oid = m.member"
        " WHERE g.rolname = %s ORDER BY r.rolname",
        (roles.students,),
    ).fetchall()
    return [(str(name), bool(login)) for name, login in rows]


# -- the report ---------------------------------------------------------------------------------


def report_refusal(connection: psycopg.Connection[Any]) -> str | None:
    """Why this role may not read the class report, or None: only the database's owner (or a
    member of its role), a superuser, a role above row security or a member of the class's
    instructor group may."""
    who = caller(connection)
    instructors = class_roles(who.database).instructors
    row = connection.execute(
        "SELECT r.rolbypassrls OR pg_has_role(current_user, d.datdba, 'MEMBER')"
        " OR coalesce((SELECT pg_has_role(current_user, g.oid, 'MEMBER')"
        "              FROM pg_roles g WHERE g.rolname = %s), false)"
        " FROM pg_roles r, pg_database d"
        " WHERE r.rolname = current_user AND d.datname = current_database()",
        (instructors,),
    ).fetchone()
    if who.superuser or (row is not None and row[0]):
        return None
    return (
        f"the role {who.role!r} may not read the class report: it is for the database's "
        f"owner and the group {instructors}"
    )


def server_message(exc: psycopg.Error) -> str:
    """The server's words, in one line."""
    return one_line(str(exc))
