"""Second runs for lint: the `at(seq_len=64).value` a claim reads, checked, run and looked up.

A claim may compare the question's run with a run of the same computation on other arguments:
`attention_flops_1_head == 4 * at(seq_len={seq_len} // 2).attention_flops_1_head`. Its
arguments are the question's (the variant's) with the named ones replaced, and they are
numbers, placeholders and arithmetic only (quizapp.bank.claims), so lint knows every run a
variant asks for before running anything:

- `second_run_problems` holds each to the registry like any compute block's arguments
  (`bad-argument`) and its value to what the computation gives (`unknown-value`), located at
  the claim;
- `second_run_args` lists the distinct runs a variant needs, which lint makes through the
  same `BudgetedRuns` as the question's own (one budget; a run made once serves every claim,
  variant and question that asks for it), and `lookup` hands their values to the claims.

The loader bounds how many distinct runs a question may ask for (fields.MAX_SECOND_RUNS).
"""

from __future__ import annotations

from collections.abc import Mapping

from quizapp.authoring.evaluation import BudgetedRuns, RunKey, Values, run_key
from quizapp.bank import Diagnostic, Location, Question
from quizapp.bank.claim_checks import question_claims, unknown_name_message
from quizapp.bank.claims import ClaimError, SecondRuns, run_arguments
from quizapp.bank.variants import variant_suffix
from quizapp.experiments.registry import get_spec
from quizapp.experiments.spec import ArgumentError


def _at(location: Location, code: str, message: str) -> Diagnostic:
    return Diagnostic(location.path, location.line, location.column, "error", code, message)


def second_run_problems(question: Question) -> list[Diagnostic]:
    """A located error for each at(...) whose arguments the registry refuses, that cannot be
    worked out for this variant, or whose value the computation does not give."""
    compute = question.compute
    if compute is None:
        return []
    spec = get_spec(compute.name)  # lint checked the name before asking
    found = []
    for claim, parsed in question_claims(question):
        for run in parsed.second_runs:
            where = claim.location
            if run.value not in spec.values:
                message = unknown_name_message(run.value, spec.name, spec.values)
                found.append(_at(where, "unknown-value", f"{run.text} names {message}"))
                continue
            try:
                replaced = run_arguments(run, dict(claim.placeholders))
                spec.bind({**compute.args, **replaced})
            except ClaimError as exc:
                message = f"{run.text}: its arguments cannot be worked out: {exc}"
                found.append(_at(where, "claim-error", message + variant_suffix(question)))
            except ArgumentError as exc:
                message = f"{run.text}: {spec.name}: {exc}"
                found.append(_at(where, "bad-argument", message + variant_suffix(question)))
    return found


def second_run_args(question: Question) -> list[dict[str, object]]:
    """The arguments of each distinct second run the question's claims ask for (the question's
    own, the named ones replaced). Call it once second_run_problems found none."""
    compute = question.compute
    if compute is None:
        return []
    runs: dict[RunKey, dict[str, object]] = {}
    for claim, parsed in question_claims(question):
        for run in parsed.second_runs:
            args = {**compute.args, **run_arguments(run, dict(claim.placeholders))}
            runs.setdefault(run_key(compute.name, args), args)
    return list(runs.values())


def lookup(question: Question, runs: BudgetedRuns) -> SecondRuns:
    """Where a claim of `question` finds a second run's values: among the runs made already
    (make them first with `runs.outcome` for each of second_run_args)."""
    compute = question.compute
    assert compute is not None

    def values(replaced: Mapping[str, object]) -> Values:
        args = {**compute.args, **replaced}
        try:
            outcome = runs.made(compute.name, args)
        except KeyError:
            raise ClaimError("that second run was not made") from None
        if isinstance(outcome, Exception):
            shown = ", ".join(f"{k}={v}" for k, v in replaced.items())
            raise ClaimError(
                f"{compute.name} failed with {shown}: {type(outcome).__name__}: {outcome}"
            )
        return outcome

    return values


__all__ = ["lookup", "second_run_args", "second_run_problems"]
