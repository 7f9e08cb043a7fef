"""The README's Quick start is what CI runs: keep the two from drifting apart."""

from __future__ import annotations

import re

from tests.conftest import REPO


def quick_start_commands() -> list[str]:
    readme = (REPO / "README.md").read_text()
    block = re.search(r"## Quick start\s+```bash\n(.*?)```", readme, re.S)
    assert block, "README has no Quick start code block"
    return [line.split("#")[0].strip() for line in block.group(1).splitlines() if line.strip()]


def test_quick_start_has_install_run_and_test() -> None:
    install, run, test = quick_start_commands()
    assert "torch==2.13.0" in install and '-e ".[dev]"' in install
    assert run == "quizapp"
    assert test == "python -m pytest"


def test_ci_runs_exactly_the_readme_test_command() -> None:
    test = quick_start_commands()[2]
    ci_lines = [line.strip() for line in (REPO / ".ci" / "run").read_text().splitlines()]
    assert test in ci_lines
    install_order = [
        i for i, line in enumerate(ci_lines) if "pip install" in line and "torch==" in line
    ]
    project = [
        i for i, line in enumerate(ci_lines) if "pip install" in line and '-e ".[dev]"' in line
    ]
    assert install_order and project and install_order[0] < project[0], (
        "torch must be installed first"
    )
