"""An installed quizapp carries its bank: build the wheel and look inside, then use it."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import REPO


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(out),
            str(REPO),
        ],
        capture_output=True,
        text=True,
        timeout=300,
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
