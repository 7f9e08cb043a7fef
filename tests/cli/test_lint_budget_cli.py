"""`quizapp lint --eval-timeout`: a hostile bank cannot hold lint for longer than its budget."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from quizapp.cli import main
from tests.conftest import REPO

# One `vary:` question of 5 x 4 x 20 = 400 variants, each asking variance_drift for a run near
# its maximum arguments (64 layers, width 1024, 1024 tokens): several seconds of computing per
# variant, for the 64 variants lint checks. It once held lint for more than 240 s at 550 MB.
HOSTILE = """\
# A question that asks lint for hours of computing, 1.7 KB of it.
format: 1
deck:
  id: residual-stacks
  title: Residual stacks
  topic: normalization-residuals
  domain: LLM architecture
  exam_weight: 1
  description: Deep residual stacks, measured.
questions:
  - id: residual-variance-grid
    type: numeric
    difficulty: hard
    tags: [residuals, variance]
    source: "Lesson 011 › Variance through depth"
    prompt: |
      A stack of {n_layers} residual layers without normalisation has width
      d_model = {d_model} and is fed {n_tokens} tokens of unit variance. Each sub-layer is
      a bias-free square linear map with Glorot-normal weights, so on its own it keeps the
      variance of its input. What is the activation variance after the last layer?
    vary:
      n_layers: [60, 61, 62, 63, 64]
      d_model: [1000, 1008, 1016, 1024]
      n_tokens: [986, 988, 990, 992, 994, 996, 998, 1000, 1002, 1004, 1006, 1008, 1010,
                 1012, 1014, 1016, 1018, 1020, 1022, 1024]
    compute:
      name: variance_drift
      args: {n_layers: "{n_layers}", d_model: "{d_model}", n_tokens: "{n_tokens}"}
    answer: {from: residual_final, relative_tolerance: 0.01, unit: variance}
    traps:
      - value: 64
        why: One unit of variance added per layer forgets that the residual grows too.
    explanation: |
      Without normalisation each residual layer adds the sub-layer's output to its input,
      and the two are roughly independent with equal variance, so the variance roughly
      doubles per layer: after {n_layers} layers it is about 2^{n_layers} times the input's.
      Post-LN renormalises after every layer and Pre-LN grows only linearly, which is why
      deep transformers put a LayerNorm in every block.
