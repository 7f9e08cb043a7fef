"""Writing one setting back into `config.toml`, leaving the rest of the file as it was.

The one writer of the config file: the theme picked in the palette, the exam date, whether
quizzes reschedule; any `Settings` field, set or (with None) removed.

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
import json
import os
import re
import stat
import tempfile
import tomllib
from dataclasses import fields
from datetime import date
from pathlib import Path

from quizapp.srs.config import ConfigError, Settings, load_settings

Value = str | bool | int | float | date | None  # None: remove the key's line
_SETTING_NAMES = frozenset(f.name for f in fields(Settings))
_TABLE = re.compile(r"\s*\[")
_NEW_FILE = (
    "# quizapp settings (see the README). The app writes a setting here when you change it.\n"
)


def set_config_value(path: Path, key: str, value: Value) -> Path:
    """Set top-level `key = value` in the TOML file at `path` (None: remove the line), creating
    the file if needed. Returns the file written (a symlink's target).

    Raises ConfigError, leaving the file untouched, when the key is not a setting, the file
    cannot be read, does not parse, is not a regular file, the value is out of range, or the
    edit would change anything but `key`.
    """
    if key not in _SETTING_NAMES:
        raise ConfigError(f"{path}: unknown setting {key!r}")
    if isinstance(value, str) and any(ord(c) < 32 or ord(c) == 127 for c in value):
        raise ConfigError(f"{path}: {key} cannot hold control characters; not saved")
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
    expected = {k: v for k, v in old.items() if k != key}
    if value is not None:
        expected[key] = value
    if new != expected:
        raise ConfigError(f"{path}: the {key} line is not a plain one; {key} is not saved")
    # The value as the app will read it: of the right type and in range, alone and (when the
    # file loaded before) beside the rest of the file.
    if value is not None:
        _check_loads(path, f"{key} = {_toml_value(value)}\n")
    if _loads(old_text):
        _check_loads(path, new_text)
    if new_text == old_text:
        return target
    try:
        _replace(target, new_text)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot write: {exc.strerror or exc}") from None
    return target


def _loads(text: str) -> bool:
    try:
        _check_loads(Path("config.toml"), text)
    except ConfigError:
        return False
    return True


def _check_loads(path: Path, text: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        trial = Path(folder) / "config.toml"
        trial.write_text(text, encoding="utf-8")
        try:
            load_settings(trial)
        except ConfigError as exc:
            raise ConfigError(f"{path}: {str(exc).removeprefix(f'{trial}: ')}") from None


def _toml_value(value: str | bool | int | float | date) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, date):
        return value.isoformat()  # a TOML local date: exam_date = 2027-01-15
    # A TOML basic string: JSON's escapes are TOML's, bar DEL, which TOML wants escaped too.
    return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")


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


def _with_value(text: str, key: str, value: Value) -> str:
    """`text` with the top-level `key` line set to `value`: replaced, added, or (None) removed.
    A comment after the value stays; the result is checked by parsing, so a line this does
    not understand is refused rather than mangled."""
    lines = text.splitlines(keepends=True)
    # The value: a one-line quoted string, or a bare token (number, boolean, date).
    assignment = re.compile(
        rf"(\s*{re.escape(key)}\s*=\s*)(\"(?:[^\"\\\n]|\\.)*\"|'[^'\n]*'|[^\s#\"']+)(.*)", re.S
    )
    top_level_end = next((i for i, line in enumerate(lines) if _TABLE.match(line)), len(lines))
    for index in range(top_level_end):
        found = assignment.fullmatch(lines[index])
        if found:
            if value is None:
                del lines[index]
            else:
                lines[index] = f"{found.group(1)}{_toml_value(value)}{found.group(3)}"
            return "".join(lines)
    if value is None:
        return text
    newline = "\r\n" if "\r\n" in text else "\n"
    if top_level_end and not lines[top_level_end - 1].endswith(("\n", "\r")):
        lines[top_level_end - 1] += newline
    lines.insert(top_level_end, f"{key} = {_toml_value(value)}{newline}")
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
