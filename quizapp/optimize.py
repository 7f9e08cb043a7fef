"""Fit FSRS to the student's history with py-fsrs's own `Optimizer`, and judge the fit.

The optimizer (the `fsrs[optimizer]` extra: torch, pandas, tqdm) is imported here, inside
`fit`, never at module level: `quizapp optimize` and the app's "Fit the scheduler to my
history" load torch only when a fit runs. What is fitted on, what is held out and how a fit
is judged are in quizapp/srs/fitting.py.
"""

from __future__ import annotations

import importlib.metadata
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from quizapp.srs.fit_store import FitRecord
from quizapp.srs.fitting import (
    HELD_OUT_SHARE,
    MIN_RETENTION_LOGS,
    FitData,
    Score,
    prepare,
    refusal,
    score,
    valid_parameters,
)
from quizapp.srs.store import ReviewRow

Progress = Callable[[int, int, str], None]  # (step, steps, what is being done)

PROGRESS_PREFIX = "progress "  # `--progress-lines` on stderr: "progress 2/4 Checking the fit…"
OPTIMIZER_PASSES = 5  # fsrs.optimizer's num_epochs, for the progress text
REPORT_WIDTH = 64  # the report fits the app's dialog at 80 columns, and any terminal


class FitRefused(Exception):
    """The history cannot be fitted (too little of it, or no optimizer): the one-line reason."""


@dataclass(frozen=True)
class FitOutcome:
    record: FitRecord  # as it is to be stored; `in_use` says whether drills use it
    data: FitData
    before: Score  # py-fsrs's defaults on the held-out reviews
    after: Score  # the fitted parameters on the same reviews
    optimal_retention: float | None
    retention_note: str | None  # why there is no optimal retention, when there is none


def load_optimizer() -> type:
    """py-fsrs's Optimizer class; imports torch. FitRefused when the extra is missing."""
    try:
        import pandas  # noqa: F401  (py-fsrs swaps in a stub Optimizer when these are missing)
        import torch  # noqa: F401
        import tqdm  # noqa: F401
        from fsrs.optimizer import Optimizer
    except ImportError as exc:
        raise FitRefused(
            f"py-fsrs's optimizer is not installed ({exc}); install it with: "
            "pip install 'fsrs[optimizer]'"
        ) from None
    return Optimizer


def fit(
    rows: Sequence[ReviewRow],
    *,
    now: datetime,
    retention: bool = True,
    progress: Progress | None = None,
) -> FitOutcome:
    """Fit on the earlier 80 % of the reviews, judge on the rest, and (with `retention`) ask
    py-fsrs for the optimal retention for this workload. Stores nothing."""
    say = progress or (lambda step, steps, text: None)
    steps = 3 if retention else 2
    data = prepare(rows)
    reason = refusal(data)
    if reason is not None:
        raise FitRefused(reason)
    optimizer_class = load_optimizer()
    say(
        1,
        steps,
        f"Fitting FSRS to {len(data.train):,} reviews with py-fsrs's optimizer "
        f"({OPTIMIZER_PASSES} passes)",
    )
    found = optimizer_class(list(data.train)).compute_optimal_parameters()
    fitted = valid_parameters(found)
    if fitted is None:
        raise FitRefused(f"py-fsrs's optimizer returned no usable parameters ({found!r})")

    from fsrs.scheduler import DEFAULT_PARAMETERS

    say(2, steps, f"Checking the fit on {data.scored:,} held-out reviews")
    before, after = score(DEFAULT_PARAMETERS, data), score(fitted, data)
    in_use = after.log_loss < before.log_loss
    optimal, note = None, None
    if retention:
        say(3, steps, "Working out the optimal retention for your workload (a year simulated)")
        optimal, note = _optimal_retention(
            optimizer_class, data, fitted if in_use else DEFAULT_PARAMETERS
        )
    record = FitRecord(
        fitted_at=now,
        parameters=fitted,
        reviews=len(data.train),
        held_out=after.reviews,
        log_loss_before=before.log_loss,
        log_loss_after=after.log_loss,
        in_use=in_use,
        detail={
            "rmse_bins_before": before.rmse_bins,
            "rmse_bins_after": after.rmse_bins,
            "learnable_reviews": data.learnable,
            "held_out_share": HELD_OUT_SHARE,
            "held_out_from": data.held_out[0].review_datetime.isoformat(),
            "left_out_reviews": data.left_out,
            "optimal_retention": optimal,
            "fsrs_version": importlib.metadata.version("fsrs"),
        },
    )
    return FitOutcome(record, data, before, after, optimal, note)


def _optimal_retention(
    optimizer_class: type, data: FitData, parameters: Sequence[float]
) -> tuple[float | None, str | None]:
    # py-fsrs estimates the time each rating costs from the reviews' durations: only reviews
    # with a duration count, and it wants MIN_RETENTION_LOGS of them.
    timed = [log for log in data.logs if log.review_duration is not None]
    if len(timed) < MIN_RETENTION_LOGS:
        return None, (
            f"no optimal retention: py-fsrs needs {MIN_RETENTION_LOGS} timed reviews, "
            f"there are {len(timed)}"
        )
    try:
        return float(optimizer_class(timed).compute_optimal_retention(list(parameters))), None
    except (ValueError, ZeroDivisionError) as exc:
        # e.g. no review yet rated Hard, Good or Easy after a first sight
        return None, f"no optimal retention: py-fsrs could not estimate it ({exc})"


def report_lines(outcome: FitOutcome, desired_retention: float | None = None) -> list[str]:
    """The fit in a few plain lines (no markup), none wider than `REPORT_WIDTH`."""
    data, record, before, after = outcome.data, outcome.record, outcome.before, outcome.after
    held_from = data.held_out[0].review_datetime.astimezone()
    kept = 100 - round(100 * HELD_OUT_SHARE)
    lines = _wrapped(
        f"Fitted on {len(data.train):,} reviews (the earlier {kept} %); checked on "
        f"{after.reviews:,} of the latest {len(data.held_out):,} (held out, from "
        f"{held_from:%Y-%m-%d})."
    )
    lines += [
        "                      log-loss   RMSE (bins)",
        f"  default parameters  {before.log_loss:8.4f}   {100 * before.rmse_bins:8.1f} %",
        f"  fitted parameters   {after.log_loss:8.4f}   {100 * after.rmse_bins:8.1f} %",
    ]
    if record.in_use:
        verdict = (
            "Better: drills schedule with the fitted parameters from now on "
            "(quizapp optimize --reset goes back to the defaults)."
        )
    else:
        verdict = (
            "Not better on the held-out reviews: drills keep py-fsrs's defaults (the fit "
            "is kept in the history, unused)."
        )
    lines += _wrapped(verdict)
    if outcome.optimal_retention is not None:
        yours = f"; desired_retention is {desired_retention:.2f}" if desired_retention else ""
        lines += _wrapped(
            f"Optimal retention for your workload (py-fsrs): "
            f"{outcome.optimal_retention:.2f}{yours}."
        )
    elif outcome.retention_note:
        lines += _wrapped(outcome.retention_note[:1].upper() + outcome.retention_note[1:] + ".")
    return lines


def _wrapped(text: str) -> list[str]:
    return textwrap.wrap(text, REPORT_WIDTH, break_on_hyphens=False)


__all__ = [
    "PROGRESS_PREFIX",
    "FitOutcome",
    "FitRefused",
    "Progress",
    "fit",
    "load_optimizer",
    "report_lines",
]