"""

WARNING = re.compile(
    r"^(?P<path>.+):(?P<line>\d+):(?P<col>\d+): warning: derived answers not checked: "
    r"budget of (?P<budget>[\d.]+) s spent \((?P<done>\d+) of (?P<total>\d+) evaluated\) "
    r"\[eval-budget\]$",
    re.MULTILINE,
)


def run_lint(*args: str, timed_run_seconds: float | None = None) -> subprocess.CompletedProcess:
    """`python -m quizapp lint ...`, or with timed stand-in computations (no torch)."""
    if timed_run_seconds is None:
        command = [sys.executable, "-m", "quizapp", "lint", *args]
        env = None
    else:
        command = [sys.executable, "-m", "tests.authoring.timed_runner", "lint", *args]
        env = {**os.environ, "TIMED_RUN_SECONDS": str(timed_run_seconds)}
    return subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=REPO, env=env)


def test_a_hostile_file_is_linted_within_its_budget(tmp_path: Path) -> None:
    hostile = tmp_path / "hostile.yaml"
    hostile.write_text(HOSTILE, encoding="utf-8")
    assert 1500 <= len(HOSTILE.encode()) <= 1900
    started = time.monotonic()
    result = run_lint("--eval-timeout", "2", str(hostile))
    elapsed = time.monotonic() - started
    assert elapsed < 2 + 2, f"lint took {elapsed:.1f} s on a budget of 2 s"
    assert result.returncode == 0, result.stdout + result.stderr  # warnings only
    [warning] = WARNING.finditer(result.stdout)
    question_line = HOSTILE.splitlines().index("  - id: residual-variance-grid") + 1
    assert (warning["path"], warning["line"], warning["col"]) == (
        str(hostile),
        str(question_line),
        "5",
    )
    assert warning["budget"] == "2" and warning["total"] == "64"
    assert int(warning["done"]) < 64
    assert "only the first 64 of 400 variants are checked" in result.stdout
    # stderr is a pipe here: the summary, and no progress line.
    assert result.stderr == "1 file(s), 1 question(s) loaded: 0 error(s), 2 warning(s)\n"


def five_runs(tmp_path: Path) -> Path:
    """Five distinct runs of a computation that takes TIMED_RUN_SECONDS each."""
    path = tmp_path / "five.yaml"
    path.write_text(
        "deck: {id: d, title: T, topic: t, domain: D, exam_weight: 1}\nquestions:\n"
        "  - id: q\n    type: numeric\n    prompt: P\n    explanation: E\n"
        "    difficulty: easy\n    tags: [t]\n    vary: {n: [1, 2, 4, 8, 16]}\n"
        '    compute: {name: head_split, args: {d_model: 1024, n_heads: "{n}"}}\n'
        "    answer: {from: head_dim}\n",
        encoding="utf-8",
    )
    return path


def test_eval_timeout_0_means_no_budget(tmp_path: Path) -> None:
    path = five_runs(tmp_path)
    limited = run_lint("--eval-timeout", "1", str(path), timed_run_seconds=0.3)
    assert limited.returncode == 0
    [warning] = WARNING.finditer(limited.stdout)
    assert int(warning["done"]) < 5 and warning["total"] == "5"
    unlimited = run_lint("--eval-timeout", "0", str(path), timed_run_seconds=0.3)
    assert (unlimited.returncode, unlimited.stdout.strip()) == (0, "")
    assert "0 warning(s)" in unlimited.stderr


@pytest.mark.parametrize("value", ["-1", "nan", "inf", "soon", ""])
def test_a_bad_eval_timeout_is_one_line_and_exit_2(value: str, capsys) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["lint", "--no-eval", "--eval-timeout", value])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert "--eval-timeout" in err and repr(value) in err and "Traceback" not in err


def lint_on_a_terminal(*args: str, timed_run_seconds: float) -> tuple[int, str, str]:
    """Run lint (timed computations) with stderr on a pseudo-terminal: (exit, stdout, stderr)."""
    controller, terminal = pty.openpty()
    command = [sys.executable, "-m", "tests.authoring.timed_runner", "lint", *args]
    env = {**os.environ, "TIMED_RUN_SECONDS": str(timed_run_seconds)}
    with subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=terminal,
        stdin=subprocess.DEVNULL,
        cwd=REPO,
        env=env,
    ) as process:
        os.close(terminal)
        seen = b""
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            ready, _, _ = select.select([controller], [], [], 1)
            if not ready:
                continue
            try:
                chunk = os.read(controller, 4096)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            seen += chunk
        os.close(controller)
        stdout = process.stdout.read().decode() if process.stdout else ""
        code = process.wait(timeout=60)
    return code, stdout, seen.decode()


def test_progress_shows_on_a_terminal_when_evaluation_passes_a_second(tmp_path: Path) -> None:
    path = str(five_runs(tmp_path))
    code, stdout, terminal = lint_on_a_terminal("--eval-timeout", "9", path, timed_run_seconds=0.4)
    assert (code, stdout.strip()) == (0, "")
    shown = re.findall(r"\r\x1b\[Kevaluating derived answers: (\d)/5 \(\d s of 9 s\)", terminal)
    assert shown and shown == sorted(shown), terminal
    # Cleared before the summary, which starts a clean line.
    assert terminal.endswith(
        "\r\x1b[K1 file(s), 1 question(s) loaded: 0 error(s), 0 warning(s)\r\n"
    )


def test_no_progress_when_quick_or_json(tmp_path: Path) -> None:
    path = str(five_runs(tmp_path))
    code, _, quick = lint_on_a_terminal(path, timed_run_seconds=0)
    assert code == 0 and quick == "1 file(s), 1 question(s) loaded: 0 error(s), 0 warning(s)\r\n"
    code, stdout, terminal = lint_on_a_terminal("--format", "json", path, timed_run_seconds=0.4)
    assert code == 0 and '"warnings": 0' in stdout
    assert terminal == ""
