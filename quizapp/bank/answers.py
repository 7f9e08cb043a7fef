"""What a student answers, as values: the answer types the grader and the history share,
reading a typed number (units, digit grouping, powers), and which trap a number falls into.
Pure: no I/O, no UI. `grading` grades these; `responses` stores them."""

from __future__ import annotations

import math
import re
import sys
from dataclasses import dataclass

from quizapp.bank.model import NumericQuestion
from quizapp.wording import plural_of

# Anki's grades, which flashcards use directly.
AGAIN, HARD, GOOD, EASY = 1, 2, 3, 4
RATING_NAMES = {AGAIN: "Again", HARD: "Hard", GOOD: "Good", EASY: "Easy"}

_NUMBER = re.compile(r"^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$")
_COMMA_GROUPED = re.compile(r"^[-+]?\d{1,3}(,\d{3})+(\.\d*)?$")
_SPACE_GROUPED = re.compile(r"^[-+]?\d{1,3}( \d{3})+(\.\d*)?$")
_POWER = re.compile(r"^(\d+) ?\^ ?(\d+)$")
# Powers past a float's range are refused before they are computed (`9^99999999`).
_LARGEST_LOG10 = math.log10(sys.float_info.max)
# A number, then maybe a unit word: a letter (or %, ‰, °, µ) and no digit after it. The
# number part is the shortest that leaves such a word, so `1.05e6` stays whole.
_WITH_UNIT = re.compile(r"^(?P<number>.*?[\d.])\s*(?P<word>(?:[^\W\d_]|[%‰°µ])[^\d]*)?$")
# Spaces people put between digit groups: the narrow no-break space (French, SI), the
# no-break space and the thin space all read as a plain space.
_SPACES = str.maketrans({"\u202f": " ", "\u00a0": " ", "\u2009": " "})
# The shortest abbreviation of a unit word that is read as that unit (`dim`, `param`).
_SHORTEST_ABBREVIATION = 3


class NumberFormatError(ValueError):
    """Why a typed answer is not a number. `grouping` (`,` or ` `): the mistake is in digit
    groups, where an example written with that separator shows the way (see `explained`)."""

    def __init__(self, message: str, *, grouping: str | None = None) -> None:
        super().__init__(message)
        self.grouping = grouping

    def explained(self, example: int | None) -> str:
        """The message, with `example` written as it should be when the mistake is in digit
        groups. The example comes from the caller, which knows it is no question's key
        (quizapp/bank/number_examples.py): this module never shows a number of its own."""
        message = str(self)
        if example is None or self.grouping is None:
            return message
        return f"{message} ({f'{example:,}'.replace(',', self.grouping)})"


def parse_number(text: str, unit: str | None = None) -> float:
    """What a student types: `1048576`, `1,048,576`, `1 048 576`, `1_048_576`, `1.05e6`,
    `2^20`, and any of them followed by the question's `unit` (`128 dims` for dimensions).

    A comma or a space between digits separates thousands, so only groups of three:
    `1 2 8` and `1,2,3` are refused rather than read as 128 and 123.
    """
    shown = " ".join(text.split())
    if not shown:
        raise NumberFormatError("type a number")
    found = _WITH_UNIT.match(shown)
    if found is None:  # no digit at all: `abc`, `nan`, `inf`
        raise NumberFormatError(f"{shown!r} is not a number")
    word = found.group("word")
    if word is not None and re.fullmatch(r"[eE][-+]?", word):  # `1e`, `1e-`: no exponent
        raise NumberFormatError(f"{shown!r} is not a number")
    if word is not None:
        if unit is None:
            raise NumberFormatError(f"{shown!r}: this answer has no unit; type the number alone")
        if not unit_matches(word, unit):
            raise NumberFormatError(f"{shown!r}: the unit here is {unit}, not {word.strip()}")
    cleaned = found.group("number").translate(_SPACES).replace("_", "").strip()
    cleaned = " ".join(cleaned.split())
    power = _POWER.match(cleaned)
    if power:
        return _power(shown, power.group(1), power.group(2))
    if " " in cleaned:
        if not _SPACE_GROUPED.match(cleaned):
            raise NumberFormatError(
                f"{shown!r}: a space only separates groups of three digits", grouping=" "
            )
        cleaned = cleaned.replace(" ", "")
    if "," in cleaned:
        if not _COMMA_GROUPED.match(cleaned):
            raise NumberFormatError(f"{shown!r}: commas only separate thousands", grouping=",")
        cleaned = cleaned.replace(",", "")
    if not _NUMBER.match(cleaned):
        raise NumberFormatError(f"{shown!r} is not a number")
    value = float(cleaned)
    if not math.isfinite(value):  # `1e999`: past a float's range
        raise NumberFormatError(f"{shown!r} is too large a number to use")
    return value


