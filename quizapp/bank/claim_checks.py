"""Claims checked on a result: each one's outcome (holds, fails, cannot be decided) and the
values it read, and the names a claim uses that a computation does not give.

Parsing and evaluating are quizapp.bank.claims'; this is what lint, the CLI and the lab
show of them.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from quizapp.bank.claims import ClaimError, ParsedClaim, evaluate, format_number, parse_claim


def describe_values(parsed: ParsedClaim, values: Mapping[str, object]) -> str:
    """`residual_final = 1.06e+06, plain_final = 1.05`: the values a claim reads."""
    shown = [f"{name} = {format_number(values[name])}" for name in parsed.names if name in values]
    return ", ".join(shown)


@dataclass(frozen=True)
class Outcome:
    """One claim checked on one result: it holds, fails, or cannot be decided (`error`)."""

    text: str
    says: str | None
    holds: bool | None  # None when it could not be evaluated
    values: str  # the values it read, for the message
    error: str | None = None

    @property
    def label(self) -> str:
        """What the student reads: the claim in words, or the claim itself."""
        return self.says or self.text


def check(text: str, values: Mapping[str, object], says: str | None = None) -> Outcome:
    """Parse and evaluate one claim on `values`; never raises."""
    try:
        parsed = parse_claim(text)
    except ClaimError as exc:
        return Outcome(text, says, None, "", str(exc))
    shown = describe_values(parsed, values)
    try:
        return Outcome(parsed.text, says, evaluate(parsed, values), shown)
    except ClaimError as exc:
        return Outcome(parsed.text, says, None, shown, str(exc))


def check_all(
    claims: Iterable[tuple[str, str | None]], values: Mapping[str, object]
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


__all__ = [
    "Outcome",
    "check",
    "check_all",
    "describe_values",
    "unknown_name_message",
    "unknown_names",
]
