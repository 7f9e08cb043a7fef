"""Every flag of every subcommand, given hostile values: a usage error, never a traceback.

The parsers are walked as quizapp.cli builds them, so a flag added later is covered without
touching this file. Each value-taking flag gets '', '-1', '0' and a 30-digit number:

- numeric flags (a type from quizapp.cli.flag_types) refuse each value outside their range
  with exit 2, naming the flag and the range; a value inside the range (0 for --seed) is the
  documented acceptance;
- date flags refuse all four (none is a date, or --now's years);
- every other flag refuses ''; a path or a name takes the rest as text, which the command
  checks when it uses it (a file named 0 is a file name), and a flag with choices or a type of
  its own (a URL, an encoding) takes them or refuses them with the same one-line usage error.

A flag with a bare int or float type fails here: its range would be unchecked.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import time
from collections.abc import Iterator

import pytest

from quizapp.cli import build_parser
from quizapp.cli.class_report import since_argument
from quizapp.cli.flag_types import BoundedFlag
from quizapp.cli.forecast import exam_date_argument, moment_argument

HOSTILE = ("", "-1", "0", "1" + "0" * 29)
DATE_TYPES = {exam_date_argument, moment_argument, since_argument}
Walked = tuple[tuple[str, ...], argparse.ArgumentParser, argparse.Action]


def _walk(parser: argparse.ArgumentParser, path: tuple[str, ...]) -> Iterator[Walked]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _walk(sub, (*path, name))
        elif (
            action.option_strings
            and action.nargs != 0
            and not isinstance(action, argparse._HelpAction | argparse._VersionAction)
        ):
            yield path, parser, action


def _required(parser: argparse.ArgumentParser, skip: argparse.Action) -> list[str]:
    """Values for the command's required arguments, so only the flag under test can fail."""
    args: list[str] = []
    for action in parser._actions:
        if action is skip or isinstance(action, argparse._SubParsersAction):
            continue
        if not action.option_strings and action.nargs in (None, "+"):
            args.append("x")
        elif action.option_strings and action.required:
            args += [action.option_strings[0], next(iter(action.choices or ["x"]))]
    return args


FLAGS = list(_walk(build_parser(), ()))


def _parse(argv: list[str]) -> tuple[int, str]:
    """Exit status (0: parsed) and stderr of parsing `argv`, in this process."""
    stderr = io.StringIO()
    with contextlib.redirect_stderr(stderr), contextlib.redirect_stdout(io.StringIO()):
        try:
            build_parser().parse_args(argv)
        except SystemExit as exc:
            return int(exc.code or 0), stderr.getvalue()
    return 0, stderr.getvalue()


OWN_CHECK = ""  # a flag with choices or its own type: refused (one line) or taken


def _expected_refusal(action: argparse.Action, value: str) -> str | None:
    """The text the refusal must hold, None when the value is a documented acceptance, or
    OWN_CHECK when either is right."""
    if value == "":
        return "must not be empty"
    if isinstance(action.type, BoundedFlag):
        bound = action.type.bound
        return None if bound.contains(int(value)) else bound.describe()
    if action.type in DATE_TYPES:
        return "expected a"
    if action.choices is not None or action.type not in (None, str):
        return OWN_CHECK
    return None  # text (a path, a name): checked by the command that uses it


def test_the_walk_finds_the_flags() -> None:
    names = {(path, action.option_strings[-1]) for path, _, action in FLAGS}
    assert (("stats",), "--days") in names and (("export",), "--out") in names
    assert (("serve",), "--host") in names and (("class", "report"), "--exam-date") in names


@pytest.mark.parametrize(
    ("path", "parser", "action"),
    FLAGS,
    ids=[" ".join((*p, a.option_strings[-1])) for p, _, a in FLAGS],
)
def test_every_flag_refuses_hostile_values_with_a_usage_error(path, parser, action) -> None:
    assert action.type not in (int, float), "a numeric flag needs a range: quizapp.cli.flag_types"
    if isinstance(action.type, BoundedFlag):  # no count, seed or port needs 30 digits
        assert not action.type.bound.contains(int(HOSTILE[-1])), action.type.bound.describe()
    flag = action.option_strings[-1]
    for value in HOSTILE:
        started = time.monotonic()
        argv = [*path, *_required(parser, action), f"{flag}={value}"]
        status, stderr = _parse(argv)
        assert time.monotonic() - started < 3, argv
        assert "Traceback" not in stderr and "internal error" not in stderr
        wanted = _expected_refusal(action, value)
        if wanted is None or (wanted == OWN_CHECK and status == 0):
            assert status == 0, (argv, stderr)
            continue
        assert status == 2, (argv, stderr)
        assert len(stderr.strip().splitlines()) == 1, stderr
        assert f"argument {flag}" in stderr or flag in stderr, stderr
        assert wanted in stderr, (argv, stderr)
