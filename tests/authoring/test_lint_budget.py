"""Lint runs computations within one time budget, each (name, bound arguments) pair once."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from quizapp.authoring.evaluation import DEFAULT_BUDGET_SECONDS, BudgetedRuns, BudgetSpent
from quizapp.authoring.lint import lint
from quizapp.bank import load_bank
from quizapp.cli import DEFAULT_EVAL_TIMEOUT
from quizapp.experiments import runner
from tests.authoring import timed_runner

HEADER = "deck: {id: d, title: T, topic: t, domain: D, exam_weight: 1}\nquestions:\n"
# What these one-letter test questions also draw, and what these tests are not about.
UNRELATED = {"claim-missing", "near-duplicate"}
COMMON = "    prompt: P\n    explanation: E\n    difficulty: easy\n    tags: [t]\n"


def derived(qid: str, compute: str, value: str, vary: str = "") -> str:
    return (
        f"  - id: {qid}\n    type: numeric\n"
        + COMMON
        + vary
        + f"    compute: {compute}\n    answer: {{from: {value}}}\n"
    )


def write(tmp_path: Path, *questions: str) -> Path:
    path = tmp_path / "deck.yaml"
    path.write_text(HEADER + "".join(questions), encoding="utf-8")
    return path


def line_of(path: Path, qid: str, key: str = "id") -> int:
    """The line of question `qid`'s `- id:`, or of its `key:` after that."""
    lines = path.read_text(encoding="utf-8").splitlines()
    start = next(i for i, text in enumerate(lines, 1) if text == f"  - id: {qid}")
    if key == "id":
        return start
    return next(i for i, text in enumerate(lines[start:], start + 1) if f" {key}:" in text)


@pytest.fixture
def timed(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, object]]]:
    """Computations that take no time, except variance_drift, which runs until cancelled."""
    monkeypatch.setattr(runner, "run", timed_runner.timed_run)
    monkeypatch.setattr(timed_runner, "runs", [])
    return timed_runner.runs


def test_a_spent_budget_names_the_first_unchecked_question_and_counts(
    tmp_path: Path, timed: list
) -> None:
    path = write(
        tmp_path,
        derived("q1", "{name: mha_params, args: {d_model: 256, n_heads: 4}}", "head_dim"),
        derived("q2", "{name: variance_drift}", "residual_final"),
        # The run q1 made: judged after the deadline too, since it costs nothing.
        derived("q3", "{name: mha_params, args: {n_heads: 4, d_model: 256}}", "head_dim"),
        # A run not made yet: left unchecked.
        derived("q4", "{name: head_split}", "head_dim"),
    )
    started = time.monotonic()
    report = lint([path], eval_budget=0.5)
    assert time.monotonic() - started < 0.5 + 1.5
    [warning] = [d for d in report.diagnostics if d.code == "eval-budget"]
    assert (warning.line, warning.column, warning.severity) == (line_of(path, "q2"), 5, "warning")
    assert warning.message == (
        "derived answers and claims not checked: budget of 0.5 s spent (2 of 4 evaluated)"
    )
    assert [d.code for d in report.diagnostics if d.code not in UNRELATED] == ["eval-budget"]
    assert [name for name, _ in timed] == ["mha_params", "variance_drift"]
    assert report.exit_code == 0  # a warning, as ever
    assert lint([path], eval_budget=0.5, strict=True).exit_code == 1


def test_identical_computation_and_arguments_run_once(tmp_path: Path, monkeypatch) -> None:
    real_run = runner.run
    counted: list[tuple[str, dict[str, object]]] = []

    def counting_run(name, args=None, **kwargs):
        counted.append((name, dict(args or {})))
        return real_run(name, args, **kwargs)

    monkeypatch.setattr(runner, "run", counting_run)
    vary = "    vary: {d_model: [256, 1024], n_heads: [4, 8]}\n"
    path = write(
        tmp_path,
        # Four variants, four distinct runs.
        derived(
            "q1",
            '{name: mha_params, args: {d_model: "{d_model}", n_heads: "{n_heads}"}}',
            "head_dim",
            vary,
        ),
        # The same four again, from another question and another value.
        derived(
            "q2",
            '{name: mha_params, args: {n_heads: "{n_heads}", d_model: "{d_model}"}}',
            "params_multi_head",
            vary,
        ),
        # mha_params' defaults written out: the run the next question makes with none.
        derived(
            "q3", "{name: mha_params, args: {d_model: 512, n_heads: 8, bias: false}}", "head_dim"
        ),
        derived("q4", "{name: mha_params}", "params_single_head"),
    )
    report = lint([path], eval_budget=0)
    assert [d.format() for d in report.diagnostics if d.code not in UNRELATED] == []
    runs = [(name, tuple(sorted(args.items()))) for name, args in counted]
    assert len(runs) == len(set(runs)) == 5, counted


