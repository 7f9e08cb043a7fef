"""CSV cells a spreadsheet cannot mistake for formulas, read back exactly.

A spreadsheet opening a CSV runs a cell that starts with `=`, `+`, `-` or `@` as a formula
(`=HYPERLINK(...)` becomes a live link, and saving the sheet replaces the text with the
formula's result); a leading tab or carriage return can hide such a cell. OWASP's rule for
CSV injection: such a cell gets a leading `'`, which spreadsheets take as "this is text".

`quizapp export` guards every cell and `quizapp import` takes the guard back off, so an export
imports back exactly. For that, a cell that already starts with `'`s followed by a trigger
(`'=x`, `''-x`) is guarded too, and the importer takes exactly one `'` off any cell that
starts with one or more `'`s followed by a trigger:

    text          exported as    imported as
    = 1 + 1       '= 1 + 1       = 1 + 1
    - a list      '- a list      - a list
    '=x           ''=x           '=x
    'quoted'      'quoted'       'quoted'      (not followed by a trigger: left alone)

So a hand-written `'-3` in a CSV imports as `-3` too.
"""

from __future__ import annotations

import re

FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
GUARD = "'"
# Any number of guards, then a trigger: the cells that are guarded on export.
_GUARDABLE = re.compile(r"'*[=+\-@\t\r]")


def guard_cell(text: str) -> str:
    """The cell as exported: with a leading `'` when a spreadsheet could run it."""
    return GUARD + text if _GUARDABLE.match(text) else text


def unguard_cell(cell: str) -> str:
    """The cell as imported: the inverse of `guard_cell` (one `'` off a guarded cell)."""
    return cell[1:] if cell.startswith(GUARD) and _GUARDABLE.match(cell) else cell


__all__ = ["FORMULA_TRIGGERS", "GUARD", "guard_cell", "unguard_cell"]
