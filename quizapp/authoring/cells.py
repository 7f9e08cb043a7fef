"""Splitting one spreadsheet cell into items, where a backslash escapes a separator."""

from __future__ import annotations


def split_escaped(cell: str, separators: str) -> list[str]:
    """The cell's items, split at any of `separators`; `\\x` for a separator x, or for a
    backslash, stands for that character itself (any other backslash is kept as written)."""
    items: list[str] = []
    buf: list[str] = []
    i = 0
    while i < len(cell):
        char = cell[i]
        if char == "\\" and i + 1 < len(cell) and cell[i + 1] in separators + "\\":
            buf.append(cell[i + 1])
            i += 2
            continue
        if char in separators:
            items.append("".join(buf))
            buf = []
        else:
            buf.append(char)
        i += 1
    items.append("".join(buf))
    return items
