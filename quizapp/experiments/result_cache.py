"""Computation results kept on disk, so that lint, export and the lab know what a computation
gives without importing torch (about a second) every time.

Computations are seeded and deterministic, so a result depends only on what the key holds:
the computation's name, its arguments after defaults are filled in, the device it ran on,
quizapp's version, torch's version (read from the installed package's metadata, which does
not import torch) and a fingerprint of the computation code (the size and modification time
of every module under quizapp/experiments and quizapp/reference, so that an edited
computation in a development checkout is never answered from an older run).

The folder is the user's own cache folder (`QUIZAPP_CACHE_DIR`, else the platform's; none with
`QUIZAPP_NO_CACHE`), which the user can write to, so an entry is data, never code: JSON, read
back under a size limit and checked field by field against the shape a Result has. An entry
that is damaged, tampered with, or for another key is a miss. Writes are atomic (a temporary
file renamed into place) and the folder keeps at most MAX_ENTRIES entries, the least recently
used going first. A cache that cannot be read or written is simply not used.

A result read back carries `cached=True`, so whatever shows it can say so.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import re
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from quizapp import __version__
from quizapp.bank.literal import forbidden_character
from quizapp.experiments.registry import get_spec
from quizapp.experiments.result import Result, Series, Table, Value

# Raised whenever what is stored changes meaning, so that older entries are never read.
FORMAT = 1
MAX_ENTRIES = 512
MAX_ENTRY_BYTES = 2_000_000  # the largest real result is a few tens of kilobytes
MAX_TEXT = 20_000  # characters in one string (a summary is well under 2,000)
MAX_ITEMS = 100_000  # rows, points or values in one list
_SURROGATE = re.compile("[\ud800-\udfff]")
_CODE_PACKAGES = ("experiments", "reference")


class _Damaged(ValueError):
    """An entry that is not what this module writes."""


@functools.cache
def torch_version() -> str | None:
    """The installed torch's version, without importing torch (None: not installed)."""
    from importlib import metadata

    try:
        return metadata.version("torch")
    except metadata.PackageNotFoundError:
        return None


@functools.cache
def code_fingerprint() -> str:
    """Size and modification time of every computation module: any edit changes it."""
    root = Path(__file__).resolve().parent.parent
    parts = []
    for package in _CODE_PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            with contextlib.suppress(OSError):
                stat = path.stat()
                parts.append(f"{path.relative_to(root)}:{stat.st_size}:{stat.st_mtime_ns}")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def default_results_folder() -> Path | None:
    """Where results are kept: a `results` folder in the cache folder (None: caching is off)."""
    from quizapp.bank.cache import default_cache_dir

    folder = default_cache_dir()
    return None if folder is None else folder / "results"


class ResultCache:
    """Results on disk under `folder`, one JSON file per key."""

    def __init__(self, folder: Path, *, max_entries: int = MAX_ENTRIES) -> None:
        self.folder = Path(folder)
        self.max_entries = max_entries

    @classmethod
    def default(cls) -> ResultCache | None:
        """The user's cache, or None when QUIZAPP_NO_CACHE is set."""
        folder = default_results_folder()
        return None if folder is None else cls(folder)

    # -- the key -----------------------------------------------------------------------------

    def key(self, name: str, args: Mapping[str, object], device: str) -> dict[str, Any] | None:
        """Everything a result depends on; None when it cannot be cached (bad arguments, or
        no torch installed to have computed it)."""
        torch = torch_version()
        if torch is None:
            return None
        try:
            bound = get_spec(name).bind(args)
        except ValueError:  # an unknown name or bad arguments: nothing ran, nothing to keep
            return None
        return {
            "format": FORMAT,
            "name": name,
            "args": bound,
            "device": device,
            "quizapp": __version__,
            "torch": torch,
            "code": code_fingerprint(),
        }

    def _path(self, key: Mapping[str, Any]) -> Path:
        canonical = json.dumps(key, sort_keys=True, separators=(",", ":"))
        return self.folder / f"{hashlib.sha256(canonical.encode()).hexdigest()[:40]}.json"

    # -- reading -----------------------------------------------------------------------------

    def get(self, name: str, args: Mapping[str, object], device: str = "cpu") -> Result | None:
        """The stored result for this run, marked cached, or None."""
        key = self.key(name, args, device)
        if key is None:
            return None
        path = self._path(key)
        try:
            with path.open("rb") as handle:
                data = handle.read(MAX_ENTRY_BYTES + 1)
            if len(data) > MAX_ENTRY_BYTES:
                raise _Damaged("too large")
            entry = json.loads(data.decode("utf-8"))
            if not isinstance(entry, dict) or entry.get("key") != key:
                raise _Damaged("another key")  # a hash collision, or a copied file
            result = result_from_json(entry.get("result"), key)
        except (OSError, ValueError, RecursionError):  # missing, damaged or foreign: a miss
            return None
        with contextlib.suppress(OSError):
            os.utime(path)  # recently used: kept when the folder is pruned
        return result

    # -- writing -----------------------------------------------------------------------------

    def put(self, result: Result, args: Mapping[str, object]) -> bool:
        """Store a result computed live with `args`. True when it was written."""
        if not isinstance(result, Result) or result.cached:
            return False  # only what this process computed is stored, never a copy of a copy
        key = self.key(result.name, args, result.device)
        if key is None:
            return False
        payload = result.as_json()
        try:
            result_from_json(payload, key)  # what could not be read back is not written
            text = json.dumps({"key": key, "stored": time.time(), "result": payload})
        except (ValueError, TypeError, RecursionError):
            return False
        data = text.encode("utf-8")
        if len(data) > MAX_ENTRY_BYTES:
            return False
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=self.folder, prefix=".", suffix=".tmp")
        except OSError:
            return False
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(data)
            os.replace(temporary, self._path(key))  # atomic: a reader never sees half a file
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            return False
        self._prune()
        return True

    def _prune(self) -> None:
        """Keep the newest `max_entries` entries; drop temporary files a crash left behind."""
        try:
            entries = []
            for item in os.scandir(self.folder):
                if item.name.endswith(".json"):
                    entries.append((item.stat().st_mtime, item.path))
                elif item.name.endswith(".tmp") and item.stat().st_mtime < time.time() - 3600:
                    os.unlink(item.path)
            if len(entries) <= self.max_entries:
                return
            entries.sort(reverse=True)
            for _, path in entries[self.max_entries :]:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(path)
        except OSError:
            pass


