"""A class on a real PostgreSQL with password authentication, set up the way an instructor
does it: a superuser makes the instructor's role (LOGIN CREATEROLE, nothing more) and a database
it owns; the instructor runs `quizapp class init` and `class add-student` (subprocesses, as from
the shell). Used by the hostile-student suite and the class commands' tests.
"""

from __future__ import annotations

import contextlib
import glob
import os
import secrets
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from quizapp.srs.memory.scheduling import Rating, make_scheduler
from quizapp.srs.store.history import PostgresLocation
from quizapp.srs.store.postgres.schema import CLASS_SCHEMA
from tests.conftest import REPO
from tests.postgres_server import Server, _major, running_server, server_binaries

CLASS_DB = "klass"
SCHEDULER = make_scheduler(fuzz=False)
T0 = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)
OWNER_ROLE = "teacher"
CLI_TIMEOUT_S = 120


@dataclass
class ClassServer:
    server: Server
    owner_role: str
    owner_password: str
    folder: Path
    passwords: dict[str, str] = field(default_factory=dict)

    def url(self, role: str, password: str | None = None, **options: str) -> str:
        secret = password if password is not None else self.passwords[role]
        return self.server.url(CLASS_DB, role, secret, **options)

    def owner_url(self) -> str:
        return self.server.url(CLASS_DB, self.owner_role, self.owner_password)

    def owner(self) -> Any:
        import psycopg

        return psycopg.connect(self.owner_url(), autocommit=True)

    def connect_as(self, role: str, *, autocommit: bool = False) -> Any:
        """A student's own connection; without autocommit, every statement is in a
        transaction that is rolled back when the block ends in an error."""
        import psycopg

        return psycopg.connect(self.url(role), autocommit=autocommit)

    def location(self, role: str) -> PostgresLocation:
        # The class's schema named in the URL as well, until the store pins it itself.
        return PostgresLocation(self.url(role, options=f"-csearch_path%3D{CLASS_SCHEMA}"), role)

    def cli(self, *args: str, db: str | None = None) -> subprocess.CompletedProcess[str]:
        """`quizapp --db <owner's URL> <args>`, with no terminal on stdin."""
        return run_quizapp("--db", db or self.owner_url(), *args, home=self.folder)

    def add_student(self, name: str) -> subprocess.CompletedProcess[str]:
        password = secrets.token_urlsafe(12)
        file = self.folder / f"{name}.password"
        file.write_text(password + "\n")
        done = self.cli("class", "add-student", name, "--password-file", str(file))
        if done.returncode == 0:
            self.passwords[name] = password
        return done


def answer(store: Any, question_id: str) -> None:
    """One right answer, as the app records it."""
    store.record_answer(
        question_id=question_id,
        deck_id="deck",
        topic="attention",
        rating=Rating.Good,
        correct=True,
        when=T0,
        duration_ms=4000,
        kind="drill",
        scheduler=SCHEDULER,
    )


def run_quizapp(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    """`python -m quizapp ...` as a user would, with a config file of its own and no terminal
    on stdin (add-student then generates a password rather than prompting)."""
    env = {k: v for k, v in os.environ.items() if k not in ("QUIZAPP_DB", "QUIZAPP_STUDENT")}
    env["QUIZAPP_CONFIG"] = str(home / "config.toml")
    env["PYTHONPATH"] = str(REPO)
    return subprocess.run(
        [sys.executable, "-m", "quizapp", *args],
        capture_output=True,
        text=True,
        timeout=CLI_TIMEOUT_S,
        cwd=REPO,
        env=env,
        stdin=subprocess.DEVNULL,
        check=False,
    )


def newest_binaries() -> Path:
    """The newest PostgreSQL installed, or the test skips (fails under CI=true)."""
    pytest.importorskip("psycopg", reason="psycopg is not installed")
    binaries = server_binaries()
    if binaries is None:
        message = "PostgreSQL server binaries not found (/usr/lib/postgresql/*/bin, QUIZAPP_PG_BIN)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)
    return binaries


def oldest_binaries_up_to(major: int) -> Path | None:
    """The oldest installed PostgreSQL of version `major` or older, if any."""
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=_major):
        if 0 < _major(folder) <= major and (Path(folder) / "pg_ctl").is_file():
            return Path(folder)
    return None


@contextlib.contextmanager
def class_server_on(
    binaries: Path, *, students: tuple[str, ...] = (), init_as_superuser: bool = False
) -> Iterator[ClassServer]:
    """A fresh password-authenticated cluster with the class set up and `students` added."""
    import psycopg
    from psycopg import sql

    superuser_password = secrets.token_urlsafe(12)
    owner_password = secrets.token_urlsafe(12)
    with (
        running_server(binaries, password=superuser_password) as server,
        tempfile.TemporaryDirectory(prefix="quizapp-class-") as folder,
    ):
        with psycopg.connect(server.url(), autocommit=True) as superuser:
            superuser.execute(
                sql.SQL("CREATE ROLE {} LOGIN CREATEROLE PASSWORD {}").format(
                    sql.Identifier(OWNER_ROLE), sql.Literal(owner_password)
                )
            )
            superuser.execute(
                sql.SQL("CREATE DATABASE {} OWNER {}").format(
                    sql.Identifier(CLASS_DB), sql.Identifier(OWNER_ROLE)
                )
            )
        klass = ClassServer(server, OWNER_ROLE, owner_password, Path(folder))
        init_url = server.url(CLASS_DB) if init_as_superuser else None
        done = klass.cli("class", "init", db=init_url)
        assert done.returncode == 0, done.stderr
        for name in students:
            added = klass.add_student(name)
            assert added.returncode == 0, added.stderr
        yield klass
