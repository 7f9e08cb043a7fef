"""`quizapp import` for GIFT, Anki (text and .apkg) and quizapp's JSON: the command's side.

quizapp.cli.authoring parses the command and sends every format but CSV here. Each skipped
item is one line on stderr, `WHERE: skipped: reason`, and each lossy conversion one
`WHERE: note: ...`; the report ends with their counts (importers.common.count_line). The deck goes to --out (or stdout) by the rules of
quizapp.authoring.output_file. A JSON export of several decks needs --out FOLDER and writes
FOLDER/<deck id>.yaml for each. Exit 0 when everything was imported, 1 when something was
skipped or nothing could be, 2 when the file cannot be imported at all.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from quizapp.authoring.csv_import import ImportResult


def import_format(args: argparse.Namespace) -> str:
    """The format to read `args.csv` as. Raises ImportInputError."""
    from quizapp.authoring.importers import detect_format

    chosen = getattr(args, "source_format", None)
    return chosen if chosen else detect_format(Path(args.csv))


def run_import(args: argparse.Namespace, fmt: str) -> int:
    from quizapp.authoring.csv_import import CsvInputError
    from quizapp.authoring.importers import DeckOptions, ImportInputError, build, read_decks
    from quizapp.authoring.importers.common import count_line, report_order
    from quizapp.authoring.new import collect_ids
    from quizapp.authoring.output_file import check_output, write_output
    from quizapp.cli.authoring_common import failure, reference_paths, usage_error, without_file

    source = Path(args.csv)
    out = Path(args.out) if args.out else None
    to_folder = out is not None and out.is_dir() and not out.is_symlink()
    if out is not None and not to_folder:
        check_output(out, replace=args.force)
    references = reference_paths(args)
    if isinstance(references, str):
        return usage_error("import", references)
    options = DeckOptions(args.deck_id, args.title, args.topic, args.domain, args.weight)
    try:
        pending = read_decks(source, fmt, options)
    except ImportInputError as exc:
        return usage_error("import", str(exc))
    if len(pending) > 1 and not to_folder:
        ids = ", ".join(p.deck.id for p in pending)
        return usage_error(
            "import",
            f"{source} holds {len(pending)} decks ({ids}): give --out FOLDER to write "
            "one deck file each",
        )
    targets: list[Path | None] = [
        out / f"{p.deck.id}.yaml" if out is not None and to_folder else out for p in pending
    ]
    for target in targets:
        if target is not None and check_output(target, replace=args.force) is not None:
            references = without_file(references, target)
    taken_ids, taken_decks = collect_ids(references)

    built = []
    for deck, target in zip(pending, targets, strict=True):
        try:
            result = build(deck, taken_ids=taken_ids, taken_decks=taken_decks)
        except (CsvInputError, ImportInputError) as exc:
            return usage_error("import", str(exc))
        built.append(result)
        # The decks written together form one bank: a later deck cannot reuse an id.
        taken_ids = {**taken_ids, **dict.fromkeys(result.imported, str(target or source))}
    skipped = [s for result in built for s in result.skipped]
    notes = [n for deck in pending for n in deck.source.notes]
    report = [(item, "skipped") for item in skipped] + [(note, "note") for note in notes]
    for item, kind in sorted(report, key=lambda pair: report_order(pair[0].where)):
        print(item.format(kind), file=sys.stderr)
    counts = f"quizapp import: {count_line(0, len(skipped), len(notes))}"
    if not any(result.text for result in built):
        code = failure(
            "import", f"no question imported from {source}; {len(skipped)} item(s) skipped"
        )
        print(counts, file=sys.stderr)
        return code
    written, files = 0, 0
    for result, target in zip(built, targets, strict=True):
        if result.text is None:
            continue
        if target is None:
            sys.stdout.write(result.text)
        else:
            write_output(target, result.text.encode("utf-8"), replace=args.force)
        written += len(result.imported)
        files += 1
    where = ""
    if out is not None:
        where = f" to {files} deck file(s) in {out}" if to_folder else f" to {out}"
    dropped = f"; {len(skipped)} item(s) skipped" if skipped else ""
    print(f"quizapp import: {written} question(s) imported{where}{dropped}", file=sys.stderr)
    print(f"quizapp import: {count_line(written, len(skipped), len(notes))}", file=sys.stderr)
    return 1 if skipped else 0


def csv_counts(imported: int, result: ImportResult) -> str:
    """The count line for a CSV import: a rejected row is a skipped item, and a warning
    about columns left unread a note about dropped content."""
    from quizapp.authoring.importers.common import count_line

    return f"quizapp import: {count_line(imported, len(result.problems), len(result.warnings))}"
