"""The class schema's version and its migrations: pinning a connection to the schema,
reading its version, and bringing it forward one step at a time under a lock.

Below both the connection checks (quizapp/srs/store/postgres/connect.py) and the instructor's set-up
(quizapp/srs/store/postgres/setup.py), which each migrate.
"""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg import sql

from quizapp.srs.store.postgres.schema import MIGRATIONS, SCHEMA_VERSION
from quizapp.srs.store.sqlite.history_file import HistoryError

MIGRATION_LOCK_TIMEOUT = "5s"  # a student's transaction in the way fails the upgrade, not stalls it
MIGRATION_LOCK = "SELECT pg_advisory_xact_lock(hashtext('quizapp schema ' || current_schema()))"


def pin_schema(connection: psycopg.Connection[Any], schema: str) -> None:
    connection.execute(sql.SQL("SET search_path = {}, pg_temp").format(sql.Identifier(schema)))
    connection.execute("SELECT set_config('quizapp.schema', %s, false)", (schema,))


def schema_version(db: psycopg.Connection[Any]) -> int:
    if db.execute("SELECT to_regclass('schema_version')").fetchone()[0] is None:  # type: ignore[index]
        return 0
    row = db.execute("SELECT max(version) FROM schema_version").fetchone()
    return int(row[0] or 0) if row else 0


def migrate(db: psycopg.Connection[Any], where: str, target: int = SCHEMA_VERSION) -> int:
    """Bring the schema forward one step at a time, each step in its own transaction, up to
    `target`; the number of steps this call applied. A lock another session holds fails the
    step after MIGRATION_LOCK_TIMEOUT."""
    version = refuse_newer(db, where)
    applied = 0
    for step in range(version + 1, target + 1):
        try:
            with db.transaction():
                db.execute(f"SET LOCAL lock_timeout = '{MIGRATION_LOCK_TIMEOUT}'")  # type: ignore[arg-type]
                db.execute(MIGRATION_LOCK)  # another instance may be migrating right now
                db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
                if schema_version(db) >= step:
                    continue
                for statement in MIGRATIONS[step]:
                    db.execute(statement)  # type: ignore[arg-type]  # our own constant SQL
                db.execute("INSERT INTO schema_version (version) VALUES (%s)", (step,))
                applied += 1
        except psycopg.errors.LockNotAvailable as exc:
            raise HistoryError(
                f"{where}: the class's tables are in use and could not be locked within "
                f"{MIGRATION_LOCK_TIMEOUT} to upgrade them (step {step}); try again when no "
                "student is writing"
            ) from exc
    return applied


def refuse_newer(db: psycopg.Connection[Any], where: str) -> int:
    version = schema_version(db)
    if version > SCHEMA_VERSION:
        raise HistoryError(
            f"{where} was written by a newer quizapp (schema {version}; this one reads up to "
            f"{SCHEMA_VERSION}); upgrade quizapp to use it"
        )
    return version