def _power(shown: str, base_digits: str, exponent_digits: str) -> float:
    """`2^20`; a power too large for a float (`2^2000`) is refused, saying so."""
    base_digits = base_digits.lstrip("0") or "0"
    exponent_digits = exponent_digits.lstrip("0") or "0"
    if exponent_digits == "0" or base_digits in {"0", "1"}:
        return 1.0 if exponent_digits == "0" else float(base_digits)
    too_large = NumberFormatError(f"{shown!r} is too large a power to use")
    # From 2^10000, or a base of 310 digits, no power fits: refused before it is computed.
    if len(exponent_digits) > 4 or len(base_digits) > 309:
        raise too_large
    base, exponent = int(base_digits), int(exponent_digits)
    if exponent * math.log10(base) > _LARGEST_LOG10:
        raise too_large
    try:
        return float(base**exponent)
    except OverflowError:  # at the edge of the range, where the logarithm rounds
        raise too_large from None


def unit_matches(word: str, unit: str) -> bool:
    """Whether `word`, typed after a number, names `unit`: the unit itself, its singular or
    plural, or for a one-word unit an abbreviation of three letters or more with or without
    an s (`dim`, `dims`, `dimension`, `dimensions` for dimensions), in any case."""
    typed = " ".join(word.lower().split())
    singular = _singular(" ".join(unit.lower().split()))
    if typed in {singular, plural_of(singular), " ".join(unit.lower().split())}:
        return True
    if not singular.isalpha():  # `%`, `tokens/s`, `parameters per head`: written out only
        return False
    stem = _singular(typed)
    return len(stem) >= _SHORTEST_ABBREVIATION and stem.isalpha() and singular.startswith(stem)


def could_be_unit(partial: str, unit: str) -> bool:
    """Whether `partial`, a word being typed, is or may become a spelling of `unit`."""
    typed = partial.lower()
    if unit_matches(typed, unit):
        return True
    written = " ".join(unit.lower().split())
    return any(form.startswith(typed) for form in (written, plural_of(_singular(written))))


def _singular(word: str) -> str:
    if len(word) > _SHORTEST_ABBREVIATION and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


@dataclass(frozen=True)
class ChoiceAnswer:
    selected: frozenset[int]  # indices into question.choices, in the file's order


@dataclass(frozen=True)
class TrueFalseAnswer:
    value: bool


@dataclass(frozen=True)
class NumericAnswerText:
    text: str


@dataclass(frozen=True)
class OrderingAnswer:
    order: tuple[int, ...]  # step indices (file order = correct order) as the student arranged them


@dataclass(frozen=True)
class FlashcardRating:
    rating: int  # AGAIN..EASY


Answer = ChoiceAnswer | TrueFalseAnswer | NumericAnswerText | OrderingAnswer | FlashcardRating


def matching_trap(question: NumericQuestion, given: float) -> int | None:
    """The index of the trap in `question.traps` whose value `given` is, or None."""
    return next(
        (i for i, t in enumerate(question.traps) if math.isclose(t.value, given, rel_tol=1e-6)),
        None,
    )
