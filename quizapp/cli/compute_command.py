"""`quizapp compute`'s options, and which of its modes runs: run a computation, list them,
describe one (`--list NAME`) or search them (`--search WORDS`). The work is in compute.py,
imported only when the command runs."""

from __future__ import annotations

import argparse
import os
import sys

from quizapp.bank.literal import terminal_safe


def add_compute_command(commands: argparse._SubParsersAction) -> None:
    compute = commands.add_parser(
        "compute",
        help="run one live computation",
        description="Run a named live computation. Arguments are key=value, values read as YAML "
        "scalars (1e-5 is a number).",
    )
    compute.add_argument("name", nargs="?", help="the computation (see --list and --search)")
    compute.add_argument("assignments", nargs="*", metavar="key=value", help="arguments")
    compute.add_argument(
        "--list",
        action="store_true",
        help="list computations and their arguments; --list NAME describes one: its purpose, "
        "arguments with types, bounds and defaults, and every value with its meaning and unit",
    )
    compute.add_argument(
        "--search",
        metavar="WORDS",
        help="find computations by what they compute (words of their titles, descriptions and "
        "values' meanings), best first, e.g. --search 'attention cost'",
    )
    compute.add_argument("--device", default="auto", help="auto, cpu, cuda or mps (default auto)")
    compute.add_argument("--json", action="store_true", help="print the result as JSON")
    compute.add_argument(
        "--expect",
        action="append",
        default=[],
        metavar="CLAIM",
        help="a claim over the values that must hold, e.g. 'head_dim == 64' (repeatable); "
        "exit 1 when one fails",
    )


def run_compute(args: argparse.Namespace) -> int:
    from quizapp.cli.compute import (
        describe_command,
        list_computations,
        main_error,
        run_command,
        search_command,
    )
    from quizapp.experiments.spec import ArgumentError

    try:
        if args.search is not None:
            # `--search attention cost` unquoted: argparse reads "cost" as a name.
            words = " ".join([args.search, *filter(None, [args.name]), *args.assignments])
            if args.list:
                return main_error("--search and --list do not go together; use one")
            return search_command(words)
        if args.list and args.name:
            return describe_command(args.name, args.assignments)
    except ArgumentError as exc:
        return main_error(str(exc))
    if args.list:
        print(list_computations())
        return 0
    if not args.name:
        return main_error("name a computation, or use --list to see them")
    try:
        return run_command(args.name, args.assignments, args.device, args.json, args.expect)
    except ArgumentError as exc:
        return main_error(str(exc))
    except Exception as exc:
        if os.environ.get("QUIZAPP_DEBUG"):
            raise
        failure = terminal_safe(f"{args.name} failed: {type(exc).__name__}: {exc}")
        print(f"quizapp compute: {failure}", file=sys.stderr)
        return 1
