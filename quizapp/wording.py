"""Small pieces of English shared by the CLI and the TUI: counts of things, and numbers.

Pure (imports nothing from the app), so the bank, the scheduler, the experiments' registry
and the screens can all use it.
"""

from __future__ import annotations

import math


def plural_of(noun: str) -> str:
    """The regular plural of an English noun: `question` → `questions`, `entry` → `entries`."""
    if noun.endswith(("s", "x", "z", "ch", "sh")):
        return noun + "es"
    if noun.endswith("y") and len(noun) > 1 and noun[-2] not in "aeiou":
        return noun[:-1] + "ies"
    return noun + "s"


def plural(count: int, noun: str, plural_form: str | None = None) -> str:
    """`1 answer`, `2 answers`, `0 answers`; thousands separated (`1,024 questions`).

    `plural_form` for the nouns `plural_of` gets wrong (`1 child`, `2 children`).
    """
    form = noun if count == 1 else (plural_form or plural_of(noun))
    return f"{count:,} {form}"


def format_number(value: float) -> str:
    """A number as a person writes it: whole numbers with thousands separators (65,536, not
    65536.0 or 6.5536e+04), the rest to six significant figures."""
    if isinstance(value, bool):
        return str(value).lower()
    if math.isfinite(value) and float(value).is_integer() and abs(value) < 1e15:
        return f"{int(value):,}"
    return f"{value:.6g}"


__all__ = ["format_number", "plural", "plural_of"]
