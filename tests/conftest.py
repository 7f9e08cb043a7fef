from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
CORPUS = Path(__file__).resolve().parent / "bank" / "corpus"

# TODO(issue 10): remove once the bank rewrite lands. The item-writing warnings are new and
# the bundled bank is being rewritten to pass them; until then the tests that lint the bundled
# bank (or a copy of one of its decks) tolerate these codes, and only these.
PENDING_ITEM_WRITING = frozenset(
    {
        "key-longest",
        "key-much-longer",
        "rationale-in-key",
        "key-count-fixed",
        "absolute-word-false",
        "hedge-true",
        "all-none-of-the-above",
        "near-duplicate-stem",
    }
)


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
