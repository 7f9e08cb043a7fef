"""`quizapp export --format moodle-xml`: the command's side of quizapp.authoring.moodle_xml_out.

Each question the format cannot carry is one stderr line, `quizapp export: not written: ID:
reason`, and each lossy conversion `quizapp export: note: ID: ...`; the summary counts the
questions written. Neither is an error: the exit status stays 0.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from quizapp.bank.literal import terminal_safe
from quizapp.bank.model import Deck
from quizapp.cli.export_order import export_order


def write_moodle_xml(args: argparse.Namespace, decks: list[Deck], out: Path | None) -> str:
    """Write the Moodle XML; report each question it cannot carry; the summary line."""
    from quizapp.authoring.anki_package import derived_values
    from quizapp.authoring.moodle_xml_out import export_moodle_xml
    from quizapp.authoring.output_file import write_output
    from quizapp.cli.authoring_common import write_stdout

    derived: dict[str, dict[str, object]] = {}
    if not args.no_eval:
        from quizapp.authoring.anki_cards import anki_variant

        shown = [anki_variant(q) for deck in decks for q in deck.questions]
        derived = derived_values(shown, use_cache=not args.no_cache)
    result = export_moodle_xml(decks, derived=derived, order=export_order(args))
    for qid, why in result.left_out:
        print(terminal_safe(f"quizapp export: not written: {qid}: {why}"), file=sys.stderr)
    for qid, note in result.notes:
        print(terminal_safe(f"quizapp export: note: {qid}: {note}"), file=sys.stderr)
    data = result.text.encode("utf-8")
    if out is None:
        write_stdout(data)
    else:
        write_output(out, data, replace=args.force)
    where = f" to {terminal_safe(out)}" if out else ""
    left = f"; {len(result.left_out)} not written (see above)" if result.left_out else ""
    return f"{len(result.written)} question(s) written{where}{left}"
