"""Setting a class up on PostgreSQL: the class schema, its tables and who may do what in them.

`quizapp class init` (quizapp/classroom) creates the roles and then calls `set_up_class`; the
app itself never sets a class up. This first version only makes the schema and migrates; the
privileges (nothing for PUBLIC, SELECT and INSERT on their own rows for the student group,
reading for the instructor group) are the store's to fill in (issue 20).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg import sql

from quizapp.srs.pg_schema import CLASS_SCHEMA
from quizapp.srs.pg_store import migrate, schema_version


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
    grant `roles` their privileges. Idempotent: a second call applies pending migrations only."""
    connection.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(schema)))
    connection.execute(sql.SQL("SET search_path = {}").format(sql.Identifier(schema)))
    before = schema_version(connection)
    migrate(connection, schema)
    return SetUp(before, schema_version(connection))
