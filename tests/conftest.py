from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
CORPUS = Path(__file__).resolve().parent / "bank" / "corpus"


@pytest.fixture
def run_cli():
    """Run `python -m quizapp ...` as a user would, returning the completed process."""

    def run(
        *args: str, timeout: float = 120, cwd: Path | None = None
    ) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "quizapp", *args],
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=cwd or REPO,
        )

    return run
