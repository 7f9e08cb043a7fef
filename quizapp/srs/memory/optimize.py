"""Fit FSRS to the student's history with py-fsrs's own `Optimizer`, and judge the fit.

The optimizer (the `fsrs[optimizer]` extra: torch, pandas, tqdm) is imported here, inside
`fit`, never at module level: `quizapp optimize` and the app's "Fit the scheduler to my
history" load torch only when a fit runs. What is fitted on, what is held out and how a fit
is judged are in quizapp/srs/memory/fitting.py.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from fsrs.scheduler import DEFAULT_PARAMETERS

from quizapp.srs.memory.fitting import (
    FULL,
    HELD_OUT_SHARE,
    MIN_LEARNABLE,
    MIN_RETENTION_LOGS,
    PARTIAL,
    FitData,
    Score,
    fit_kind,
    prepare,
    refusal,
    score,
    valid_parameters,
)
from quizapp.srs.memory.horizon import MIN_TIMED_REVIEWS, optimal_retention, review_costs
from quizapp.srs.memory.pretrain import fit_initial_stabilities
from quizapp.srs.store.fits import FitRecord
from quizapp.srs.store.history import ReviewRow

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
    kind: str = FULL  # FULL: all 21 parameters; PARTIAL: the initial stabilities only
    horizon_days: float | None = None  # the optimal retention's horizon; None: py-fsrs's year


def load_optimizer() -> type:
    """py-fsrs's Optimizer class; imports torch. FitRefused when the extra is missing."""
    # py-fsrs swaps in a stub Optimizer when its extra is missing, so look for the extra first.
    # Looking (find_spec) imports nothing: torch is loaded by py-fsrs's optimizer, never by srs.
    missing = [
        name for name in ("pandas", "torch", "tqdm") if importlib.util.find_spec(name) is None
    ]
    if missing:
        raise FitRefused(
            f"py-fsrs's optimizer is not installed (no module named {missing[0]!r}); "
            "install it with: pip install 'fsrs[optimizer]'"
        )
    from fsrs.optimizer import Optimizer

    return Optimizer


def fit(
    rows: Sequence[ReviewRow],
    *,
    now: datetime,
    retention: bool = True,
    progress: Progress | None = None,
    exam_at: datetime | None = None,
) -> FitOutcome:
    """Fit on the earlier 80 % of the reviews what they support (all 21 parameters with
    py-fsrs's optimizer, or the initial stabilities only: quizapp/srs/memory/fitting.py, `fit_kind`),
    judge it on the rest, and (with `retention`) work out the optimal retention: for the days
    left to `exam_at` when it is ahead, else py-fsrs's year. Stores nothing."""
    say = progress or (lambda step, steps, text: None)
    steps = 3 if retention else 2
    data = prepare(rows)
    kind = fit_kind(data)
    if kind is None:
        raise FitRefused(str(refusal(data)))
    optimizer_class = None
    if kind == FULL:
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
        outcomes: dict[int, int] = {}
    else:
        say(1, steps, f"Fitting the initial stabilities to {len(data.train):,} reviews")
        partial = fit_initial_stabilities(data.train, DEFAULT_PARAMETERS)
        fitted, outcomes = partial.parameters, partial.outcomes

    say(2, steps, f"Checking the fit on {data.scored:,} held-out reviews")
    before, after = score(DEFAULT_PARAMETERS, data), score(fitted, data)
    in_use = after.log_loss < before.log_loss
    horizon = _horizon_days(now, exam_at)
    optimal, note = None, None
    if retention:
        in_force = fitted if in_use else DEFAULT_PARAMETERS
        if horizon is not None and exam_at is not None:
            say(
                3,
                steps,
                f"Working out the optimal retention for the {horizon:.0f} days to the exam",
            )
            optimal, note = _retention_to_exam(data, in_force, now, exam_at)
        else:
            say(3, steps, "Working out the optimal retention for your workload (a year simulated)")
            optimal, note = _optimal_retention(optimizer_class, data, in_force)
    detail: dict[str, object] = {"kind": kind}
    if kind == PARTIAL:
        detail["initial_stability_outcomes"] = {str(r): n for r, n in outcomes.items()}
    record = FitRecord(
        fitted_at=now,
        parameters=fitted,
        reviews=len(data.train),
        held_out=after.reviews,
        log_loss_before=before.log_loss,
        log_loss_after=after.log_loss,
        in_use=in_use,
        detail={
            **detail,
            "rmse_bins_before": before.rmse_bins,
            "rmse_bins_after": after.rmse_bins,
            "learnable_reviews": data.learnable,
            "held_out_share": HELD_OUT_SHARE,
            "held_out_from": data.held_out[0].review_datetime.isoformat(),
            "left_out_reviews": data.left_out,
            "optimal_retention": optimal,
            "retention_horizon_days": horizon if retention else None,
            "fsrs_version": importlib.metadata.version("fsrs"),
        },
    )
    return FitOutcome(record, data, before, after, optimal, note, kind, horizon)


