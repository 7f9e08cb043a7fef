"""Parameterized questions: the combinations a `vary:` block allows, and one of them applied.

Placeholders are substituted by this module alone, never by str.format: a bank is untrusted
input, and `{name}` must not reach attributes or indexing. `{{` and `}}` write literal braces.
A compute argument written exactly as "{name}" takes the value itself (a number stays a
number); elsewhere the value is written into the text.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Iterator, Mapping
from dataclasses import replace

from quizapp.bank.model import (
    ChoiceQuestion,
    Claim,
    ComputeSpec,
    Flashcard,
    NumericQuestion,
    OrderingQuestion,
    Question,
    Scalar,
    TrueFalseQuestion,
)

PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([a-z][a-z0-9_]*)\}")
WHOLE = re.compile(r"^\{([a-z][a-z0-9_]*)\}$")


def placeholders(text: str) -> set[str]:
    return {m.group(1) for m in PLACEHOLDER.finditer(text) if m.group(1)}


def fill(text: str, assignment: Mapping[str, Scalar]) -> str:
    def one(match: re.Match[str]) -> str:
        name = match.group(1)
        if name is None:
            return match.group(0)[0]  # {{ → {, }} → }
        value = assignment.get(name)
        return match.group(0) if value is None else _show(value)

    return PLACEHOLDER.sub(one, text)


def _show(value: Scalar) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return f"{value:,}" if abs(value) >= 10_000 else str(value)
    return str(value)


def count(question: Question) -> int:
    total = 1
    for values in question.vary.values():
        total *= len(values)
    return total


def assignments(question: Question) -> Iterator[dict[str, Scalar]]:
    names = list(question.vary)
    for combination in itertools.product(*(question.vary[n] for n in names)):
        yield dict(zip(names, combination, strict=True))


def pick(question: Question, rng: random.Random) -> Question:
    """A fresh variant for one showing (the question itself when it does not vary)."""
    if not question.vary:
        return question
    chosen = {name: rng.choice(values) for name, values in question.vary.items()}
    return instantiate(question, chosen)


def compute_args(compute: ComputeSpec, assignment: Mapping[str, Scalar]) -> dict[str, Scalar]:
    args: dict[str, Scalar] = {}
    for key, value in compute.args.items():
        if isinstance(value, str):
            whole = WHOLE.match(value)
            args[key] = assignment.get(whole.group(1), value) if whole else fill(value, assignment)
        else:
            args[key] = value
    return args


def bind(claim: Claim, assignment: Mapping[str, Scalar]) -> Claim:
    """The claim with the variant's values for its {placeholders} (its text unchanged)."""
    return replace(claim, placeholders=tuple(assignment.items()))


def instantiate(question: Question, assignment: Mapping[str, Scalar]) -> Question:
    """The question with this assignment written in: texts, options, steps and compute args."""
    changes: dict[str, object] = {
        "prompt": fill(question.prompt, assignment),
        "explanation": fill(question.explanation, assignment),
        "assignment": dict(assignment),
    }
    if question.compute is not None:
        changes["compute"] = replace(
            question.compute,
            args=compute_args(question.compute, assignment),
            # A claim's text stays as written: its {placeholders} are bound to the variant's
            # values when it is evaluated, never spliced into it. Its words fill in.
            expect=tuple(
                replace(bind(c, assignment), says=c.says and fill(c.says, assignment))
                for c in question.compute.expect
            ),
        )
    if isinstance(question, ChoiceQuestion):
        changes["choices"] = tuple(
            replace(
                c,
                text=fill(c.text, assignment),
                why=c.why and fill(c.why, assignment),
                holds=c.holds and bind(c.holds, assignment),
            )
            for c in question.choices
        )
    elif isinstance(question, OrderingQuestion):
        changes["steps"] = tuple(
            replace(
                s,
                text=fill(s.text, assignment),
                why=s.why and fill(s.why, assignment),
                value=s.value and bind(s.value, assignment),
            )
            for s in question.steps
        )
    elif isinstance(question, Flashcard):
        changes["back"] = fill(question.back, assignment)
    elif isinstance(question, TrueFalseQuestion):
        changes["why_true"] = question.why_true and fill(question.why_true, assignment)
        changes["why_false"] = question.why_false and fill(question.why_false, assignment)
        changes["holds"] = question.holds and bind(question.holds, assignment)
    elif isinstance(question, NumericQuestion):
        changes["traps"] = tuple(replace(t, why=fill(t.why, assignment)) for t in question.traps)
    return replace(question, **changes)


def variant_suffix(question: Question) -> str:
    """' (with seq_len=256)' for a variant, '' otherwise: says which one a message is about."""
    if not question.assignment:
        return ""
    return " (with " + ", ".join(f"{k}={v}" for k, v in question.assignment.items()) + ")"


def texts(question: Question) -> Iterator[str]:
    """Every text a placeholder may appear in."""
    yield question.prompt
    yield question.explanation
    if isinstance(question, ChoiceQuestion):
        for choice in question.choices:
            yield choice.text
            if choice.why:
                yield choice.why
    elif isinstance(question, OrderingQuestion):
        for step in question.steps:
            yield step.text
            if step.why:
                yield step.why
    elif isinstance(question, Flashcard):
        yield question.back
    elif isinstance(question, TrueFalseQuestion):
        yield from (w for w in (question.why_true, question.why_false) if w)
    elif isinstance(question, NumericQuestion):
        yield from (t.why for t in question.traps)
    if question.compute is not None:
        yield from (v for v in question.compute.args.values() if isinstance(v, str))
        yield from (c.says for c in question.compute.expect if c.says)
