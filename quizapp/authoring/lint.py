"""`quizapp lint`: check bank files and print every problem where editors and CI can read it.

Beyond what the loader checks, lint holds every `compute:` block to the computation registry
(name, arguments, bounds) and, unless told not to, runs the computations behind answers
written as `from: <value>` so that a key can never drift from what the code computes.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from quizapp.authoring.item_writing import check_item_writing
from quizapp.bank import Bank, Diagnostic, Location, NumericQuestion, Question, load_bank
from quizapp.bank.variants import texts
from quizapp.experiments.registry import get_spec
from quizapp.experiments.spec import ArgumentError


@dataclass(frozen=True)
class LintReport:
    bank: Bank
    diagnostics: list[Diagnostic]

    @property
    def error_count(self) -> int:
        return sum(d.severity == "error" for d in self.diagnostics)

    @property
    def warning_count(self) -> int:
        return sum(d.severity == "warning" for d in self.diagnostics)

    @property
    def exit_code(self) -> int:
        return 1 if self.error_count else 0


def lint(paths: Iterable[str | Path], *, strict: bool = False, evaluate: bool = True) -> LintReport:
    bank = load_bank(paths)
    diagnostics = list(bank.diagnostics)
    checked: list[Question] = []
    for question in bank.questions.values():
        if any("TODO" in text for text in texts(question)):
            diagnostics.append(
                _at(
                    question.location,
                    "todo-left",
                    "the question still says TODO somewhere",
                    "warning",
                )
            )
        for instance in variants_to_check(question, diagnostics):
            if not check_computation(instance, diagnostics):
                break  # one failing variant says enough; the rest likely fail alike
            checked.append(instance)
    if evaluate:
        evaluate_derived_answers(checked, diagnostics)
    diagnostics += check_item_writing(bank)
    if strict:
        diagnostics = [d.promoted() for d in diagnostics]
    diagnostics.sort(key=lambda d: (d.path, d.line, d.column))
    return LintReport(bank=bank, diagnostics=diagnostics)


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


def _variant(question: Question) -> str:
    """' (with d_model=256, n_heads=4)' for a variant, '' otherwise: says which one failed."""
    if not question.assignment:
        return ""
    return " (with " + ", ".join(f"{k}={v}" for k, v in question.assignment.items()) + ")"


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
    return True


def evaluate_derived_answers(questions: list[Question], diagnostics: list[Diagnostic]) -> None:
    """Run each distinct computation behind a `from:` answer once and check the key it yields."""
    derived = [
        q for q in questions if isinstance(q, NumericQuestion) and q.answer.from_value is not None
    ]
    if not derived:
        return
    from quizapp.experiments.runner import run  # imports torch: only when there is work for it

    cache: dict[tuple[str, str], dict[str, object] | Exception] = {}
    for question in derived:
        assert isinstance(question, NumericQuestion) and question.compute is not None
        key = (question.compute.name, json.dumps(dict(question.compute.args), sort_keys=True))
        if key not in cache:
            try:
                cache[key] = run(question.compute.name, question.compute.args, device="cpu").values
            except Exception as exc:  # a failing computation is a finding, not a crash
                cache[key] = exc
        outcome = cache[key]
        if isinstance(outcome, Exception):
            diagnostics.append(
                _at(
                    question.compute.location,
                    "computation-failed",
                    f"{question.compute.name} failed: {type(outcome).__name__}: {outcome}"
                    + _variant(question),
                )
            )
            continue
        value = outcome.get(question.answer.from_value)
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
        ):
            diagnostics.append(
                _at(
                    question.location,
                    "bad-derived-answer",
                    f"{question.answer.from_value} = {value!r} is not a finite number"
                    + _variant(question),
                )
            )
            continue
        for trap in question.traps:
            if math.isclose(
                trap.value, value, rel_tol=1e-9, abs_tol=question.answer.tolerance or 0
            ):
                diagnostics.append(
                    _at(
                        question.location,
                        "bad-value",
                        f"a trap ({trap.value:g}) equals the computed answer ({value:g})"
                        + _variant(question),
                    )
                )


def render_text(report: LintReport) -> str:
    return "\n".join(d.format() for d in report.diagnostics)


def render_summary(report: LintReport) -> str:
    return (
        f"{len(report.bank.files)} file(s), {len(report.bank.questions)} question(s) loaded: "
        f"{report.error_count} error(s), {report.warning_count} warning(s)"
    )


def render_json(report: LintReport) -> str:
    payload = {
        "files": len(report.bank.files),
        "questions": len(report.bank.questions),
        "errors": report.error_count,
        "warnings": report.warning_count,
        "diagnostics": [d.as_dict() for d in report.diagnostics],
    }
    return json.dumps(payload, indent=2)
