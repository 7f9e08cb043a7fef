"""`quizapp preview ID|FILE ...`: open the app on just those questions, for an instructor.

Ids are looked up across the bank (the bundled one and --bank paths); files and folders are
loaded as they are. The session keeps the given order (the options shuffled as a student
sees them, unless --no-shuffle), is never recorded in the review history, and the files stay
watched: save one and ctrl+r puts the new version of every question into the session.
`--variant N` starts each `vary:` question on its variant N; v steps through them.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from quizapp.cli.flag_types import VARIANT
from quizapp.cli.options import NO_SHUFFLE_HELP

if TYPE_CHECKING:
    from quizapp.bank import Bank, Question
    from quizapp.tui.app import AppOptions
    from quizapp.tui.components.reload import PreviewTarget

PROG = "quizapp preview"


def add_preview_command(
    subparsers: argparse._SubParsersAction,
    parser_class: type[argparse.ArgumentParser] | None = None,
) -> argparse.ArgumentParser:
    """Add `preview` to the `quizapp` subcommands.

    `parser_class` is accepted for symmetry and not needed: `add_parser` makes parsers of
    the class the subparsers were created with.
    """
    preview = subparsers.add_parser(
        "preview",
        help="try out chosen questions or bank files, with live reload",
        description="Open the app on just these questions, in this order, with their feedback "
        "and computations; nothing is recorded. Their options are shuffled as a student sees "
        "them (--no-shuffle: as the file writes them; o switches on screen). An ID is looked up "
        "across the bank (bundled and --bank); a FILE or folder is loaded as it is. The files "
        "are watched: save one and press ctrl+r to see the new version of every question, "
        "staying on the one on screen. v shows a vary: question's next variant.",
    )
    preview.add_argument(
        "targets",
        nargs="+",
        metavar="ID|FILE",
        help="question ids, bank files or folders (a name with a / or a .yaml ending, or "
        "one that exists, is a file)",
    )
    # The app options that mean something here, defaulting to SUPPRESS as add_app_options does
    # on subcommands: given before the command they still count.
    suppress = argparse.SUPPRESS
    preview.add_argument(
        "--bank",
        action="append",
        metavar="PATH",
        default=suppress,
        help="add an instructor's bank file or folder to look ids up in (repeatable)",
    )
    preview.add_argument(
        "--no-default-bank",
        action="store_true",
        default=suppress,
        help="leave the bundled bank out",
    )
    preview.add_argument("--device", default=suppress, help="auto, cpu, cuda or mps (default auto)")
    preview.add_argument("--theme", metavar="NAME", default=suppress, help="a Textual theme")
    preview.add_argument(
        "--no-shuffle", action="store_true", default=suppress, help=NO_SHUFFLE_HELP
    )
    preview.add_argument(
        "--variant",
        type=VARIANT,
        metavar="N",
        help="start each vary: question on its variant N (from 1, in the order quizapp lint "
        "checks them: the last name listed under vary: changes fastest); without it, one is "
        "drawn as for a student. N must be at most the fewest variants a previewed question has.",
    )
    return preview


def run_preview(args: argparse.Namespace) -> int:
    planned = plan_preview(args)
    if isinstance(planned, int):
        return planned
    bank, options = planned
    from quizapp.tui.app import QuizApp

    QuizApp(bank, options).run()
    return 0


def plan_preview(args: argparse.Namespace) -> tuple[Bank, AppOptions] | int:
    """The bank and options to open the app with, or an exit code once the problem is printed."""
    from quizapp.bank import bundled_bank_path, load_bank
    from quizapp.cli.options import computation_names, display_option_problem
    from quizapp.tui.components.reload import looks_like_file, preview_questions, problems_in

    bank_args = list(getattr(args, "bank", None) or [])
    no_default = bool(getattr(args, "no_default_bank", False))
    device = getattr(args, "device", None) or "auto"
    theme = getattr(args, "theme", None)
    problem = display_option_problem(device, theme)
    if problem:
        return _error(problem, 2)

    targets: list[PreviewTarget] = [Path(t) if looks_like_file(t) else t for t in args.targets]
    files = [t for t in targets if isinstance(t, Path)]
    ids = [t for t in targets if isinstance(t, str)]
    # The files first, so their decks win any clash of ids; the bundled bank only for ids.
    paths: list[Path] = [*files]
    if ids and not no_default:
        paths.append(bundled_bank_path())
    paths.extend(Path(p) for p in bank_args)
    if ids and not paths:
        return _error("--no-default-bank needs at least one --bank PATH to look ids up in", 2)
    # Not the bank cache: it holds one bank, the app's own, and a preview would evict it.
    # Held to the registry: a question whose computation cannot run is reported, not shown.
    bank = load_bank(paths, computation_names())

    unknown = [t for t in ids if t not in bank.questions]
    if unknown:
        known = list(bank.questions)
        for qid in unknown:
            close = difflib.get_close_matches(qid, known, n=3, cutoff=0.6)
            hint = f" (did you mean {', '.join(close)}?)" if close else ""
            _error(f"no question with id {qid!r} in the bank{hint}", 2)
        return 2

    empty = [f for f in files if not preview_questions(bank, [f])[0]]
    if empty:
        for problem in problems_in(bank, empty):
            print(problem.format(), file=sys.stderr)
        for file in empty:
            _error(f"no questions loaded from {file}", 1)
        return 1

    variant = getattr(args, "variant", None)
    if variant is not None:
        problem = variant_problem(variant, preview_questions(bank, targets)[0])
        if problem:
            return _error(problem, 2)

    from quizapp.tui.app import AppOptions

    options = AppOptions(
        db_path=None,  # a preview is never recorded
        start="preview",
        preview=tuple(targets),
        bank_paths=tuple(paths),
        device=device,
        theme=theme,
        # The questions keep the order given; the options are shuffled unless --no-shuffle.
        shuffle=not getattr(args, "no_shuffle", False),
        preview_variant=variant,
    )
    return bank, options


def variant_problem(number: int, questions: list[Question]) -> str | None:
    """Why `--variant number` cannot be shown for these questions, or None."""
    from quizapp.tui.components.preview_session import variant_count

    varied = [q for q in questions if q.vary]
    if not varied:
        return "--variant: none of the previewed questions has a vary: block"
    fewest = min(varied, key=variant_count)
    most = variant_count(fewest)
    if not 1 <= number <= most:
        return (
            f"--variant {number}: must be 1 to {most} (question {fewest.id!r} has {most} variants)"
        )
    return None


def _error(message: str, code: int) -> int:
    from quizapp.bank.literal import error_line

    print(error_line(PROG, message), file=sys.stderr)
    return code
