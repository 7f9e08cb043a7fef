"""Without py-fsrs's optimizer extra, a fit is refused with how to install it, and nothing is imported."""

from __future__ import annotations

import importlib.util
import sys

import pytest

import quizapp.srs.memory.optimize
from quizapp.srs.memory.optimize import FitRefused, load_optimizer


def test_a_missing_extra_is_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        quizapp.srs.memory.optimize.importlib.util,
        "find_spec",
        lambda name, *rest: None if name == "torch" else real(name, *rest),
    )
    with pytest.raises(
        FitRefused, match=r"no module named 'torch'.*pip install 'fsrs\[optimizer\]'"
    ):
        load_optimizer()


def test_with_the_extra_the_optimizer_is_py_fsrs_own() -> None:
    optimizer = load_optimizer()
    assert optimizer.__module__ == "fsrs.optimizer"
    assert "torch" in sys.modules  # py-fsrs's optimizer loads it; the srs module itself never does
