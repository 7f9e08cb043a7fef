"""A cache of loaded banks, so the app opens without parsing YAML when no file has changed.

The key covers quizapp's version and each file's path, size and modification time; any
change means a fresh load. The cache holds only what quizapp itself produced from the files
(the decks and the diagnostics), in the user's own cache folder. A cache that cannot be read
or written is simply not used: it can make loading faster, never make it fail.
"""

from __future__ import annotations

import os
import pickle
import tempfile
import zlib
from collections.abc import Callable, Collection, Iterable
from pathlib import Path

from quizapp import __version__
from quizapp.bank.discovery import discover
from quizapp.bank.model import Bank

# Raised whenever the loader's rules change what the same file yields, so a bank cached under
# older rules is loaded afresh (2: control characters and bidirectional overrides refused;
# 3: each choice carries its location; 4: text kept in NFC, invisible characters in ids refused;
# 5: claims may read {placeholders} and at(...) second runs, and a claim carries its bindings;
# 6: a question with broken YAML costs only itself, and the computation names are checked).
CACHE_FORMAT = 6


def default_cache_dir() -> Path | None:
    if os.environ.get("QUIZAPP_NO_CACHE"):
        return None
    override = os.environ.get("QUIZAPP_CACHE_DIR")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_cache_dir("quizapp", appauthor=False))


def cache_key(paths: Iterable[str | Path], checked: bool = False) -> str | None:
    """Everything a cached bank depends on, as one string (None when a file cannot be read).

    `checked`: whether computation names were held to the registry, which is code, and so
    covered by the version."""
    files, problems = discover(paths)
    parts = [f"{__version__}:{CACHE_FORMAT}:{'registry' if checked else '-'}"]
    parts.extend(str(Path(raw).resolve()) for raw in paths)
    parts.extend(problem.format() for problem in problems)
    for path in files:
        try:
            stat = path.stat()
        except OSError:
            return None
        parts.append(f"{path.resolve()}:{stat.st_size}:{stat.st_mtime_ns}")
    return "\0".join(parts)


def load_bank_cached(
    paths: Iterable[str | Path],
    cache_dir: Path | None = None,
    computations: Callable[[], Collection[str]] | None = None,
) -> Bank:
    """`load_bank(paths, computations())`, from the cache when no file has changed.

    `computations` is called only on a miss: a hit opens the app without importing the
    computation registry before the first frame."""
    paths = list(paths)
    folder = cache_dir if cache_dir is not None else default_cache_dir()
    key = cache_key(paths, computations is not None) if folder is not None else None
    if folder is None or key is None:
        return _load(paths, computations)
    # crc32 only names the file (zlib is cheaper to import than hashlib, and this runs before
    # the first frame); the full key stored inside is what decides a hit.
    entry = folder / f"bank-{zlib.crc32(key.encode()):08x}.pickle"
    try:
        with entry.open("rb") as handle:
            stored_key, cached = pickle.load(handle)
        if stored_key == key and isinstance(cached, Bank):
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
    bank = _load(paths, computations)
    _store(folder, entry, (key, bank))
    return bank


def _load(paths: list[str | Path], computations: Callable[[], Collection[str]] | None) -> Bank:
    from quizapp.bank.loader import load_bank  # the YAML machinery, only on a miss

    return load_bank(paths, None if computations is None else computations())


def _store(folder: Path, entry: Path, payload: tuple[str, Bank]) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob("bank-*.pickle"):
            old.unlink(missing_ok=True)  # one bank's worth of cache is plenty
        with tempfile.NamedTemporaryFile("wb", dir=folder, delete=False, suffix=".tmp") as handle:
            pickle.dump(payload, handle, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(handle.name, entry)  # atomic: a reader never sees half a file
    except OSError:
        pass
