"""The exact tails behind the item-writing checks, against hand counts and brute force."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import pytest

from quizapp.item_statistics import (
    hypergeometric_upper_tail,
    poisson_binomial_upper_tail,
)


def brute_poisson_binomial(chances: list[Fraction], observed: int) -> Fraction:
    total = Fraction(0)
    for outcome in itertools.product((0, 1), repeat=len(chances)):
        if sum(outcome) >= observed:
            weight = Fraction(1)
            for hit, p in zip(outcome, chances, strict=True):
                weight *= p if hit else 1 - p
            total += weight
    return total


def test_three_items_by_hand() -> None:
    # Options 2, 3 and 4: P(at least two keys are the longest)
    # = 1/2·1/3·3/4 + 1/2·2/3·1/4 + 1/2·1/3·1/4 (exactly two) + 1/2·1/3·1/4 (all three) = 7/24.
    chances = [1 / 2, 1 / 3, 1 / 4]
    assert poisson_binomial_upper_tail(chances, 2) == pytest.approx(7 / 24, rel=1e-12)
    assert poisson_binomial_upper_tail(chances, 3) == pytest.approx(1 / 24, rel=1e-12)
    assert poisson_binomial_upper_tail(chances, 0) == pytest.approx(1.0)
    assert poisson_binomial_upper_tail(chances, 4) == 0.0


def test_the_issue_example_is_far_beyond_chance() -> None:
    # 24 of 27 four-option keys the longest: sum over k >= 24 of C(27, k) (1/4)^k (3/4)^(27-k).
    exact = sum(math.comb(27, k) * 0.25**k * 0.75 ** (27 - k) for k in range(24, 28))
    assert poisson_binomial_upper_tail([1 / 4] * 27, 24) == pytest.approx(exact, rel=1e-9)
    assert exact < 1e-10


def test_matches_brute_force_on_mixed_option_counts() -> None:
    rng = random.Random(7)
    for _ in range(40):
        ks = [rng.randint(2, 6) for _ in range(rng.randint(1, 10))]
        observed = rng.randint(0, len(ks))
        expected = brute_poisson_binomial([Fraction(1, k) for k in ks], observed)
        got = poisson_binomial_upper_tail([1 / k for k in ks], observed)
        assert got == pytest.approx(float(expected), rel=1e-9, abs=1e-15), (ks, observed)


def test_a_large_bank_stays_consistent() -> None:
    # 9,000 items over eight option counts: the tail at the mean is near one half, and the
    # tail far above the mean is negligible but not negative.
    chances = [1 / k for k in range(2, 10)] * 1125
    mean = sum(chances)
    assert 0.45 < poisson_binomial_upper_tail(chances, math.ceil(mean)) < 0.55
    assert 0.0 <= poisson_binomial_upper_tail(chances, int(mean * 1.5)) < 1e-30


@pytest.mark.parametrize(
    ("population", "marked", "drawn", "observed", "expected"),
    [
        (8, 4, 4, 4, Fraction(1, 70)),  # all four keys among the four marked of eight
        (7, 3, 3, 3, Fraction(1, 35)),
        (6, 3, 3, 3, Fraction(1, 20)),
        (9, 6, 3, 3, Fraction(20, 84)),
        (5, 2, 2, 0, Fraction(1)),
        (5, 2, 2, 3, Fraction(0)),  # more than could ever be drawn
    ],
)
def test_hypergeometric_by_hand(
    population: int, marked: int, drawn: int, observed: int, expected: Fraction
) -> None:
    got = hypergeometric_upper_tail(population, marked, drawn, observed)
    assert got == pytest.approx(float(expected), rel=1e-12, abs=1e-15)


def test_hypergeometric_matches_the_binomial_coefficients() -> None:
    for population in range(1, 12):
        for marked in range(population + 1):
            for drawn in range(population + 1):
                for observed in range(drawn + 2):
                    exact = Fraction(
                        sum(
                            math.comb(marked, k) * math.comb(population - marked, drawn - k)
                            for k in range(observed, drawn + 1)
                        ),
                        math.comb(population, drawn),
                    )
                    got = hypergeometric_upper_tail(population, marked, drawn, observed)
                    assert got == pytest.approx(float(exact), rel=1e-9, abs=1e-15)
