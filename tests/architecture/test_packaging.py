"""An installed quizapp carries its bank: build the wheel and look inside, then use it."""

from __future__ import annotations

import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from tests.conftest import REPO


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """Built through the build backend's own PEP 517 hook, not pip: a uv environment (the
    README's Quick start) has no pip."""
    out = tmp_path_factory.mktemp("wheel")
    build = "import sys, hatchling.build; hatchling.build.build_wheel(sys.argv[1])"
    result = subprocess.run(
        [sys.executable, "-c", build, str(out)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    [built] = out.glob("quizapp-*.whl")
    return built


def test_the_wheel_ships_the_bank_and_its_schema(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    shipped = {Path(n).name for n in names if n.startswith("quizapp/question_bank/")}
    bundled = {p.name for p in (REPO / "question_bank").iterdir() if p.is_file()}
    assert bundled and bundled <= shipped
    assert any(n.endswith("entry_points.txt") for n in names)


def test_an_installed_copy_finds_its_bank_without_flags(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(target)
    code = (
        "from quizapp.bank import bundled_bank_path, load_bank; p = bundled_bank_path();"
        "b = load_bank([p]); print(p); print(len(b.questions), len(b.errors))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env={"PYTHONPATH": str(target), "PATH": "/usr/bin:/bin"},
    )
    assert result.returncode == 0, result.stderr
    path, counts = result.stdout.splitlines()
    assert path.startswith(str(target))
    n_questions, n_errors = map(int, counts.split())
    assert n_questions >= 60 and n_errors == 0


def test_uv_and_pip_install_the_same_test_dependencies() -> None:
    """`uv run pytest` installs the dev group, `pip install -e ".[dev]"` the dev extra."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert project["dependency-groups"]["dev"] == project["project"]["optional-dependencies"]["dev"]


def test_uv_takes_torch_from_the_cpu_index_on_linux() -> None:
    """On a plain Linux machine PyPI's torch is the CUDA build (gigabytes); uv's documented
    remedy is PyTorch's CPU index as torch's source there."""
    uv = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["uv"]
    indexes = {index["name"]: index for index in uv["index"]}
    [source] = uv["sources"]["torch"]
    cpu_index = indexes[source["index"]]
    assert cpu_index["url"] == "https://download.pytorch.org/whl/cpu"
    assert cpu_index["explicit"], "only torch may be looked up on PyTorch's index"
    assert "sys_platform == 'linux'" in source["marker"]
    assert "darwin" not in source["marker"], "macOS takes PyPI's build (the CPU/MPS one)"
