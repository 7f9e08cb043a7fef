"""Number cells (a numeric answer, its tolerances and traps) as spreadsheets write them.

Read, besides plain numbers (`1048576`, `0.5`, `1e-5`):

    1,048,576   1 048 576   1.048.576     thousands, grouped by commas, spaces (also U+00A0
                                          and U+202F, which Excel and LibreOffice write) or
                                          points
    0,5   1.048,5   1 048,5               a decimal comma

Refused with a message that says how to write them:

    1,500   1.500     a thousands separator or a decimal one? In a comma-separated file (a
                      locale with a decimal point) `1,500` is 1500 and `1.500` is 1.5; in a
                      semicolon- or tab-separated one nothing tells, so the import asks.
    50%               a percentage: the answer, tolerance or trap in % units, or a fraction?

A silent misreading would change an answer key, so the import only reads what has one
reading.
"""

from __future__ import annotations

from decimal import Decimal

from quizapp.authoring.csv_import.problems import RowError
from quizapp.bank.bounded import ANY_NUMBER, MAX_NUMBER_CHARACTERS, OutOfRange
from quizapp.bank.number_text import (
    ONE_DOT_GROUP,
    decimal_text,
    read_number_text,
    unambiguous_decimal,
)
from quizapp.bank.yaml12 import parse_scalar


def _number(plain: str) -> int | float:
    return float(plain) if any(c in plain for c in ".eE") else int(plain)


def _shown(text: str) -> str:
    return text if len(text) <= 40 else text[:39] + "…"


def spreadsheet_number(column: str, cell: str, delimiter: str = ",") -> int | float:
    """The number in a cell of `column`, by the rules in the module docstring. Raises RowError."""
    return _in_range(column, _spreadsheet_number(column, cell, delimiter))


def _in_range(column: str, value: int | float) -> int | float:
    try:
        return ANY_NUMBER.check(value)
    except OutOfRange as exc:
        raise RowError(f"{column} {exc}") from None


def _spreadsheet_number(column: str, cell: str, delimiter: str) -> int | float:
    text = cell.strip()
    if len(text) > MAX_NUMBER_CHARACTERS:  # counted, never converted (see quizapp.bank.bounded)
        raise RowError(
            f"{column} must be {ANY_NUMBER.describe()}, not a number written with "
            f"{len(text)} characters"
        )
    try:
        value = parse_scalar(text)
    except OutOfRange:
        raise RowError(f"{column} must be {ANY_NUMBER.describe()}, not {_shown(text)}") from None
    except ValueError:
        value = text
    if isinstance(value, int | float) and not isinstance(value, bool):
        if delimiter != "," and (match := ONE_DOT_GROUP.fullmatch(text)):
            thousands = f"{match['sign'].lstrip('+')}{match['int']}{match['frac']}"
            raise _ambiguous(column, text, thousands, text.lstrip("+"))
        return value
    read = read_number_text(text)
    if read is None:
        raise RowError(f"{column}: '{_shown(text)}' is not a number")
    if read.kind == "percent":
        raise RowError(_percent_message(column, text, read.plain, read.fraction))
    if read.kind == "ambiguous":
        assert read.decimal is not None
        if delimiter != ",":
            raise _ambiguous(column, text, read.plain, read.decimal)
    return _number(read.plain)


def _ambiguous(column: str, text: str, thousands: str, decimal: str) -> RowError:
    return RowError(
        f"{column}: '{text}' could be {thousands} or {decimal_text(Decimal(decimal))}; "
        f"write {thousands}, or {unambiguous_decimal(decimal)} for the decimal"
    )


def _percent_message(column: str, text: str, plain: str, fraction: str) -> str:
    if column == "relative_tolerance":
        return f"relative_tolerance is a fraction: write {fraction} for {_shown(text)}"
    if column == "tolerance":
        return (
            f"tolerance: '{_shown(text)}' is a percentage; the tolerance is in the answer's "
            f"unit (write {plain} when the unit is %), or give relative_tolerance {fraction}"
        )
    return (
        f"{column}: '{_shown(text)}' is a percentage; write {plain} and put % in the unit cell, "
        f"or write the fraction {fraction}"
    )


__all__ = ["spreadsheet_number"]
