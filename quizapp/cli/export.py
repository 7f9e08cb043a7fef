"""`quizapp export`: the bank written out as Anki, CSV, JSON, GIFT or Moodle XML, to --out or
stdout (its options and help are declared with the other authoring commands, in
quizapp/cli/authoring.py).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from quizapp.bank.literal import terminal_safe
from quizapp.cli.authoring_common import failure, usage_error, write_stdout
from quizapp.cli.export_order import export_order


def run_export(args: argparse.Namespace) -> int:
    from quizapp.authoring.anki_package import PreviousPackageError
    from quizapp.authoring.output_file import check_output, write_output
    from quizapp.bank import bundled_bank_path, load_bank

    for path in args.paths:
        if not Path(path).exists():
            return usage_error("export", f"{path}: no such file or folder")
    if args.no_bom and args.format != "csv":
        return usage_error("export", "--no-bom applies to --format csv only")
    if args.previous is not None and args.format != "anki":
        return usage_error("export", "--previous applies to --format anki only")
    if args.format == "anki":
        if not args.out:
            return usage_error("export", "--format anki writes a file: give --out FILE.apkg")
        if args.previous is not None and not Path(args.previous).is_file():
            missing = "no such file" if not Path(args.previous).exists() else "not a regular file"
            return usage_error("export", f"--previous {args.previous}: {missing}")
        try:
            import genanki  # noqa: F401
        except ImportError:
            return failure("export", "--format anki needs genanki (pip install genanki)")
    out = Path(args.out) if args.out else None
    if out is not None:
        check_output(out, replace=args.force)  # before loading and exporting, not only after

    bank = load_bank(args.paths or [bundled_bank_path()])
    for problem in bank.errors:
        print(problem.format(), file=sys.stderr)
    if not bank.questions:
        return failure("export", "no questions loaded")

    from quizapp.authoring import export as ex

    questions = ex.bank_questions(bank)
    if args.format == "anki":
        assert out is not None
        try:
            summary = write_anki(args, bank.decks, out)
        except PreviousPackageError as exc:
            return usage_error("export", f"--previous {exc}")
    elif args.format == "moodle-xml":
        from quizapp.cli.moodle_xml import write_moodle_xml

        summary = write_moodle_xml(args, bank.decks, out)
    else:
        order = export_order(args)
        exported, tail = len(questions), ""
        if args.format == "csv":
            data = ex.csv_file_bytes(
                ex.export_csv(questions, order, bank.decks), bom=not args.no_bom
            )
        elif args.format == "gift":
            from quizapp.cli.export_gift import gift_data

            data, exported, tail = gift_data(args, bank.decks, order)
        else:
            data = ex.export_json(questions, bank.decks, order).encode("utf-8")
        if out is None:
            write_stdout(data)
        else:
            write_output(out, data, replace=args.force)
        summary = (
            f"{exported} question(s) exported" + (f" to {terminal_safe(out)}" if out else "") + tail
        )
    if args.format != "json":
        say_lost_key_claims(questions, args.format)
    if bank.errors:
        print(
            f"quizapp export: {summary}; {len(bank.errors)} error(s): questions with errors "
            "are left out (see quizapp lint)",
            file=sys.stderr,
        )
        return 1
    print(f"quizapp export: {summary}", file=sys.stderr)
    return 0


def say_lost_key_claims(questions: list, format_name: str) -> None:
    """Only JSON carries the claims that prove keys (`holds:`, a step's `value:`): say what
    another format loses, rather than drop it silently."""
    from quizapp.authoring.key_claims import has_ties

    proven = [q for q in questions if has_ties(q)]
    if proven:
        print(
            f"quizapp export: note: {len(proven)} question(s) lose the claims that prove their "
            f"keys (holds:, value:), which {format_name} cannot carry; --format json keeps them",
            file=sys.stderr,
        )


def write_anki(args: argparse.Namespace, decks: list, out: Path) -> str:
    """Write the package; the summary line. Raises PreviousPackageError for --previous."""
    from quizapp.authoring.anki_package import (
        PreviousPackageError,
        read_previous_notes,
        write_anki_package,
    )

    previous = Path(args.previous) if args.previous is not None else None
    if previous is None and args.force and out.is_file() and not out.is_symlink():
        try:  # the package being replaced is the one students imported last
            read_previous_notes(out)
            previous = out
        except PreviousPackageError:
            previous = None
    written = write_anki_package(
        decks,
        out,
        evaluate=not args.no_eval,
        replace=args.force,
        previous=previous,
        use_cache=not args.no_cache,
        order=export_order(args),
    )
    for qid, note in written.left_out:  # variants past the cap, named as GIFT and Moodle do
        print(terminal_safe(f"quizapp export: note: {qid}: {note}"), file=sys.stderr)
    summary = f"{written.notes} note(s) in {written.decks} deck(s) written to {terminal_safe(out)}"
    if written.previous is not None:
        unchanged = written.notes - written.new - written.changed
        summary += (
            f"; against {terminal_safe(written.previous)}: {written.changed} changed, "
            f"{written.new} new, {unchanged} unchanged (Anki updates only the changed ones)"
        )
    return summary
