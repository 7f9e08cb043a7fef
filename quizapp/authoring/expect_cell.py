"""The `expect` column of a question CSV: a question's claims, typed into one spreadsheet cell.

    params_single_head == params_multi_head -- Same parameter count; head_dim == 64

Claims are separated by `;` or line breaks, and the words a claim `says` follow ` -- `. In
the words, `\\;` is a literal semicolon and `\\\\` a backslash. A claim itself never holds a
`;`, a `\\` or a line break (the loader refuses them), so the cell reads back unambiguously.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from quizapp.bank.model import Claim

SAYS_SEPARATOR = " -- "
_SAYS_SPLIT = re.compile(r"\s--(?:\s|$)")


def _split(cell: str) -> list[str]:
    """Items separated by unescaped `;` or line breaks, with `\\;` and `\\\\` unescaped."""
    items: list[str] = []
    buf: list[str] = []
    i = 0
    while i < len(cell):
        char = cell[i]
        if char == "\\" and i + 1 < len(cell) and cell[i + 1] in ";\\":
            buf.append(cell[i + 1])
            i += 2
            continue
        if char in ";\n\r":
            items.append("".join(buf))
            buf = []
        else:
            buf.append(char)
        i += 1
    items.append("".join(buf))
    return items


def parse_expect_cell(cell: str) -> list[str | dict[str, str]]:
    """The claims of one cell, as the bank writes them: a string, or {claim, says}."""
    claims: list[str | dict[str, str]] = []
    for item in _split(cell):
        if not item.strip():
            continue  # a blank line or a trailing `;`
        parts = _SAYS_SPLIT.split(item, maxsplit=1)
        claim = parts[0].strip()
        says = parts[1].strip() if len(parts) > 1 else ""
        claims.append({"claim": claim, "says": says} if says else claim)
    return claims


def format_expect_cell(claims: Iterable[Claim]) -> str:
    """The cell `parse_expect_cell` reads back as the same claims."""
    items = []
    for claim in claims:
        # `a -- b` is `a - (-b)`: written with a space, it cannot be taken for the separator.
        text = _SAYS_SPLIT.sub(lambda m: m.group(0).replace("--", "- -"), claim.text)
        if claim.says:
            says = claim.says.replace("\\", "\\\\").replace(";", "\\;")
            items.append(f"{text}{SAYS_SEPARATOR}{says}")
        else:
            items.append(text)
    return "; ".join(items)
