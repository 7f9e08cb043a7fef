"""`quizapp`'s own options, checked before any screen is drawn."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--theme", "nope"], "unknown theme 'nope'"),
        (["--device", "tpu"], "--device must be one of"),
        (["--length", "0"], "--length: must be a whole number from 1 to 10000, not 0"),
        (["--no-default-bank"], "needs at least one --bank"),
    ],
)
def test_bad_options_exit_2_with_one_line(run_cli, args, fragment) -> None:
    result = run_cli(*args)
    assert result.returncode == 2
    assert fragment in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_bank_with_nothing_loadable_says_where_and_exits_1(run_cli, tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("deck: [unclosed\n")
    result = run_cli("--no-default-bank", "--bank", str(broken))
    assert result.returncode == 1
    assert f"{broken}:1:7: error: YAML syntax" in result.stderr  # where the [ opens
    assert "no questions loaded" in result.stderr
    assert "Traceback" not in result.stderr


def test_stats_reads_an_empty_history_without_creating_it(run_cli, tmp_path: Path) -> None:
    import json

    db = tmp_path / "history.sqlite3"
    result = run_cli("stats", "--json", "--db", str(db))
    assert result.returncode == 0, result.stderr
    payload = json.loads(result.stdout)
    assert payload["totals"]["reviews"] == 0 and payload["streak_days"] == 0
    assert not db.exists()


def test_output_into_a_closed_pipe_is_not_an_error(tmp_path: Path) -> None:
    import subprocess
    import sys

    from tests.conftest import REPO

    shell = f"{sys.executable} -m quizapp compute --list | head -1"
    result = subprocess.run(
        ["bash", "-c", shell], capture_output=True, text=True, cwd=REPO, timeout=60
    )
    assert result.returncode == 0
    assert "Traceback" not in result.stderr and "error" not in result.stderr


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["exam", "--questions", "0"], "--questions: must be a whole number from 1 to 1000"),
        (["exam", "--minutes", "-2"], "--minutes: must be a number greater than 0 and at most 600"),
        (["exam", "--questions", "many"], "--questions: must be a whole number from 1 to 1000"),
    ],
)
def test_bad_exam_options_exit_2(run_cli, args, fragment) -> None:
    result = run_cli(*args)
    assert result.returncode == 2 and fragment in result.stderr


@pytest.mark.parametrize(
    ("config", "fragment"),
    [
        ("new_cards_per_day = = 3\n", "config.toml: Invalid value (at line 1"),
        ("fast_seconds = 'soon'\n", "fast_seconds must be a number"),
        ('theme = "no-such-theme"\n', "unknown theme 'no-such-theme'"),
    ],
)
@pytest.mark.parametrize("command", [["stats"], ["stats", "--json"], ["drill"]])
def test_a_broken_config_is_refused_by_stats_as_by_the_app(
    run_cli, tmp_path: Path, monkeypatch, config: str, fragment: str, command: list[str]
) -> None:
    path = tmp_path / "config.toml"
    path.write_text(config)
    monkeypatch.setenv("QUIZAPP_CONFIG", str(path))
    result = run_cli(*command, "--db", str(tmp_path / "history.sqlite3"))
    assert result.returncode == 2
    assert fragment in result.stderr and str(path) in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and not result.stdout
    assert not (tmp_path / "history.sqlite3").exists()


@pytest.mark.parametrize(
    ("args", "command"),
    [
        (["preview", "deck.yaml", "--db", "h.db"], "quizapp preview"),
        (["class", "report", "--bogus"], "quizapp class report"),
        (["lint", "--bogus", "x.yaml"], "quizapp lint"),
        (["--bogus"], "quizapp"),
    ],
)
def test_an_unknown_option_is_named_by_the_command_it_was_given_to(
    args: list[str], command: str, capsys
) -> None:
    """The hint points at the help that lists what the command does take."""
    from quizapp.cli import main

    with pytest.raises(SystemExit) as exited:
        main(args)
    assert exited.value.code == 2
    [line] = capsys.readouterr().err.strip().splitlines()
    assert line.startswith(f"{command}: error: unrecognized arguments: ")
    assert line.endswith(f"(see '{command} --help')")
