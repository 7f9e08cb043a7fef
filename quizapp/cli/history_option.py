"""Where the review history is, from the command line, the environment and config.toml.

`--db`, else `QUIZAPP_DB`, else `db = "…"` in config.toml, else the user data folder's SQLite
file. A `postgresql://` (or `postgres://`) URL puts the history in PostgreSQL; anything else
stays a SQLite path exactly as before. On PostgreSQL the history is a student's: `--student`,
else `QUIZAPP_STUDENT`, else `student = "…"` in config.toml; the app asks when none is given,
the other commands refuse. On SQLite the student is implicit.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING

from quizapp.srs.store.history import (
    HistoryLocation,
    PostgresLocation,
    StudentToAsk,
    is_postgres_url,
    redacted,
    student_problem,
)

if TYPE_CHECKING:
    from quizapp.srs.config import Settings

STUDENT_HELP = (
    "whose history, on a PostgreSQL --db (default: $QUIZAPP_STUDENT, else student in config.toml)"
)


def add_student_option(group: argparse._ActionsContainer, **extra: object) -> None:
    group.add_argument("--student", metavar="NAME", help=STUDENT_HELP, **extra)  # type: ignore[arg-type]


class LocationProblem(ValueError):
    """One line naming the argument (or variable, or config key) that is wrong. `status` is
    the exit status: 2 for a value that can never be a history (a folder), else 1."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status


def history_location(
    args: argparse.Namespace, settings: Settings | None, *, ask_student: bool = False
) -> HistoryLocation | StudentToAsk:
    """The history these arguments name. `ask_student`: a PostgreSQL history without a
    student is a StudentToAsk (the app asks) rather than a LocationProblem. `--ask-student`
    (args.ask_student) leaves QUIZAPP_STUDENT and config.toml's student out: the app asks."""
    from quizapp.srs.store.paths import default_db_path

    given, source = db_given(args, settings)
    if getattr(args, "ask_student", False):
        # The one at the keyboard says who they are, whatever the environment or config.toml
        # say (a machine the students share).
        if getattr(args, "student", None):
            raise LocationProblem("--student and --ask-student contradict each other: give one")
        student, student_source = None, ""
        ask_student = True
    else:
        student, student_source = _first(
            (getattr(args, "student", None), "--student"),
            (os.environ.get("QUIZAPP_STUDENT"), "QUIZAPP_STUDENT"),
            (settings.student if settings else None, "student in config.toml"),
        )
    if student is not None:
        problem = student_problem(student)
        if problem:
            raise LocationProblem(f"{student_source} {student!r} {problem}")
    if given is None:
        return sqlite_path(str(default_db_path()), "")
    if not is_postgres_url(given):
        return sqlite_path(given, source)
    url = given.strip()
    url_problem = postgres_url_problem(url)
    if url_problem:
        raise LocationProblem(f"{source} {redacted(url)}: {url_problem}")
    if student is None:
        if ask_student:
            return StudentToAsk(url)
        raise LocationProblem(
            f"{source} {redacted(url)} is a shared history: say whose with --student NAME "
            '(or QUIZAPP_STUDENT, or student = "…" in config.toml)'
        )
    return PostgresLocation(url, student)


def db_given(args: argparse.Namespace, settings: Settings | None) -> tuple[str | None, str]:
    """The history's address as given, and where it was given (None: the default file)."""
    return _first(
        (getattr(args, "db", None), "--db"),
        (os.environ.get("QUIZAPP_DB"), "QUIZAPP_DB"),
        (settings.db if settings else None, _in_config("db")),
    )


def sqlite_path(given: str, source: str) -> Path:
    """The SQLite file `given` names. A folder is refused before anything opens it, naming
    where the value came from (--db, QUIZAPP_DB, db in the config file; "" for the default)
    and the value as it was written there."""
    path = Path(given).expanduser()
    if path.is_dir():
        said = f"{source} {given}" if source else f"the default history {given}"
        advice = "give the path of a file" if source else "give --db the path of a file"
        raise LocationProblem(f"{said} is a folder; {advice}", status=2)
    return path


def _in_config(key: str) -> str:
    """`key in <the config file's path>`: the settings the commands use are read from there."""
    from quizapp.srs.config import config_path

    return f"{key} in {config_path()}"


def _first(*candidates: tuple[str | None, str]) -> tuple[str | None, str]:
    for value, source in candidates:
        if value:
            return value, source
    return None, ""


def postgres_url_problem(url: str) -> str | None:
    """Why libpq would not read this URL, or None (nothing is connected to)."""
    try:
        from psycopg.conninfo import conninfo_to_dict
    except ImportError:
        return 'psycopg is not installed (pip install "psycopg[binary]")'
    import psycopg

    from quizapp.srs.store.history import one_line, redacted_message

    try:
        conninfo_to_dict(url)
    except psycopg.Error as exc:  # libpq may quote the token it could not read: the password
        return redacted_message(one_line(str(exc)), url)
    return None
