"""`quizapp forecast`: the predicted exam score, how far to trust it, and today's plan.

Also the options the exam date brings to `quizapp` and `quizapp drill` (`--exam-date`), and
the clock override `--now` (a testing aid: try the app on another day). The history is opened
read-only: nothing is created, migrated or moved. Nothing here imports torch or textual.
The JSON keys are documented in docs/forecast.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import date, datetime
from typing import TYPE_CHECKING

from quizapp.bank.literal import error_line, terminal_safe
from quizapp.cli import flag_types

if TYPE_CHECKING:
    from rich.console import Console

    from quizapp.bank.model import Bank
    from quizapp.srs.readiness.exam_model import ScoreSummary
    from quizapp.srs.readiness.report import Readiness
    from quizapp.srs.store.history import HistoryLocation

SPARK_BLOCKS = "▁▂▃▄▅▆▇█"


def exam_date_argument(text: str) -> date:
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a date like 2027-01-15, not {text!r}") from None


# --now is a testing aid: any day of these years (the dates a history can hold).
NOW_YEARS = (2000, 2999)


def moment_argument(text: str) -> datetime:
    from quizapp.srs.clock import parse_moment

    try:
        moment = parse_moment(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a date (2026-12-02) or a date and time (2026-12-02T18:30), not {text!r}"
        ) from None
    if not NOW_YEARS[0] <= moment.year <= NOW_YEARS[1]:  # the exam horizon is added to it
        raise argparse.ArgumentTypeError(
            f"expected a moment in the years {NOW_YEARS[0]} to {NOW_YEARS[1]}, not {text!r}"
        )
    return moment


def add_exam_date_options(group: argparse._ActionsContainer, *, on_subcommand: bool) -> None:
    """`--exam-date` and `--now`; on a subcommand they default to SUPPRESS, as the app's do."""
    extra = {"default": argparse.SUPPRESS} if on_subcommand else {}
    group.add_argument(
        "--exam-date",
        type=exam_date_argument,
        metavar="DATE",
        help="the exam's date, e.g. 2027-01-15: drills follow a plan to it "
        "(default: exam_date in config.toml)",
        **extra,
    )
    group.add_argument(
        "--now",
        type=moment_argument,
        metavar="WHEN",
        help="testing aid: run as if it were WHEN (2026-12-02 is 09:00 that day); the clock "
        "moves on from there",
        **extra,
    )


def add_forecast_command(commands: argparse._SubParsersAction) -> argparse.ArgumentParser:
    forecast = commands.add_parser(
        "forecast",
        help="the predicted exam score, its 80%% interval and today's plan",
        description="Predict the score on an exam sampled as `quizapp exam` samples, by topic "
        "and by day to the exam date, with the study plan followed and with no further study; "
        "check the prediction against your past reviews. JSON keys: docs/forecast.md.",
    )
    forecast.add_argument("--json", action="store_true", help="print JSON")
    forecast.add_argument(
        "--questions",
        type=flag_types.QUESTIONS,
        default=None,
        metavar="N",
        help="the exam's length (default 20, as quizapp exam)",
    )
    forecast.add_argument(
        "--default-parameters",
        action="store_true",
        default=argparse.SUPPRESS,
        help="predict with py-fsrs's default parameters, not those fitted by `quizapp optimize`",
    )
    add_exam_date_options(forecast, on_subcommand=True)
    return forecast


def run_forecast(args: argparse.Namespace, bank: Bank, db_path: HistoryLocation) -> int:
    """Print the readiness report; 0, or 1 when the history cannot be used, 2 for bad input."""
    from quizapp.exam.sampling import DEFAULT_QUESTIONS
    from quizapp.srs.config import ConfigError, load_settings
    from quizapp.srs.memory.scheduling import utc_now
    from quizapp.srs.readiness.report import assess, store_available
    from quizapp.srs.readiness.report_json import readiness_json
    from quizapp.srs.store.history import read_errors, reading_problem
    from quizapp.srs.store.open_history import open_readonly
    from quizapp.srs.store.sqlite.history_file import HistoryError

    prog = "quizapp forecast"
    questions = args.questions if args.questions is not None else DEFAULT_QUESTIONS
    if questions < 1:
        print(error_line(prog, f"--questions must be at least 1, not {questions}"), file=sys.stderr)
        return 2
    try:
        settings = load_settings()
    except ConfigError as exc:
        print(error_line(prog, exc), file=sys.stderr)
        return 2
    if not any(d.questions for d in bank.decks):
        print(error_line(prog, "no questions loaded"), file=sys.stderr)
        return 1
    try:
        with open_readonly(db_path) as store:
            report = assess(
                store,
                bank.decks,
                settings,
                utc_now(),
                exam_date=args.exam_date,
                exam_questions=questions,
                available=store_available(store, bank),
                use_fitted=not getattr(args, "default_parameters", False),
            )
    except HistoryError as exc:
        print(error_line(prog, exc), file=sys.stderr)
        return 1
    except read_errors() as exc:
        print(error_line(prog, reading_problem(db_path, exc)), file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(readiness_json(report), indent=2))
    else:
        render(report)
    return 0


# -- the human version ---------------------------------------------------------------------------


def percent(value: float | None) -> str:
    from quizapp.cli.stats import percent as stats_percent  # one format for both reports

    return stats_percent(value)


