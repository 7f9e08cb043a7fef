"""quizapp.bank.bounded: the one reader of numbers from outside."""

from __future__ import annotations

import time

import pytest

from quizapp.bank.bounded import ANY_NUMBER, Bound, OutOfRange, shown

DAYS = Bound(1, 36_500, whole=True)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "not empty"),
        ("0", "not 0"),
        ("36501", "not 36501"),
        ("2.5", "not 2.5"),
        ("1e400", "not 1e400"),
        ("nan", "not 'nan'"),
        ("inf", "not 'inf'"),
        ("12abc", "not '12abc'"),
        ("9" * 100_000, "written with 100000 characters"),
    ],
)
def test_out_of_range_or_not_a_number_names_the_range(text: str, fragment: str) -> None:
    started = time.process_time()
    with pytest.raises(OutOfRange) as refused:
        DAYS.parse(text)
    assert time.process_time() - started < 0.1  # counted, never converted
    message = str(refused.value)
    assert message.startswith("must be a whole number from 1 to 36500") and fragment in message
    assert "\n" not in message


@pytest.mark.parametrize(("text", "value"), [("1", 1), (" 36500 ", 36500), ("1e2", 100)])
def test_in_range_values_are_read(text: str, value: int) -> None:
    assert DAYS.parse(text) == value and isinstance(DAYS.parse(text), int)


def test_a_huge_int_is_compared_without_overflow_and_shown_without_its_digits() -> None:
    assert not ANY_NUMBER.contains(10**400) and ANY_NUMBER.contains(10**99)
    assert shown(10**400) == "a number of about 401 digits"
    with pytest.raises(OutOfRange, match="about 401 digits"):
        ANY_NUMBER.check(-(10**400))


def test_an_open_lower_end() -> None:
    weight = Bound(0, 1000, low_excluded=True)
    assert weight.describe() == "a number greater than 0 and at most 1000"
    assert not weight.contains(0) and weight.contains(1e-9) and weight.contains(1000)