# -- validation: what is read back must have exactly a Result's shape ------------------------------


def _text(value: object) -> str:
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        raise _Damaged("not a string, or too long")
    if forbidden_character(value) is not None or _SURROGATE.search(value):
        raise _Damaged("a control character")  # nothing stored may act on the terminal
    return value


def _list(value: object) -> list[Any]:
    if not isinstance(value, list) or len(value) > MAX_ITEMS:
        raise _Damaged("not a list, or too long")
    return value


def _scalar(value: object) -> Value:
    if isinstance(value, bool | int | float):
        return value
    return _text(value)


def _number(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _Damaged("not a number")
    return value


def _table(value: object) -> Table:
    if not isinstance(value, dict) or set(value) != {"title", "columns", "rows"}:
        raise _Damaged("not a table")
    columns = tuple(_text(c) for c in _list(value["columns"]))
    rows = tuple(tuple(_scalar(cell) for cell in _list(row)) for row in _list(value["rows"]))
    return Table(columns, rows, _text(value["title"]))


def _series(value: object) -> Series:
    keys = {"x_label", "y_label", "log_y", "x", "lines"}
    if not isinstance(value, dict) or set(value) != keys or not isinstance(value["log_y"], bool):
        raise _Damaged("not a series")
    x = tuple(_number(v) for v in _list(value["x"]))
    lines = value["lines"]
    if not isinstance(lines, dict) or len(lines) > 64:
        raise _Damaged("not a series")
    return Series(
        x_label=_text(value["x_label"]),
        x=x,
        lines={_text(k): tuple(_number(v) for v in _list(ys)) for k, ys in lines.items()},
        y_label=_text(value["y_label"]),
        log_y=value["log_y"],
    )


def result_from_json(payload: object, key: Mapping[str, Any]) -> Result:
    """Rebuild a Result from `Result.as_json()` output. Raises ValueError on anything else."""
    keys = {"name", "args", "device", "values", "table", "series", "extra_tables", "summary"}
    if not isinstance(payload, dict) or set(payload) != keys:
        raise _Damaged("not a result")
    if payload["name"] != key["name"] or payload["device"] != key["device"]:
        raise _Damaged("a result for another run")
    values = payload["values"]
    if not isinstance(values, dict) or len(values) > MAX_ITEMS:
        raise _Damaged("no values")
    promised = get_spec(key["name"]).values
    if any(name not in values for name in promised):
        raise _Damaged("a promised value is missing")  # the runner's contract, kept on reads
    args = payload["args"]
    if not isinstance(args, dict) or len(args) > 64:
        raise _Damaged("no arguments")
    return Result(
        name=key["name"],
        args={_text(k): None if v is None else _scalar(v) for k, v in args.items()},
        device=key["device"],
        values={_text(name): _scalar(value) for name, value in values.items()},
        summary=_text(payload["summary"]),
        table=None if payload["table"] is None else _table(payload["table"]),
        series=None if payload["series"] is None else _series(payload["series"]),
        extra_tables=tuple(_table(t) for t in _list(payload["extra_tables"])),
        cached=True,
    )


__all__ = [
    "MAX_ENTRIES",
    "ResultCache",
    "code_fingerprint",
    "default_results_folder",
    "result_from_json",
    "torch_version",
]
