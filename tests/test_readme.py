"""The README's Quick start is what CI runs: keep the two from drifting apart."""

from __future__ import annotations

import re

from tests.conftest import REPO

CPU_INDEX = "https://download.pytorch.org/whl/cpu"


def quick_start_blocks() -> list[list[str]]:
    """The commands of each bash block in the Quick start section, comments stripped."""
    readme = (REPO / "README.md").read_text()
    section = re.search(r"^## Quick start\n(.*?)^## ", readme, re.S | re.M)
    assert section, "README has no Quick start section"
    blocks = re.findall(r"```bash\n(.*?)```", section.group(1), re.S)
    assert blocks, "the Quick start has no bash block"
    return [
        [line.split("#")[0].strip() for line in block.splitlines() if line.split("#")[0].strip()]
        for block in blocks
    ]


def ci_commands() -> list[str]:
    lines = (REPO / ".ci" / "run").read_text().splitlines()
    return [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]


def test_quick_start_is_clone_then_exactly_two_uv_commands() -> None:
    uv_way = quick_start_blocks()[0]
    assert uv_way[0].startswith("git clone ") and "cd " in uv_way[0]
    assert uv_way[1:] == ["uv run quizapp", "uv run pytest"]


def test_the_pip_alternative_installs_cpu_torch_first() -> None:
    [pip_way] = [block for block in quick_start_blocks()[1:] if any("pip" in c for c in block)]
    assert pip_way[0] == "python -m venv .venv && . .venv/bin/activate"
    [torch_line] = [command for command in pip_way if "torch==" in command]
    assert torch_line.startswith("pip install torch==")
    assert f"--index-url {CPU_INDEX}" in torch_line, "a bare torch install pulls the CUDA build"
    project_line = pip_way.index('pip install -e ".[dev]"')
    assert pip_way.index(torch_line) < project_line, "torch must be installed first"
    assert pip_way[project_line + 1 :] == ["quizapp", "python -m pytest"]


def test_ci_runs_exactly_the_readme_test_command() -> None:
    readme_test = quick_start_blocks()[0][-1]
    commands = ci_commands()
    assert readme_test in commands
    assert commands[-1] == readme_test, "CI's last step is the README's test command"


def test_ci_sets_the_environment_up_as_the_readme_does() -> None:
    """CI creates the environment through `uv run`, never through a pip install of its own."""
    commands = ci_commands()
    setup = commands[: commands.index(quick_start_blocks()[0][-1])]
    assert any(command.startswith("uv run quizapp") for command in setup)
    assert not any("pip install" in command and "-e" in command for command in setup)
