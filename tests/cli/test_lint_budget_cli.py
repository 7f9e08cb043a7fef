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

# One `vary:` question (2 KB) that once held lint for more than 240 s at 550 MB.
HOSTILE = REPO / "tests" / "authoring" / "data" / "hostile_vary.yaml"

WARNING = re.compile(
    r"^(?P<path>.+):(?P<line>\d+):(?P<col>\d+): warning: derived answers and claims not checked: "
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


def test_a_hostile_file_is_linted_within_its_budget() -> None:
    text = HOSTILE.read_text(encoding="utf-8")
    assert len(text.encode()) <= 2048 and "vary:" in text
    started = time.monotonic()
    result = run_lint("--eval-timeout", "2", str(HOSTILE))
    elapsed = time.monotonic() - started
    assert elapsed < 2 + 2, f"lint took {elapsed:.1f} s on a budget of 2 s"
    assert result.returncode == 0, result.stdout + result.stderr  # warnings only
    [warning] = WARNING.finditer(result.stdout)
    question_line = text.splitlines().index("  - id: residual-variance-grid") + 1
    assert (warning["path"], warning["line"], warning["col"]) == (
        str(HOSTILE),
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
        '    compute: {name: head_split, args: {d_model: 1024, n_heads: "{n}"}, expect: [params_multi_head > 0]}\n'
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
    assert "--eval-timeout" in err
    if value:  # the range, and the value as typed (a number bare, other text quoted)
        assert "from 0 to 86400" in err and (f"not {value} " in err or f"not {value!r}" in err)
    else:
        assert "must not be empty" in err
    assert "Traceback" not in err


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
