"""A class's student roles, made as `quizapp class add-student` makes them."""

from __future__ import annotations

import uuid


def add_student(admin_url: str, name: str, password: str) -> None:
    """A student's own role: LOGIN with `password` and the class's student group, nothing
    else (quizapp/classroom/roles.py)."""
    from quizapp.classroom import roles
    from quizapp.srs.store.postgres.store import connect

    with connect(admin_url) as admin:
        roles.add_student(admin, name, password)


def unique_name(prefix: str) -> str:
    """A role name no other test of the session uses (roles belong to the whole cluster)."""
    return f"{prefix}_{uuid.uuid4().hex[:6]}"
