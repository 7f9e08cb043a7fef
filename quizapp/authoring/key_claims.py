"""Keys proven by the computation: lint's side of `holds:` and `value:` (quizapp.bank.validate_keys
reads their form).

- single and multiple choice: an option with `holds: CLAIM` must be marked `correct: true`
  exactly when the claim holds;
- true/false: with `holds: CLAIM`, `answer` must be whether the claim holds;
- ordering: with `order_by_value`, the steps must be written strictly sorted by their `value:`.

Each variant of a `vary:` question is checked. A computed choice, true/false or ordering
question whose key no change could slip past lint is "proven"; any other is "judged by the
author", which is not a problem (an option may be conceptual) but is counted in the summary.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from quizapp.bank.claim_checks import (
    check,
    claim_scope,
    describe_values,
    unknown_name_message,
    unknown_names,
)
from quizapp.bank.claims import (
    ClaimError,
    SecondRuns,
    evaluate_number,
    format_number,
    parse_expression,
    quoted,
)
from quizapp.bank.diagnostics import Diagnostic
from quizapp.bank.model import (
    ChoiceQuestion,
    Location,
    OrderingQuestion,
    Question,
    QuestionType,
    SortOrder,
    TrueFalseQuestion,
)
from quizapp.bank.validate_keys import ties
from quizapp.bank.variants import variant_suffix as _variant

KeyStatus = Literal["proven", "judged"]


def _at(location: Location, code: str, message: str) -> Diagnostic:
    return Diagnostic(location.path, location.line, location.column, "error", code, message)


def has_ties(question: Question) -> bool:
    return bool(ties(question))


def unknown_tie_names(question: Question, values: Iterable[str]) -> list[Diagnostic]:
    """Each name in a `holds:` or `value:` that is not one of the computation's values."""
    if question.compute is None:
        return []
    known = list(values)
    found = []
    for key, claim in ties(question):
        for name in unknown_names(parse_expression(claim.text), known):
            message = unknown_name_message(name, question.compute.name, known)
            found.append(_at(claim.location, "unknown-value", f"{key}: names {message}"))
    return found


def judge_ties(
    question: Question, values: Mapping[str, object], runs: SecondRuns | None = None
) -> list[Diagnostic]:
    """A located error for each tie the key contradicts, or that cannot be evaluated. A tie's
    {placeholders} are the variant's values; its at(...) values come from `runs`."""
    if isinstance(question, ChoiceQuestion):
        return _judge_choices(question, values, runs)
    if isinstance(question, TrueFalseQuestion):
        return _judge_statement(question, values, runs)
    if isinstance(question, OrderingQuestion):
        return _judge_order(question, values, runs)
    return []


def _shown(values: str) -> str:
    return f" ({values})" if values else ""


def _judge_choices(
    question: ChoiceQuestion, values: Mapping[str, object], runs: SecondRuns | None
) -> list[Diagnostic]:
    found = []
    for number, choice in enumerate(question.choices, start=1):
        if choice.holds is None:
            continue
        outcome = check(choice.holds.text, claim_scope(choice.holds, values, runs))
        where = choice.location or choice.holds.location
        if outcome.error is not None:
            message = f"holds: cannot be checked: {outcome.text}: {outcome.error}"
            found.append(
                _at(
                    choice.holds.location,
                    "claim-error",
                    message + _shown(outcome.values) + _variant(question),
                )
            )
            continue
        if outcome.holds == choice.correct:
            continue
        marked = "marked correct" if choice.correct else "not marked correct"
        verdict = "does not hold" if choice.correct else "holds"
        message = (
            f"option {number} {quoted(choice.text)} is {marked}, but its claim {verdict}: "
            f"{outcome.text}{_shown(outcome.values)}"
        )
        found.append(_at(where, "key-contradicted", message + _variant(question)))
    return found