def _horizon_days(now: datetime, exam_at: datetime | None) -> float | None:
    """Days from now to the exam moment; None without an exam ahead (py-fsrs's year then)."""
    if exam_at is None or exam_at <= now:
        return None
    return (exam_at - now) / timedelta(days=1)


def _retention_to_exam(
    data: FitData, parameters: Sequence[float], now: datetime, exam_at: datetime
) -> tuple[float | None, str | None]:
    timed = [log for log in data.logs if log.review_duration is not None]
    costs = review_costs(timed) if len(timed) >= MIN_TIMED_REVIEWS else None
    if costs is None:
        return None, (
            f"no optimal retention to the exam: it needs {MIN_TIMED_REVIEWS} timed reviews, "
            f"first reviews and recalled later ones among them; there are {len(timed)}"
        )
    return optimal_retention(parameters, costs, now, exam_at), None


def _optimal_retention(
    optimizer_class: type | None, data: FitData, parameters: Sequence[float]
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
        optimizer_class = optimizer_class or load_optimizer()
        return float(optimizer_class(timed).compute_optimal_retention(list(parameters))), None
    except FitRefused as exc:
        return None, f"no optimal retention: {exc}"
    except (ValueError, ZeroDivisionError) as exc:
        # e.g. no review yet rated Hard, Good or Easy after a first sight
        return None, f"no optimal retention: py-fsrs could not estimate it ({exc})"


def report_lines(outcome: FitOutcome, desired_retention: float | None = None) -> list[str]:
    """The fit in a few plain lines (no markup), none wider than `REPORT_WIDTH`."""
    data, record, before, after = outcome.data, outcome.record, outcome.before, outcome.after
    held_from = data.held_out[0].review_datetime.astimezone()
    kept = 100 - round(100 * HELD_OUT_SHARE)
    checked = (
        f"on {len(data.train):,} reviews (the earlier {kept} %); checked on {after.reviews:,} "
        f"of the latest {len(data.held_out):,} (held out, from {held_from:%Y-%m-%d})."
    )
    if outcome.kind == PARTIAL:
        lines = _wrapped(
            f"Partial fit: the initial stabilities (w[0..3]) only, shrunk toward the defaults; "
            f"all 21 need {MIN_LEARNABLE} reviews a day or more apart ({data.learnable} so "
            f"far). Fitted {checked}"
        )
    else:
        lines = _wrapped(f"All 21 parameters fitted {checked}")
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
        if outcome.horizon_days is not None:
            where = f"for the {_days(outcome.horizon_days)} to the exam"
        else:
            where = "for your workload (py-fsrs)"
        lines += _wrapped(f"Optimal retention {where}: {outcome.optimal_retention:.2f}{yours}.")
    elif outcome.retention_note:
        lines += _wrapped(outcome.retention_note[:1].upper() + outcome.retention_note[1:] + ".")
    return lines


def _days(days: float) -> str:
    return (
        "1 day" if round(days, 1) == 1 else f"{days:.1f} days" if days < 10 else f"{days:.0f} days"
    )


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
