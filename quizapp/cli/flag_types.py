"""The types of the command line's numeric flags: each a range from quizapp.bank.bounded.

A value outside the range, empty, or written with 30 digits is a usage error (exit 2) that
names the flag and the range, e.g. `quizapp stats: error: argument --days: must be a whole
number from 1 to 36500, not 99999999999`. tests/cli/test_flag_walk.py walks every flag of
every subcommand with such values, so a new numeric flag must use one of these types.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from quizapp.bank.bounded import Bound, OutOfRange


@dataclass(frozen=True)
class BoundedFlag:
    """An argparse `type=`: the number the flag's text spells, inside `bound`."""

    bound: Bound

    def __call__(self, text: str) -> int | float:
        try:
            return self.bound.parse(text)
        except OutOfRange as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None


def whole_number(low: int, high: int) -> BoundedFlag:
    return BoundedFlag(Bound(low, high, whole=True))


def number(low: float, high: float, *, low_excluded: bool = False) -> BoundedFlag:
    return BoundedFlag(Bound(low, high, low_excluded=low_excluded))


# Shared ranges, named for what they count.
QUESTIONS = whole_number(1, 1000)  # an exam's or a forecast's questions
SESSION_LENGTH = whole_number(1, 10_000)  # --length: questions per session
SEED = whole_number(0, 10**9)
HISTORY_DAYS = whole_number(1, 36_500)  # a hundred years of history
EXAM_MINUTES = number(0, 600, low_excluded=True)
EVAL_SECONDS = number(0, 86_400)  # 0: no limit
PORT = whole_number(1, 65_535)
SESSIONS = whole_number(1, 10_000)
EXAM_WEIGHT = number(0, 1000, low_excluded=True)
VARIANT = whole_number(1, 1000)  # preview --variant: a vary: allows at most 1,000 variants

__all__ = [
    "EVAL_SECONDS",
    "EXAM_MINUTES",
    "EXAM_WEIGHT",
    "HISTORY_DAYS",
    "PORT",
    "QUESTIONS",
    "SEED",
    "SESSIONS",
    "SESSION_LENGTH",
    "BoundedFlag",
    "number",
    "whole_number",
]
