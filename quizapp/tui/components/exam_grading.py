"""Grading a submitted mock exam's computed keys: each derived key's live computation, run once
per distinct run, in the exam screen's worker thread (quizapp/tui/screens/exam.py)."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping

from quizapp.bank.model import ComputeSpec
from quizapp.tui.components.lab_service import LabService

GRADING_TIMEOUT = 180.0  # seconds to wait for one derived key's computation (torch warm-up too)

RunKey = tuple[str, tuple[tuple[str, str], ...]]
Computed = tuple[dict[str, Mapping[str, object]], list[str]]


def run_key(spec: ComputeSpec) -> RunKey:
    """Two questions whose keys come from the same computation and arguments share one run."""
    return (spec.name, tuple(sorted((k, repr(v)) for k, v in spec.args.items())))


def compute_derived_keys(
    lab: LabService, derived: Mapping[str, ComputeSpec], is_cancelled: Callable[[], bool]
) -> Computed | None:
    """Each question's computed values, and the runs that failed (their questions go unscored);
    None when cancelled (the student left the exam while it was grading)."""
    found: dict[RunKey, Mapping[str, object] | None] = {}
    values: dict[str, Mapping[str, object]] = {}
    errors: list[str] = []
    for qid, spec in derived.items():
        key = run_key(spec)
        if key not in found:
            deadline = time.monotonic() + GRADING_TIMEOUT

            def give_up(deadline: float = deadline) -> bool:
                return is_cancelled() or time.monotonic() > deadline

            try:
                result = lab.run(spec.name, dict(spec.args), is_cancelled=give_up)
            except Exception as error:  # a failed key leaves its question unscored
                found[key] = None
                errors.append(f"{spec.name}: {type(error).__name__}: {error}")
            else:
                found[key] = dict(result.values)
        if is_cancelled():
            return None
        computed = found[key]
        if computed is not None:
            values[qid] = computed
    return values, errors
