"""A computation's numeric argument is range-checked before any conversion (issue 21)."""

from __future__ import annotations

import math

import pytest

from quizapp.experiments.spec import Arg, ArgumentError


@pytest.mark.parametrize("kind", ["int", "float"])
@pytest.mark.parametrize("value", [10**400, -(10**400), 2e100])
def test_a_huge_argument_is_refused_naming_the_range(kind: str, value: float) -> None:
    with pytest.raises(ArgumentError, match=r"must be a number from -1e100 to 1e100"):
        Arg("width", kind, None, "a width").coerce(value)


def test_an_ordinary_argument_still_passes() -> None:
    assert Arg("width", "int", None, "a width").coerce(512) == 512
    assert math.isclose(Arg("scale", "float", None, "a scale").coerce(10**50), 1e50)
