"""One reader for every number quizapp takes from outside: a bank, a CSV cell, config.toml, a
command-line flag, a computation's argument.

Each place names the range it accepts (a `Bound`) and gets either a number inside it or
`OutOfRange`, whose message is one line saying the allowed range; the caller adds where the
number was written (file:line, or the flag). Two hazards are handled before any conversion:

- a long digit string is refused by its length, never handed to int(): Python refuses to
  convert more than 4300 digits, and converting fewer still costs time quadratic in them;
- a number too large for a float (10**400, or '1e400', which float() reads as inf) is refused
  by comparison, never by float(value), which raises OverflowError on such an int.

No torch or textual here: the bank, srs and exam packages use it.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

# The longest text read as a number. 0.000000000000000000000000000001 is 32 characters; no
# honest number in a bank, a CSV or a flag needs more.
MAX_NUMBER_CHARACTERS = 64
# Every number a bank or a CSV holds is at most this large in magnitude: far beyond any count
# of parameters or FLOPs, and far from where a float overflows when it is squared or summed.
MAGNITUDE = 1e100

_WHOLE = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


class OutOfRange(ValueError):
    """A number that is not one, or lies outside its range; the message is one line."""


def _number_text(value: float) -> str:
    if isinstance(value, int) and abs(value) >= 10**15:
        return f"{float(value):g}".replace("e+", "e")
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return f"{value:g}".replace("e+", "e") if isinstance(value, float) else str(value)


def shown(value: object) -> str:
    """A short rendering of a value, safe for any size: a huge int is never turned into text."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int) and abs(value) > 10**30:
        digits = int(value.bit_length() * math.log10(2)) + 1
        return f"a number of about {digits} digits"
    if isinstance(value, float):
        return _number_text(value) if math.isfinite(value) else str(value)
    if isinstance(value, int):
        return str(value)
    text = str(value)
    return repr(text if len(text) <= 40 else text[:37] + "...")


@dataclass(frozen=True)
class Bound:
    """The numbers one field accepts: `low` to `high`, whole numbers only if `whole`.

    `low_excluded` makes the lower end open (an exam weight is more than 0).
    """

    low: float
    high: float
    whole: bool = False
    low_excluded: bool = False

    def describe(self) -> str:
        kind = "a whole number" if self.whole else "a number"
        low, high = _number_text(self.low), _number_text(self.high)
        if self.low_excluded:
            return f"{kind} greater than {low} and at most {high}"
        return f"{kind} from {low} to {high}"

    def contains(self, value: object) -> bool:
        if isinstance(value, bool) or not isinstance(value, int | float):
            return False
        if isinstance(value, float) and not math.isfinite(value):
            return False
        if self.whole and not (isinstance(value, int) or value.is_integer()):
            return False
        # Comparing an int with a float is exact in Python and never overflows.
        above_low = value > self.low if self.low_excluded else value >= self.low
        return above_low and value <= self.high

    def check(self, value: object) -> int | float:
        """`value` itself (a whole float as an int when `whole`), or OutOfRange."""
        if not self.contains(value):
            raise OutOfRange(f"must be {self.describe()}, not {shown(value)}")
        assert isinstance(value, int | float)
        return int(value) if self.whole else value

    def parse(self, text: str) -> int | float:
        """The number `text` spells, checked against the range, or OutOfRange."""
        plain = text.strip().replace("_", "")
        if not plain:
            raise OutOfRange(f"must be {self.describe()}, not empty")
        if len(plain) > MAX_NUMBER_CHARACTERS:
            raise OutOfRange(
                f"must be {self.describe()}, not a number written with {len(plain)} characters"
            )
        if _WHOLE.fullmatch(plain):
            value: int | float = int(plain)
        elif _DECIMAL.fullmatch(plain):
            value = float(plain)
            if math.isinf(value):  # '1e400': finite as written, too large for a float
                raise OutOfRange(f"must be {self.describe()}, not {plain}")
        else:
            raise OutOfRange(f"must be {self.describe()}, not {shown(text)}")
        return self.check(value)


# Any number a bank or CSV may hold, where a field has no narrower range of its own.
ANY_NUMBER = Bound(-MAGNITUDE, MAGNITUDE)
NOT_NEGATIVE = Bound(0, MAGNITUDE)
EXAM_WEIGHT = Bound(0, 1000, low_excluded=True)

__all__ = [
    "ANY_NUMBER",
    "EXAM_WEIGHT",
    "MAGNITUDE",
    "MAX_NUMBER_CHARACTERS",
    "NOT_NEGATIVE",
    "Bound",
    "OutOfRange",
    "shown",
]
