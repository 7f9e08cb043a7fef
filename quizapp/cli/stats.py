"""`quizapp stats`: the review history summed up, as Rich tables or (with --json) as JSON.

The JSON keys are documented in docs/stats.md. Nothing here imports torch or textual. The
history is opened read-only: nothing is created, migrated or moved aside, and a history file
that does not exist yet reads as all zero.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING

from quizapp.bank.literal import error_line, terminal_safe
from quizapp.bank.model import Bank, Question
from quizapp.srs.study.stats import Stats, compute_stats
from quizapp.srs.study.traps_report import NO_TRAPS, TRAPS_SHOWN, traps_table

if TYPE_CHECKING:
    from rich.console import Console

    from quizapp.srs.store.history import HistoryLocation

SPARK_BLOCKS = "▁▂▃▄▅▆▇█"


def run_stats(
    db_path: HistoryLocation,
    bank: Bank | Mapping[str, Question],
    as_json: bool,
    now: datetime | None = None,
    *,
    days: int = 30,
) -> int:
    """Print the statistics of the history at `db_path` against `bank`; return the exit code.

    Exit 0 on success, 1 when the history cannot be used (one line on stderr), 2 for a bad
    `days`.
    """
    from quizapp.srs.memory.scheduling import utc_now
    from quizapp.srs.store.history import read_errors, reading_problem
    from quizapp.srs.store.open_history import open_readonly
    from quizapp.srs.store.sqlite.history_file import HistoryError

    if days < 1:
        print(f"quizapp stats: error: --days must be at least 1, not {days}", file=sys.stderr)
        return 2
    questions = bank.questions if isinstance(bank, Bank) else bank
    now = now or utc_now()
    try:
        # Read only: nothing is created, migrated or moved aside, and a history not yet
        # started reads as empty.
        with open_readonly(db_path) as store:
            stats = replace(compute_stats(store, questions, now, days=days), db_path=db_path)
    except HistoryError as exc:
        print(error_line("quizapp stats", exc), file=sys.stderr)
        return 1
    except read_errors() as exc:  # damage or trouble found while reading: said, not acted on
        print(error_line("quizapp stats", reading_problem(db_path, exc)), file=sys.stderr)
        return 1
    if as_json:
        print(json.dumps(stats.as_json(), indent=2))
    else:
        render(stats)
    return 0


# -- the human version ---------------------------------------------------------------------


def render_traps(stats: Stats, out: Console) -> None:
    """ "Your traps": the wrong answers picked most, each with the bank's why (literal text)."""
    if not stats.traps:
        out.print(NO_TRAPS, highlight=False)
        return
    table = traps_table(stats.traps)
    out.print(table)
    more = len(stats.traps) - TRAPS_SHOWN
    if more > 0:
        out.print(f"…and {more} more (--json lists them all).", highlight=False)
    out.print("Drill them: quizapp drill --traps", style="dim", highlight=False)


def sparkline(values: Sequence[int]) -> str:
    """One block per value, scaled to the largest; zero is a blank-ish lowest block."""
    top = max(values, default=0)
    if top <= 0:
        return SPARK_BLOCKS[0] * len(values)
    last = len(SPARK_BLOCKS) - 1
    return "".join(SPARK_BLOCKS[0 if v <= 0 else max(1, round(v / top * last))] for v in values)


def percent(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.0f}%"


def duration(seconds: float) -> str:
    minutes = round(seconds / 60)
    if minutes < 60:
        return f"{minutes} min"
    return f"{minutes // 60} h {minutes % 60:02d} min"


def render(stats: Stats, console: Console | None = None) -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    out = console or Console()
    totals = stats.totals
    retention = stats.true_retention
    retention_note = (
        f" ({totals.review_state_correct} of {totals.review_state_answers} review-state answers)"
        if retention is not None
        else " (no answers to cards in review yet)"
    )

    overview = Table(title="Overview", title_justify="left", show_header=False)
    overview.add_column("what")
    overview.add_column("value", justify="right")
    overview.add_row("Streak", f"{stats.streak_days} day{'s' if stats.streak_days != 1 else ''}")
    overview.add_row("True retention", percent(retention) + retention_note)
    overview.add_row(
        "Answers",
        stats.answers_summary(),
    )
    overview.add_row("Accuracy", percent(totals.accuracy))
    overview.add_row(
        "Study time", f"{duration(totals.study_seconds)} over {totals.study_days} days"
    )
    overview.add_row(
        "Questions",
        f"{totals.seen} of {totals.questions} seen in any mode, {totals.scheduled} scheduled,"
        f" {totals.new} not yet scheduled, {totals.mastered} mastered"
        + (f", {totals.suspended} suspended" if totals.suspended else ""),
    )
    overview.add_row("Due", stats.due_summary())
    if totals.exams:
        overview.add_row("Exams", f"{totals.exams_passed} of {totals.exams} passed")
    overview.add_row(
        "Scheduler",
        "FSRS, py-fsrs's default parameters"
        if stats.fitted is None
        else f"FSRS {stats.fitted.summary()}",
    )
    out.print(overview)

    per_day = [d.reviews for d in stats.reviews_per_day]
    out.print(
        f"[bold]Reviews per day[/bold], {stats.reviews_per_day[0].day:%b %d} to today "
        f"(peak {max(per_day, default=0)}):"
    )
    out.print(sparkline(per_day), style="cyan", highlight=False)
    forecast = [d.due for d in stats.due_forecast]
    out.print(
        f"[bold]Due per day[/bold], today to {stats.due_forecast[-1].day:%b %d} "
        f"({stats.due_summary()}; next 7 days {sum(forecast[:7])}, "
        f"next {stats.forecast_days} days {sum(forecast)}):"
    )
    out.print(sparkline(forecast), style="yellow", highlight=False)

    if stats.topics:
        topics = Table(title="By topic", title_justify="left")
        topics.add_column("Topic")
        for heading in ("Answered", "Correct", "Accuracy", "Questions", "Mastered", "Mastery"):
            topics.add_column(heading, justify="right")
        for t in stats.topics:
            topics.add_row(
                Text(terminal_safe(t.topic)),  # bank text, not Rich markup
                f"{t.answered:,}",
                f"{t.correct:,}",
                percent(t.accuracy),
                str(t.questions),
                str(t.mastered),
                percent(t.mastery),
            )
        out.print(topics)

    render_traps(stats, out)

    if stats.exams:
        exams = Table(title="Exams", title_justify="left")
        exams.add_column("Taken")
        for heading in ("Score", "Result", "Time"):
            exams.add_column(heading, justify="right")
        for e in stats.exams:
            exams.add_row(
                f"{e.taken.astimezone():%Y-%m-%d %H:%M}",
                f"{e.correct}/{e.questions} ({percent(e.score)})",
                "[green]passed[/green]" if e.passed else "[red]failed[/red]",
                duration(e.seconds),
            )
        out.print(exams)
    else:
        out.print("No exams taken yet.")

    out.print(
        terminal_safe(f"History:  {stats.db_path or 'in memory'}"),
        style="dim",
        markup=False,
        highlight=False,
    )
    out.print(
        terminal_safe(f"Settings: {stats.config_path}"), style="dim", markup=False, highlight=False
    )
