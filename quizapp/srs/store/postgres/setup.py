"""Setting a class up on PostgreSQL: the class schema, its tables and who may do what in them.

`quizapp class init` (quizapp/classroom) creates the group roles and then calls `set_up_class`;
the app itself never sets a class up. The privileges, granted again on every call:
- PUBLIC: nothing on the schema, its tables, sequences or functions.
- the students group: USAGE on the schema; SELECT and INSERT on the tables a student writes
  (row-level security: their own rows only), SELECT on schema_version; no UPDATE, DELETE,
  TRUNCATE or CREATE anywhere (corrections are new rows: quizapp/srs/store/postgres/schema.py).
- the instructors group: USAGE and SELECT on every table, and a policy that shows it every
  student's rows (a non-superuser cannot be given BYPASSRLS).
The schema and tables belong to whoever calls it (the instructor), who sees every row as
their owner. The group roles are recorded (`class_roles`), so that the owner's app, bringing
the schema forward later, grants the new tables to the same groups.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg import sql

from quizapp.srs.store.postgres.migrate import (
    MIGRATION_LOCK,
    MIGRATION_LOCK_TIMEOUT,
    migrate,
    pin_schema,
    schema_version,
)
from quizapp.srs.store.postgres.schema import CLASS_SCHEMA, CLASS_TABLES, PER_STUDENT_TABLES
from quizapp.srs.store.sqlite.history_file import HistoryError

INSTRUCTORS_POLICY = "instructors_read"


@dataclass(frozen=True)
class ClassRoles:
    """The two group roles a class's privileges are granted to (made by `class init`)."""

    students: str
    instructors: str


@dataclass(frozen=True)
class SetUp:
    version_before: int  # 0: there was no class here yet
    version_after: int


def set_up_class(
    connection: psycopg.Connection[Any], roles: ClassRoles, schema: str = CLASS_SCHEMA
) -> SetUp:
    """Make `schema` (owned by the connected role) and its tables, or bring them forward, and
    grant `roles` their privileges. Idempotent: a second call applies pending migrations and
    grants the same again. `connection` is in autocommit mode."""
    _refuse_foreign_schema(connection, schema)
    connection.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(schema)))
    pin_schema(connection, schema)
    before = schema_version(connection)
    migrate(connection, schema)
    with connection.transaction():
        newest = connection.execute(
            "SELECT students, instructors FROM class_roles ORDER BY id DESC LIMIT 1"
        ).fetchone()
        if newest != (roles.students, roles.instructors):
            connection.execute(
                "INSERT INTO class_roles (students, instructors) VALUES (%s, %s)",
                (roles.students, roles.instructors),
            )
    grant_privileges(connection, roles, schema)
    return SetUp(before, schema_version(connection))


def _refuse_foreign_schema(connection: psycopg.Connection[Any], schema: str) -> None:
    row = connection.execute(
        "SELECT pg_get_userbyid(nspowner), pg_has_role(current_user, nspowner, 'MEMBER'),"
        " current_user FROM pg_namespace WHERE nspname = %s",
        (schema,),
    ).fetchone()
    if row is not None and not row[1]:
        raise HistoryError(
            f"the schema {schema!r} belongs to the role {row[0]!r}, not {row[2]!r}: "
            f"set the class up as {row[0]!r}"
        )


def grant_recorded_privileges(connection: psycopg.Connection[Any], schema: str) -> None:
    """`grant_privileges` to the groups `set_up_class` recorded last (after an upgrade)."""
    row = connection.execute(
        "SELECT students, instructors FROM class_roles ORDER BY id DESC LIMIT 1"
    ).fetchone()
    if row is not None:
        grant_privileges(connection, ClassRoles(*row), schema)


def grant_privileges(connection: psycopg.Connection[Any], roles: ClassRoles, schema: str) -> None:
    """Everything the module's docstring says, in one transaction: first everything taken
    from PUBLIC and the two groups, then exactly what each may do."""
    name, students, instructors = (
        sql.Identifier(schema),
        sql.Identifier(roles.students),
        sql.Identifier(roles.instructors),
    )
    everyone = sql.SQL("PUBLIC, {}, {}").format(students, instructors)
    statements = [
        sql.SQL("REVOKE ALL ON SCHEMA {} FROM {}").format(name, everyone),
        sql.SQL("REVOKE ALL ON ALL TABLES IN SCHEMA {} FROM {}").format(name, everyone),
        sql.SQL("REVOKE ALL ON ALL SEQUENCES IN SCHEMA {} FROM {}").format(name, everyone),
        sql.SQL("REVOKE ALL ON ALL FUNCTIONS IN SCHEMA {} FROM {}").format(name, everyone),
        # Functions the owner makes here later are not PUBLIC's to call either.
        sql.SQL(
            "ALTER DEFAULT PRIVILEGES IN SCHEMA {} REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC"
        ).format(name),
        sql.SQL("GRANT USAGE ON SCHEMA {} TO {}, {}").format(name, students, instructors),
        sql.SQL("GRANT SELECT ON ALL TABLES IN SCHEMA {} TO {}").format(name, instructors),
        sql.SQL("GRANT SELECT ON {} TO {}").format(sql.Identifier(CLASS_TABLES[0]), students),
    ]
    for table in PER_STUDENT_TABLES:
        statements += [
            sql.SQL("GRANT SELECT, INSERT ON {} TO {}").format(sql.Identifier(table), students),
            sql.SQL("DROP POLICY IF EXISTS {} ON {}").format(
                sql.Identifier(INSTRUCTORS_POLICY), sql.Identifier(table)
            ),
            sql.SQL("CREATE POLICY {} ON {} FOR SELECT TO {} USING (true)").format(
                sql.Identifier(INSTRUCTORS_POLICY), sql.Identifier(table), instructors
            ),
        ]
    try:
        with connection.transaction():
            connection.execute(f"SET LOCAL lock_timeout = '{MIGRATION_LOCK_TIMEOUT}'")  # type: ignore[arg-type]
            connection.execute(MIGRATION_LOCK)  # two grants at once would update the same rows
            for statement in statements:
                connection.execute(statement)
    except psycopg.errors.LockNotAvailable as exc:
        raise HistoryError(
            f"the class's tables in {schema!r} are in use and could not be locked within "
            f"{MIGRATION_LOCK_TIMEOUT} to grant privileges; try again when no student is writing"
        ) from exc
