"""`quizapp lint`: check bank files and print every problem where editors and CI can read it.

Beyond what the loader checks, lint holds every `compute:` block to the computation registry
(name, arguments, bounds) and, unless told not to, runs the computations behind answers
written as `from: <value>` so that a key can never drift from what the code computes.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from quizapp.authoring.echo_claims import dynamic_echoes, static_echoes
from quizapp.authoring.evaluation import (
    BudgetedRuns,
    BudgetSpent,
    RunKey,
    Values,
    default_budget,
    run_key,
    stored_results,
)
from quizapp.authoring.item_writing import check_item_writing
from quizapp.authoring.key_claims import KeyTally, has_ties, judge_ties, unknown_tie_names
from quizapp.authoring.lessons import Lessons, checkable_sources, unknown_sources
from quizapp.authoring.second_runs import lookup, second_run_args, second_run_problems
from quizapp.bank import Bank, Diagnostic, Location, NumericQuestion, Question, load_bank
from quizapp.bank.claim_checks import check, claim_scope, unknown_name_message, unknown_names
from quizapp.bank.claims import SecondRuns, parse_claim
from quizapp.bank.variants import texts, variant_suffix
from quizapp.experiments.discover import unknown_name_hint
from quizapp.experiments.registry import COMPUTATIONS, REGISTRY, get_spec
from quizapp.experiments.spec import ArgumentError


@dataclass(frozen=True)
class LintReport:
    bank: Bank
    diagnostics: list[Diagnostic]
    notes: tuple[str, ...] = ()  # one line each: what was not checked, and why
    keys: KeyTally = field(
        default_factory=KeyTally
    )  # computed keys proven, and those judged by the author

    @property
    def error_count(self) -> int:
        return sum(d.severity == "error" for d in self.diagnostics)

    @property
    def warning_count(self) -> int:
        return sum(d.severity == "warning" for d in self.diagnostics)

    @property
    def exit_code(self) -> int:
        return 1 if self.error_count else 0


def lint(
    paths: Iterable[str | Path],
    *,
    strict: bool = False,
    evaluate: bool = True,
    eval_budget: float | Literal["default"] | None = "default",
    on_progress: Callable[[int, int], None] | None = None,
    use_cache: bool = True,
    lessons: Lessons | None = None,
) -> LintReport:
    """Load and check `paths`. Computations run within `eval_budget` seconds in all (None or
    0: no limit; "default": $QUIZAPP_EVAL_TIMEOUT, else DEFAULT_BUDGET_SECONDS); `on_progress(done, total)` hears how far evaluation has got. With
    `use_cache`, results stored by earlier runs are reused and new ones stored (the user's
    cache folder; QUIZAPP_NO_CACHE turns it off). Sources are checked against `lessons`;
    without them that check is skipped, and the report's notes say so once."""
    # Held to the registry as the app holds it: a question whose computation does not exist
    # is an error and is not counted as loaded.
    bank = load_bank(paths, REGISTRY, _registry_hint)
    diagnostics = list(bank.diagnostics)
    checked: list[Question] = []
    file_lines: dict[str, list[str]] = {}
    for question in bank.questions.values():
        if any("TODO" in text for text in texts(question)):
            diagnostics.extend(todo_diagnostics(question, file_lines))
        diagnostics.extend(missing_claims(question))
        instances = variants_to_check(question, diagnostics)
        for instance in instances:
            if not check_computation(instance, diagnostics):
                break  # one failing variant says enough; the rest likely fail alike
            checked.append(instance)
        else:
            # Every variant names real values: the claims can be read against the registry.
            diagnostics.extend(static_echoes(instances[0]))
    if evaluate:
        checks = evaluation_checks(checked)
        if checks:
            if eval_budget == "default":
                eval_budget = default_budget()
            runs = BudgetedRuns(eval_budget, stored=stored_results(use_cache))
            run_eval_checks(checks, runs, diagnostics, on_progress)
    diagnostics += check_item_writing(bank)
    notes: list[str] = []
    if lessons is not None:
        diagnostics += unknown_sources(list(bank.questions.values()), lessons)
    elif cited := checkable_sources(bank.questions.values()):
        notes.append(
            f"sources not checked: {cited} question(s) cite a lesson, and no lessons were "
            "given (--lessons DIR, or lessons in config.toml)"
        )
    diagnostics = list(dict.fromkeys(diagnostics))  # a variant repeats its question's echo
    if strict:
        diagnostics = [d.promoted() for d in diagnostics]
    diagnostics.sort(key=lambda d: (d.path, d.line, d.column))
    keys = KeyTally.of(bank.questions.values())
    return LintReport(bank=bank, diagnostics=diagnostics, notes=tuple(notes), keys=keys)


def _registry_hint(name: str) -> str:
    """What an unknown computation name may have meant: by spelling and by what it computes."""
    hint = unknown_name_hint(name, COMPUTATIONS).strip().removeprefix(";").strip()
    return hint.removeprefix("(").removesuffix(")")


