"""`quizapp`'s own options, checked before any screen is drawn."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--theme", "nope"], "unknown theme 'nope'"),
        (["--device", "tpu"], "--device must be one of"),
        (["--length", "0"], "--length must be at least 1"),
        (["--no-default-bank"], "needs at least one --bank"),
    ],
)
def test_bad_options_exit_2_with_one_line(run_cli, args, fragment) -> None:
    result = run_cli(*args)
    assert result.returncode == 2
    assert fragment in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_bank_with_nothing_loadable_says_where_and_exits_1(run_cli, tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("deck: [unclosed\n")
    result = run_cli("--no-default-bank", "--bank", str(broken))
    assert result.returncode == 1
    assert f"{broken}:2:1: error: YAML syntax" in result.stderr
    assert "no questions loaded" in result.stderr
    assert "Traceback" not in result.stderr
