"""Where a question still says TODO: each line of its text that does, with the field named.

Lint's `todo-left` used to point at the question's `- id:` line and say "somewhere". The
bank keeps no location per text, so the question's own lines in its file are read again:
from its first line to the next line as little indented (the next item or key), at most
`MAX_LINES` of them, and each TODO is reported at its line and column.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from quizapp.bank.model import Location

MAX_LINES = 2_000  # a question's own lines read back; the file cap bounds it too
MAX_REPORTED = 20  # TODOs reported per question; the rest are counted
_KEY = re.compile(r"^\s*(?:- )?([A-Za-z_][\w]*)\s*:")


def todo_places(location: Location, lines: list[str]) -> Iterator[tuple[int, int, str | None]]:
    """(line, column, the key on that line or None) of each TODO in the question at
    `location` (1-based, as the loader gives it), in `lines` (the file's)."""
    start = location.line - 1
    if not 0 <= start < len(lines):
        return
    indent = location.column - 1  # the column of the question's first key
    for number in range(start, min(len(lines), start + MAX_LINES)):
        line = lines[number]
        stripped = line.lstrip(" ")
        if number > start and stripped and len(line) - len(stripped) < indent:
            return  # the next question, or the end of the list
        column = line.find("TODO")
        if column >= 0 and not stripped.startswith("#"):  # a comment is not a text
            yield number + 1, column + 1, _key_of(lines, number, column, start)


def _key_of(lines: list[str], number: int, column: int, first: int) -> str | None:
    """The key whose text this line is part of: its own, or for a line inside a block
    (`explanation: |`), the nearest key above it that is less indented."""
    line = lines[number]
    key = _KEY.match(line)
    if key and key.start(1) < column:
        return key.group(1)
    indent = len(line) - len(line.lstrip(" "))
    for above in range(number - 1, first - 1, -1):
        text = lines[above]
        stripped = text.lstrip(" ")
        if stripped and len(text) - len(stripped) < indent:
            key = _KEY.match(text)
            return key.group(1) if key else None
    return None


def read_lines(path: str, cache: dict[str, list[str]]) -> list[str]:
    """The file's lines, read once per lint run; [] when it cannot be read again."""
    if path not in cache:
        try:
            cache[path] = Path(path).read_text(encoding="utf-8-sig").splitlines()
        except (OSError, UnicodeDecodeError):
            cache[path] = []
    return cache[path]
