"""Grading a mock exam's computed keys: one run per distinct computation, a failed run leaves
its questions unscored, and a cancelled grading returns nothing."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from quizapp.bank.model import ComputeSpec, Location
from quizapp.tui.components.exam_grading import compute_derived_keys

HERE = Location(Path("deck.yaml"), 1, 1)


def spec(name: str, **args: Any) -> ComputeSpec:
    return ComputeSpec(name=name, args=args, location=HERE)


class CountingLab:
    def __init__(self, failing: str = "") -> None:
        self.runs: list[tuple[str, dict]] = []
        self.failing = failing

    def run(self, name: str, args: dict, *, is_cancelled: Callable[[], bool]) -> Any:
        self.runs.append((name, args))
        if name == self.failing:
            raise RuntimeError("no such device")
        return SimpleNamespace(values={"total": sum(args.values())})


def test_questions_sharing_a_run_share_one_computation() -> None:
    lab = CountingLab()
    derived = {"q1": spec("params", d=2), "q2": spec("params", d=2), "q3": spec("params", d=3)}
    values, errors = compute_derived_keys(lab, derived, lambda: False)  # type: ignore[arg-type, misc]
    assert values == {"q1": {"total": 2}, "q2": {"total": 2}, "q3": {"total": 3}}
    assert errors == [] and len(lab.runs) == 2


def test_a_failed_run_leaves_its_questions_unscored_and_says_why() -> None:
    lab = CountingLab(failing="broken")
    derived = {"q1": spec("broken", d=1), "q2": spec("params", d=5), "q3": spec("broken", d=1)}
    values, errors = compute_derived_keys(lab, derived, lambda: False)  # type: ignore[arg-type, misc]
    assert values == {"q2": {"total": 5}}
    assert errors == ["broken: RuntimeError: no such device"]  # one run, named once


def test_a_cancelled_grading_returns_nothing() -> None:
    lab = CountingLab()
    derived = {"q1": spec("params", d=1), "q2": spec("params", d=2)}
    assert compute_derived_keys(lab, derived, lambda: True) is None  # type: ignore[arg-type]
