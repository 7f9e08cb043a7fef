"""The pure layers stay pure: loading a bank never imports torch or textual."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from tests.conftest import REPO


def run_python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
    )


def test_loading_and_linting_the_bank_imports_neither_torch_nor_textual() -> None:
    result = run_python(
        """
        import sys
        from quizapp.bank import bundled_bank_path, load_bank
        from quizapp.authoring.lint import lint
        bank = load_bank([bundled_bank_path()])
        lint([bundled_bank_path()], evaluate=False)  # registry checks only
        assert bank.questions, "the bundled bank loaded no questions"
        heavy = sorted(m for m in sys.modules if m.split(".")[0] in {"torch", "textual"})
        print(",".join(heavy))
        """
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ""


def test_the_subprocess_check_can_see_torch_when_it_is_imported() -> None:
    # Guards the test above against passing vacuously.
    result = run_python("import sys, torch; print('torch' in sys.modules)")
    assert result.stdout.strip() == "True"


def test_import_contracts_hold() -> None:
    lint_imports = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run(
        [str(lint_imports)], capture_output=True, text=True, timeout=300, cwd=REPO
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Contracts: " in result.stdout and " 0 broken" in result.stdout