def todo_diagnostics(question: Question, file_lines: dict[str, list[str]]) -> list[Diagnostic]:
    """One `todo-left` per line of the question that still says TODO, naming its field."""
    from quizapp.authoring.todo_left import MAX_REPORTED, read_lines, todo_places

    path = question.location.path
    places = list(todo_places(question.location, read_lines(path, file_lines)))
    if not places:  # the file changed since it was read: say it once, at the question
        return [_at(question.location, "todo-left", "the question still says TODO", "warning")]
    found = []
    for line, column, key in places[:MAX_REPORTED]:
        where = f"'{key}' still says TODO" if key else "this line still says TODO"
        found.append(
            Diagnostic(path, line, column, "warning", "todo-left", f"{where}: write the real text")  # type: ignore[arg-type]
        )
    if len(places) > MAX_REPORTED:
        found[-1] = Diagnostic(
            path,
            found[-1].line,
            found[-1].column,
            "warning",
            "todo-left",  # type: ignore[arg-type]
            f"{found[-1].message} ({len(places) - MAX_REPORTED} more TODOs in this question)",
        )
    return found


def _at(location: Location, code: str, message: str, severity: str = "error") -> Diagnostic:
    return Diagnostic(location.path, location.line, location.column, severity, code, message)  # type: ignore[arg-type]


def variants_to_check(question: Question, diagnostics: list[Diagnostic]) -> list[Question]:
    """The question as shown: each of its variants (up to a bound), or itself."""
    if not question.vary:
        return [question]
    from quizapp.bank.fields import MAX_LINTED_VARIANTS
    from quizapp.bank.variants import assignments, count, instantiate

    total = count(question)
    if total > MAX_LINTED_VARIANTS:
        diagnostics.append(
            _at(
                question.location,
                "variants-unchecked",
                f"only the first {MAX_LINTED_VARIANTS} of {total} variants are checked",
                "warning",
            )
        )
    chosen = []
    for index, assignment in enumerate(assignments(question)):
        if index >= MAX_LINTED_VARIANTS:
            break
        chosen.append(instantiate(question, assignment))
    return chosen


_variant = variant_suffix  # ' (with d_model=256, n_heads=4)': says which variant failed


def check_computation(question: Question, diagnostics: list[Diagnostic]) -> bool:
    """Hold a question's compute block to the registry. True when it names a valid computation."""
    compute = question.compute
    if compute is None:
        return False
    try:
        spec = get_spec(compute.name)
    except ArgumentError as exc:
        diagnostics.append(_at(compute.location, "unknown-computation", str(exc)))
        return False
    try:
        spec.bind(compute.args)
    except ArgumentError as exc:
        where = compute.arg_locations.get(exc.argument or "", compute.location)
        message = str(exc) if compute.name in str(exc) else f"{compute.name}: {exc}"
        diagnostics.append(_at(where, "bad-argument", message + _variant(question)))
        return False
    derived_from = question.answer.from_value if isinstance(question, NumericQuestion) else None
    if derived_from is not None and derived_from not in spec.values:
        diagnostics.append(
            _at(
                question.location,
                "unknown-value",
                f"'from: {derived_from}' is not a value of {spec.name} "
                f"(it gives: {', '.join(spec.values)})",
            )
        )
        return False
    unknown = unknown_claim_names(question, spec.values) + unknown_tie_names(question, spec.values)
    unknown += second_run_problems(question)
    diagnostics.extend(unknown)
    return not unknown


@dataclass(frozen=True)
class EvalCheck:
    """Something lint verifies by running a question's computation: `judge` gets its values.

    Every check of a lint run shares one `BudgetedRuns`, so one budget bounds them all and a
    computation several checks need runs once."""

    question: Question  # its compute block is what runs; named when the budget runs out
    # Given the values, and where claims find the values of their at(...) second runs.
    judge: Callable[[Question, Values, SecondRuns], list[Diagnostic]]


def evaluation_checks(questions: Iterable[Question]) -> list[EvalCheck]:
    """One check per question whose computation lint must run: a numeric answer written as
    `from: <value>`, `expect:` claims, or a key tied by `holds:`/`value:` (one run serves all)."""
    return [
        EvalCheck(q, judge_computed_values)
        for q in questions
        if q.compute and (_derives_answer(q) or q.compute.expect or has_ties(q))
    ]


def judge_computed_values(
    question: Question, values: Values, runs: SecondRuns | None = None
) -> list[Diagnostic]:
    """The question's claims, then its key, against the values its computation gave (and
    those of the second runs its claims read, from `runs`)."""
    found = claim_results(question, values, runs) + dynamic_echoes(question, values, runs)
    found += judge_ties(question, values, runs)
    if _derives_answer(question):
        found += judge_derived_answer(question, values)
    return found


