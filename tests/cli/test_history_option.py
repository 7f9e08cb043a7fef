"""Where the history is: --db, QUIZAPP_DB, or db in config.toml; a postgresql:// URL is a
class's shared history and needs a student; anything else stays a SQLite path."""

from __future__ import annotations

import argparse
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from quizapp.cli.history_option import LocationProblem, history_location
from quizapp.srs.config import ConfigError, Settings, load_settings
from quizapp.srs.store.history import PostgresLocation, StudentToAsk

URL = "postgresql://ada@db.example.org:5432/class"


@pytest.fixture(autouse=True)
def no_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("QUIZAPP_DB", "QUIZAPP_STUDENT"):
        monkeypatch.delenv(name, raising=False)


def args(**given: object) -> argparse.Namespace:
    return argparse.Namespace(**{"db": None, "student": None, **given})


def test_a_path_stays_a_sqlite_path_and_the_student_is_ignored(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    assert history_location(args(db=str(path), student="ada"), None) == path
    assert history_location(args(db="postgresql.sqlite3"), None) == Path("postgresql.sqlite3")


@pytest.mark.parametrize("url", [URL, "postgres://ada@db.example.org/class", " " + URL])
def test_a_postgresql_url_with_a_student(url: str) -> None:
    found = history_location(args(db=url, student="ada"), None)
    assert found == PostgresLocation(url.strip(), "ada")


def test_the_argument_wins_over_the_environment_and_the_config(monkeypatch) -> None:
    monkeypatch.setenv("QUIZAPP_DB", "/elsewhere.sqlite3")
    monkeypatch.setenv("QUIZAPP_STUDENT", "bob")
    settings = Settings(db="/config.sqlite3", student="carol")
    assert history_location(args(db=URL, student="ada"), settings) == PostgresLocation(URL, "ada")
    assert history_location(args(), settings) == Path("/elsewhere.sqlite3")
    monkeypatch.delenv("QUIZAPP_DB")
    assert history_location(args(), settings) == Path("/config.sqlite3")
    found = history_location(args(), Settings(db=URL, student="carol"))
    assert found == PostgresLocation(URL, "bob")  # QUIZAPP_STUDENT before the config's


def test_no_student_is_refused_by_commands_and_asked_by_the_app() -> None:
    with pytest.raises(LocationProblem) as info:
        history_location(args(db="postgresql://ada:secret@db.example.org/class"), None)
    message = str(info.value)
    assert message.startswith("--db postgresql://ada:***@") and "--student NAME" in message
    assert "secret" not in message
    assert history_location(args(db=URL), None, ask_student=True) == StudentToAsk(URL)


def test_ask_student_asks_whatever_the_environment_and_the_config_say(monkeypatch) -> None:
    """What `quizapp serve` gives each browser tab on a shared store."""
    monkeypatch.setenv("QUIZAPP_STUDENT", "bob")
    settings = Settings(db=URL, student="carol")
    asked = history_location(args(ask_student=True), settings, ask_student=True)
    assert asked == StudentToAsk(URL)
    with pytest.raises(LocationProblem, match="--student and --ask-student"):
        history_location(args(student="ada", ask_student=True), settings, ask_student=True)
    path = history_location(args(db="h.sqlite3", ask_student=True), settings, ask_student=True)
    assert path == Path("h.sqlite3")  # a local history has no student to ask for


@pytest.mark.parametrize(
    ("student", "why"),
    [("", "empty"), ("a\x1bb", "control character"), ("x" * 64, "63 bytes"), (" ada", "space")],
)
def test_a_bad_student_is_one_line_naming_where_it_came_from(student: str, why: str) -> None:
    with pytest.raises(LocationProblem) as info:
        history_location(args(db=URL, student=student or " "), None)
    assert str(info.value).startswith("--student") and "\n" not in str(info.value)
    if student:
        assert why in str(info.value)


def test_a_url_libpq_cannot_read_is_one_line() -> None:
    with pytest.raises(LocationProblem) as info:
        history_location(args(db="postgresql://ada@db.example.org/class?nonsense=1"), None)
    assert str(info.value).startswith("--db ") and "nonsense" in str(info.value)


def test_config_takes_db_and_a_checked_student(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text(f'db = "{URL}"\nstudent = "ada"\n')
    assert (load_settings(config).db, load_settings(config).student) == (URL, "ada")
    config.write_text('student = "a\\u0007b"\n')
    with pytest.raises(ConfigError, match="control character"):
        load_settings(config)


# -- the commands on PostgreSQL ---------------------------------------------------------------


def test_stats_reads_one_students_history(run_cli, pg_url: str) -> None:
    from quizapp.srs.memory.scheduling import Rating, make_scheduler
    from quizapp.srs.store.open_history import open_writer

    for student, answers in (("ada", 3), ("bob", 1)):
        with open_writer(PostgresLocation(pg_url, student)) as store:
            for i in range(answers):
                store.record_answer(
                    question_id=f"q{i}",
                    deck_id="d",
                    topic="t",
                    rating=Rating.Good,
                    correct=True,
                    when=datetime(2026, 1, 1, 9, i, tzinfo=UTC),
                    duration_ms=1000,
                    kind="drill",
                    scheduler=make_scheduler(),
                )
    result = run_cli("stats", "--json", "--db", pg_url, "--student", "ada")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["totals"]["reviews"] == 3
    refused = run_cli("stats", "--db", pg_url)
    assert refused.returncode == 1 and "--student NAME" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1


def test_an_unreachable_server_is_one_line_and_exit_1(run_cli, postgres_server) -> None:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    for command in (["stats"], ["forecast"], ["optimize", "--reset"]):
        result = run_cli(
            *command, "--db", f"postgresql://ada@127.0.0.1:{port}/class", "--student", "ada"
        )
        assert result.returncode == 1, (command, result.stderr)
        assert f"127.0.0.1:{port}/class" in result.stderr and "Traceback" not in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
