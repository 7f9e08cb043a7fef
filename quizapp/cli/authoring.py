"""The authoring subcommands: `quizapp new`, `quizapp import` and `quizapp export`.

Wired into the main parser by `add_authoring_commands(commands, _Parser)`; `run_authoring`
runs whichever of them was parsed. Usage problems print one line
(`quizapp <cmd>: error: ...`) and exit 2; nothing here prints a traceback.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from quizapp.bank.fields import DEFAULT_CSV_ROWS, MAX_DECK_QUESTIONS
from quizapp.bank.literal import terminal_safe
from quizapp.cli import flag_types
from quizapp.cli.authoring_common import (
    failure,
    reference_paths,
    usage_error,
    without_file,
)
from quizapp.cli.export_gift import GIFT_EPILOG
from quizapp.cli.export_order import EXPORT_ORDER_EPILOG, add_export_order_options

AUTHORING_COMMANDS = frozenset({"new", "import", "export"})
_TYPES = ("single_choice", "multiple_choice", "true_false", "numeric", "ordering", "flashcard")

_NEW_EPILOG = """\
Without --deck the template is printed, indented to paste under a deck's `questions:`.
With --deck FILE it is appended to FILE's `questions:` list (which must end the file, as
in the bundled decks); the result is loaded before it replaces FILE, and FILE is left
untouched if anything is wrong. A FILE that is a symbolic link is followed (the file it
points to is edited, the link stays); a FIFO, device or folder is refused. The id,
`<deck topic>-new-<type>-<N>` unless --id is given, is unique across FILE, the bundled bank
and any --bank paths. A FILE that does not exist yet is started: a `deck:` header named
after the file (edit its title and weight), then the question.

The template has a live compute block: a computation that runs, with an expect: claim that
holds. Replace its example computation and claim with yours, and write every TODO: then
`quizapp lint --strict` passes with no error and no warning.
"""

_EXPORT_EPILOG = """\
csv    one row per question, in the columns `quizapp import` reads (see
       `quizapp import --help`), so an export imports back to the same questions. A
       cell starting with = + - @, a tab or a CR (which a spreadsheet would run as a
       formula) gets a leading ', and so does one starting with 's then one of those;
       `quizapp import` takes exactly that ' off again. Every row carries its deck's
       settings (deck_id, deck_title, deck_topic, deck_domain, deck_exam_weight,
       deck_description), so a deck exported and imported keeps them; `vary` holds
       every variant. UTF-8 with a byte-order mark, so that Excel shows × — √ as they
       are (--no-bom leaves it out).
json   {"format": 1, "decks": [...], "questions": [...]}: the decks' metadata and the
       question objects, so `quizapp import FILE.json` gives back the same decks. Every
       question object has every key of its type (null when absent): id, type, deck,
       topic, difficulty, tags, source, prompt, explanation, compute, vary, and
       choices+shuffle | answer+why_true+why_false |
       answer{value,from,tolerance,relative_tolerance,unit}+traps | steps | back.
anki   an .apkg (needs --out): one note per question, and per variant of a vary:
       question (up to 64; the rest are named on stderr), front and back as HTML, tagged
       with the question's tags, new cards in bank order. Decks are named quizapp::<deck id>
       (a retitled deck stays the same Anki deck). Deck ids, the note type and note guids
       are stable, so importing a re-export into Anki updates the notes instead of
       duplicating them. A note is dated by its bank file, not by the clock: Anki skips
       unchanged notes (and keeps a student's edits to them). With --previous (or --force
       over the last export) only the notes that changed since that package are newer.

moodle-xml
       Moodle's question XML: a category per deck, ids in <idnumber>, computed keys
       run and written as numbers; flashcards are reported, not written. A vary:
       question is one variant (GIFT too); stderr names the variants left out.

