"""A cache of loaded banks, so the app opens without parsing YAML when no file has changed.

The key covers quizapp's version and each file's path, size and modification time; any
change means a fresh load. The cache holds only what quizapp itself produced from the files
(the decks and the diagnostics), in the user's own cache folder. A cache that cannot be read
or written is simply not used: it can make loading faster, never make it fail.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from collections.abc import Iterable
from pathlib import Path

from quizapp import __version__
from quizapp.bank.discovery import discover
from quizapp.bank.model import Bank

CACHE_FORMAT = 1


def default_cache_dir() -> Path | None:
    if os.environ.get("QUIZAPP_NO_CACHE"):
        return None
    override = os.environ.get("QUIZAPP_CACHE_DIR")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_cache_dir("quizapp", appauthor=False))


def cache_key(paths: Iterable[str | Path]) -> str | None:
    files, problems = discover(paths)
    digest = hashlib.sha256(f"{__version__}:{CACHE_FORMAT}".encode())
    for raw in paths:
        digest.update(str(Path(raw).resolve()).encode() + b"\0")
    for problem in problems:
        digest.update(problem.format().encode())
    for path in files:
        try:
            stat = path.stat()
        except OSError:
            return None
        digest.update(f"{path.resolve()}\0{stat.st_size}\0{stat.st_mtime_ns}\0".encode())
    return digest.hexdigest()[:32]


def load_bank_cached(paths: Iterable[str | Path], cache_dir: Path | None = None) -> Bank:
    paths = list(paths)
    folder = cache_dir if cache_dir is not None else default_cache_dir()
    key = cache_key(paths) if folder is not None else None
    if folder is None or key is None:
        return _load(paths)
    entry = folder / f"bank-{key}.pickle"
    try:
        with entry.open("rb") as handle:
            cached = pickle.load(handle)
        if isinstance(cached, Bank):
            return cached
    except (
        OSError,
        pickle.PickleError,
        EOFError,
        AttributeError,
        ImportError,
        TypeError,
        ValueError,
    ):
        pass  # missing, stale or damaged: load afresh and rewrite it
    bank = _load(paths)
    _store(folder, entry, bank)
    return bank


def _load(paths: list[str | Path]) -> Bank:
    from quizapp.bank.loader import load_bank  # the YAML machinery, only on a miss

    return load_bank(paths)


def _store(folder: Path, entry: Path, bank: Bank) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob("bank-*.pickle"):
            old.unlink(missing_ok=True)  # one bank's worth of cache is plenty
        with tempfile.NamedTemporaryFile("wb", dir=folder, delete=False, suffix=".tmp") as handle:
            pickle.dump(bank, handle, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(handle.name, entry)  # atomic: a reader never sees half a file
    except OSError:
        pass
