"""Writing one setting back into `config.toml`, leaving the rest of the file as it was.

The standard library reads TOML (tomllib) but does not write it, and rewriting the whole file
from parsed data would drop the user's comments and layout. So one top-level `key = "value"`
line is replaced (or added before the first table), and the change is proved before it lands:
the edited text must parse to the old settings with only that key changed. The file is then
replaced atomically (a temporary file in the same folder, flushed to disk, then renamed), so a
crash leaves the old file or the new one, never half of one. A symlinked config (dotfiles)
is written through to its target, and a file that does not parse now is left alone: the user
is in the middle of editing it, and the app's refusal to start already says where it breaks.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import tempfile
import tomllib
from pathlib import Path

from quizapp.srs.config import ConfigError

# What this module writes: a plain identifier. Theme names are like that ("nord",
# "textual-dark", "gruvbox"); anything else is refused rather than quoted and escaped.
_PLAIN_VALUE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
_TABLE = re.compile(r"\s*\[")
_NEW_FILE = "# quizapp settings (see the README). The app writes `theme` when you pick one.\n"


def set_config_value(path: Path, key: str, value: str) -> None:
    """Set top-level `key = "value"` in the TOML file at `path`, creating it if needed.

    Raises ConfigError, leaving the file untouched, when the file cannot be read, does not
    parse, is not a regular file, or the edit would change anything but `key`.
    """
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key) or not _PLAIN_VALUE.fullmatch(value):
        raise ConfigError(f"cannot write {key} = {value!r} to {path}")
    target = path.resolve() if path.is_symlink() else path
    old_text = _read(target)
    try:
        old = tomllib.loads(old_text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: {exc}; {key} is not saved") from None
    new_text = _with_value(old_text, key, value)
    try:
        new = tomllib.loads(new_text)
    except tomllib.TOMLDecodeError:
        new = None
    if new != {**old, key: value}:
        raise ConfigError(f"{path}: the {key} line is not a plain one; {key} is not saved")
    if new_text == old_text:
        return
    try:
        _replace(target, new_text)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot write: {exc.strerror or exc}") from None


def _read(path: Path) -> str:
    try:
        info = path.stat()
    except FileNotFoundError:
        return _NEW_FILE
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if not stat.S_ISREG(info.st_mode):
        raise ConfigError(f"{path} is not a regular file; settings are not saved")
    try:
        with path.open(encoding="utf-8", newline="") as file:  # keep \r\n as it is
            return file.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read: {exc}") from None


def _with_value(text: str, key: str, value: str) -> str:
    """`text` with the top-level `key` line set to `value`: replaced, or added."""
    lines = text.splitlines(keepends=True)
    assignment = re.compile(rf"(\s*{re.escape(key)}\s*=\s*)(\"[^\"\\\n]*\"|'[^'\n]*')(.*)", re.S)
    top_level_end = next((i for i, line in enumerate(lines) if _TABLE.match(line)), len(lines))
    for index in range(top_level_end):
        found = assignment.fullmatch(lines[index])
        if found:
            lines[index] = f'{found.group(1)}"{value}"{found.group(3)}'
            return "".join(lines)
    newline = "\r\n" if "\r\n" in text else "\n"
    if top_level_end and not lines[top_level_end - 1].endswith(("\n", "\r")):
        lines[top_level_end - 1] += newline
    lines.insert(top_level_end, f'{key} = "{value}"{newline}')
    return "".join(lines)


def _replace(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        mode = 0o644
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    # The rename itself is durable once the folder is flushed (not every system allows it).
    with contextlib.suppress(OSError):
        folder = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)


__all__ = ["set_config_value"]
