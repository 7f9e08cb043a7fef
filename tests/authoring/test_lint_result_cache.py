"""Lint and Anki export reuse computation results stored on disk: a warm lint of the bundled
bank never imports torch, and `--no-cache` or QUIZAPP_NO_CACHE bypasses the store."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from quizapp.authoring.evaluation import BudgetedRuns, BudgetSpent
from quizapp.authoring.lint import lint
from quizapp.cli import main
from quizapp.experiments import runner
from quizapp.experiments.result_cache import ResultCache
from tests.authoring.test_lint_budget import derived, write
from tests.conftest import REPO

# Runs the command line, then says on stderr whether torch was imported along the way.
PROBE = """
import sys
from quizapp.cli import main
code = main(sys.argv[1:])
print("torch imported:", "torch" in sys.modules, file=sys.stderr)
sys.exit(code)
"""


def lint_in_a_fresh_process(*args: str) -> tuple[str, bool]:
    """(stdout, whether torch was imported) of `quizapp lint ARGS` in a new interpreter."""
    # No time budget: on a loaded machine a cold run could spend it, and lint would then leave
    # before the probe speaks. The budget has tests of its own.
    done = subprocess.run(
        [sys.executable, "-c", PROBE, "lint", "--eval-timeout", "0", *args],
        capture_output=True,
        text=True,
        timeout=180,
        cwd=REPO,
    )
    assert done.returncode == 0, done.stderr
    imported = [line for line in done.stderr.splitlines() if line.startswith("torch imported:")]
    assert imported, done.stderr
    return done.stdout, imported[-1].endswith("True")


def count_runs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """From now on, the name of every computation that really runs, in order."""
    calls: list[str] = []
    real_run = runner.run

    def counting_run(name, args=None, **kwargs):
        calls.append(name)
        return real_run(name, args, **kwargs)

    monkeypatch.setattr(runner, "run", counting_run)
    return calls


def entries(folder: Path) -> set[str]:
    results = folder / "results"
    return {p.name for p in results.glob("*.json")} if results.is_dir() else set()


def lint_here(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """stdout of `quizapp lint ARGS` run in this process (torch is loaded here already)."""
    capsys.readouterr()
    assert main(["lint", "--eval-timeout", "0", *args]) == 0
    return capsys.readouterr().out


@pytest.mark.slow
def test_a_warm_lint_of_the_bundled_bank_never_imports_torch(
    own_cache_folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Only the warm lint needs a fresh interpreter, to show torch is never imported; the
    # others run here, where what really runs is counted (each fresh process that loaded torch
    # cost a few seconds).
    monkeypatch.chdir(REPO)  # relative paths, as in the fresh process's output
    calls = count_runs(monkeypatch)
    cold = lint_here(capsys, "question_bank")
    assert calls, "the first lint runs the computations"
    stored = entries(own_cache_folder)
    assert stored, "and stores their results"

    warm, warm_torch = lint_in_a_fresh_process("question_bank")
    assert not warm_torch, "a warm lint answers every computation from the stored results"
    assert warm == cold, "and finds exactly what the cold one found"
    assert entries(own_cache_folder) == stored

    # Both ways of bypassing the store run the computations again, and store nothing new.
    # One deck is enough to show it.
    deck = "question_bank/positional-encoding.yaml"
    calls.clear()
    warm_deck = lint_here(capsys, deck)
    assert calls == []
    for args, env in ((("--no-cache",), {}), ((), {"QUIZAPP_NO_CACHE": "1"})):
        with monkeypatch.context() as bypass:
            for name, value in env.items():
                bypass.setenv(name, value)
            calls.clear()
            again = lint_here(capsys, *args, deck)
        assert calls and again == warm_deck, args or env
    assert entries(own_cache_folder) == stored


def test_stored_results_answer_without_running_or_spending_the_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stored = ResultCache(tmp_path / "results")
    first = BudgetedRuns(None, stored=stored)
    values = first.outcome("mha_params", {"n_heads": 4})
    assert not isinstance(values, Exception) and values["head_dim"] == 128
    assert first.from_disk == 0

    def no_run(*args: object, **kwargs: object) -> None:
        raise AssertionError("a stored result must not run again")

    monkeypatch.setattr(runner, "run", no_run)
    clock = iter([0.0, *[100.0] * 10])  # the budget is spent from the first question on
    later = BudgetedRuns(1, stored=stored, clock=lambda: next(clock))
    again = later.outcome("mha_params", {"d_model": 512, "n_heads": 4})
    assert again == values and later.from_disk == 1
    with pytest.raises(BudgetSpent):  # what was never stored still needs the budget
        later.outcome("mha_params", {"n_heads": 2})


def test_a_failing_run_is_not_stored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def failing_run(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(runner, "run", failing_run)
    stored = ResultCache(tmp_path / "results")
    outcome = BudgetedRuns(None, stored=stored).outcome("mha_params", {})
    assert isinstance(outcome, RuntimeError)
    assert not (tmp_path / "results").exists()


def test_lint_finds_the_same_wrong_key_from_stored_results(
    tmp_path: Path, own_cache_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(
        tmp_path,
        derived("q1", "{name: mha_params, args: {d_model: 256, n_heads: 4}}", "head_dim"),
        "    traps: [{value: 64, why: W}]\n",  # the computed head_dim: a trap equal to the key
    )
    cold = [d.format() for d in lint([path]).diagnostics]
    assert any("bad-value" in line for line in cold)
    assert entries(own_cache_folder)

    calls = count_runs(monkeypatch)
    assert [d.format() for d in lint([path]).diagnostics] == cold
    assert calls == []
    # --no-cache runs it again, even with a warm store, and finds the same.
    assert [d.format() for d in lint([path], use_cache=False).diagnostics] == cold
    assert calls == ["mha_params"]


@pytest.mark.slow
def test_anki_export_reuses_stored_results(
    tmp_path: Path, own_cache_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from quizapp.authoring.export import write_anki
    from tests.authoring.test_export import fixture_deck, read_apkg

    def backs(out: Path) -> dict[str, str]:
        notes, _ = read_apkg(out, tmp_path)
        return {f.split("\x1f")[2]: f.split("\x1f")[1] for _, _, f in notes}

    write_anki([fixture_deck()], tmp_path / "cold.apkg")
    assert entries(own_cache_folder)
    calls = count_runs(monkeypatch)
    write_anki([fixture_deck()], tmp_path / "warm.apkg")
    assert calls == []
    assert "1,048,576" in backs(tmp_path / "warm.apkg")["et-numeric-from"]
    write_anki([fixture_deck()], tmp_path / "fresh.apkg", use_cache=False)
    assert calls, "use_cache=False (export --no-cache) runs the computations again"
