"""FSRS parameters fitted to the history, kept in the history (the `fsrs_fits` table).

Every fit is a row, and none is ever deleted. Drills schedule with the newest fit still marked
in use; `quizapp optimize --reset` marks them all unused (back to py-fsrs's defaults, for good),
and `--default-parameters` on `quizapp`/`drill`/`exam` ignores them for one run. A stored set
that is not 21 numbers within py-fsrs's bounds (a damaged or hand-edited file) is ignored.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from quizapp.srs.memory.fitting import valid_parameters
from quizapp.srs.store.history import HistoryStore
from quizapp.srs.times import from_ms, to_ms


@dataclass(frozen=True)
class FitRecord:
    fitted_at: datetime
    parameters: tuple[float, ...]
    reviews: int  # reviews fitted on
    held_out: int  # held-out reviews the log-loss is taken over
    log_loss_before: float  # py-fsrs's defaults on the held-out reviews
    log_loss_after: float  # these parameters on the same reviews
    in_use: bool
    detail: Mapping[str, Any] = field(default_factory=dict)
    id: int | None = None  # the row, once stored

    def summary(self) -> str:
        """One line: when, on how much, and what it did to the held-out log-loss (a partial
        fit says it moved the initial stabilities only)."""
        only = " (initial stabilities only)" if self.detail.get("kind") == "partial" else ""
        return (
            f"fitted{only} {self.fitted_at.astimezone():%Y-%m-%d} on {self.reviews:,} reviews "
            f"(held-out log-loss {self.log_loss_before:.3f} → {self.log_loss_after:.3f})"
        )

    def as_json(self) -> dict[str, object]:
        return {
            "fitted_at": self.fitted_at.isoformat(),
            "parameters": list(self.parameters),
            "reviews": self.reviews,
            "held_out_reviews": self.held_out,
            "log_loss_before": self.log_loss_before,
            "log_loss_after": self.log_loss_after,
            "in_use": self.in_use,
            **{key: value for key, value in self.detail.items() if key not in _COLUMNS},
        }


_COLUMNS = frozenset(
    {"fitted_at", "parameters", "reviews", "held_out_reviews", "log_loss_before"}
    | {"log_loss_after", "in_use"}
)


def save_fit(store: HistoryStore, record: FitRecord) -> int:
    """Store a fit; one stored in use replaces the fit in use before it. Returns the row id."""
    row = {
        "fitted_ms": to_ms(record.fitted_at),
        "parameters": list(record.parameters),
        "reviews": record.reviews,
        "held_out": record.held_out,
        "log_loss_before": record.log_loss_before,
        "log_loss_after": record.log_loss_after,
        "in_use": record.in_use,
        "detail": dict(record.detail),
    }
    return store.insert_fit(row, replace_in_use=record.in_use)


def stop_using_fits(store: HistoryStore) -> int:
    """Back to py-fsrs's default parameters: no stored fit is in use any more (none is
    deleted). Returns how many were in use."""
    return store.stop_using_fits()


def active_fit(store: HistoryStore) -> FitRecord | None:
    """The fit drills schedule with: the newest in use whose parameters are valid."""
    for row in store.fit_rows(in_use_only=True):
        record = _record(row)
        if record is not None:
            return record
    return None


def latest_fit(store: HistoryStore) -> FitRecord | None:
    """The newest stored fit, in use or not (a fit that did not beat the defaults is kept
    but not used)."""
    rows = store.fit_rows(in_use_only=False, limit=1)
    return _record(rows[0]) if rows else None


def active_parameters(store: HistoryStore) -> tuple[float, ...] | None:
    """The parameters drills schedule with; None: py-fsrs's defaults."""
    fit = active_fit(store)
    return None if fit is None else fit.parameters


def _record(row: tuple[Any, ...]) -> FitRecord | None:
    try:
        parameters = valid_parameters(json.loads(row[2]))
        detail = json.loads(row[8])
    except (TypeError, ValueError):
        return None
    numbers = (row[5], row[6])
    if parameters is None or not all(isinstance(x, int | float) for x in numbers):
        return None
    if not all(math.isfinite(x) for x in numbers):
        return None
    return FitRecord(
        fitted_at=from_ms(int(row[1])),
        parameters=parameters,
        reviews=int(row[3]),
        held_out=int(row[4]),
        log_loss_before=float(row[5]),
        log_loss_after=float(row[6]),
        in_use=bool(row[7]),
        detail=detail if isinstance(detail, dict) else {},
        id=int(row[0]),
    )


__all__ = [
    "FitRecord",
    "active_fit",
    "active_parameters",
    "latest_fit",
    "save_fit",
    "stop_using_fits",
]
