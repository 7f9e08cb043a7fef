"""Finding a key in text, in every form the app prints or reads a number.

Two ways, for the tests that no text shown while a question is open gives its answer away:

- `printed_forms(key)`: the key as the app and a person write it (`1048576`, `1,048,576`,
  `1 048 576`, `2^20`, `1.05e6`, `1.04858e+06`), looked for whole (`shown_forms`), so that
  `1,048,576` is not found inside `11,048,576`;
- `number_values(text)`: every number in a text, read as the number box reads it, so that a
  form not listed above (`1_048_576`, `4^10`) is caught by its value (`values_near`).
"""

from __future__ import annotations

import math
import re

from quizapp.bank.answers import NumberFormatError, parse_number
from quizapp.wording import format_number

# A number as a student may type it: digits grouped by commas or spaces, a decimal part, an
# exponent, or a power (`2^20`).
NUMBER = re.compile(r"\d+(?:\^\d+|(?:[, \u00a0\u202f]\d{3})*(?:\.\d+)?(?:[eE][-+]?\d+)?)")
# What may not follow a number that is whole: more digits, a decimal part, a further group of
# three, an exponent or a power.
NOT_CONTINUED = r"(?![\d^]|[.,]\d|[ \u00a0\u202f]\d{3}|[eE][-+]?\d)"
NEAR = 0.01  # relative: a number this close to a key shows it, once rounded


def printed_forms(key: float) -> set[str]:
    """`key` in every form the app prints a number and a student might recognise it."""
    forms = {format_number(key), f"{key:g}", repr(key)}
    for digits in range(3, 7):  # 1.05e6, 1.049e6, ... as typed and as Python writes them
        text = f"{key:.{digits - 1}e}"
        mantissa, exponent = text.split("e")
        forms |= {text, f"{mantissa}e{int(exponent)}"}
    if float(key).is_integer() and abs(key) < 1e18:
        whole = int(key)
        forms |= {str(whole), f"{whole:,}".replace(",", " "), f"{whole:_}"}
        forms |= {f"{base}^{power}" for base, power in perfect_powers(whole)}
    forms.discard("")
    return forms


def perfect_powers(value: int) -> list[tuple[int, int]]:
    """Every (base, exponent ≥ 2) whose power is `value`: 1048576 is 2^20, 4^10, 32^4..."""
    if value < 4:
        return []
    found = []
    for exponent in range(2, value.bit_length() + 1):
        base = round(value ** (1 / exponent))
        for candidate in (base - 1, base, base + 1):
            if candidate >= 2 and candidate**exponent == value:
                found.append((candidate, exponent))
    return found


def shown_forms(text: str, key: float) -> list[str]:
    """The printed forms of `key` that `text` shows whole (not inside a longer number)."""
    shown = []
    for form in printed_forms(key):
        whole = rf"(?<![\d.,^eE])(?<!\d[ \u00a0\u202f]){re.escape(form)}{NOT_CONTINUED}"
        if re.search(whole, text):
            shown.append(form)
    return shown


def number_values(text: str) -> list[tuple[str, float]]:
    """Every number in `text` that the number box would read, with its value."""
    values = []
    for match in NUMBER.finditer(text):
        try:
            values.append((match.group(), parse_number(match.group())))
        except NumberFormatError:
            continue
    return values


def values_near(text: str, keys: list[float]) -> list[str]:
    """The numbers in `text` within NEAR of one of `keys`, each with the key it is near."""
    found = []
    for written, value in number_values(text):
        for key in keys:
            if math.isclose(value, key, rel_tol=NEAR, abs_tol=1e-12):
                found.append(f"{written} (the key {format_number(key)})")
    return found


def key_shown(text: str, key: float) -> list[str]:
    """Every way `text` shows `key`: a printed form, or a number that reads as it."""
    return sorted(set(shown_forms(text, key)) | set(values_near(text, [key])))