def run_eval_checks(
    checks: list[EvalCheck],
    runs: BudgetedRuns,
    diagnostics: list[Diagnostic],
    on_progress: Callable[[int, int], None] | None = None,
) -> None:
    """Run the checks in order until the budget is spent; then warn at the first unchecked one.

    Checks whose computation already ran are still judged after the deadline: that costs
    nothing. `on_progress(done, total)` is called after each check and while waiting."""
    progress = on_progress or (lambda done, total: None)
    total = len(checks)
    done = 0
    runs.on_wait = lambda: progress(done, total)
    progress(done, total)
    first_unchecked: Question | None = None
    failures_reported: set[tuple[Location, str, RunKey]] = set()
    for item in checks:
        question, compute = item.question, item.question.compute
        assert compute is not None
        try:
            outcome = runs.outcome(compute.name, compute.args)
            if not isinstance(outcome, Exception):
                for args in second_run_args(question):  # a failed one is the claim's error
                    runs.outcome(compute.name, args)
        except BudgetSpent:
            first_unchecked = first_unchecked or question
            continue
        done += 1
        progress(done, total)
        if not isinstance(outcome, Exception):
            diagnostics.extend(item.judge(question, outcome, lookup(question, runs)))
            continue
        failure = (compute.location, _variant(question), run_key(compute.name, compute.args))
        if failure not in failures_reported:  # once per variant, however many checks need it
            failures_reported.add(failure)
            diagnostics.append(
                _at(
                    compute.location,
                    "computation-failed",
                    f"{compute.name} failed: {type(outcome).__name__}: {outcome}"
                    + _variant(question),
                )
            )
    if first_unchecked is not None:
        diagnostics.append(
            _at(
                first_unchecked.location,
                "eval-budget",
                f"derived answers and claims not checked: budget of {runs.budget:g} s spent "
                f"({done} of {total} evaluated)",
                "warning",
            )
        )


def judge_derived_answer(question: Question, values: Values) -> list[Diagnostic]:
    """The key a `from:` answer names must be a finite number that no trap equals."""
    assert isinstance(question, NumericQuestion) and question.answer.from_value is not None
    value = values.get(question.answer.from_value)
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return [
            _at(
                question.location,
                "bad-derived-answer",
                f"{question.answer.from_value} = {value!r} is not a finite number"
                + _variant(question),
            )
        ]
    return [
        _at(
            question.location,
            "bad-value",
            f"a trap ({trap.value:g}) equals the computed answer ({value:g})" + _variant(question),
        )
        for trap in question.traps
        if math.isclose(trap.value, value, rel_tol=1e-9, abs_tol=question.answer.tolerance or 0)
    ]


def _derives_answer(question: Question) -> bool:
    return isinstance(question, NumericQuestion) and question.answer.from_value is not None


# -- claims (`expect:`) ----------------------------------------------------------------------------


def missing_claims(question: Question) -> list[Diagnostic]:
    """A question that names a computation but claims nothing of it (an error with --strict)."""
    compute = question.compute
    if compute is None or compute.expect:
        return []
    message = f"no claim says what {compute.name} shows here (add an expect: list)"
    return [_at(compute.location, "claim-missing", message, "warning")]


def unknown_claim_names(question: Question, values: Iterable[str]) -> list[Diagnostic]:
    """Each claim name that is not one of the computation's values, with a did-you-mean."""
    if question.compute is None:
        return []
    known = list(values)
    found = []
    for claim in question.compute.expect:
        for name in unknown_names(parse_claim(claim.text), known):
            message = unknown_name_message(name, question.compute.name, known)
            found.append(_at(claim.location, "unknown-value", f"claim names {message}"))
    return found


def claim_results(
    question: Question, values: Mapping[str, object], runs: SecondRuns | None = None
) -> list[Diagnostic]:
    """A located error for each claim of the question that does not hold for `values` (its
    {placeholders} bound to the variant's values, its at(...) values found in `runs`)."""
    if question.compute is None:
        return []
    found = []
    for claim in question.compute.expect:
        outcome = check(claim.text, claim_scope(claim, values, runs), claim.says)
        if outcome.holds:
            continue
        shown = f" ({outcome.values})" if outcome.values else ""
        if outcome.error is not None:
            message = f"claim cannot be checked: {claim.text}: {outcome.error}{shown}"
        else:
            message = f"claim failed: {claim.text}{shown}"
        found.append(
            _at(
                claim.location,
                "claim-error" if outcome.error is not None else "claim-failed",
                message + _variant(question),
            )
        )
    return found


def render_text(report: LintReport) -> str:
    return "\n".join(d.format() for d in report.diagnostics)


def render_summary(report: LintReport) -> str:
    keys = report.keys.summary()
    return "".join(f"{note}\n" for note in report.notes) + (
        f"{len(report.bank.files)} file(s), {len(report.bank.questions)} question(s) loaded: "
        f"{report.error_count} error(s), {report.warning_count} warning(s)"
        + (f"; {keys}" if keys else "")
    )


def render_json(report: LintReport) -> str:
    payload = {
        "files": len(report.bank.files),
        "questions": len(report.bank.questions),
        "errors": report.error_count,
        "warnings": report.warning_count,
        "notes": list(report.notes),
        "computed_keys": report.keys.as_dict(),
        "diagnostics": [d.as_dict() for d in report.diagnostics],
    }
    return json.dumps(payload, indent=2)
