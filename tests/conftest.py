from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
CORPUS = Path(__file__).resolve().parent / "bank" / "corpus"


@pytest.fixture(autouse=True)
def own_cache_folder(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch):
    """Every test starts with an empty cache folder, which its subprocesses inherit: a result
    stored by another test (or by the user's own runs) must never answer its computations."""
    folder = tmp_path_factory.mktemp("cache")
    monkeypatch.setenv("QUIZAPP_CACHE_DIR", str(folder))
    monkeypatch.delenv("QUIZAPP_NO_CACHE", raising=False)
    return folder


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


@pytest.fixture
def utc_local_time() -> Iterator[None]:
    """Run with UTC as the local time zone (days start at UTC midnight), then restore it."""
    before = os.environ.get("TZ")
    os.environ["TZ"] = "UTC"
    time.tzset()
    yield
    if before is None:
        os.environ.pop("TZ", None)
    else:
        os.environ["TZ"] = before
    time.tzset()