def _score_line(label: str, s: ScoreSummary) -> str:
    return (
        f"{label}: {percent(s.mean)} (80%: {percent(s.low)}–{percent(s.high)}), "
        f"chance of passing {percent(s.pass_chance)}"
    )


def spark(values: list[float], low: float, high: float) -> str:
    """One block per value on a shared scale from `low` to `high`."""
    span = high - low
    last = len(SPARK_BLOCKS) - 1
    return "".join(
        SPARK_BLOCKS[0 if span <= 0 else max(0, min(last, round((v - low) / span * last)))]
        for v in values
    )


def render(report: Readiness, console: Console | None = None) -> None:
    from rich.console import Console

    out = console or Console(highlight=False)
    threshold = percent(report.threshold)
    if report.planning:
        days = report.days_left
        out.print(
            f"[bold]Exam {report.exam_date:%a %d %b %Y}[/bold] (in {days} day{'s' if days != 1 else ''}), "
            f"{report.blueprint.questions} questions, pass at {threshold}"
        )
    elif report.exam_date is not None:
        out.print(
            f"[bold]The exam date, {report.exam_date:%d %b %Y}, has passed[/bold]: "
            f"forecast for an exam now; drills are plain FSRS."
        )
    else:
        out.print(
            f"[bold]No exam date[/bold] (set exam_date in config.toml or pass --exam-date): "
            f"forecast for an exam now, {report.blueprint.questions} questions, pass at {threshold}."
        )
    basis = report.basis
    if not report.enough_evidence:
        # No confident figure: the distribution is in --json, flagged (evidence.enough false).
        out.print(
            f"[bold]{basis.not_enough[0].upper()}{basis.not_enough[1:]}[/bold] ({basis.text})."
        )
    elif report.plan_shown is not None:
        out.print(_score_line("Predicted score, plan followed", report.plan_shown.overall))
        out.print(_score_line("With no further study", report.as_is.overall), style="dim")
    elif report.with_plan is not None:  # the plan's figures rest on how fast you forget
        out.print(f"[bold]Plan followed[/bold]: {basis.plan_not_enough}.")
        out.print(_score_line("Predicted score, no further study", report.as_is.overall))
    else:
        out.print(_score_line("Predicted score", report.as_is.overall))
    if report.enough_evidence:
        checked = report.calibration.intervals
        held = f"; {checked.text}" if checked.enough else ""  # how often such intervals held
        out.print(f"{basis.text[0].upper()}{basis.text[1:]}{held}.")
    if report.today is not None:
        cards = len(report.today.choices)
        out.print(
            f"Today's plan: {cards} card{'s' if cards != 1 else ''}, about "
            f"{report.today.minutes:.0f} min ({report.minutes_per_card * 60:.0f} s a card; "
            f"{report.budget_minutes:g} min a day, {report.minutes_today:.0f} done today)"
        )
    if report.enough_evidence:
        _render_figures(report, out)
    _render_calibration(report, out)


def _render_figures(report: Readiness, out: Console) -> None:
    from rich.table import Table
    from rich.text import Text

    topics = Table(title="By topic", title_justify="left")
    topics.add_column("Topic")
    topics.add_column("Questions", justify="right")
    topics.add_column("Predicted", justify="right")
    topics.add_column("80%", justify="right")
    topics.add_column("Pass", justify="right")
    if report.plan_shown is not None:
        topics.add_column("No study", justify="right")
    headline = report.shown.topics
    for topic, summary in headline.items():
        row = [
            Text(terminal_safe(report.topic_titles.get(topic, topic))),
            str(summary.questions),
            percent(summary.mean),
            f"{percent(summary.low)}–{percent(summary.high)}",
            percent(summary.pass_chance),
        ]
        if report.plan_shown is not None:
            row.append(percent(report.as_is.topics[topic].mean))
        topics.add_row(*row)
    out.print(topics)

    if report.projection is not None:
        projection = report.projection
        plan = report.plan_shown is not None  # no plan line without evidence of forgetting
        plan_range = (
            f"plan {percent(projection.with_plan[0])} → {percent(projection.with_plan[-1])}, "
        )
        out.print(
            f"[bold]Predicted score by day[/bold], today to the exam "
            f"({plan_range if plan else ''}"
            f"no study {percent(projection.no_study[0])} → {percent(projection.no_study[-1])}):"
        )
        every = (projection.with_plan if plan else ()) + projection.no_study
        low, high = min(every), max(every)
        if plan:
            out.print("plan      " + spark(list(projection.with_plan), low, high), style="green")
        out.print("no study  " + spark(list(projection.no_study), low, high), style="yellow")


def _render_calibration(report: Readiness, out: Console) -> None:
    from rich.table import Table

    out.print(f"Memory model: {report.parameters_note}.", style="dim")
    calibration = report.calibration
    out.print(f"[bold]How far to trust it[/bold]: {calibration.verdict()}")
    if calibration.enough:
        table = Table(show_edge=False)
        table.add_column("Predicted")
        table.add_column("Reviews", justify="right")
        table.add_column("Mean predicted", justify="right")
        table.add_column("Right", justify="right")
        for b in calibration.table:
            if b.count:
                table.add_row(
                    f"{percent(b.low)}–{percent(b.high)}",
                    f"{b.count:,}",
                    percent(b.mean_predicted),
                    percent(b.share_right),
                )
        out.print(table)
