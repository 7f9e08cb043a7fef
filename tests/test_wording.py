"""The shared wording helpers: counts of things and numbers, as a person writes them."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quizapp.wording import format_number, plural, plural_of


@pytest.mark.parametrize(
    ("count", "noun", "expected"),
    [
        (0, "answer", "0 answers"),
        (1, "answer", "1 answer"),
        (2, "answer", "2 answers"),
        (1, "deck", "1 deck"),
        (3, "bank file", "3 bank files"),
        (1_024, "question", "1,024 questions"),
        (2, "entry", "2 entries"),
        (2, "day", "2 days"),
        (2, "pass", "2 passes"),
        (2, "box", "2 boxes"),
        (1, "child", "1 child"),
    ],
)
def test_plural(count: int, noun: str, expected: str) -> None:
    assert plural(count, noun) == expected


def test_an_irregular_plural_is_given() -> None:
    assert plural(2, "child", "children") == "2 children"
    assert plural(1, "child", "children") == "1 child"


@given(st.integers(min_value=0, max_value=10**9), st.sampled_from(["answer", "card", "deck"]))
def test_only_one_is_singular(count: int, noun: str) -> None:
    said = plural(count, noun)
    assert said.endswith(noun if count == 1 else plural_of(noun))
    assert "(s)" not in said


@pytest.mark.parametrize(
    ("value", "written"),
    [
        (65536, "65,536"),
        (1e8, "100,000,000"),
        (0.5, "0.5"),
        (-3.0, "-3"),
        (1e20, "1e+20"),
        (float("inf"), "inf"),
    ],
)
def test_format_number(value: float, written: str) -> None:
    assert format_number(value) == written
