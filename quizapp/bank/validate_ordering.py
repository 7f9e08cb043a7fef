"""Ordering questions: the steps, in their right order, each distinct from the others."""

from __future__ import annotations

from quizapp.bank import fields as F
from quizapp.bank.model import Location, Step
from quizapp.bank.text_checks import comparison_key
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
        if isinstance(item, ScalarNode):
            text, why = reader.text(item, "step"), None
        else:
            found = reader.mapping(item, F.STEP_FIELDS, "a step")
            if found is None or "text" not in found:
                return None
            text = reader.text(found["text"][1], "step text")
            why = reader.text(found["why"][1], "why") if "why" in found else None
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
        steps.append(Step(text=text, why=why))
    return tuple(steps)
