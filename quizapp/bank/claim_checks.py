"""Claims checked on a result: each one's outcome (holds, fails, cannot be decided) and the
values it read, and the names a claim uses that a computation does not give.

Parsing and evaluating are quizapp.bank.claims'; this is what lint, the CLI and the lab
show of them.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from quizapp.bank.claims import (
    ClaimError,
    NotRunHere,
    ParsedClaim,
    Scope,
    SecondRuns,
    evaluate,
    format_number,
    parse_claim,
    parse_expression,
    run_arguments,
)
from quizapp.bank.model import Claim, Question


def describe_values(parsed: ParsedClaim, values: Mapping[str, object] | Scope) -> str:
    """`residual_final = 1.06e+06, plain_final = 1.05`: the values a claim reads, a second
    run's among them (`at(seq_len=64).flops = 4.2e+06`)."""
    scope = values if isinstance(values, Scope) else Scope(values)
    shown = [
        f"{name} = {format_number(scope.values[name])}"
        for name in parsed.names
        if name in scope.values
    ]
    for run in parsed.second_runs if scope.runs is not None else ():
        try:
            value = scope.runs(run_arguments(run, scope.placeholders)).get(run.value)
        except ClaimError:
            continue  # the claim's own message says why
        if value is not None:
            shown.append(f"{run.text} = {format_number(value)}")
    return ", ".join(dict.fromkeys(shown))


@dataclass(frozen=True)
class Outcome:
    """One claim checked on one result: it holds, fails, or cannot be decided (`error`)."""

    text: str
    says: str | None
    holds: bool | None  # None when it could not be evaluated
    values: str  # the values it read, for the message
    error: str | None = None
    elsewhere: bool = False  # reads a second run (at(...)), which is not made here

    @property
    def label(self) -> str:
        """What the student reads: the claim in words, or the claim itself."""
        return self.says or self.text


def check(text: str, values: Mapping[str, object] | Scope, says: str | None = None) -> Outcome:
    """Parse and evaluate one claim on `values`; never raises."""
    try:
        parsed = parse_claim(text)
    except ClaimError as exc:
        return Outcome(text, says, None, "", str(exc))
    shown = describe_values(parsed, values)
    try:
        return Outcome(parsed.text, says, evaluate(parsed, values), shown)
    except NotRunHere as exc:
        return Outcome(parsed.text, says, None, shown, str(exc), elsewhere=True)
    except ClaimError as exc:
        return Outcome(parsed.text, says, None, shown, str(exc))


def check_all(
    claims: Iterable[tuple[str, str | None]], values: Mapping[str, object] | Scope
) -> list[Outcome]:
    return [check(text, values, says) for text, says in claims]


def unknown_names(parsed: ParsedClaim, known: Iterable[str]) -> list[str]:
    known = set(known)
    return [name for name in parsed.names if name not in known]


def unknown_name_message(name: str, computation: str, values: Sequence[str]) -> str:
    """ "'plain_fnal', which is not a value of variance_drift; did you mean 'plain_final'?
    (it gives: ...)": what a claim naming no value is told, with the closest value."""
    close = difflib.get_close_matches(name, list(values), n=1)
    hint = f"; did you mean '{close[0]}'?" if close else ""
    return f"'{name}', which is not a value of {computation}{hint} (it gives: {', '.join(values)})"


def question_claims(question: Question) -> list[tuple[Claim, ParsedClaim]]:
    """Every claim a question makes of its computation (`expect:`, then `holds:` and steps'
    `value:`), read. The loader has read each once already, so none fails here."""
    from quizapp.bank.validate_keys import ties

    found = [(c, parse_claim(c.text)) for c in question.compute.expect] if question.compute else []
    for key, claim in ties(question):
        found.append(
            (claim, parse_expression(claim.text) if key == "value" else parse_claim(claim.text))
        )
    return found


def claim_scope(
    claim: Claim, values: Mapping[str, object], runs: SecondRuns | None = None
) -> Scope:
    """What `claim` is evaluated on: `values`, its variant's {placeholders}, and where its
    at(...) values come from (None: nowhere here, so it is not checked)."""
    return Scope(values, dict(claim.placeholders), runs)


__all__ = [
    "Outcome",
    "check",
    "check_all",
    "claim_scope",
    "describe_values",
    "question_claims",
    "unknown_name_message",
    "unknown_names",
]
