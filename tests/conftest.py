from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

# pytest-xdist's workers export COLUMNS=80 and LINES=24, and Textual (through Rich) takes them
# over the real terminal's size: the app a test starts in tmux or a pty would draw at 80x24 in
# a 100x32 window. Every test sets the size it means.
for _name in ("COLUMNS", "LINES"):
    os.environ.pop(_name, None)
# Lint's computations get 10 s in all by default: on a runner busy with the other xdist worker
# (torch imported cold in each subprocess) a lint test could spend that and report
# `eval-budget` instead of what it checks. Tests of the budget pass theirs explicitly; the
# rest, and their subprocesses, run without one (QUIZAPP_EVAL_TIMEOUT, as a slow CI would).
os.environ["QUIZAPP_EVAL_TIMEOUT"] = "0"
# Some machines set PYTHONDONTWRITEBYTECODE=1, and uv installs packages without compiling them:
# there every process the suite starts (apps, CLIs, servers, each of hundreds) compiled torch
# and Textual from source again, and `import torch` took 2.9 s instead of 1.4. The suite's own
# processes keep the bytecode they compile, in the project's venv and checkout.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
# pytest-xdist runs one worker per core. torch's own pool of a thread per core in each worker
# (and in each app or CLI a test starts) oversubscribes them, and OpenMP's threads spin while
# they wait: the torch-heavy tests took twice as long. One intra-op thread each, unless set.
os.environ.setdefault("OMP_NUM_THREADS", "1")
CORPUS = Path(__file__).resolve().parent / "bank" / "corpus"


@pytest.fixture(autouse=True)
def own_cache_folder(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch):
    """Every test starts with an empty cache folder, which its subprocesses inherit: a result
    stored by another test (or by the user's own runs) must never answer its computations."""
    folder = tmp_path_factory.mktemp("cache")
    monkeypatch.setenv("QUIZAPP_CACHE_DIR", str(folder))
    monkeypatch.delenv("QUIZAPP_NO_CACHE", raising=False)
    return folder


@pytest.fixture
def run_cli():
    """Run `python -m quizapp ...` as a user would, returning the completed process."""

    def run(
        *args: str, timeout: float = 120, cwd: Path | None = None
    ) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "quizapp", *args],
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=cwd or REPO,
        )

    return run


@pytest.fixture
def utc_local_time() -> Iterator[None]:
    """Run with UTC as the local time zone (days start at UTC midnight), then restore it."""
    before = os.environ.get("TZ")
    os.environ["TZ"] = "UTC"
    time.tzset()
    yield
    if before is None:
        os.environ.pop("TZ", None)
    else:
        os.environ["TZ"] = before
    time.tzset()


# -- PostgreSQL (tests/postgres_server.py) ----------------------------------------------------


@pytest.fixture(scope="session")
def postgres_server():
    """A real PostgreSQL cluster for the session. Without the server binaries the tests skip
    with one line; under CI=true that is a failure: CI must run them."""
    from tests.postgres_server import running_server, server_binaries

    binaries = server_binaries()
    if binaries is None:
        message = "PostgreSQL server binaries not found (/usr/lib/postgresql/*/bin, QUIZAPP_PG_BIN)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)
    pytest.importorskip("psycopg", reason="psycopg is not installed")
    with running_server(binaries) as server:
        _class_database(server)
        yield server


@pytest.fixture
def pg_url(postgres_server, request: pytest.FixtureRequest) -> str:
    """A URL to a class set up in a fresh schema of the test database (`set_up_class`, by
    the superuser: the instructor), the schema named in the URL's search_path."""
    return _fresh_schema(postgres_server, request)


@pytest.fixture
def empty_pg_url(postgres_server, request: pytest.FixtureRequest) -> str:
    """A URL to a fresh schema with no class in it (nobody ran `quizapp class init`)."""
    return _fresh_schema(postgres_server, request, set_up=False)


@pytest.fixture
def student_role(postgres_server) -> Iterator[Callable[[str], str]]:
    """Make login roles in the class's students group, as `class add-student` would: give a
    name, get a unique role name back. Dropped at the end (roles are the cluster's)."""
    import uuid

    import psycopg

    from tests.postgres_server import STUDENTS_GROUP

    made: list[str] = []

    def make(name: str) -> str:
        role = f"{name}_{uuid.uuid4().hex[:6]}"
        with psycopg.connect(postgres_server.url(), autocommit=True) as admin:
            admin.execute(f'CREATE ROLE "{role}" LOGIN IN ROLE {STUDENTS_GROUP}')
        made.append(role)
        return role

    yield make
    if made:
        with psycopg.connect(postgres_server.url("quizapp_tests"), autocommit=True) as admin:
            admin.execute("DROP OWNED BY " + ", ".join(f'"{n}"' for n in made))
            for role in made:
                admin.execute(f'DROP ROLE "{role}"')


@pytest.fixture(scope="session")
def stoppable_postgres(postgres_server):
    """A second cluster of its own, for tests that stop it (`pg_ctl stop -m immediate`) and
    start it again on the same port and data folder: the shared one never goes away. Durable:
    a commit it acknowledged must survive the stop."""
    from tests.postgres_server import running_server

    with running_server(postgres_server.bin, durable=True) as server:
        _class_database(server)
        yield server


@pytest.fixture
def stoppable_pg_url(stoppable_postgres, request: pytest.FixtureRequest) -> Iterator[str]:
    """A fresh schema on `stoppable_postgres`; the server is running again afterwards."""
    yield _fresh_schema(stoppable_postgres, request)
    if stoppable_postgres.pg_ctl("status").returncode:
        stoppable_postgres.start()


def _class_database(server) -> None:
    """The test database, and the class's two group roles (made once per cluster)."""
    import psycopg

    from tests.postgres_server import INSTRUCTORS_GROUP, STUDENTS_GROUP

    with psycopg.connect(server.url(), autocommit=True) as admin:
        admin.execute("CREATE DATABASE quizapp_tests")
        for group in (STUDENTS_GROUP, INSTRUCTORS_GROUP):
            admin.execute(f"CREATE ROLE {group} NOLOGIN")


def _fresh_schema(server, request: pytest.FixtureRequest, *, set_up: bool = True) -> str:
    import re
    import uuid

    import psycopg

    from quizapp.srs.store.postgres.setup import ClassRoles, set_up_class
    from tests.postgres_server import INSTRUCTORS_GROUP, STUDENTS_GROUP

    schema = "t_" + re.sub(r"\W", "_", request.node.name)[:30].lower() + "_" + uuid.uuid4().hex[:8]
    with psycopg.connect(server.url("quizapp_tests"), autocommit=True) as admin:
        if set_up:
            set_up_class(admin, ClassRoles(STUDENTS_GROUP, INSTRUCTORS_GROUP), schema)
        else:
            admin.execute(f'CREATE SCHEMA "{schema}"')
    return server.url("quizapp_tests", options=f"-csearch_path%3D{schema}")
