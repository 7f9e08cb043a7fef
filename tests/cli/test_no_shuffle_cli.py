"""`--no-shuffle` is an authoring aid: its help says so, only an explicit flag turns the
shuffle off, and the commands whose sessions are always a student's refuse it."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from quizapp.cli import build_parser, main
from quizapp.cli.options import NO_SHUFFLE_HELP

AUTHORING_AID = (
    "authoring aid: show questions and options in the bank's file order; never use it for study"
)


def subcommand(name: str) -> argparse.ArgumentParser:
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return commands.choices[name]


def one_line(text: str) -> str:
    return " ".join(text.split())  # argparse wraps help to the terminal's width


@pytest.mark.parametrize("command", [None, "drill", "preview"])
def test_the_help_calls_it_an_authoring_aid(command: str | None) -> None:
    assert NO_SHUFFLE_HELP == AUTHORING_AID
    parser = build_parser() if command is None else subcommand(command)
    assert AUTHORING_AID in one_line(parser.format_help())


def test_the_export_help_says_what_no_shuffle_keeps() -> None:
    text = one_line(subcommand("export").format_help())
    assert "--no-shuffle" in text and "--seed N" in text
    assert "authoring aid" in text and "never use it for a file students study from" in text


@pytest.mark.parametrize(
    ("command", "fragment"),
    [
        ("exam", "a mock exam always shuffles its questions and options"),
        ("serve", "always shuffle their options"),
    ],
)
@pytest.mark.parametrize("before", [False, True], ids=["after", "before"])
def test_a_students_command_refuses_it_in_one_line(
    capsys, monkeypatch, tmp_path: Path, command: str, fragment: str, before: bool
) -> None:
    monkeypatch.setenv("QUIZAPP_CONFIG", str(tmp_path / "config.toml"))
    db = ["--db", str(tmp_path / "history.sqlite3")]
    argv = ["--no-shuffle", command, *db] if before else [command, *db, "--no-shuffle"]
    assert main(argv) == 2
    [line] = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("quizapp: error: --no-shuffle is an authoring aid")
    assert fragment in line
    assert not (tmp_path / "history.sqlite3").exists()


class OpenedApp:
    """Stands in for QuizApp: records the options the app would have opened with."""

    opened: list[object] = []

    def __init__(self, bank: object, options: object) -> None:
        OpenedApp.opened.append(options)
        self.return_code = 0
        self.history_writes = self

    def run(self) -> None:
        pass

    def exit_notes(self) -> list[str]:
        return []

    def exit_problems(self) -> list[str]:
        return []


@pytest.mark.parametrize(
    ("argv", "shuffled"),
    [([], True), (["drill"], True), (["--no-shuffle"], False), (["drill", "--no-shuffle"], False)],
)
def test_only_the_flag_turns_the_shuffle_off(
    monkeypatch, tmp_path: Path, argv: list[str], shuffled: bool
) -> None:
    import quizapp.tui.app

    monkeypatch.setenv("QUIZAPP_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setattr(quizapp.tui.app, "QuizApp", OpenedApp)
    OpenedApp.opened.clear()
    assert main([*argv, "--db", str(tmp_path / "h.sqlite3")]) == 0
    [options] = OpenedApp.opened
    assert options.shuffle is shuffled  # type: ignore[attr-defined]


@pytest.mark.parametrize("setting", ["shuffle = false", "no_shuffle = true"])
def test_config_toml_cannot_make_it_a_default(
    capsys, monkeypatch, tmp_path: Path, setting: str
) -> None:
    (tmp_path / "config.toml").write_text(setting + "\n")
    monkeypatch.setenv("QUIZAPP_CONFIG", str(tmp_path / "config.toml"))
    assert main(["--db", str(tmp_path / "h.sqlite3")]) == 2
    assert "unknown setting" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "warm_up"),
    [
        ([], True),
        (["--load-torch", "start"], True),
        (["--load-torch=first-use"], False),
        (["drill", "--load-torch", "first-use"], False),
    ],
)
def test_load_torch_first_use_leaves_the_warm_up_to_the_first_computation(
    monkeypatch, tmp_path: Path, argv: list[str], warm_up: bool
) -> None:
    import quizapp.tui.app

    monkeypatch.setenv("QUIZAPP_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setattr(quizapp.tui.app, "QuizApp", OpenedApp)
    OpenedApp.opened.clear()
    assert main([*argv, "--db", str(tmp_path / "h.sqlite3")]) == 0
    [options] = OpenedApp.opened
    assert options.warm_up is warm_up  # type: ignore[attr-defined]
