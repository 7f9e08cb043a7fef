"""Whether a claim's sentence (`says:`) states only figures its claim accounts for.

A claim can hold while its sentence is false: `head_dim * n_heads == d_model and head_dim ==
128`, said as "Each head is 128 wide, a slice of the 4,096-dim model width", still holds for a
model 8,192 wide. The sentence's 4,096 is a figure of the question's own arguments. So a
sentence may be shown beside a tick only when every figure it states is one the claim reads
(a value, a {placeholder}) or writes (a number in the claim itself, such as a threshold).
Pure Python: the lab uses it on a student's arguments.
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Iterable, Mapping

from quizapp.bank.claims import ParsedClaim, Scope

# 4,096 · 128 · 1.06 · 50% · 0.5; not the digits inside names (GPT-2, d_model, W_o, §3.2, L2).
_FIGURE = re.compile(r"(?<![\w.§\-])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?![\w])")


def stated_figures(says: str) -> list[tuple[float, int, bool]]:
    """(value, decimals written, followed by %) for each figure in the sentence."""
    found = []
    for match in _FIGURE.finditer(says):
        whole, fraction = match.group(1), match.group(2) or ""
        value = float(whole.replace(",", "") + fraction)
        percent = says[match.end() : match.end() + 1] == "%"
        found.append((value, max(0, len(fraction) - 1), percent))
    return found


def _claim_numbers(parsed: ParsedClaim, scope: Scope) -> list[float]:
    """The numbers the claim reads on these values, and the ones written in it."""
    numbers: list[float] = []
    for name in parsed.names:
        numbers.extend(_numbers(scope.values.get(name)))
    for name in parsed.placeholders:
        numbers.extend(_numbers(scope.placeholders.get(name)))
    for node in ast.walk(parsed.tree):
        if isinstance(node, ast.Constant):
            numbers.extend(_numbers(node.value))
    return numbers


def _numbers(value: object) -> Iterable[float]:
    if isinstance(value, bool) or value is None:
        return ()
    if isinstance(value, int | float) and math.isfinite(value):
        return (float(value),)
    if isinstance(value, list | tuple):
        return [n for item in value[:64] for n in _numbers(item)]
    return ()


def _matches(figure: float, decimals: int, percent: bool, number: float) -> bool:
    candidates = [number, number * 100] if percent else [number]
    # Written as rounded: 1.06 stands for 1.0634, 4,096 for 4096.0; a 'million' is not a figure.
    return any(round(candidate, decimals) == figure for candidate in candidates)


def unaccounted_figures(says: str, parsed: ParsedClaim, scope: Scope) -> list[str]:
    """The figures of `says`, as written, that nothing the claim reads or writes gives."""
    numbers = _claim_numbers(parsed, scope)
    return [
        f"{figure:g}" + ("%" if percent else "")
        for figure, decimals, percent in stated_figures(says)
        if not any(_matches(figure, decimals, percent, n) for n in numbers)
    ]


def figures_hold(
    says: str | None, parsed: ParsedClaim, values: Mapping[str, object] | Scope
) -> bool:
    """True when the sentence states no figure the claim does not account for on `values`."""
    if not says:
        return True
    scope = values if isinstance(values, Scope) else Scope(values)
    return not unaccounted_figures(says, parsed, scope)


__all__ = ["figures_hold", "stated_figures", "unaccounted_figures"]
