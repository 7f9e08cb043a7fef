"""`QUIZAPP_EVAL_TIMEOUT`: a slow machine's default for lint's computation budget."""

from __future__ import annotations

import pytest

from quizapp.authoring.evaluation import DEFAULT_BUDGET_SECONDS, default_budget
from quizapp.cli import main


def test_without_the_variable_the_budget_is_the_documented_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("QUIZAPP_EVAL_TIMEOUT", raising=False)
    assert default_budget() == DEFAULT_BUDGET_SECONDS == 10.0


@pytest.mark.parametrize(("text", "budget"), [("30", 30.0), (" 2.5 ", 2.5), ("0", None)])
def test_the_variable_sets_the_default_and_zero_means_no_limit(
    monkeypatch: pytest.MonkeyPatch, text: str, budget: float | None
) -> None:
    monkeypatch.setenv("QUIZAPP_EVAL_TIMEOUT", text)
    assert default_budget() == budget


@pytest.mark.parametrize("text", ["ten", "-1", "nan", "1e9"])
def test_a_bad_value_is_one_line_naming_the_variable(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    monkeypatch.setenv("QUIZAPP_EVAL_TIMEOUT", text)
    with pytest.raises(ValueError, match="QUIZAPP_EVAL_TIMEOUT must be seconds"):
        default_budget()
    assert main(["lint", "tests/bank/corpus/good"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "QUIZAPP_EVAL_TIMEOUT" in err


def test_the_flag_wins_over_the_variable(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("QUIZAPP_EVAL_TIMEOUT", "ten")  # never read when --eval-timeout is given
    assert main(["lint", "--eval-timeout", "5", "tests/bank/corpus/good"]) in (0, 1)
    assert "QUIZAPP_EVAL_TIMEOUT" not in capsys.readouterr().err
