"""Numeric questions: the answer (a value, or a value of the computation) and its traps."""

from __future__ import annotations

from quizapp.bank import fields as F
from quizapp.bank.bounded import NOT_NEGATIVE
from quizapp.bank.model import NumericAnswer, Trap
from quizapp.bank.validate_nodes import NAME_RE, NodeReader
from quizapp.bank.yaml12 import Node, ScalarNode


def read_numeric_answer(reader: NodeReader, node: Node, has_compute: bool) -> NumericAnswer | None:
    if isinstance(node, ScalarNode):
        # `answer: 42` is the natural short form of `answer: {value: 42}`.
        value = reader.number(node, "answer")
        return None if value is None else NumericAnswer(value=value, from_value=None)
    found = reader.mapping(node, F.NUMERIC_ANSWER_FIELDS, "answer")
    if found is None:
        return None
    errors_before = reader.error_count
    value = reader.number(found["value"][1], "value") if "value" in found else None
    from_value = reader.identifier(found["from"][1], "from", NAME_RE) if "from" in found else None
    tolerance = (
        reader.number(found["tolerance"][1], "tolerance", NOT_NEGATIVE)
        if "tolerance" in found
        else None
    )
    relative = (
        reader.number(found["relative_tolerance"][1], "relative_tolerance", NOT_NEGATIVE)
        if "relative_tolerance" in found
        else None
    )
    unit = reader.text(found["unit"][1], "unit") if "unit" in found else None
    if ("value" in found) == ("from" in found):
        reader.report(
            node, "bad-answer", "a numeric answer needs exactly one of 'value' and 'from'"
        )
    if "tolerance" in found and "relative_tolerance" in found:
        reader.report(node, "bad-answer", "give 'tolerance' or 'relative_tolerance', not both")
    if "from" in found and not has_compute:
        reader.report(
            found["from"][1],
            "bad-answer",
            "'from' names a computation value, but the question has no 'compute' block",
        )
    if reader.error_count > errors_before:
        return None
    return NumericAnswer(
        value=value,
        from_value=from_value,
        tolerance=tolerance,
        relative_tolerance=relative,
        unit=unit,
    )


def read_traps(
    reader: NodeReader, node: Node, answer: NumericAnswer | None
) -> tuple[Trap, ...] | None:
    items = reader.sequence(node, "traps")
    if items is None:
        return None
    traps: list[Trap] = []
    for item in items:
        found = reader.mapping(item, F.TRAP_FIELDS, "a trap")
        if found is None or "value" not in found or "why" not in found:
            return None
        value = reader.number(found["value"][1], "trap value")
        why = reader.text(found["why"][1], "why")
        if value is None or why is None:
            return None
        if answer is not None and answer.value is not None and value == answer.value:
            reader.report(item, "bad-value", "a trap has the same value as the correct answer")
            return None
        traps.append(Trap(value=value, why=why))
    return tuple(traps)
