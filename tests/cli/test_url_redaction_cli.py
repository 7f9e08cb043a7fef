"""A class store's password, in its URL's user info or its query, never reaches the terminal:
not when the server cannot be reached, not when libpq cannot read the URL."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

pytest.importorskip("psycopg")

# Port 1 on the loopback: nothing listens there, so the connection is refused at once and
# nothing off this machine is ever reached.
UNREACHABLE = "postgresql://ada:s3cret@127.0.0.1:1/x?password=s3cret"
# libpq refuses the "%zz" and quotes the token it choked on: the password itself.
UNREADABLE = "postgresql://ada:s3cret%zz@127.0.0.1:1/x?sslmode=disable&password=s3cret%zz"


def quizapp(tmp_path: Path, *args: str, db_in_environment: str | None = None):
    environment = {
        **os.environ,
        "QUIZAPP_CONFIG": str(tmp_path / "config.toml"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
    }
    environment.pop("QUIZAPP_DB", None)
    if db_in_environment is not None:
        environment["QUIZAPP_DB"] = db_in_environment
    return subprocess.run(
        [sys.executable, "-m", "quizapp", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
        env=environment,
    )


@pytest.mark.parametrize("url", [UNREACHABLE, UNREADABLE], ids=["unreachable", "unreadable"])
@pytest.mark.parametrize(
    "command",
    [
        ("class", "report"),
        ("stats", "--student", "ada"),
        ("forecast", "--student", "ada"),
        ("optimize", "--student", "ada"),
    ],
    ids=lambda command: command[0],
)
def test_no_command_prints_the_password(tmp_path: Path, url: str, command: tuple[str, ...]):
    result = quizapp(tmp_path, "--db", url, *command)
    said = result.stdout + result.stderr
    assert result.returncode == 1, said
    assert "s3cret" not in said
    # The URL is still named, so the user can tell which one failed.
    assert "postgresql://ada:***@127.0.0.1:1/x?" in said and "password=***" in said
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in said


def test_a_url_from_the_environment_is_masked_too(tmp_path: Path):
    result = quizapp(tmp_path, "stats", "--student", "ada", db_in_environment=UNREADABLE)
    said = result.stdout + result.stderr
    assert result.returncode == 1 and "QUIZAPP_DB postgresql://ada:***@" in said
    assert "s3cret" not in said
