"""Connecting to a class's PostgreSQL database: the schema pinned, the class checked.

The class lives in its own schema (`CLASS_SCHEMA`, or the one schema a URL names with
`options=-csearch_path=NAME`, as the tests do: never a list, never `public`), and every
connection the app opens pins `search_path` to it (then pg_temp), so nothing another role made
in `public` or elsewhere shadows the app's tables or functions (CVE-2018-1058, PostgreSQL's
"secure schema usage pattern").

The app never sets a class up (`quizapp class init`, quizapp/srs/store/postgres/setup.py, does): a database
without one, a role that may not use it, pending migrations (applied only when the connected
role owns the schema, under a lock timeout) and a newer schema are each a `HistoryError` whose
one line names the URL (without its password).
"""

from __future__ import annotations

import shlex
from typing import Any

import psycopg

from quizapp.srs.store.history import one_line, redacted
from quizapp.srs.store.postgres.migrate import migrate, pin_schema, refuse_newer, schema_version
from quizapp.srs.store.postgres.schema import CLASS_SCHEMA, SCHEMA_VERSION
from quizapp.srs.store.sqlite.history_file import HistoryError
from quizapp.srs.store.url_redaction import redacted_message

CONNECT_TIMEOUT_S = 10
_RESERVED_SCHEMAS = ("public", "$user", "pg_temp", "information_schema")
_ROLES_RECORDED = 5  # from this step on the class knows its group roles (class_roles)


def class_schema(url: str) -> str:
    """The schema the class lives in: the one a URL names (`options=-csearch_path=NAME`, one
    schema, never a list or `public`), else `CLASS_SCHEMA`."""
    try:
        options = psycopg.conninfo.conninfo_to_dict(url).get("options") or ""
    except psycopg.Error:
        return CLASS_SCHEMA  # connecting says what is wrong with the URL
    words = shlex.split(str(options))
    named = [
        word.split("=", 1)[1]
        for word, before in zip(words, ["", *words], strict=False)
        if word.split("=", 1)[0] in ("-csearch_path", "--search_path", "--search-path")
        or (before == "-c" and word.startswith("search_path="))
    ]
    if not named:
        return CLASS_SCHEMA
    schema = named[-1].strip()
    if schema.startswith('"') and schema.endswith('"') and len(schema) > 1:
        schema = schema[1:-1]
    if (
        not schema
        or "," in schema
        or schema.lower() in _RESERVED_SCHEMAS
        or schema.startswith("pg_")
    ):
        raise HistoryError(
            f"{redacted(url)}: the URL's search_path must name one schema of the class's own,"
            f" not {named[-1]!r}"
        )
    return schema


def connect(url: str) -> psycopg.Connection[Any]:
    """A connection in autocommit mode (we open every transaction ourselves), its search_path
    pinned to the class's schema alone (then pg_temp)."""
    schema = class_schema(url)
    try:
        connection = psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S)
    except psycopg.Error as exc:
        # libpq's message can quote the URL, or the part it could not read: its password.
        message = redacted_message(one_line(str(exc)), url)
        raise HistoryError(f"{redacted(url)} cannot be reached: {message}") from exc
    try:
        pin_schema(connection, schema)
    except BaseException:
        connection.close()
        raise
    return connection


def require_class(connection: psycopg.Connection[Any], where: str, *, upgrade: bool) -> None:
    """Refuse, in one line, a database without the class, a role that may not use it, an
    older schema (brought forward when `upgrade` and the connected role owns the schema, with
    the privileges `quizapp class init` recorded) and a newer one."""
    row = connection.execute(
        "SELECT n.nspname, has_schema_privilege(n.oid, 'USAGE'),"
        " pg_has_role(current_user, n.nspowner, 'MEMBER'), current_user"
        " FROM pg_namespace n WHERE n.nspname = current_setting('quizapp.schema')"
    ).fetchone()
    if row is None or (row[1] and schema_version(connection) == 0):
        raise HistoryError(
            f"no quizapp class at {where}: the instructor runs `quizapp class init --db {where}`"
        )
    schema, usable, owns, role = row
    if not usable:
        raise HistoryError(
            f"the role {role!r} may not use the class at {where}: the instructor adds it "
            f"with `quizapp class add-student {role}`"
        )
    version = refuse_newer(connection, where)
    if version == SCHEMA_VERSION:
        return
    if not (upgrade and owns and version >= _ROLES_RECORDED):
        raise HistoryError(
            f"{where} holds an older quizapp class (schema {version} of {SCHEMA_VERSION}): "
            f"the instructor brings it up to date with `quizapp class init --db {where}`"
        )
    from quizapp.srs.store.postgres.setup import grant_recorded_privileges

    if migrate(connection, where):  # this instance upgraded: the new tables get the grants
        grant_recorded_privileges(connection, schema)


def require_history(connection: psycopg.Connection[Any], where: str) -> None:
    """Refuse, in one line, a database without a current quizapp class (nothing is changed)."""
    require_class(connection, where, upgrade=False)


def role_reach(connection: psycopg.Connection[Any]) -> tuple[str, bool]:
    """The connected role, and whether it sees every student's rows: the tables' owner (or a
    member of the owner's role), a superuser, a role above row security or one in the class's
    instructors group. Any other role sees only the rows whose student is its own name."""
    row = connection.execute(
        "SELECT current_user, r.rolsuper OR r.rolbypassrls"
        " OR pg_has_role(current_user, c.relowner, 'MEMBER')"
        " FROM pg_roles r, pg_class c WHERE r.rolname = current_user"
        " AND c.oid = 'reviews'::regclass"
    ).fetchone()
    if row is None:  # no catalogue row for the role: row security decides, as for a student
        role = connection.execute("SELECT current_user").fetchone()
        return (str(role[0]) if role else ""), False
    return str(row[0]), bool(row[1]) or _instructor(connection)


def _instructor(connection: psycopg.Connection[Any]) -> bool:
    """Whether the role is in the class's instructors group (a policy lets it read every row).
    Students may not read `class_roles`: asked first, so their query is never refused."""
    readable = connection.execute(
        "SELECT coalesce(has_table_privilege(to_regclass('class_roles'), 'SELECT'), false)"
    ).fetchone()
    if not (readable and readable[0]):
        return False
    row = connection.execute(
        "SELECT pg_has_role(current_user, r.oid, 'MEMBER') FROM class_roles c"
        " JOIN pg_roles r ON r.rolname = c.instructors ORDER BY c.id DESC LIMIT 1"
    ).fetchone()
    return bool(row and row[0])


def check_role(connection: psycopg.Connection[Any], student: str, where: str) -> None:
    """A role that is not the student's own, the tables' owner or above row security would
    see nothing and be refused every write: say so now, in one line."""
    role, sees_all = role_reach(connection)
    if role != student and not sees_all:
        raise HistoryError(
            f"{where}: the role {role!r} may only use its own history (student {role!r}), "
            f"not student {student!r}; give --student {role}"
        )
