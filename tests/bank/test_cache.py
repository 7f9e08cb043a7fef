"""The bank cache: a hit skips YAML entirely, any change to a file misses, damage is harmless."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

from quizapp.bank import load_bank
from quizapp.bank.cache import load_bank_cached
from tests.conftest import CORPUS, REPO


def copy_good(tmp_path: Path) -> Path:
    folder = tmp_path / "bank"
    shutil.copytree(CORPUS / "good", folder)
    return folder


def test_a_hit_returns_the_same_bank(tmp_path: Path) -> None:
    folder, cache = copy_good(tmp_path), tmp_path / "cache"
    first = load_bank_cached([folder], cache)
    assert list(cache.glob("bank-*.pickle"))
    second = load_bank_cached([folder], cache)
    assert second.questions == first.questions == load_bank([folder]).questions
    assert [d.format() for d in second.diagnostics] == [d.format() for d in first.diagnostics]


def test_a_hit_does_not_import_yaml(tmp_path: Path) -> None:
    folder, cache = copy_good(tmp_path), tmp_path / "cache"
    load_bank_cached([folder], cache)
    code = textwrap.dedent(
        f"""
        import sys
        from quizapp.bank import load_bank_cached
        bank = load_bank_cached([{str(folder)!r}], __import__("pathlib").Path({str(cache)!r}))
        print(len(bank.questions), "yaml" in sys.modules)
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=60
    )
    assert out.stdout.split() == ["8", "False"], out.stderr


def test_editing_a_file_misses_the_cache(tmp_path: Path) -> None:
    folder, cache = copy_good(tmp_path), tmp_path / "cache"
    load_bank_cached([folder], cache)
    path = folder / "every_type.yaml"
    text = path.read_text().replace("Front?", "A new front?")
    path.write_text(text)
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))  # beyond mtime resolution
    bank = load_bank_cached([folder], cache)
    assert bank.questions["t-card"].prompt == "A new front?"


def test_a_damaged_cache_is_ignored_and_rewritten(tmp_path: Path) -> None:
    folder, cache = copy_good(tmp_path), tmp_path / "cache"
    load_bank_cached([folder], cache)
    [entry] = cache.glob("bank-*.pickle")
    entry.write_bytes(b"not a pickle at all")
    assert len(load_bank_cached([folder], cache).questions) == 8
    assert entry.read_bytes() != b"not a pickle at all"


def test_an_unwritable_cache_folder_still_loads(tmp_path: Path) -> None:
    folder = copy_good(tmp_path)
    blocker = tmp_path / "file-not-folder"
    blocker.write_text("x")
    assert len(load_bank_cached([folder], blocker / "cache").questions) == 8
