"""The `expect` column of a question CSV: a question's claims, typed into one spreadsheet cell.

    params_single_head == params_multi_head -- Same parameter count; head_dim == 64

Claims are separated by `;` or line breaks, and the words a claim `says` follow ` -- `. In
the words, `\\;` is a literal semicolon and `\\\\` a backslash. A claim itself never holds a
`;`, a `\\` or a line break (the loader refuses them), so the cell reads back unambiguously.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from quizapp.authoring.cells import split_escaped
from quizapp.bank.model import Claim

SAYS_SEPARATOR = " -- "
_SAYS_SPLIT = re.compile(r"\s--(?:\s|$)")


def parse_expect_cell(cell: str) -> list[str | dict[str, str]]:
    """The claims of one cell, as the bank writes them: a string, or {claim, says}."""
    claims: list[str | dict[str, str]] = []
    for item in split_escaped(cell, ";\n\r"):
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
