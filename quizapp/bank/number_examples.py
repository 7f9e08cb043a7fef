"""The example numbers a number box shows, chosen so that no example answers a question.

The hint under a number box shows how numbers may be typed (`1234567`, `1,234,567`,
`1 234 567`, `3^7`) and what a rounded answer is (`1.23e6`). An example that happened to be a
key would hand that question's answer to anyone who reads the hint, so every example is kept
clear of every number the app knows a student could be asked for: each literal key, each key a
computation gave (for every variant of a parameterized question), and each trap.

"Clear" means farther than the question's own tolerance, and farther than NEAR (relative), so
that no example even rounds, at three significant figures, to a key. Pure: no I/O.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from quizapp.bank.model import NumericQuestion, Question

# An example within 1% of a key reads as that key once rounded to three significant figures
# (`1.05e6` for 1,048,576 is 0.14% off), so it is kept at least this far away.
NEAR = 0.01
# Whole numbers wide enough to show all three ways of grouping digits, in the order tried.
WHOLE_CANDIDATES = (1234567, 2345678, 3456789, 7654321, 8765432, 9876543, 4567891, 5678912)
# Powers, (base, exponent), in the order tried.
POWER_CANDIDATES = ((3, 7), (5, 6), (7, 5), (3, 11), (6, 7), (11, 5), (13, 4), (7, 8))
# When every candidate is taken: the same digits, a thousand times larger each round.
LARGER_ROUNDS = 6


@dataclass(frozen=True)
class NumberExamples:
    """Key-free examples: `whole` (written plain, with commas, with spaces, and rounded) and a
    `power` (base, exponent), or None when every candidate power is near a key."""

    whole: int
    power: tuple[int, int] | None = None

    @property
    def with_commas(self) -> str:
        return f"{self.whole:,}"

    @property
    def with_spaces(self) -> str:
        return self.with_commas.replace(",", " ")

    @property
    def rounded(self) -> str:
        """`whole` to three significant figures, as a student types it: `1.23e6`."""
        return rounded_text(self.whole)

    def formats(self) -> str:
        """`1234567, 1,234,567, 1 234 567 or 3^7`: every way the box reads a number."""
        written = [str(self.whole), self.with_commas, self.with_spaces]
        if self.power is not None:
            written.append(f"{self.power[0]}^{self.power[1]}")
        return ", ".join(written[:-1]) + " or " + written[-1]


def rounded_text(value: int) -> str:
    """Three significant figures in e-notation without `+` or a leading zero: `1.23e6`."""
    mantissa, exponent = f"{value:.2e}".split("e")
    return f"{mantissa}e{int(exponent)}"


def rounded_value(value: int) -> float:
    return float(rounded_text(value))


def key_margin(question: NumericQuestion, key: float) -> float:
    """How close to `key` an example may not come: the question's tolerance, or NEAR."""
    answer = question.answer
    tolerance = answer.tolerance or 0.0
    if answer.relative_tolerance:
        tolerance = max(tolerance, answer.relative_tolerance * abs(key))
    return max(tolerance, NEAR * abs(key))


class AvoidedNumbers:
    """The numbers examples keep clear of, each with its margin; and the examples that do."""

    def __init__(self, spans: Iterable[tuple[float, float]] = ()) -> None:
        self._spans: list[tuple[float, float]] = list(spans)  # (low, high), inclusive
        self._examples: NumberExamples | None = None
        self._chosen = False

    def copy(self) -> AvoidedNumbers:
        return AvoidedNumbers(self._spans)

    def avoid(self, value: float, margin: float) -> None:
        if not math.isfinite(value):
            return
        margin = abs(margin) if math.isfinite(margin) else math.inf
        self._spans.append((value - margin, value + margin))
        self._chosen = False

    def avoid_key(self, question: NumericQuestion, key: float) -> None:
        """A key of `question`, literal or computed."""
        self.avoid(key, key_margin(question, key))

    def avoid_question(self, question: Question) -> None:
        """A numeric question's literal key and its traps (the same in every variant); a
        computed key is added with avoid_key once it is known."""
        if not isinstance(question, NumericQuestion):
            return
        if question.answer.value is not None:
            self.avoid_key(question, question.answer.value)
        for trap in question.traps:
            self.avoid(trap.value, NEAR * abs(trap.value))

    def near(self, value: float) -> bool:
        """Whether `value` is within the margin of a number to avoid."""
        return any(low <= value <= high for low, high in self._spans)

    def examples(self) -> NumberExamples | None:
        """The first candidates clear of every number here; None when no whole number is."""
        if not self._chosen:
            self._examples = self._choose()
            self._chosen = True
        return self._examples

    def _choose(self) -> NumberExamples | None:
        whole = next(
            (n for n in _wholes() if not self.near(n) and not self.near(rounded_value(n))), None
        )
        if whole is None:
            return None
        power = next((p for p in POWER_CANDIDATES if not self.near(float(p[0] ** p[1]))), None)
        return NumberExamples(whole, power)


def _wholes() -> Iterator[int]:
    for scale in range(LARGER_ROUNDS):
        for candidate in WHOLE_CANDIDATES:
            yield candidate * 1000**scale


__all__ = [
    "NEAR",
    "AvoidedNumbers",
    "NumberExamples",
    "key_margin",
    "rounded_text",
]
