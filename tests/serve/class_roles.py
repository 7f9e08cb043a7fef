"""A class's student roles, made with plain SQL as the superuser until `quizapp class
add-student` lands: then this one function becomes a call to it."""

from __future__ import annotations

import uuid


def add_student(admin_url: str, name: str, password: str) -> None:
    """A student's own role: LOGIN with `password`, nothing else."""
    import psycopg
    from psycopg import sql

    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(
            sql.SQL("CREATE ROLE {} LOGIN PASSWORD {}").format(
                sql.Identifier(name), sql.Literal(password)
            )
        )


def unique_name(prefix: str) -> str:
    """A role name no other test of the session uses (roles belong to the whole cluster)."""
    return f"{prefix}_{uuid.uuid4().hex[:6]}"