Questions with errors are left out and reported on stderr (exit 1).
"""

_OUT_RULES = """\
--out FILE is a new file, or with --force an existing regular file. It is written
atomically: a temporary file beside it, flushed to disk, then renamed over it. Symbolic
links are not followed: a link at FILE is refused, live or dangling (the rename would
replace the link, not its target), and so are folders, devices, FIFOs and sockets, even
with --force."""
_OUT_HELP = "a new file, or a regular file to replace with --force; symbolic links are refused"
_EXPORT_EPILOG = _EXPORT_EPILOG.replace("\nQuestions with", GIFT_EPILOG + "\nQuestions with")
_EXPORT_EPILOG += "\n" + EXPORT_ORDER_EPILOG + "\n\n" + _OUT_RULES + "\n"
# Kept equal to quizapp.authoring.importers.IMPORT_FORMATS by a test.
IMPORT_FORMATS = ("csv", "gift", "anki-text", "apkg", "json", "moodle-xml")
_FROM_HELP = (
    "the file's format (default: from the extension; a .txt is read as GIFT or as Anki "
    "notes by its content)"
)
# The deck settings `quizapp import` takes as options (DeckInfo field, argparse dest): an
# option given replaces the CSV's deck_* column for every row.
_DECK_FIELD_OPTIONS = (
    ("id", "deck_id"),
    ("title", "title"),
    ("topic", "topic"),
    ("domain", "domain"),
    ("exam_weight", "weight"),
)
# Which option names the file each command writes, for its error messages.
_OUTPUT_OPTION = {"new": "--deck", "import": "--out", "export": "--out"}

# Stands in for the column table until `quizapp import --help` is actually shown, so that
# building the parser (every quizapp run) does not import the importer and PyYAML.
_COLUMNS_EPILOG = "<the CSV columns>"
# Kept equal to quizapp.authoring.csv_import.DEFAULT_DOMAIN / DEFAULT_WEIGHT by a test.
DEFAULT_DOMAIN_HELP = "General"
DEFAULT_WEIGHT_HELP = "0.1"


class _ImportHelpFormatter(argparse.RawDescriptionHelpFormatter):
    def add_text(self, text: str | None) -> None:
        if text == _COLUMNS_EPILOG:
            from quizapp.authoring.csv_import import COLUMN_HELP

            text = "columns (* = required):\n\n" + COLUMN_HELP.split("\n", 1)[1]
        super().add_text(text)


def add_authoring_commands(
    subparsers: argparse._SubParsersAction, parser_class: type[argparse.ArgumentParser]
) -> None:
    """Register `new`, `import` and `export` on the main parser's subcommands."""
    raw = argparse.RawDescriptionHelpFormatter
    new = subparsers.add_parser(
        "new",
        help="write a template question",
        description="Write a commented template question of the given type: printed, or "
        "appended to a deck file.",
        epilog=_NEW_EPILOG,
        formatter_class=raw,
    )
    new.add_argument("--type", required=True, choices=_TYPES, help="the question type")
    new.add_argument(
        "--deck", metavar="FILE", help="append to this deck file (started if it does not exist)"
    )
    new.add_argument("--id", metavar="ID", help="the new question's id (default: generated)")
    _add_bank_options(new, "ids must be unique across")

    imp = subparsers.add_parser(
        "import",
        help="turn a CSV, GIFT, Anki or JSON file of questions into a deck file",
        description=(
            "Turn a spreadsheet saved as CSV (with a header row) into a deck file.\n"
            "Read: UTF-8 with or without a byte-order mark, UTF-16 with one (Excel's 'Unicode\n"
            "Text'), or the --encoding named; separated by commas, semicolons or tabs, guessed\n"
            "from the header unless --delimiter says. Columns quizapp does not use are ignored\n"
            "with a warning. Every row is checked by quizapp's own loader and lint: a rejected\n"
            "row is reported as FILE.csv: row N, question 'ID': reason (N as the spreadsheet\n"
            "numbers it) and left out, the other rows are written, and the exit code is 1.\n"
            "Unusable input (an unnamed encoding, no header, a misspelled or missing column)\n"
            "exits 2 and writes nothing.\n"
            "Other formats, chosen by the extension or --from (docs/authoring.md has the\n"
            "details): Moodle GIFT (.gift, or .txt), Anki's 'Notes in Plain Text' (.txt with\n"
            "#separator:/#html: headers), Anki packages (.apkg), Moodle XML (.xml: a deck per\n"
            "category) and quizapp's own JSON export (.json); a file of several decks needs\n"
            "--out FOLDER. Each item that cannot be imported is reported as WHERE: skipped:\n"
            "reason, and the exit code is 1; content dropped from an imported item (an image,\n"
            "a sound, a link's address) as WHERE: note: .... Every report ends with the\n"
            "counts: N imported, M skipped, K notes about dropped content.\n\n"
            "A cell that starts with ' followed by = + - @, a tab or a CR loses that ': it is\n"
            "the guard `quizapp export` puts on cells a spreadsheet would run as formulas.\n\n"
            "The deck's settings come from the options, else the CSV's deck_* columns (the same\n"
            "on every row: two rows that disagree are an error naming the file and line, exit\n"
            "1), else the defaults, each default named on stderr.\n\n" + _OUT_RULES
        ),
        epilog=_COLUMNS_EPILOG,
        formatter_class=_ImportHelpFormatter,
    )
    imp.add_argument("csv", metavar="FILE", help="the CSV, GIFT, Anki or JSON file")
    imp.add_argument("--from", dest="source_format", choices=IMPORT_FORMATS, help=_FROM_HELP)
    imp.add_argument(
        "--delimiter",
        type=_delimiter,
        metavar="CHAR",
        help="the cell separator: , ; tab or another character (default: guessed from the header)",
    )
    imp.add_argument(
        "--encoding",
        type=_encoding,
        metavar="NAME",
        help="the file's encoding, e.g. cp1252 for Excel's 'CSV (comma delimited)' on Windows "
        "(default: UTF-8, or UTF-16 when the file starts with its byte-order mark)",
    )
    imp.add_argument(
        "--out", metavar="FILE.yaml", help=f"write the deck here (default: stdout): {_OUT_HELP}"
    )
    imp.add_argument("--force", action="store_true", help="replace --out if it is a regular file")
    imp.add_argument(
        "--max-rows",
        type=flag_types.whole_number(1, MAX_DECK_QUESTIONS),
        default=DEFAULT_CSV_ROWS,
        metavar="N",
        help=f"refuse a CSV of more than N rows, before importing any (default "
        f"{DEFAULT_CSV_ROWS:,}, at most {MAX_DECK_QUESTIONS:,}: a deck's size)",
    )
    imp.add_argument(
        "--deck-id",
        metavar="ID",
        help="the deck id, for every row (default: a CSV's deck_id column, else from the file "
        "name)",
    )
    imp.add_argument(
        "--title",
        metavar="T",
        help="the deck title (default: a CSV's deck_title column, else from the file name)",
    )
    imp.add_argument(
        "--topic",
        metavar="T",
        help="the deck's topic (default: a CSV's deck_topic column, else the deck id)",
    )
    imp.add_argument(
        "--domain",
        metavar="D",
        help=f"the exam domain (default: a CSV's deck_domain column, else {DEFAULT_DOMAIN_HELP!r})",
    )
    imp.add_argument(
        "--weight",
        type=flag_types.EXAM_WEIGHT,
        metavar="W",
        help="the deck's exam weight, > 0 (default: a CSV's deck_exam_weight column, else "
        f"{DEFAULT_WEIGHT_HELP}; the bundled decks sum to 1)",
    )
    _add_bank_options(imp, "question and deck ids must be unique across")

    export = subparsers.add_parser(
        "export",
        help="export questions as CSV, JSON or an Anki package",
        description="Export bank files and folders (default: the bundled bank).",
        epilog=_EXPORT_EPILOG,
        formatter_class=raw,
    )
    export.add_argument(
        "--format", required=True, choices=["csv", "json", "anki", "gift", "moodle-xml"]
    )
    export.add_argument(
        "paths", nargs="*", metavar="PATH", help="files or folders (default: the bundled bank)"
    )
    export.add_argument(
        "--out",
        metavar="FILE",
        help=f"write here (default: stdout; required for anki): {_OUT_HELP}",
    )
    export.add_argument(
        "--force", action="store_true", help="replace --out if it is a regular file"
    )
    export.add_argument(
        "--no-bom",
        action="store_true",
        help="csv: leave out the UTF-8 byte-order mark (written by default so that Excel reads "
        "the file as UTF-8)",
    )
    export.add_argument(
        "--previous",
        metavar="FILE.apkg",
        help="anki: the package exported last time; notes unchanged since keep its modification "
        "times, so that Anki updates only the changed ones (default: the --out file, when "
        "--force replaces it)",
    )
    export.add_argument(
        "--no-eval",
        action="store_true",
        help="anki, gift, moodle-xml: do not run computations for keys written as `from:` "
        "(no torch import)",
    )
    add_export_order_options(export)
    export.add_argument(
        "--no-cache",
        action="store_true",
        help="anki, gift, moodle-xml: run computations afresh, not from results kept by "
        "earlier runs "
        "(QUIZAPP_NO_CACHE=1 does the same)",
    )


