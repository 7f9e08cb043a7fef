"""A history that is a folder is refused in one line that names where the path came from:
`--db`, `QUIZAPP_DB`, or `db in <the config file>`, never a `--db` the user did not give."""

from __future__ import annotations

import argparse

import pytest

COMMANDS = (("optimize",), ("stats",), ("forecast",), ("drill",), ("class", "report"))


@pytest.fixture
def folder(tmp_path, monkeypatch: pytest.MonkeyPatch):
    """An empty config file and no QUIZAPP_DB, so each test sets the one source it means."""
    for name in ("QUIZAPP_DB", "QUIZAPP_STUDENT"):
        monkeypatch.delenv(name, raising=False)
    config = tmp_path / "config.toml"
    config.write_text("")
    monkeypatch.setenv("QUIZAPP_CONFIG", str(config))
    history = tmp_path / "histories"
    history.mkdir()
    return history


def _refusal(result, command: tuple[str, ...]) -> str:
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    prog = "quizapp" if command == ("drill",) else " ".join(("quizapp", *command))
    prefix = f"{prog}: error: "
    assert lines[0].startswith(prefix), lines[0]
    return lines[0].removeprefix(prefix)


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_a_folder_in_quizapp_db_is_named_as_quizapp_db(run_cli, folder, monkeypatch, command):
    monkeypatch.setenv("QUIZAPP_DB", str(folder))
    said = _refusal(run_cli(*command, timeout=60), command)
    assert said == f"QUIZAPP_DB {folder} is a folder; give the path of a file"
    assert folder.is_dir() and not any(folder.iterdir())  # nothing made inside it


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_a_folder_in_the_config_is_named_with_the_config_path(run_cli, folder, tmp_path, command):
    config = tmp_path / "config.toml"
    config.write_text(f"db = {str(folder)!r}\n")
    said = _refusal(run_cli(*command, timeout=60), command)
    assert said == f"db in {config} {folder} is a folder; give the path of a file"


def test_the_argument_is_named_when_given_and_wins(run_cli, folder, monkeypatch, tmp_path):
    monkeypatch.setenv("QUIZAPP_DB", str(tmp_path / "elsewhere.sqlite3"))
    said = _refusal(run_cli("optimize", "--db", str(folder)), ("optimize",))
    assert said == f"--db {folder} is a folder; give the path of a file"


def test_a_folder_at_the_default_place_says_so_and_points_to_db(folder, monkeypatch):
    from quizapp.cli.history_option import LocationProblem, history_location

    monkeypatch.setattr("quizapp.srs.store.paths.default_db_path", lambda: folder)
    with pytest.raises(LocationProblem) as info:
        history_location(argparse.Namespace(db=None, student=None), None)
    assert (
        str(info.value) == f"the default history {folder} is a folder; give --db the path of a file"
    )
    assert info.value.status == 2
