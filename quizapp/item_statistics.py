"""Exact one-sided tail probabilities for the item-writing checks, without scipy.

Both answer "how surprising is a count at least this high if the cue meant nothing?":

- `poisson_binomial_upper_tail`: independent items, item i a success with probability p_i
  (the key is the strictly longest of k_i options: p_i = 1/k_i).
- `hypergeometric_upper_tail`: n items drawn from N of which K are marked (of the N options,
  K carry a rationale; how many of the n keys would, if keys were any n of the N?).

Terms far below the double-precision resolution of the total (under 1e-18 of the largest
term) are dropped, which keeps a bank of any size fast and changes no decision at p = 0.05.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence

NEGLIGIBLE = 1e-18  # relative to the largest probability kept


def _binomial_window(n: int, p: float) -> tuple[int, list[float]]:
    """(first, pmf): P(Bin(n, p) = first + j) = pmf[j], over the range that is not negligible."""
    if p <= 0.0:
        return 0, [1.0]
    if p >= 1.0:
        return n, [1.0]
    mode = min(n, int((n + 1) * p))
    log_mode = (
        math.lgamma(n + 1)
        - math.lgamma(mode + 1)
        - math.lgamma(n - mode + 1)
        + mode * math.log(p)
        + (n - mode) * math.log1p(-p)
    )
    peak = math.exp(log_mode)
    odds = p / (1.0 - p)
    above: list[float] = []
    term, k = peak, mode
    while k < n:
        term *= (n - k) / (k + 1) * odds
        k += 1
        if term < NEGLIGIBLE * peak:
            break
        above.append(term)
    below: list[float] = []
    term, k = peak, mode
    while k > 0:
        term *= k / (n - k + 1) / odds
        k -= 1
        if term < NEGLIGIBLE * peak:
            break
        below.append(term)
    below.reverse()
    return mode - len(below), [*below, peak, *above]


def convolve(a: Sequence[float], b: Sequence[float]) -> list[float]:
    """The distribution of the sum of two independent counts, from theirs (also used by the
    exam forecast, quizapp/srs/readiness/exam_model.py)."""
    out = [0.0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


def _trim(first: int, pmf: list[float]) -> tuple[int, list[float]]:
    floor = max(pmf) * NEGLIGIBLE
    start = next(i for i, value in enumerate(pmf) if value >= floor)
    end = len(pmf) - next(i for i, value in enumerate(reversed(pmf)) if value >= floor)
    return first + start, pmf[start:end]


def poisson_binomial_upper_tail(probabilities: Iterable[float], observed: int) -> float:
    """P(X >= observed) where X counts successes of independent trials with these chances.

    Items sharing a chance form one binomial (a bank has only a few option counts), and the
    binomials are convolved: exact, and fast for thousands of items.
    """
    first, pmf = 0, [1.0]
    for p, n in sorted(Counter(probabilities).items()):
        group_first, group_pmf = _binomial_window(n, p)
        first, pmf = _trim(first + group_first, convolve(pmf, group_pmf))
    at = max(0, observed - first)
    return min(1.0, sum(pmf[at:]))


def _log_comb(n: int, k: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def hypergeometric_upper_tail(population: int, marked: int, drawn: int, observed: int) -> float:
    """P(X >= observed): X marked among `drawn` taken without replacement from `population`,
    `marked` of which are marked (Fisher's exact test, one-sided)."""
    low = max(observed, 0, drawn - (population - marked))
    high = min(marked, drawn)
    if low > high:
        return 0.0
    log_total = _log_comb(population, drawn)
    terms = [
        math.exp(_log_comb(marked, k) + _log_comb(population - marked, drawn - k) - log_total)
        for k in range(low, high + 1)
    ]
    return min(1.0, sum(terms))