def _delimiter(value: str) -> str:
    from quizapp.authoring.csv_import.reading import parse_delimiter

    try:
        return parse_delimiter(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _encoding(value: str) -> str:
    from quizapp.authoring.csv_import.reading import check_encoding

    try:
        return check_encoding(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _add_bank_options(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument(
        "--bank",
        action="append",
        default=[],
        metavar="PATH",
        help=f"a bank file or folder the questions will join ({what} it; repeatable)",
    )
    parser.add_argument(
        "--no-default-bank",
        action="store_true",
        help="do not hold ids to the bundled bank",
    )


def run_authoring(args: argparse.Namespace) -> int:
    """Run `new`, `import` or `export`. Returns the exit code."""
    from quizapp.authoring.output_file import OutputError, OutputPathError

    command = args.command
    try:
        if command == "new":
            return _new(args)
        if command == "import":
            return _import(args)
        if command == "export":
            from quizapp.cli.export import run_export

            return run_export(args)
        return usage_error(command, f"unknown command {command!r}")
    except OutputPathError as exc:
        return usage_error(command, f"{_OUTPUT_OPTION.get(command, '--out')} {exc}")
    except OutputError as exc:
        return failure(command, f"{_OUTPUT_OPTION.get(command, '--out')} {exc}")
    except OSError as exc:
        where = f" {exc.filename}" if getattr(exc, "filename", None) else ""
        return failure(command, f"cannot write or read{where}: {exc.strerror or exc}")


# -- new --------------------------------------------------------------------------------------


def _new(args: argparse.Namespace) -> int:
    from quizapp.authoring.new import (
        NewQuestionError,
        append_question,
        check_id,
        collect_ids,
        new_id,
        start_deck,
        template,
    )

    references = reference_paths(args)
    if isinstance(references, str):
        return usage_error("new", references)
    try:
        if args.deck is None:
            taken, _ = collect_ids(references)
            if args.id is not None:
                check_id(args.id, taken)
            qid = args.id or new_id("", args.type, taken)
            sys.stdout.write(template(args.type, qid))
            return 0
        deck = Path(args.deck)
        started = None
        if not deck.exists() and not deck.is_symlink():
            started = start_deck(deck)  # a new deck: its header first, then the question
        others = [p for p in references if p.resolve() != deck.resolve()]
        try:
            added = append_question(deck, args.type, qid=args.id, reference_paths=others)
        except NewQuestionError:
            if started is not None:
                started.unlink(missing_ok=True)  # no half-made deck left behind
            raise
    except NewQuestionError as exc:
        return usage_error("new", str(exc))
    if started is not None:
        print(terminal_safe(f"{started}: started deck '{started.stem}'"))
    print(terminal_safe(f"{added.path}:{added.line}: added {args.type} question '{added.id}'"))
    return 0


# -- import -----------------------------------------------------------------------------------


def _import(args: argparse.Namespace) -> int:
    from quizapp.authoring.importers import ImportInputError
    from quizapp.cli.importers import import_format, run_import

    if not Path(args.csv).is_file():
        return usage_error("import", f"{args.csv}: no such file")
    try:
        source_format = import_format(args)
    except ImportInputError as exc:
        return usage_error("import", str(exc))
    if source_format != "csv":
        return run_import(args, source_format)

    from quizapp.authoring.csv_import import (
        CsvInputError,
        DeckSettingError,
        default_deck_info,
        default_notes,
        import_csv,
        read_csv_file,
    )
    from quizapp.authoring.new import collect_ids
    from quizapp.authoring.output_file import check_output, write_output
    from quizapp.cli.importers import csv_counts

    source = Path(args.csv)
    if not source.is_file():
        return usage_error("import", f"{source}: no such file")
    out = Path(args.out) if args.out else None
    replaced = out is not None and check_output(out, replace=args.force) is not None
    references = reference_paths(args)
    if isinstance(references, str):
        return usage_error("import", references)
    if out is not None and replaced:
        # The file being replaced does not count against the new questions.
        references = without_file(references, out)
    taken_ids, taken_decks = collect_ids(references)
    deck = default_deck_info(
        source,
        deck_id=args.deck_id,
        title=args.title,
        topic=args.topic,
        domain=args.domain,
        weight=args.weight,
    )
    try:
        sheet = read_csv_file(source, args.encoding)
        result = import_csv(
            sheet.text,
            deck=deck,
            path=str(args.csv),
            taken_ids=taken_ids,
            taken_decks=taken_decks,
            delimiter=args.delimiter,
            max_rows=args.max_rows,
            given=[key for key, dest in _DECK_FIELD_OPTIONS if getattr(args, dest) is not None],
        )
    except DeckSettingError as exc:  # the file's content, not its form: exit 1, as a bad row
        return failure("import", str(exc))
    except CsvInputError as exc:
        return usage_error("import", str(exc))
    for warning in sheet.warnings + result.warnings:
        print(terminal_safe(f"quizapp import: warning: {warning}"), file=sys.stderr)
    for problem in result.problems:
        print(terminal_safe(problem.format(str(args.csv))), file=sys.stderr)
    clashes = sum(1 for p in result.problems if p.question_id and p.question_id in taken_ids)
    if clashes:  # said once, not on every row: a re-import of an export clashes on all of them
        print(
            f"quizapp import: {clashes} rejected row(s) have ids the bank already has: to "
            "import them as they are, import into another bank with --bank/--no-default-bank",
            file=sys.stderr,
        )
    if result.text is None:
        if not result.rows:
            return usage_error("import", f"{args.csv} has a header but no rows")
        print(
            f"quizapp import: no question imported; {len(result.problems)} row(s) rejected",
            file=sys.stderr,
        )
        print(csv_counts(0, result), file=sys.stderr)
        return 1
    if out is None:
        sys.stdout.write(result.text)
    else:
        write_output(out, result.text.encode("utf-8"), replace=args.force)
    assert result.deck is not None
    for note in default_notes(result.deck, result.defaulted):
        print(terminal_safe(f"quizapp import: {note}"), file=sys.stderr)
    where = f" to {terminal_safe(out)}" if out is not None else ""
    rejected = f"; {len(result.problems)} row(s) rejected" if result.problems else ""
    print(
        f"quizapp import: {len(result.imported)} question(s) imported{where}{rejected}",
        file=sys.stderr,
    )
    print(csv_counts(len(result.imported), result), file=sys.stderr)
    return 1 if result.problems else 0
