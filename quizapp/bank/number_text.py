"""Numbers written as spreadsheets and people write them, where a bank wants a plain number.

A bank number is YAML: `1048576`, `0.5`, `1e-5`. People also write

    1,048,576   1 048 576   1.048.576     thousands grouped (also with a no-break space
                                          U+00A0 or a narrow no-break space U+202F)
    0,5   1.048,5   1 048,5               a decimal comma
    1,500                                 either: 1500 with a thousands comma, or 1.5
    50%                                   a percentage

`read_number_text` says which of these a text is. The loader reads none of them, but names
the fix in its message (`number_hint`); `quizapp import` reads the unambiguous ones from
spreadsheet cells and asks about the rest (`quizapp.authoring.csv_import.numbers`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Literal

# The spaces spreadsheets put between groups of three digits.
GROUP_SPACES = " \u00a0\u202f\u2009"
_SPACE = f"[{GROUP_SPACES}]"
_SIGN = r"(?P<sign>[-+]?)"
_EXPONENT = r"(?P<exp>[eE][-+]?\d+)?"

# `1 048 576`, `1 048 576.5` or `1 048 576,5`: spaces group, so a comma can only be decimal.
_SPACE_GROUPED = re.compile(
    rf"{_SIGN}(?P<int>\d{{1,3}}(?:{_SPACE}\d{{3}})+)(?:(?P<point>[.,])(?P<frac>\d+))?"
)
# `1,048,576`, `1,500.25`, or `1,500`: which is a thousands comma or a decimal comma.
_COMMA_GROUPED = re.compile(rf"{_SIGN}(?P<int>[1-9]\d{{0,2}}(?:,\d{{3}})+)(?:\.(?P<frac>\d+))?")
# `1.048.576` (two groups or more: two points cannot be decimal).
_DOT_GROUPED = re.compile(rf"{_SIGN}(?P<int>[1-9]\d{{0,2}}(?:\.\d{{3}}){{2,}})")
# `1.048,5`: points group, the comma is decimal.
_DOT_GROUPED_DECIMAL = re.compile(
    rf"{_SIGN}(?P<int>[1-9]\d{{0,2}}(?:\.\d{{3}})+),(?P<frac>\d+){_EXPONENT}"
)
# `1.500`: a YAML number, but a thousands point in a spreadsheet from a decimal-comma locale.
ONE_DOT_GROUP = re.compile(rf"{_SIGN}(?P<int>[1-9]\d{{0,2}})\.(?P<frac>\d{{3}})")
# `0,5`, `,5`, `3,14e2`.
_DECIMAL_COMMA = re.compile(rf"{_SIGN}(?P<int>\d*),(?P<frac>\d+){_EXPONENT}")
_PLAIN = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?")
_PERCENT = re.compile(rf"(?P<number>.*?){_SPACE}*%")

Kind = Literal["grouped", "decimal_comma", "ambiguous", "percent"]


@dataclass(frozen=True)
class NumberText:
    """What a number-like text is. `plain` is the number written as a bank writes it: the
    reading for `grouped` and `decimal_comma`, the thousands reading for `ambiguous` (with the
    decimal one in `decimal`), the number before the `%` for `percent`."""

    kind: Kind
    plain: str
    decimal: str | None = None

    @property
    def fraction(self) -> str:
        """A percentage as a fraction: `50%` is `0.5`."""
        return decimal_text(Decimal(self.plain) / 100)


def decimal_text(value: Decimal) -> str:
    """A decimal written plainly: no exponent, no trailing zeros (`0.5`, `1500`, `0.00001`)."""
    return format(value.normalize(), "f")


def _join(sign: str, integer: str, fraction: str | None, exponent: str | None = None) -> str:
    digits = re.sub(f"[,.{GROUP_SPACES}]", "", integer) or "0"
    text = sign.replace("+", "") + digits
    if fraction:
        text += "." + fraction
    return text + (exponent or "")


def read_number_text(text: str) -> NumberText | None:
    """What `text` is, if it is one of the forms in the module docstring; None for a plain
    number (`0.5`) or for text that is not a number at all (`1 2 8`, `five`)."""
    stripped = text.strip()
    if match := _PERCENT.fullmatch(stripped):
        inner = match.group("number").strip()
        if _PLAIN.fullmatch(inner):
            return NumberText("percent", inner.removeprefix("+"))
        read = read_number_text(inner)
        if read is not None and read.kind in ("grouped", "decimal_comma"):
            return NumberText("percent", read.plain)
        return None
    if match := _SPACE_GROUPED.fullmatch(stripped):
        kind: Kind = "decimal_comma" if match.group("point") == "," else "grouped"
        return NumberText(kind, _join(match["sign"], match["int"], match["frac"]))
    if match := _COMMA_GROUPED.fullmatch(stripped):
        plain = _join(match["sign"], match["int"], match["frac"])
        if match["int"].count(",") > 1 or match["frac"] is not None:
            return NumberText("grouped", plain)
        whole, fraction = match["int"].split(",")
        decimal = _join(match["sign"], whole, fraction)
        return NumberText("ambiguous", plain, decimal=decimal)
    if match := _DOT_GROUPED.fullmatch(stripped):
        return NumberText("grouped", _join(match["sign"], match["int"], None))
    if match := _DOT_GROUPED_DECIMAL.fullmatch(stripped):
        plain = _join(match["sign"], match["int"], match["frac"], match["exp"])
        return NumberText("decimal_comma", plain)
    if match := _DECIMAL_COMMA.fullmatch(stripped):
        plain = _join(match["sign"], match["int"], match["frac"], match["exp"])
        return NumberText("decimal_comma", plain)
    return None


def unambiguous_decimal(decimal: str) -> str:
    """A decimal with 3 digits after the point (`2.048`) reads as thousands in some locales;
    written with a 4th digit (`2.0480`) it cannot. Other decimals are returned as they are
    (without trailing zeros: `1.500` is `1.5`)."""
    try:
        text = decimal_text(Decimal(decimal))
    except InvalidOperation:
        return decimal
    if "." in text and len(text.split(".")[1]) == 3:
        text += "0"
    return text


def number_hint(text: str) -> str | None:
    """How to write `text` as a bank number, when it is one of the forms above."""
    read = read_number_text(text)
    if read is None:
        return None
    if read.kind == "grouped":
        return f"write {read.plain} without thousands separators"
    if read.kind == "decimal_comma":
        return f"write {read.plain} with a decimal point"
    if read.kind == "ambiguous":
        assert read.decimal is not None
        return (
            f"write {read.plain} without a thousands separator, "
            f"or {unambiguous_decimal(read.decimal)} with a decimal point"
        )
    return f"a percentage: write the fraction {read.fraction}, or {read.plain} with the unit '%'"


__all__ = [
    "GROUP_SPACES",
    "ONE_DOT_GROUP",
    "NumberText",
    "decimal_text",
    "number_hint",
    "read_number_text",
    "unambiguous_decimal",
]