def test_lint_runs_each_computation_on_one_torch_thread(tmp_path: Path, monkeypatch) -> None:
    from quizapp.authoring.evaluation import LINT_THREADS

    asked: list[object] = []

    def recording_run(name, args=None, **kwargs):
        asked.append(kwargs.get("threads"))
        return timed_runner.timed_run(name, args, **kwargs)

    monkeypatch.setattr(runner, "run", recording_run)
    path = write(tmp_path, derived("q1", "{name: mha_params}", "head_dim"))
    lint([path], use_cache=False)
    assert asked == [LINT_THREADS] == [1]


def test_a_run_that_would_start_after_the_deadline_does_not(timed: list) -> None:
    clock = iter([0.0, 5.0])
    runs = BudgetedRuns(1, clock=lambda: next(clock))
    with pytest.raises(BudgetSpent):
        runs.outcome("mha_params", {})
    assert timed == []


def test_a_failing_computation_is_reported_once_per_variant_and_not_rerun(
    tmp_path: Path, monkeypatch
) -> None:
    calls = []

    def failing_run(name, args=None, **kwargs):
        calls.append(name)
        raise RuntimeError("out of memory")

    monkeypatch.setattr(runner, "run", failing_run)
    compute = "{name: mha_params, args: {d_model: 256, n_heads: 4}}"
    path = write(tmp_path, derived("q1", compute, "head_dim"), derived("q2", compute, "head_dim"))
    failures = [d for d in lint([path]).diagnostics if d.code == "computation-failed"]
    assert [d.line for d in failures] == [line_of(path, q, "compute") for q in ("q1", "q2")]
    assert all("RuntimeError: out of memory" in d.message for d in failures)
    assert calls == ["mha_params"]


def test_the_command_line_default_is_the_library_default() -> None:
    assert DEFAULT_EVAL_TIMEOUT == DEFAULT_BUDGET_SECONDS


def test_the_docs_state_the_real_default() -> None:
    from quizapp.authoring.messages import MESSAGES
    from tests.conftest import REPO

    default = f"{DEFAULT_BUDGET_SECONDS:g}"
    assert f"they get {default} seconds in all" in (REPO / "docs" / "authoring.md").read_text()
    readme = (REPO / "README.md").read_text()
    assert (
        f"(default {default}, or `$QUIZAPP_EVAL_TIMEOUT` on a slow machine; `0`: no limit)"
        in readme
    )
    assert f"`--eval-timeout`, {default} s by default" in MESSAGES["eval-budget"].meaning


def test_a_run_cancelled_before_it_starts_does_not_compute(monkeypatch) -> None:
    from quizapp.experiments.context import Cancelled
    from quizapp.experiments.lab import attention

    called = []
    monkeypatch.setattr(attention, "mha_params", lambda *a, **k: called.append(a))
    with pytest.raises(Cancelled):  # cancelled while torch and the module were importing
        runner.run("mha_params", {}, is_cancelled=lambda: True)
    assert called == []


def test_a_program_using_lint_exits_cleanly_with_a_run_cut_off() -> None:
    """A torch thread still computing at interpreter shutdown aborts the process ("terminate
    called without an active exception", exit 134); lint lets a cut-off run stop first."""
    import subprocess
    import sys

    from tests.conftest import REPO

    hostile = REPO / "tests" / "authoring" / "data" / "hostile_vary.yaml"
    script = (
        "from quizapp.authoring.lint import lint\n"
        f"report = lint([{str(hostile)!r}], eval_budget=2)\n"
        "print(sorted({d.code for d in report.diagnostics}))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=REPO
    )
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == "['eval-budget', 'variants-unchecked']\n"


def test_anki_export_computes_derived_keys_within_the_budget(
    tmp_path: Path, timed: list, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bank whose derived key never finishes computing cannot hold the Anki export: the
    export stops waiting at the budget and leaves that key described, not computed."""
    from quizapp.authoring import anki_package, evaluation

    monkeypatch.setattr(evaluation, "DEFAULT_BUDGET_SECONDS", 1.0)
    quick = "{name: mha_params, args: {d_model: 256, n_heads: 4}}"
    path = write(
        tmp_path,
        derived("q1", quick, "head_dim"),
        derived("q2", "{name: variance_drift}", "residual_final"),
        derived("q3", quick, "head_dim"),  # the same run as q1: computed once, used twice
    )
    questions = load_bank([path]).decks[0].questions
    started = time.monotonic()
    values = anki_package.derived_values(questions)
    assert time.monotonic() - started < 3.0
    assert set(values) == {"q1", "q3"}
    assert values["q1"]["head_dim"] == 1.5  # the stand-in runner's value
    assert [name for name, _ in timed].count("mha_params") == 1
