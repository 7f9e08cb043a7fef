"""`quizapp class report`: item analysis of the class's answers and each student's standing,
as tables (80 columns), JSON or CSV. The statistics: quizapp/classroom/item_analysis.py; the
words: docs/class-report.md. The history is opened read-only. No torch, no textual.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from datetime import date, datetime, time
from typing import TYPE_CHECKING, TextIO

from quizapp.bank.literal import error_line, terminal_safe
from quizapp.cli.class_admin import add_class_admin_commands, run_class_admin
from quizapp.cli.forecast import exam_date_argument

if TYPE_CHECKING:
    from rich.console import Console

    from quizapp.classroom.report import ClassReport

PROG = "quizapp class report"
FORMATS = ("table", "json", "csv")
# The least room the wrapping columns keep beside the ids: a response ("✓B:100%") and a flag
# ("distractor") each on a line of its own; a longer one (a trap "1.31072e+08:0%") folds.
RESPONSES_WIDTH = 10
FLAGS_WIDTH = len("distractor")
SHORTEST_QUESTION_WIDTH = 12  # an id cut shorter than this would name nothing


def since_argument(text: str) -> date:
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a date like 2026-11-01, not {text!r}") from None


def add_class_command(commands: argparse._SubParsersAction, parser_class: type) -> None:
    group = commands.add_parser(
        "class",
        help="for the instructor: set a class up on PostgreSQL, its students, its report",
        description="Commands for the instructor.",
    )
    actions = group.add_subparsers(
        dest="class_command", metavar="ACTION", parser_class=parser_class, required=True
    )
    report = actions.add_parser(
        "report",
        help="facility, discrimination and response shares per question; students' standing",
        description="Per question: students who answered, facility index, discrimination "
        "index, the share choosing each option or trap, and flags for dubious items (flagged "
        "first). Per student: topic mastery and, with an exam date, the predicted score. On a "
        "local history it covers its one student. Every statistic: docs/class-report.md.",
    )
    report.add_argument(
        "--db",
        metavar="PATH|URL",
        help="the review history: a SQLite file, or the class's postgresql:// URL (default: "
        "quizapp's own --db, else $QUIZAPP_DB, else db in config.toml, else the user data "
        "folder)",
        # No default of its own: it would overwrite `quizapp --db X class report`'s X.
        default=argparse.SUPPRESS,
    )
    report.add_argument("--deck", metavar="D", help="only this deck's questions (its id)")
    report.add_argument(
        "--since",
        type=since_argument,
        metavar="DATE",
        help="only first attempts on or after DATE (local midnight)",
    )
    report.add_argument(
        "--format", choices=FORMATS, default="table", help="output format (default table)"
    )
    report.add_argument(
        "--exam-date",
        type=exam_date_argument,
        metavar="DATE",
        help="predict each student's score on this exam date (default: exam_date in config.toml)",
    )
    report.add_argument(
        "--bank",
        action="append",
        default=[],
        metavar="PATH",
        help="add an instructor's bank file or folder (repeatable)",
    )
    report.add_argument("--no-default-bank", action="store_true", help="leave the bundled bank out")
    add_class_admin_commands(actions)


def _fail(message: object, code: int) -> int:
    print(error_line(PROG, message), file=sys.stderr)
    return code


def run_class(args: argparse.Namespace) -> int:
    """`quizapp class ACTION`."""
    if args.class_command == "report":
        return run_class_report(args)
    return run_class_admin(args)


def run_class_report(args: argparse.Namespace) -> int:
    """Print the report; 0, 1 when the history cannot be used, 2 for bad input."""
    from quizapp.bank import bundled_bank_path, load_bank_cached
    from quizapp.classroom.history import ClassHistoryError
    from quizapp.classroom.load import load_class_history
    from quizapp.classroom.report import build_report
    from quizapp.cli.history_option import (
        LocationProblem,
        db_given,
        postgres_url_problem,
        sqlite_path,
    )
    from quizapp.cli.options import computation_names
    from quizapp.srs.config import ConfigError, load_settings
    from quizapp.srs.memory.scheduling import utc_now
    from quizapp.srs.store.history import is_postgres_url, redacted
    from quizapp.srs.store.paths import default_db_path

    try:
        settings = load_settings()
    except ConfigError as exc:
        return _fail(exc, 2)
    given, source = db_given(args, settings)  # no student: the report is the instructor's
    db = given.strip() if given and is_postgres_url(given) else given or str(default_db_path())
    if is_postgres_url(db):
        problem = postgres_url_problem(db)
        if problem:
            return _fail(f"{source} {redacted(db)}: {problem}", 1)
        refused = _report_refusal(db)
        if refused:
            return _fail(*refused)
    else:
        try:
            db = str(sqlite_path(db, source))
        except LocationProblem as exc:
            return _fail(exc, exc.status)
    paths = ([] if args.no_default_bank else [bundled_bank_path()]) + list(args.bank)
    if not paths:
        return _fail("--no-default-bank needs at least one --bank PATH", 2)
    # Held to the registry as the app is: the same cached bank, and the questions it serves.
    bank = load_bank_cached(paths, computations=computation_names)
    for problem in bank.errors:
        print(problem.format(), file=sys.stderr)
    if not bank.questions:
        return _fail("no questions loaded", 1)
    deck_ids = [d.id for d in bank.decks]
    if args.deck is not None and args.deck not in deck_ids:
        return _fail(f"--deck {args.deck!r} is not a deck (decks: {', '.join(deck_ids)})", 2)
    since = datetime.combine(args.since, time()).astimezone() if args.since else None
    now = utc_now()
    try:
        history = load_class_history(db, bank.decks, settings, now, exam_date=args.exam_date)
    except ClassHistoryError as exc:
        return _fail(exc, 1)
    report = build_report(history, bank.decks, now, deck=args.deck, since=since)
    if report.scope_note and args.format != "table":
        print(f"{PROG}: note: {report.scope_note}", file=sys.stderr)
    if args.format == "json":
        print(json.dumps(report.as_json(), indent=2))
    elif args.format == "csv":
        write_csv(report)
    else:
        render(report)
    if args.format != "table":  # the table says it beneath itself; JSON also in ignored_rows
        for note in report.notes():
            print(f"{PROG}: note: {terminal_safe(note)}", file=sys.stderr)
    return 0


def _report_refusal(url: str) -> tuple[str, int] | None:
    """(why, exit status) when this URL's role may not read the class report: a student's
    role is refused (2), a server that cannot be reached says so (1)."""
    from quizapp.classroom.roles import report_refusal
    from quizapp.srs.store.postgres.store import connect
    from quizapp.srs.store.sqlite.history_file import HistoryError

    try:
        with connect(url) as connection:
            refusal = report_refusal(connection)
    except HistoryError as exc:
        return str(exc), 1
    return (refusal, 2) if refusal else None


def write_csv(report: ClassReport, out: TextIO | None = None) -> None:
    """The report's rows; every text cell through the spreadsheet formula guard."""
    from quizapp.authoring.csv_cells import guard_cell
    from quizapp.classroom.report import CSV_COLUMNS

    writer = csv.DictWriter(out or sys.stdout, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in report.csv_rows():
        writer.writerow(
            {
                column: guard_cell(value) if isinstance(value, str) else value
                for column, value in row.items()
            }
        )


def _question_width(report: ClassReport, width: int, *, flagged: bool) -> int:
    """The Question column's width: its longest id, or what the table leaves at `width`."""
    longest = max(len(terminal_safe(item.question_id)) for item in report.items)
    students = len(str(max(item.students for item in report.items)))
    columns = 6 if flagged else 5
    lines_and_padding = columns + 1 + 2 * columns
    figures = max(students, len("N")) + len("Facility") + len("Discr.")
    wrapping = RESPONSES_WIDTH + (FLAGS_WIDTH if flagged else 0)
    room = width - lines_and_padding - figures - wrapping
    return max(SHORTEST_QUESTION_WIDTH, min(longest, room))


def render(report: ClassReport, console: Console | None = None) -> None:
    """The report as tables that read at 80 columns; bank text shown literally."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from quizapp.classroom.report import (
        LEGEND,
        PREDICTED_LEGEND,
        discrimination_text,
        flags_text,
        predicted_cell,
        responses_text,
        share_text,
    )
    from quizapp.classroom.row_checks import shown_name

    out = console or Console(highlight=False)
    scope = f"deck {terminal_safe(report.deck)}" if report.deck else "every deck"
    since = f", since {report.since:%d %b %Y}" if report.since else ""
    students = len(report.students)
    out.print(
        Text(
            f"Class report: {students} student{'s' if students != 1 else ''}, "
            f"{len(report.items)} questions answered ({scope}{since})",
            style="bold",
        )
    )
    if report.scope_note:
        out.print(Text(terminal_safe(report.scope_note), style="bold yellow"))
    if not report.items:
        out.print("No first attempts to report yet.")
    else:
        items = Table(title="Questions, flagged first", title_justify="left", expand=False)
        # Ids whole (the bank's run to 31 characters) on one line: the responses and flags
        # wrap to make room, the figures never do. Only where the table is too narrow for
        # that does an id end in "…".
        flagged = any(item.flags for item in report.items)
        items.add_column(
            "Question",
            no_wrap=True,
            overflow="ellipsis",
            max_width=_question_width(report, out.width, flagged=flagged),
        )
        items.add_column("N", justify="right", no_wrap=True)
        items.add_column("Facility", justify="right", no_wrap=True)
        items.add_column("Discr.", justify="right", no_wrap=True)
        items.add_column("Responses", overflow="fold", ratio=3)
        if flagged:  # the column only when there is something in it
            items.add_column("Flags", overflow="fold", style="bold red")
        for item in report.items:
            question = report.questions[item.question_id]
            cells = [
                Text(terminal_safe(item.question_id)),
                str(item.students),
                share_text(item.facility),
                discrimination_text(item.discrimination),
                Text(terminal_safe(responses_text(item, question, separator=":"))),
            ]
            items.add_row(*cells, *([Text(flags_text(item))] if flagged else []))
        out.print(items)
        out.print(Text(LEGEND, style="dim"))
    table = Table(title="Students", title_justify="left")
    table.add_column("Student", overflow="fold")
    table.add_column("Answered", justify="right")
    table.add_column("Score", justify="right")
    table.add_column("Predicted exam", justify="right")
    table.add_column("Topic mastery", overflow="fold")
    for row in report.students:
        mastery = ", ".join(
            f"{topic} {share_text(value)}" for topic, value in row.record.topic_mastery.items()
        )
        table.add_row(
            Text(shown_name(row.student)),
            str(row.answered),
            share_text(row.score),
            "left out"
            if row.record.left_out
            else predicted_cell(row.record)
            + (f"\nno study {share_text(row.record.no_study.mean)}" if row.record.no_study else ""),
            Text(terminal_safe(mastery)),
        )
    out.print(table)
    if any(row.record.predicted or row.record.forecast_note for row in report.students):
        out.print(Text(PREDICTED_LEGEND, style="dim"))
    for note in report.notes():  # rows a student's history held that no app writes
        out.print(Text(terminal_safe(note), style="yellow"))
