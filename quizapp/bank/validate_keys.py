"""Keys tied to the computation: a choice's `holds:`, a true/false question's `holds:`, and an
ordering step's `value:` with the question's `order_by_value:`.

The loader checks their form only: each claim is held to the evaluator's whitelist where it is
written, and a tie needs the question's `compute:` block. Whether the names are values of the
computation, and whether the key agrees with what the claims give, is lint's to check
(quizapp.authoring.key_claims), since only lint runs computations.
"""

from __future__ import annotations

import math

from quizapp.bank.claims import ClaimError, parse_claim, parse_expression, quoted
from quizapp.bank.model import (
    ChoiceQuestion,
    Claim,
    OrderingQuestion,
    Question,
    TrueFalseQuestion,
)
from quizapp.bank.validate_nodes import NodeReader
from quizapp.bank.yaml12 import FLOAT, INT, Node, ScalarNode


def read_tie(reader: NodeReader, node: Node, what: str, *, number: bool = False) -> Claim | None:
    """A `holds:` claim (or, with `number`, a step's `value:` expression), or None when it
    cannot be read (reported at its line as `bad-claim`). A `value:` may be a plain number:
    a step that stands for a constant (`value: 512`)."""
    if number and isinstance(node, ScalarNode) and node.tag in (INT, FLOAT):
        value = reader.scalar(node, what)
        if isinstance(value, bool) or not isinstance(value, int | float):
            return None  # reported by scalar()
        if not math.isfinite(value):
            reader.report(node, "bad-claim", f"{what} must be a finite number")
            return None
        return Claim(text=repr(value), location=reader.location(node))
    text = reader.text(node, what)
    if text is None:
        return None
    try:
        parsed = parse_expression(text) if number else parse_claim(text)
    except ClaimError as exc:
        reader.report(node, "bad-claim", f"{what} {quoted(text)}: {exc}")
        return None
    return Claim(text=parsed.text, location=reader.location(node))


def ties(question: Question) -> list[tuple[str, Claim]]:
    """Every claim that ties the question's key to its computation, with the key it sits on."""
    if isinstance(question, ChoiceQuestion):
        return [("holds", c.holds) for c in question.choices if c.holds is not None]
    if isinstance(question, TrueFalseQuestion) and question.holds is not None:
        return [("holds", question.holds)]
    if isinstance(question, OrderingQuestion):
        return [("value", s.value) for s in question.steps if s.value is not None]
    return []


def check_ties_have_compute(reader: NodeReader, question: Question, has_compute: bool) -> bool:
    """A tie names the computation's values, so a question without `compute:` cannot have one."""
    if has_compute:
        return True
    found = ties(question)
    for key, claim in found:
        reader.report_at(
            claim.location,
            "bad-claim",
            f"'{key}: {claim.text}' needs a computation: the question has no 'compute' block",
        )
    return not found


__all__ = ["check_ties_have_compute", "read_tie", "ties"]