def _judge_statement(
    question: TrueFalseQuestion, values: Mapping[str, object], runs: SecondRuns | None
) -> list[Diagnostic]:
    if question.holds is None:
        return []
    outcome = check(question.holds.text, claim_scope(question.holds, values, runs))
    if outcome.error is not None:
        message = f"holds: cannot be checked: {outcome.text}: {outcome.error}"
        return [
            _at(
                question.holds.location,
                "claim-error",
                message + _shown(outcome.values) + _variant(question),
            )
        ]
    if outcome.holds == question.answer:
        return []
    answer = "true" if question.answer else "false"
    verdict = "does not hold" if question.answer else "holds"
    message = f"answer is {answer}, but the claim {verdict}: {outcome.text}{_shown(outcome.values)}"
    return [_at(question.holds.location, "key-contradicted", message + _variant(question))]


def _judge_order(
    question: OrderingQuestion, values: Mapping[str, object], runs: SecondRuns | None
) -> list[Diagnostic]:
    if question.order_by_value is None:
        return []
    placed: list[float] = []
    for step in question.steps:
        assert step.value is not None  # the loader holds order_by_value to every step's value
        parsed = parse_expression(step.value.text)
        scope = claim_scope(step.value, values, runs)
        try:
            placed.append(float(evaluate_number(parsed, scope)))
        except ClaimError as exc:
            message = (
                f"value: cannot be computed: {parsed.text}: {exc}"
                f"{_shown(describe_values(parsed, scope))}"
            )
            return [_at(step.value.location, "claim-error", message + _variant(question))]
    ascending = question.order_by_value is SortOrder.ASCENDING
    found = []
    for index in range(1, len(placed)):
        before, after = placed[index - 1], placed[index]
        if (before < after) if ascending else (before > after):
            continue
        step, previous = question.steps[index], question.steps[index - 1]
        assert step.value is not None and previous.value is not None
        message = (
            f"step {index + 1} {quoted(step.text)} (value {format_number(after)}) comes after "
            f"step {index} {quoted(previous.text)} (value {format_number(before)}), but the "
            f"steps are keyed {question.order_by_value.value}: "
            f"{previous.value.text} then {step.value.text}"
        )
        found.append(_at(step.value.location, "key-contradicted", message + _variant(question)))
    return found


# -- counting: proven or judged by the author ------------------------------------------------


def key_status(question: Question) -> KeyStatus | None:
    """Whether a computed choice, true/false or ordering question's key is proven: no change
    to it passes lint. None for other questions (numeric keys use `from:`; flashcards have
    none) and for questions without a computation.

    - single_choice: its correct option carries `holds:` (moving the key off it then fails);
    - multiple_choice: every option carries `holds:`;
    - true_false: it carries `holds:`; ordering: it has `order_by_value`."""
    if question.compute is None:
        return None
    if isinstance(question, ChoiceQuestion):
        if question.type is QuestionType.SINGLE_CHOICE:
            tied = all(c.holds is not None for c in question.choices if c.correct)
        else:
            tied = all(c.holds is not None for c in question.choices)
        return "proven" if tied else "judged"
    if isinstance(question, TrueFalseQuestion):
        return "proven" if question.holds is not None else "judged"
    if isinstance(question, OrderingQuestion):
        return "proven" if question.order_by_value is not None else "judged"
    return None


@dataclass(frozen=True)
class KeyTally:
    """How many computed keys are proven, and which are judged by the author."""

    proven: int = 0
    judged: tuple[Question, ...] = ()

    @classmethod
    def of(cls, questions: Iterable[Question]) -> KeyTally:
        proven, judged = 0, []
        for question in questions:
            status = key_status(question)
            if status == "proven":
                proven += 1
            elif status == "judged":
                judged.append(question)
        return cls(proven, tuple(judged))

    @property
    def total(self) -> int:
        return self.proven + len(self.judged)

    def summary(self) -> str:
        """'computed keys: 12 proven, 67 judged by the author' ('' when there are none)."""
        if not self.total:
            return ""
        return f"computed keys: {self.proven} proven, {len(self.judged)} judged by the author"

    def as_dict(self) -> dict[str, object]:
        return {
            "proven": self.proven,
            "judged_by_author": len(self.judged),
            "judged": [
                {"id": q.id, "path": q.location.path, "line": q.location.line, "type": q.type.value}
                for q in self.judged
            ],
        }


__all__ = ["KeyStatus", "KeyTally", "has_ties", "judge_ties", "key_status", "unknown_tie_names"]
