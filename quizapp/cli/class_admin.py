"""`quizapp class init | add-student | remove-student | list-students`: setting a class up on
PostgreSQL from the shell, as the role that owns the class's database. The SQL:
quizapp/classroom/roles.py. No torch, no textual.

Misuse and refusals are one line and exit 2; a server that cannot be reached or refuses a
statement for its own reasons is one line and exit 1. A URL is only ever printed redacted.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from quizapp.bank.literal import error_line, terminal_safe

if TYPE_CHECKING:
    import psycopg

ADMIN_COMMANDS = ("init", "add-student", "remove-student", "list-students")
GENERATED_PASSWORD_BYTES = 18  # token_urlsafe: 24 characters, 144 bits
DB_HELP = (
    "the class's postgresql:// URL, connecting as the database's owner (default: quizapp's "
    "own --db, else $QUIZAPP_DB, else db in config.toml)"
)


def add_class_admin_commands(actions: argparse._SubParsersAction) -> None:
    """The set-up commands, beside `class report` under `quizapp class`."""
    init = actions.add_parser(
        "init",
        help="set the class up: group roles, schema, tables and privileges (idempotent)",
        description="Run as the role that owns the database (and may create roles). Makes the "
        "group roles <db>_students and <db>_instructors, the schema and its tables, closes the "
        "database to every other role, and bounds a student's sessions. A second run applies "
        "pending migrations only.",
    )
    add = actions.add_parser(
        "add-student",
        help="give a student a login role in the class",
        description="Make NAME a login role in the student group, and nothing else. The "
        "password comes from --password-file, else a prompt when stdin is a terminal, else "
        "one is generated and printed once. An existing student of the class gets a new "
        "password.",
    )
    add.add_argument("name", metavar="NAME", help="the student's id (also their role's name)")
    add.add_argument(
        "--password-file",
        metavar="F",
        type=Path,
        help="read the password from the first line of F (never give it on the command line)",
    )
    remove = actions.add_parser(
        "remove-student",
        help="take a student's login away (their history is kept)",
        description="NAME can no longer sign in and leaves the student group. Their history "
        "rows stay, and the class report still counts them.",
    )
    remove.add_argument("name", metavar="NAME", help="the student's id")
    actions.add_parser(
        "list-students",
        help="the class's students",
        description="The members of the student group, one a line.",
    )
    for command in (init, add, remove, actions.choices["list-students"]):
        # No default of its own: it would overwrite `quizapp --db X class init`'s X.
        command.add_argument("--db", metavar="URL", help=DB_HELP, default=argparse.SUPPRESS)


def _fail(command: str, message: object, code: int) -> int:
    print(error_line(f"quizapp class {command}", message), file=sys.stderr)
    return code


def class_url(args: argparse.Namespace) -> tuple[str, str] | tuple[None, str]:
    """(the URL, "") or (None, why it cannot be used)."""
    from quizapp.cli.history_option import db_given, postgres_url_problem
    from quizapp.srs.config import ConfigError, load_settings
    from quizapp.srs.store.history import is_postgres_url, redacted

    try:
        settings = load_settings()
    except ConfigError as exc:
        return None, str(exc)
    given, source = db_given(args, settings)
    if not given:
        return None, "name the class's database: --db postgresql://owner@host/db"
    if not is_postgres_url(given):
        return None, f"{source} {given!r} is not a postgresql:// URL: a class lives on PostgreSQL"
    url = given.strip()
    problem = postgres_url_problem(url)
    if problem:
        return None, f"{source} {redacted(url)}: {problem}"
    return url, ""


def run_class_admin(args: argparse.Namespace) -> int:
    command = args.class_command
    url, problem = class_url(args)
    if url is None:
        return _fail(command, problem, 2)
    password, generated = None, False
    if command == "add-student":
        from quizapp.srs.store.history import student_problem

        name_problem = student_problem(args.name)
        if name_problem:
            return _fail(command, f"the student id {args.name!r} {name_problem}", 2)
        password, problem = _password(args.password_file)
        if password is None:
            return _fail(command, problem, 2)
        generated = args.password_file is None and not sys.stdin.isatty()
    import psycopg

    from quizapp.classroom.roles import ClassAdminError
    from quizapp.srs.store.postgres.store import class_schema, connect
    from quizapp.srs.store.sqlite.history_file import HistoryError
    from quizapp.srs.store.url_redaction import redacted_message

    try:
        with connect(url) as connection:
            return _run(
                command,
                args,
                connection,
                password,
                show_password=generated,
                schema=class_schema(url),
            )
    except HistoryError as exc:
        return _fail(command, exc, 1)
    except ClassAdminError as exc:
        return _fail(command, redacted_message(str(exc), url), exc.status)
    except psycopg.errors.InsufficientPrivilege as exc:
        return _fail(command, _said(exc, url), 2)
    except psycopg.Error as exc:
        return _fail(command, _said(exc, url), 1)


def _said(exc: Exception, url: str) -> str:
    from quizapp.srs.store.history import one_line
    from quizapp.srs.store.url_redaction import redacted, redacted_message

    return f"{redacted(url)}: {redacted_message(one_line(str(exc)), url)}"


def _run(
    command: str,
    args: argparse.Namespace,
    connection: psycopg.Connection[Any],
    password: str | None,
    *,
    show_password: bool,
    schema: str,
) -> int:
    from quizapp.classroom import roles

    if command == "init":
        done = roles.init_class(connection, schema)
        for line in done.said:
            print(terminal_safe(line))
    elif command == "add-student":
        print(terminal_safe(roles.add_student(connection, args.name, password or "")))
        if show_password:
            # Generated: shown this once, never stored anywhere but as the server's verifier.
            print(f"password for {terminal_safe(args.name)} (shown once): {password}")
    elif command == "remove-student":
        print(terminal_safe(roles.remove_student(connection, args.name)))
    else:
        students = roles.list_students(connection)
        for name, may_sign_in in students:
            print(terminal_safe(name) + ("" if may_sign_in else "  (cannot sign in)"))
        if not students:
            print("no students yet: quizapp class add-student NAME", file=sys.stderr)
    return 0


def _password(file: Path | None) -> tuple[str, str] | tuple[None, str]:
    """(the password, "") or (None, why there is none). Never from the command line."""
    import secrets

    if file is not None:
        try:
            with file.open(encoding="utf-8") as text:
                first = text.readline().rstrip("\r\n")
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else "not text"
            return None, f"--password-file {str(file)!r} cannot be read: {reason}"
        if not first:
            return None, f"--password-file {str(file)!r}: its first line is empty"
        return first, ""
    if sys.stdin.isatty():
        import getpass

        typed = getpass.getpass("student's password: ")
        if not typed:
            return None, "the password is empty"
        if getpass.getpass("again: ") != typed:
            return None, "the two passwords differ"
        return typed, ""
    return secrets.token_urlsafe(GENERATED_PASSWORD_BYTES), ""
