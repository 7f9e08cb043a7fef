"""A student's credentials on a class store: checked by connecting to PostgreSQL as them.

The server never keeps its own list of students or passwords: a name and password are right
when PostgreSQL lets that role connect to the class's database with them. The session then
runs as that role, so row-level security, not the app, decides what it sees.
"""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

from quizapp.srs.store.history import student_problem

log = logging.getLogger("quizapp.serve")

# Long enough for a server on the same network to answer a password exchange; short, so a
# sign-in never hangs on a server that is away.
CONNECT_TIMEOUT_S = 5
# Bounds on what the sign-in form accepts, before anything reaches PostgreSQL.
NAME_MAX_CHARS = 63  # PostgreSQL's longest role name (in bytes: student_problem checks those)
PASSWORD_MAX_CHARS = 1024
# A URL's parameters that name a role or hold a password: the student's replace them.
_CREDENTIAL_PARAMETERS = frozenset({"user", "password", "passfile"})


def credentials_problem(name: str, password: str) -> str | None:
    """Why these can never sign in (too long, not a student id, no password), or None."""
    if len(name) > NAME_MAX_CHARS or len(password) > PASSWORD_MAX_CHARS:
        return "too long"
    if student_problem(name) is not None:
        return "not a student id"
    if not password:
        return "no password"
    return None


def student_url(store_url: str, student: str) -> str:
    """The store's URL with `student` as its user and no password in it (neither `user:pass@`
    nor `?password=`): the password travels apart, in PGPASSWORD."""
    parts = urlsplit(store_url)
    hosts = parts.netloc.rpartition("@")[2]
    query = [
        (key, value)
        for key, value in parse_qsl(parts.query, keep_blank_values=True)
        if key not in _CREDENTIAL_PARAMETERS
    ]
    netloc = f"{quote(student, safe='')}@{hosts}"
    return urlunsplit((parts.scheme, netloc, parts.path, urlencode(query), parts.fragment))


async def password_is_right(store_url: str, student: str, password: str) -> bool:
    """Whether PostgreSQL lets `student` connect to the store's database with `password`.

    Any refusal (an unknown role, a wrong password, a role without LOGIN) is False alike; a
    server that cannot be reached is False too, and logged without the password."""
    import psycopg

    try:
        connection: Any = await psycopg.AsyncConnection.connect(
            student_url(store_url, student),
            password=password,
            connect_timeout=CONNECT_TIMEOUT_S,
            autocommit=True,
        )
    except psycopg.OperationalError as exc:
        if not _refused_credentials(exc):
            log.warning("sign-in: the class store cannot be reached (%s)", type(exc).__name__)
        return False
    await connection.close()
    return True


def _refused_credentials(exc: Exception) -> bool:
    """PostgreSQL said no to the role or its password (rather than not answering)."""
    state = getattr(getattr(exc, "diag", None), "sqlstate", None)
    # 28P01: invalid password; 28000: invalid authorization (no such role, no LOGIN, or no
    # pg_hba line for it). Neither message is shown: they tell names apart.
    return state in ("28P01", "28000") or "authentication failed" in str(exc)
