"""`echo-claim`: an `expect:` claim that holds whatever the computation computes.

A claim is evidence only if a wrong computation could make it fail. The registry says which
of a computation's values it does not compute (quizapp/experiments/spec.py): values that
restate an argument (`two_to_the_n_layers` is 2 ** n_layers), constants of the code (a
tolerance) and aliases (one value under another name). With those held fixed, a claim is an
echo when

- it names no computed value at all (`learned_rows == 512`, `700 - learned_rows == 188`), or
- it keeps holding when each computed value it names is replaced, one symbol at a time, by a
  few others (x + 1, x - 1, 2x, -x, 0; the other truth value; other text), aliases of it
  replaced alike (`x == x`, `abs(x) >= 0`).

A claim `a and b` is judged part by part: `two_to_the_n_layers == 32 and ratio < 2.1` is an
echo in its first part, which checks nothing however true the second is.

The first is decided from the claim and the registry alone (even with `--no-eval`); the
second needs the values the computation returned, so lint judges it where it judges claims.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping

from quizapp.bank import Claim, ComputeSpec, Diagnostic, Question
from quizapp.bank.claims import ClaimError, ParsedClaim, Scope, SecondRuns, evaluate, parse_claim
from quizapp.experiments.registry import REGISTRY
from quizapp.experiments.spec import ComputationSpec


def _echo(claim: Claim, message: str) -> Diagnostic:
    where = claim.location
    return Diagnostic(where.path, where.line, where.column, "warning", "echo-claim", message)


def _parsed(claim: Claim) -> ParsedClaim | None:
    try:
        return parse_claim(claim.text)
    except ClaimError:
        return None  # the loader reports it


def parts(parsed: ParsedClaim) -> list[ParsedClaim]:
    """The claim's conjuncts (`a and b and c`: three), or the claim itself."""
    if not (isinstance(parsed.tree, ast.BoolOp) and isinstance(parsed.tree.op, ast.And)):
        return [parsed]
    found: list[ParsedClaim] = []
    for value in parsed.tree.values:
        segment = ast.get_source_segment(parsed.text, value)
        try:
            part = parse_claim(segment) if segment else None
        except ClaimError:
            part = None  # a conjunct that is no claim alone (a bare number): judge the whole
        if part is None:
            return [parsed]
        found += parts(part)
    return found


def _what(part: ParsedClaim, claim: Claim) -> str:
    whole = part.text == " ".join(claim.text.split()) or part.text == claim.text.strip()
    return f"the claim {claim.text!r}" if whole else f"{part.text!r} in the claim {claim.text!r}"


def computed_symbols(parsed: ParsedClaim, spec: ComputationSpec) -> dict[str, list[str]]:
    """{computed value: the names in the claim that stand for it (itself, its aliases)}."""
    fixed = spec.not_computed
    symbols: dict[str, list[str]] = {}
    for name in parsed.names:
        symbol = spec.symbol(name)
        if symbol not in fixed and name not in fixed:
            symbols.setdefault(symbol, []).append(name)
    return symbols


def reads_second_run(parsed: ParsedClaim, spec: ComputationSpec) -> bool:
    """Whether the claim reads a computed value of a second run (at(...).value): perturbing
    the question's own values cannot judge that part, so it is never called an echo."""
    return any(run.value not in spec.not_computed for run in parsed.second_runs)


def _fixed_names(parsed: ParsedClaim, spec: ComputationSpec) -> str:
    names = [f"`{name}`" for name in parsed.names]
    return ", ".join(names) if names else "no value"


def _spec_of(question: Question) -> tuple[ComputeSpec | None, ComputationSpec | None]:
    """The question's computation and its registered spec (None where either is missing)."""
    compute = question.compute
    return compute, REGISTRY.get(compute.name) if compute is not None else None


def static_echoes(question: Question) -> list[Diagnostic]:
    """Claims that name no value the computation computes (no run needed)."""
    compute, spec = _spec_of(question)
    if compute is None or spec is None:
        return []
    found = []
    for claim in compute.expect:
        parsed = _parsed(claim)
        if parsed is None or not set(parsed.names) <= set(spec.values):
            continue  # unknown names are reported as such
        echo = next(
            (
                p
                for p in parts(parsed)
                if not computed_symbols(p, spec) and not reads_second_run(p, spec)
            ),
            None,
        )
        if echo is None:
            continue
        found.append(
            _echo(
                claim,
                f"{_what(echo, claim)} reads only {_fixed_names(echo, spec)}, which "
                f"{spec.name} does not compute (an argument restated, or a constant): it "
                "holds whatever the computation returns. Claim something about a computed value",
            )
        )
    return found


def perturbations(value: object) -> list[object]:
    """A few values other than `value`, of its kind."""
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int | float):
        candidates = [value + 1, value - 1, 2 * value, -value, 0 * value]
        if isinstance(value, float):
            candidates.append(value + 0.5)
        return [c for c in dict.fromkeys(candidates) if c != value]
    if isinstance(value, str):
        return [c for c in (value + "~", "", "~") if c != value]
    return []


def _holds(parsed: ParsedClaim, values: Scope) -> bool | None:
    try:
        return evaluate(parsed, values)
    except (ClaimError, ArithmeticError, TypeError, ValueError):
        return None


def dynamic_echoes(
    question: Question, values: Mapping[str, object], runs: SecondRuns | None = None
) -> list[Diagnostic]:
    """Claims that hold on the computation's values and on every perturbation of them (a
    claim's {placeholders} and second runs held fixed)."""
    compute, spec = _spec_of(question)
    if compute is None or spec is None:
        return []
    found = []
    for claim in compute.expect:
        parsed = _parsed(claim)
        if parsed is None or not all(name in values for name in parsed.names):
            continue

        def scope(changed: Mapping[str, object], claim: Claim = claim) -> Scope:
            return Scope(changed, dict(claim.placeholders), runs)

        for part in parts(parsed):
            symbols = computed_symbols(part, spec)
            if not symbols or _holds(part, scope(values)) is not True:
                continue  # the static check's, or claim-failed's
            if _depends(part, values, symbols, scope):
                continue
            tried = ", ".join(f"`{names[0]}`" for names in symbols.values())
            found.append(
                _echo(
                    claim,
                    f"{_what(part, claim)} holds whatever {tried} is (tried x + 1, 2x, -x, 0 "
                    "and the like): it cannot fail, so it checks nothing. Compare the value "
                    "with what the lesson predicts",
                )
            )
            break
    return found


def _depends(
    parsed: ParsedClaim,
    values: Mapping[str, object],
    symbols: Mapping[str, list[str]],
    scope: Callable[[Mapping[str, object]], Scope],
) -> bool:
    """Does some change of one computed value (and its aliases with it) make the claim fail?"""
    for names in symbols.values():
        for other in perturbations(values[names[0]]):
            changed = dict(values)
            for name in names:
                changed[name] = other
            if _holds(parsed, scope(changed)) is not True:
                return True
    return False
