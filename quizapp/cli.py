"""The `quizapp` command line. Each subcommand imports only what it needs, so `lint` and
`schema` never pay for torch or textual."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from quizapp import __version__


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        # argparse prints the whole usage block; one line naming the problem is easier to act on.
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="quizapp",
        description="Exam-prep quizzes on transformer internals, every explanation backed by a "
        "live PyTorch computation.",
    )
    parser.add_argument("--version", action="version", version=f"quizapp {__version__}")
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

    commands.add_parser(
        "schema",
        help="print the JSON Schema of the bank format",
        description="Print a JSON Schema of the bank format, for yaml-language-server and other editors.",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "lint":
            return _lint(args)
        if args.command == "schema":
            from quizapp.bank.schema import bank_schema_json

            sys.stdout.write(bank_schema_json())
            return 0
        return _overview()
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # `quizapp lint | head` closes the pipe early; that is not an error worth a traceback.
        sys.stderr.close()
        return 0


def _lint(args: argparse.Namespace) -> int:
    from quizapp.authoring.lint import lint, render_json, render_summary, render_text
    from quizapp.bank import bundled_bank_path

    paths = args.paths or [bundled_bank_path()]
    report = lint(paths, strict=args.strict)
    if args.format == "json":
        print(render_json(report))
    else:
        print(render_text(report))
        # The tally goes to stderr so stdout holds nothing but path:line:col lines.
        print(render_summary(report), file=sys.stderr)
    return report.exit_code


def _overview() -> int:
    """Until the TUI lands, the bare command shows what the bundled bank holds."""
    from quizapp.bank import bundled_bank_path, load_bank

    bank = load_bank([bundled_bank_path()])
    for deck in bank.decks:
        print(
            f"{deck.title:<40} {len(deck.questions):>4} questions  ({deck.domain}, weight {deck.exam_weight:g})"
        )
    for problem in bank.errors:
        print(problem.format(), file=sys.stderr)
    return 0
