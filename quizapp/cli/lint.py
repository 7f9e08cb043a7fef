"""`quizapp lint`: run the linter on the paths given and print its report."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from quizapp.bank.literal import error_line

if TYPE_CHECKING:
    from quizapp.authoring.lessons import Lessons


def run_lint(args: argparse.Namespace) -> int:
    """`quizapp lint`: print the report; exit 1 on errors, 2 on a usage problem."""
    from quizapp.authoring.evaluation import live_runs

    running_before = live_runs()
    code = 1
    try:
        code = _lint_report(args)
        return code
    except KeyboardInterrupt:
        code = 130
        raise
    except BrokenPipeError:
        code = 0
        raise
    finally:
        if live_runs() - running_before:
            # A computation stopped at the deadline has not reached its next cancellation
            # check yet. Waiting for it would break the budget, and shutting the interpreter
            # down under a running torch thread can abort, so leave now.
            with contextlib.suppress(OSError, ValueError):
                sys.stdout.flush()
                sys.stderr.flush()
            os._exit(code)


def _lint_report(args: argparse.Namespace) -> int:
    from quizapp.authoring.lint import lint, render_json, render_summary, render_text
    from quizapp.bank import bundled_bank_path
    from quizapp.cli.progress import StatusLine

    paths = args.paths or [bundled_bank_path()]
    lessons = _lint_lessons(args.lessons)
    if isinstance(lessons, str):
        print(error_line("quizapp lint", lessons), file=sys.stderr)
        return 2
    budget = args.eval_timeout or None
    if args.eval_timeout is None:
        from quizapp.authoring.evaluation import default_budget

        try:
            budget = default_budget()
        except ValueError as exc:
            print(error_line("quizapp lint", str(exc)), file=sys.stderr)
            return 2
    # On a terminal (not with --format json) a slow evaluation shows how far it has got.
    progress = (
        StatusLine("evaluating derived answers", limit=budget) if args.format == "text" else None
    )
    try:
        report = lint(
            paths,
            strict=args.strict,
            evaluate=not args.no_eval,
            eval_budget=budget,
            on_progress=progress,
            use_cache=not args.no_cache,
            lessons=lessons,
        )
    finally:
        if progress is not None:
            progress.clear()
    if args.format == "json":
        print(render_json(report))
    else:
        text = render_text(report)
        if text:  # a clean lint prints nothing on stdout, not an empty line
            print(text)
        # The tally goes to stderr so stdout holds nothing but path:line:col lines.
        print(render_summary(report), file=sys.stderr)
    return report.exit_code


def _lint_lessons(given: str | None) -> Lessons | str | None:
    """The lessons lint checks sources against: --lessons, else config.toml's `lessons`
    (relative to the config file's folder), else None. A string says why they cannot be used."""
    from quizapp.authoring.lessons import LessonsError, load_lessons
    from quizapp.srs.config import ConfigError, config_path, load_settings

    folder = Path(given) if given is not None else None
    if folder is None:
        try:
            configured = load_settings().lessons
        except ConfigError as exc:
            return str(exc)
        if configured is None:
            return None
        folder = config_path().parent / Path(configured).expanduser()
    try:
        return load_lessons(folder)
    except LessonsError as exc:
        return f"lessons: {exc}"
