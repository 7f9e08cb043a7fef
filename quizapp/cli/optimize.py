"""`quizapp optimize`: fit FSRS to the review history, as far as the history supports.

From 40 reviews a day or more apart, the initial stabilities only (quizapp/srs/memory/pretrain.py);
from 512, all 21 parameters with py-fsrs's own optimizer. Fits on the earlier 80 % of the
reviews, reports the log-loss of py-fsrs's default parameters
and of the fitted ones on the latest 20 % (held out), and stores the fit with the history:
drills schedule with it from then on when it predicts better. `--reset` goes back to the
defaults for good; `--default-parameters` on `quizapp`, `drill` and `exam` for one run.
Torch is imported only once py-fsrs's optimizer runs (quizapp/srs/memory/optimize.py).
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from quizapp.bank.literal import error_line
from quizapp.cli.forecast import exam_date_argument, moment_argument

if TYPE_CHECKING:
    from quizapp.srs.store.history import HistoryLocation

PROG = "quizapp optimize"


def add_optimize_command(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    optimize = subparsers.add_parser(
        "optimize",
        help="fit the scheduler to your review history",
        description="Fit FSRS's parameters to your review history with py-fsrs's optimizer. "
        "It fits on the earlier 80 % of your reviews and reports the log-loss of the default "
        "and the fitted parameters on the latest 20 %, held out. The fit is stored with the "
        "history, and drills schedule with it from then on if it predicts better. From 40 "
        "reviews given a day or more after the card's previous one it fits the initial "
        "stabilities only; from 512, all 21 parameters. With an exam date, the optimal "
        "retention is for the days left to the exam.",
    )
    optimize.add_argument(
        "--db",
        metavar="PATH",
        default=argparse.SUPPRESS,
        help="the review history: a SQLite file or a postgresql:// URL (default: $QUIZAPP_DB, "
        "else db in config.toml, else the user data folder)",
    )
    optimize.add_argument(
        "--student",
        metavar="NAME",
        default=argparse.SUPPRESS,
        help="whose history, on a PostgreSQL --db (default: $QUIZAPP_STUDENT, else student in "
        "config.toml)",
    )
    optimize.add_argument("--json", action="store_true", help="print the fit as JSON")
    optimize.add_argument(
        "--no-retention",
        action="store_true",
        help="skip the optimal retention for your workload (py-fsrs's year, ~10 s; or the days "
        "to the exam, ~1 s)",
    )
    optimize.add_argument(
        "--exam-date",
        type=exam_date_argument,
        metavar="DATE",
        default=argparse.SUPPRESS,
        help="the exam's date, e.g. 2027-01-15: the optimal retention is for the days left to "
        "it (default: exam_date in config.toml; without one, py-fsrs's year)",
    )
    optimize.add_argument(
        "--now",
        type=moment_argument,
        metavar="WHEN",
        default=argparse.SUPPRESS,
        help="testing aid: fit as if it were WHEN (2026-12-02 is 09:00 that day)",
    )
    optimize.add_argument(
        "--reset",
        action="store_true",
        help="stop using fitted parameters: back to py-fsrs's defaults (fits are kept)",
    )
    # For the app, which runs this command in a child process: progress as lines on stderr.
    optimize.add_argument("--progress-lines", action="store_true", help=argparse.SUPPRESS)
    return optimize


def run_optimize(args: argparse.Namespace) -> int:
    from quizapp.cli.history_option import LocationProblem, history_location
    from quizapp.srs.config import ConfigError, load_settings
    from quizapp.srs.store.sqlite.history_file import HistoryError

    try:
        settings = load_settings()
    except ConfigError:
        settings = None  # the fit itself needs no setting; _desired_retention says so
    try:
        db = history_location(args, settings)
    except LocationProblem as exc:
        return _fail(exc, code=exc.status)
    try:
        if args.reset:
            return _reset(db)
        exam_date = getattr(args, "exam_date", None) or (settings and settings.exam_date)
        return _fit(db, args, _exam_moment(exam_date) if exam_date else None)
    except HistoryError as exc:
        return _fail(exc)


def _reset(db: HistoryLocation) -> int:
    from quizapp.srs.store.fits import stop_using_fits
    from quizapp.srs.store.open_history import open_in_place

    if isinstance(db, Path) and not db.exists():
        print(f"No review history at {db}: the default parameters are in use.")
        return 0
    with open_in_place(db) as store:
        stopped = stop_using_fits(store)
    if stopped:
        print("Back to py-fsrs's default parameters; the fitted ones stay in the history, unused.")
    else:
        print("py-fsrs's default parameters were already in use.")
    return 0


def _exam_moment(day: date) -> datetime:
    """The exam's moment, as the forecast takes it: 09:00 local time on its date."""
    from quizapp.srs.clock import MORNING

    return datetime.combine(day, MORNING).astimezone()


def _fit(db: HistoryLocation, args: argparse.Namespace, exam_at: datetime | None) -> int:
    from quizapp.cli.progress import StatusLine
    from quizapp.srs.memory.optimize import PROGRESS_PREFIX, FitRefused, fit, report_lines
    from quizapp.srs.memory.scheduling import utc_now
    from quizapp.srs.store.fits import save_fit
    from quizapp.srs.store.history import read_errors, reading_problem
    from quizapp.srs.store.open_history import open_in_place, open_readonly

    if isinstance(db, Path) and not db.exists():
        return _fail(f"there is no review history at {db} yet: answer some questions first")
    try:
        with open_readonly(db) as store:
            rows = list(store.reviews())
    except read_errors() as exc:
        return _fail(reading_problem(db, exc))

    status = StatusLine(PROG, delay=0)

    def progress(step: int, steps: int, text: str) -> None:
        if args.progress_lines:
            print(f"{PROGRESS_PREFIX}{step}/{steps} {text}", file=sys.stderr, flush=True)
        else:
            status.label = text
            status(step, steps)

    try:
        outcome = fit(
            rows,
            now=utc_now(),
            retention=not args.no_retention,
            progress=progress,
            exam_at=exam_at,
        )
    except FitRefused as exc:
        return _fail(exc)
    finally:
        status.clear()
    try:
        with open_in_place(db) as store:
            save_fit(store, outcome.record)
    except read_errors() as exc:
        return _fail(f"the fit could not be saved: {reading_problem(db, exc)}")
    lines = report_lines(outcome, _desired_retention())
    if args.json:
        print(json.dumps({"fit": outcome.record.as_json(), "report": lines}, indent=2))
    else:
        print("\n".join(lines))
    return 0


def _desired_retention() -> float | None:
    """For the report's comparison only: a broken config file does not stop a fit."""
    from quizapp.srs.config import ConfigError, load_settings

    try:
        return load_settings().desired_retention
    except ConfigError:
        return None


def _fail(message: object, code: int = 1) -> int:
    print(error_line(PROG, message), file=sys.stderr)
    return code
