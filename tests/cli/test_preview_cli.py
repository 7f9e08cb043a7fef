"""`quizapp preview`'s refusals, checked before any screen is drawn: one located line each."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import CORPUS


def test_an_unknown_id_exits_2_naming_close_matches(run_cli) -> None:
    result = run_cli("preview", "--no-default-bank", "--bank", str(CORPUS / "good"), "t-singel")
    assert result.returncode == 2
    assert result.stderr == (
        "quizapp preview: error: no question with id 't-singel' in the bank "
        "(did you mean t-single?)\n"
    )


def test_an_unknown_id_is_looked_up_in_the_bundled_bank_too(run_cli) -> None:
    result = run_cli("preview", "no-such-question-anywhere")
    assert result.returncode == 2
    assert "no question with id 'no-such-question-anywhere'" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_broken_file_exits_1_with_the_located_error(run_cli, tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("deck: [unclosed\n")
    result = run_cli("preview", str(broken))
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert lines[0].startswith(f"{broken}:1:7: error: YAML syntax")  # where the [ opens
    assert lines[-1] == f"quizapp preview: error: no questions loaded from {broken}"
    assert "Traceback" not in result.stderr


def test_a_missing_file_exits_1(run_cli, tmp_path: Path) -> None:
    missing = tmp_path / "nope.yaml"
    result = run_cli("preview", str(missing))
    assert result.returncode == 1
    assert f"{missing}:1:1: error: no such file or folder" in result.stderr


def test_options_before_the_command_count_too(run_cli) -> None:
    result = run_cli("--no-default-bank", "--bank", str(CORPUS / "good"), "preview", "t-singel")
    assert result.returncode == 2
    assert "(did you mean t-single?)" in result.stderr


def test_help_names_the_targets(run_cli) -> None:
    result = run_cli("preview", "--help")
    assert result.returncode == 0
    assert "ID|FILE" in result.stdout
