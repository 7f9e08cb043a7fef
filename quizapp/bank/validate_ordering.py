"""Ordering questions: the steps, in their right order, each distinct from the others."""

from __future__ import annotations

from quizapp.bank import fields as F
from quizapp.bank.model import Claim, Location, SortOrder, Step
from quizapp.bank.text_checks import comparison_key
from quizapp.bank.validate_keys import read_tie
from quizapp.bank.validate_nodes import NodeReader
from quizapp.bank.yaml12 import Node, ScalarNode


def read_steps(reader: NodeReader, node: Node) -> tuple[Step, ...] | None:
    items = reader.sequence(node, "steps")
    if items is None:
        return None
    if not F.MIN_STEPS <= len(items) <= F.MAX_STEPS:
        reader.report(
            node,
            "ordering-steps",
            f"an ordering question needs {F.MIN_STEPS} to {F.MAX_STEPS} steps, not {len(items)}",
        )
        return None
    steps: list[Step] = []
    seen: dict[str, Location] = {}
    for item in items:
        value: Claim | None = None
        if isinstance(item, ScalarNode):
            text, why = reader.text(item, "step"), None
        else:
            found = reader.mapping(item, F.STEP_FIELDS, "a step")
            if found is None or "text" not in found:
                return None
            text = reader.text(found["text"][1], "step text")
            why = reader.text(found["why"][1], "why") if "why" in found else None
            if "value" in found:
                value = read_tie(reader, found["value"][1], "value", number=True)
                if value is None:
                    return None
        if text is None:
            return None
        key = comparison_key(text)
        if key in seen:
            reader.report(
                item,
                "ordering-steps",
                f"two steps read the same (first at line {seen[key].line}, column "
                f"{seen[key].column}), so the order is not a full order",
            )
            return None
        seen[key] = reader.location(item)
        steps.append(Step(text=text, why=why, value=value))
    return tuple(steps)


def read_order_by_value(
    reader: NodeReader, question: Node, node: Node | None, steps: tuple[Step, ...]
) -> SortOrder | BadOrder | None:
    """`order_by_value:`, which a question has exactly when every step carries a `value:`."""
    valued = sum(step.value is not None for step in steps)
    if valued and valued != len(steps):
        reader.report(
            question,
            "ordering-steps",
            f"{valued} of {len(steps)} steps carry a 'value:'; give every step one, or none",
        )
        return BAD_ORDER
    if node is None:
        if valued:
            reader.report(
                question,
                "missing-key",
                "the steps carry 'value:', so the question needs 'order_by_value: ascending' "
                "(or descending) to say which way they are sorted",
            )
            return BAD_ORDER
        return None
    raw = reader.choice_of(node, "order_by_value", [o.value for o in SortOrder])
    if raw is None:
        return BAD_ORDER
    if not valued:
        reader.report(node, "bad-value", "order_by_value needs a 'value:' on every step")
        return BAD_ORDER
    return SortOrder(raw)


class BadOrder:
    """An `order_by_value` that was reported (distinct from None: no ordering by value)."""


BAD_ORDER = BadOrder()
