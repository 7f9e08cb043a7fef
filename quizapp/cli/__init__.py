"""The `quizapp` command line. Each subcommand imports only what it needs, so `lint` and
`schema` never pay for torch or textual."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from quizapp import __version__
from quizapp.bank.literal import error_line, terminal_safe
from quizapp.cli import flag_types
from quizapp.cli.authoring import AUTHORING_COMMANDS, add_authoring_commands, run_authoring
from quizapp.cli.class_report import add_class_command, run_class
from quizapp.cli.compute_command import add_compute_command, run_compute
from quizapp.cli.forecast import add_exam_date_options, add_forecast_command
from quizapp.cli.optimize import add_optimize_command, run_optimize
from quizapp.cli.options import NO_SHUFFLE_HELP
from quizapp.cli.parser import QuizappParser as _Parser
from quizapp.cli.parser import exam_date_problem
from quizapp.cli.preview import add_preview_command, run_preview
from quizapp.cli.serve import add_serve_command, run_serve

if TYPE_CHECKING:
    from quizapp.bank.model import Bank
    from quizapp.srs.config import Settings
    from quizapp.srs.store.history import HistoryLocation, StudentToAsk

# Kept equal to quizapp.authoring.evaluation.DEFAULT_BUDGET_SECONDS by a test; written here so
# that building the parser (every quizapp run) does not import lint.
DEFAULT_EVAL_TIMEOUT = 10.0


APP_DEFAULTS: dict[str, object] = {
    "bank": [],
    "no_default_bank": False,
    "db": None,
    "student": None,
    "ask_student": False,
    "device": "auto",
    "theme": None,
    "length": None,
    "no_shuffle": False,
    "exam_date": None,
    "now": None,
    "default_parameters": False,
}


def add_app_options(group: argparse._ActionsContainer, *, on_subcommand: bool = False) -> None:
    """The options every app-opening command shares (quizapp, drill, exam, stats).

    On a subcommand they default to SUPPRESS, so `quizapp --db X drill` and
    `quizapp drill --db X` both work: a subparser's own default would otherwise overwrite
    the value given before the command.
    """
    extra = {"default": argparse.SUPPRESS} if on_subcommand else {}
    group.add_argument(
        "--bank",
        action="append",
        metavar="PATH",
        help="add an instructor's bank file or folder (repeatable)",
        **({"default": []} if not on_subcommand else extra),
    )
    group.add_argument(
        "--no-default-bank", action="store_true", help="leave the bundled bank out", **extra
    )
    group.add_argument(
        "--db",
        metavar="PATH",
        help="the review history: a SQLite file, or postgresql://user@host:port/dbname for a "
        "class's shared one (default: $QUIZAPP_DB, else db in config.toml, else the user data "
        "folder)",
        **extra,
    )
    group.add_argument(
        "--student",
        metavar="NAME",
        help="whose history, on a PostgreSQL --db (default: $QUIZAPP_STUDENT, else student in "
        "config.toml; the app asks)",
        **extra,
    )
    group.add_argument(
        "--device", help="auto, cpu, cuda or mps (default auto)", **(extra or {"default": "auto"})
    )
    group.add_argument(
        "--load-torch",
        choices=["start", "first-use"],
        help="when the lab loads PyTorch: once the first screen is drawn (start, the default), "
        "or at its first computation (first-use: what quizapp serve gives each browser tab, so "
        "that a class's tabs do not each hold a copy they may never use)",
        **(extra or {"default": "start"}),
    )
    group.add_argument(
        "--theme", metavar="NAME", help="a Textual theme, e.g. nord or gruvbox", **extra
    )
    group.add_argument(
        "--length",
        type=flag_types.SESSION_LENGTH,
        metavar="N",
        help="questions per session (default all)",
        **extra,
    )
    group.add_argument("--no-shuffle", action="store_true", help=NO_SHUFFLE_HELP, **extra)


def add_scheduling_options(
    group: argparse._ActionsContainer, *, on_subcommand: bool = False
) -> None:
    """The options of the commands that schedule answers (quizapp, drill, exam)."""
    group.add_argument(
        "--default-parameters",
        action="store_true",
        help="schedule with py-fsrs's default parameters this time, not those fitted by "
        "`quizapp optimize`",
        **({"default": argparse.SUPPRESS} if on_subcommand else {}),
    )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="quizapp",
        description="Exam-prep quizzes on transformer internals, every explanation backed by a "
        "live PyTorch computation.",
    )
    parser.add_argument("--version", action="version", version=f"quizapp {__version__}")
    app_group = parser.add_argument_group("the app (quizapp with no command)")
    add_app_options(app_group)
    add_exam_date_options(app_group, on_subcommand=False)
    add_scheduling_options(app_group)
    app_group.add_argument(
        "--ask-student",
        action="store_true",
        help="on a PostgreSQL --db, ask whose history at start even when QUIZAPP_STUDENT or "
        "config.toml names a student (what `quizapp serve` gives each browser tab)",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    lint = commands.add_parser(
        "lint",
        help="check question bank files",
        description="Check bank files and folders; print problems as path:line:col: severity: message.",
    )
    lint.add_argument(
        "paths", nargs="*", metavar="PATH", help="files or folders (default: the bundled bank)"
    )
    lint.add_argument("--strict", action="store_true", help="treat warnings as errors")
    lint.add_argument("--format", choices=["text", "json"], default="text", help="output format")
    lint.add_argument(
        "--no-eval",
        action="store_true",
        help="do not run the computations behind derived answers and claims (faster; no torch import)",
    )
    lint.add_argument(
        "--eval-timeout",
        type=flag_types.EVAL_SECONDS,
        default=None,
        metavar="S",
        help="stop running computations after S seconds in all and warn [eval-budget] "
        f"(default {DEFAULT_EVAL_TIMEOUT:g}, or $QUIZAPP_EVAL_TIMEOUT; 0: no limit)",
    )
    lint.add_argument(
        "--lessons",
        metavar="DIR",
        help="check `source: Lesson: <title> › <heading>` against the lessons (*.txt, *.md) in "
        "DIR [unknown-source] (default: lessons in config.toml; else sources go unchecked)",
    )
    lint.add_argument(
        "--no-cache",
        action="store_true",
        help="run every computation afresh: neither read nor store results kept from earlier "
        "runs (QUIZAPP_NO_CACHE=1 does the same)",
    )

    add_compute_command(commands)

    drill = commands.add_parser(
        "drill",
        help="today's spaced-repetition drill",
        description="Open the app on today's drill: due cards first, then new ones up to the daily limit.",
    )
    drill.add_argument(
        "--traps",
        action="store_true",
        help="the trap drill: the questions whose traps you fell for, until each is answered "
        "right on two separate days",
    )
    add_app_options(drill, on_subcommand=True)
    add_exam_date_options(drill, on_subcommand=True)
    add_scheduling_options(drill, on_subcommand=True)

    exam = commands.add_parser(
        "exam",
        help="a timed mock exam",
        description="A timed mock exam: questions sampled by the decks' exam weights, no feedback "
        "until you submit, flags and free movement, automatic submission at zero.",
    )
    exam.add_argument(
        "--questions",
        type=flag_types.QUESTIONS,
        default=20,
        metavar="N",
        help="how many (default 20)",
    )
    exam.add_argument(
        "--minutes",
        type=flag_types.EXAM_MINUTES,
        metavar="M",
        help="time allowed (default 1.5 per question, at most 600)",
    )
    exam.add_argument(
        "--seed", type=flag_types.SEED, metavar="S", help="the same seed gives the same exam"
    )
    add_app_options(exam, on_subcommand=True)
    add_scheduling_options(exam, on_subcommand=True)

    stats = commands.add_parser(
        "stats",
        help="study statistics from the review history",
        description="Reviews per day, true retention, accuracy and mastery by topic, the due "
        "forecast, the streak and exam results. JSON keys: docs/stats.md.",
    )
    stats.add_argument("--json", action="store_true", help="print JSON")
    stats.add_argument(
        "--days",
        type=flag_types.HISTORY_DAYS,
        default=30,
        metavar="N",
        help="days of history (default 30)",
    )
    add_app_options(stats, on_subcommand=True)

    add_app_options(add_forecast_command(commands), on_subcommand=True)
    add_preview_command(commands, _Parser)
    serve = add_serve_command(commands)
    add_app_options(serve, on_subcommand=True)
    add_scheduling_options(serve, on_subcommand=True)
    add_optimize_command(commands)
    add_authoring_commands(commands, _Parser)
    add_class_command(commands, _Parser)

    commands.add_parser(
        "schema",
        help="print the JSON Schema of the bank format",
        description="Print a JSON Schema of the bank format, for yaml-language-server and other editors.",
    )
    return parser


def _innermost_command(parser: argparse.ArgumentParser, args: argparse.Namespace):
    """The parser of the (sub)command `args` were parsed for: `quizapp class report`'s, say."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            chosen = action.choices.get(getattr(args, action.dest, None) or "")
            if chosen is not None:
                return _innermost_command(chosen, args)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args, extras = parser.parse_known_args(argv)
    if extras:  # said by the command's own parser, so the hint is `quizapp preview --help`
        _innermost_command(parser, args).error(f"unrecognized arguments: {' '.join(extras)}")
    if getattr(args, "now", None) is not None:  # --now: a testing aid (quizapp/srs/clock.py)
        from quizapp.srs.clock import set_now

        set_now(args.now)
    problem = exam_date_problem(args)  # after --now: today is the moved clock's
    if problem:
        _innermost_command(parser, args).error(problem)
    try:
        if args.command == "lint":
            from quizapp.cli.lint import run_lint

            return run_lint(args)
        if args.command == "compute":
            return run_compute(args)
        if args.command == "drill":
            return _run_app(args, start="traps" if args.traps else "drill")
        if args.command == "stats":
            return _stats(args)
        if args.command == "forecast":
            return _forecast(args)
        if args.command == "optimize":
            _fill_app_defaults(args)
            return run_optimize(args)
        if args.command == "class":
            return run_class(args)
        if args.command == "preview":
            return run_preview(args)
        if args.command == "serve":
            checked = _checked_app_options(args)
            return checked if isinstance(checked, int) else run_serve(args, checked[3])
        if args.command in AUTHORING_COMMANDS:
            return run_authoring(args)
        if args.command == "exam":
            exam = {"questions": args.questions, "minutes": args.minutes, "seed": args.seed}
            return _run_app(args, start="exam", exam=exam)
        if args.command == "schema":
            from quizapp.authoring.compute_schema import schema_json

            sys.stdout.write(schema_json())
            return 0
        return _run_app(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # `quizapp lint | head` closes the pipe early: not an error. Point stdout at devnull
        # so the interpreter's final flush does not raise again on the way out.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except Exception as exc:  # the last line of defence: one line, never a traceback
        if os.environ.get("QUIZAPP_DEBUG"):
            raise
        print(
            f"quizapp: internal error: {type(exc).__name__}: {terminal_safe(exc)} "
            "(set QUIZAPP_DEBUG=1 for the traceback)",
            file=sys.stderr,
        )
        return 1


def _run_app(
    args: argparse.Namespace, start: str = "home", exam: dict[str, object] | None = None
) -> int:
    checked = _checked_app_options(args)
    if isinstance(checked, int):
        return checked
    settings, paths, bank, location = checked
    from quizapp.srs.config import config_path
    from quizapp.tui.app import AppOptions, QuizApp

    options = AppOptions(
        db_path=location,
        bank_paths=tuple(Path(p) for p in paths),
        settings=settings,
        config_path=config_path(),  # where the theme and the home screen's switches are remembered
        start=start,
        exam=exam or {},
        device=args.device,
        warm_up=args.load_torch == "start",
        theme=args.theme or settings.theme,  # --theme for this run; the config's otherwise
        length=args.length,
        shuffle=not args.no_shuffle,
        default_parameters=args.default_parameters,
    )
    app = QuizApp(bank, options)
    app.run()
    # The app cannot print while it owns the terminal: what went wrong with the history (not
    # opened, answers left unsaved) is said here, once it is gone, and the exit status is 1.
    # Each line quotes the history's path, which may hold anything a file name can.
    for line in app.history_writes.exit_notes():
        print(f"quizapp: {terminal_safe(line)}", file=sys.stderr)
    problems = app.history_writes.exit_problems()
    for line in problems:
        print(error_line("quizapp", line), file=sys.stderr)
    return 1 if problems else (app.return_code or 0)


def _checked_app_options(
    args: argparse.Namespace,
) -> tuple[Settings, list[Path], Bank, HistoryLocation | StudentToAsk] | int:
    """The settings, bank paths, bank and history the app options name, or the exit status
    after saying in one line why they cannot be used."""
    from quizapp.bank import bundled_bank_path, load_bank_cached
    from quizapp.cli.history_option import LocationProblem, history_location
    from quizapp.cli.options import computation_names, display_option_problem, no_shuffle_problem

    _fill_app_defaults(args)
    settings = _settings_or_problem()
    if isinstance(settings, str):
        return _usage_error(settings)
    try:
        location = history_location(args, settings, ask_student=True)
    except LocationProblem as exc:
        print(error_line("quizapp", exc), file=sys.stderr)
        return exc.status
    if args.exam_date is not None:
        from dataclasses import replace

        settings = replace(settings, exam_date=args.exam_date)

    problem = display_option_problem(args.device, args.theme)
    problem = problem or no_shuffle_problem(args.command, args.no_shuffle)
    if problem:
        return _usage_error(problem)
    paths = ([] if args.no_default_bank else [bundled_bank_path()]) + list(args.bank)
    if not paths:
        return _usage_error("--no-default-bank needs at least one --bank PATH")
    bank = load_bank_cached(paths, computations=computation_names)
    if not bank.questions:
        for problem in bank.errors:
            print(problem.format(), file=sys.stderr)
        print("quizapp: error: no questions loaded", file=sys.stderr)
        return 1
    return settings, paths, bank, location


def _stats(args: argparse.Namespace) -> int:
    from quizapp.bank import bundled_bank_path, load_bank_cached
    from quizapp.cli.history_option import LocationProblem, history_location
    from quizapp.cli.options import computation_names
    from quizapp.cli.stats import run_stats

    _fill_app_defaults(args)
    # The settings change no figure here, but a broken file is refused as the app refuses it.
    settings = _settings_or_problem()
    if isinstance(settings, str):
        return _usage_error(settings)
    try:
        db = history_location(args, settings)
    except LocationProblem as exc:
        print(error_line("quizapp stats", exc), file=sys.stderr)
        return exc.status
    paths = ([] if args.no_default_bank else [bundled_bank_path()]) + list(args.bank)
    bank = load_bank_cached(paths, computations=computation_names)
    return run_stats(db, bank, args.json, None, days=args.days)


def _forecast(args: argparse.Namespace) -> int:
    from quizapp.bank import bundled_bank_path, load_bank_cached
    from quizapp.cli.forecast import run_forecast
    from quizapp.cli.history_option import LocationProblem, history_location
    from quizapp.cli.options import computation_names

    _fill_app_defaults(args)
    paths = ([] if args.no_default_bank else [bundled_bank_path()]) + list(args.bank)
    if not paths:
        return _usage_error("--no-default-bank needs at least one --bank PATH")
    settings = _settings_or_problem()
    try:
        db = history_location(args, None if isinstance(settings, str) else settings)
    except LocationProblem as exc:
        print(error_line("quizapp forecast", exc), file=sys.stderr)
        return exc.status
    bank = load_bank_cached(paths, computations=computation_names)
    for problem in bank.errors:
        print(problem.format(), file=sys.stderr)
    return run_forecast(args, bank, db)


def _settings_or_problem() -> Settings | str:
    """The settings in config.toml, or why they cannot be used (one line naming the file)."""
    from quizapp.cli.options import config_theme_problem
    from quizapp.srs.config import ConfigError, config_path, load_settings

    try:
        settings = load_settings()
    except ConfigError as exc:
        return str(exc)
    return config_theme_problem(settings.theme, config_path()) or settings


def _fill_app_defaults(args: argparse.Namespace) -> None:
    for key, value in APP_DEFAULTS.items():
        if not hasattr(args, key):
            setattr(args, key, value)


def _usage_error(message: str) -> int:
    print(error_line("quizapp", message), file=sys.stderr)
    return 2
