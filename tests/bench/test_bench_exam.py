"""A tiny run of the exam bench prints every row: each policy at each budget on each
simulator, plan minus greedy, and the calibration table for each forecast day."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

BENCH_DIR = Path(__file__).resolve().parents[2] / "bench"


def test_a_tiny_bench_run_prints_every_row(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(BENCH_DIR))
        bench_exam = importlib.import_module("bench_exam")
        settings = bench_exam.BenchSettings(
            students=2, days=8, budgets=(3, 4), calibration_budget=4
        )
        results = bench_exam.run_all(settings)
    out = capsys.readouterr().out
    assert sorted(results) == [("py-fsrs", 3), ("py-fsrs", 4), ("quizapp", 3), ("quizapp", 4)]
    for simulator in ("quizapp", "py-fsrs"):
        section = out.split(f"simulator: {simulator}")[1].split("simulator:")[0]
        for budget in (3, 4):
            block = section.split(f"{budget} cards a day:")[1].split("cards a day:")[0]
            for policy in ("plan", "greedy", "FSRS 0.9", "FSRS 0.95", "random"):
                assert f"      {policy} " in block
            assert "plan - greedy (paired):" in block
        calibrated = results[simulator, 4]
        assert [row.day for row in calibrated.calibration] == [0, 4, 7]  # 0, 7, half, eve
        assert "in 80% interval" in section and "reliability" in section
        assert results[simulator, 3].calibration == ()


def test_the_calibration_runs_on_varied_populations_of_both_simulators(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(BENCH_DIR))
        bench_exam = importlib.import_module("bench_exam")
        settings = bench_exam.BenchSettings(students=2, days=8, budgets=(4,), calibration_budget=4)
        runs = bench_exam.calibration_runs(settings)
    out = capsys.readouterr().out
    spread = bench_exam.VARIED_POPULATION["forgetting_spread"]
    assert spread > 0
    assert [run.config.simulator for run in runs.values()] == ["quizapp", "py-fsrs", "py-fsrs"]
    for run in runs.values():
        assert run.config.forgetting_spread == spread and run.config.students == 2
        assert [row.day for row in run.calibration] == [0, 4, 7]
    assert [run.config.session_spread_hours for run in runs.values()][2] == 0.0
    assert out.count("varied population") == 3 and out.count("in 80% interval") == 3
