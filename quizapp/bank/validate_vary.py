"""A varied question's `vary:` block, and the {placeholders} its texts and claims use."""

from __future__ import annotations

import ast
import math

from quizapp.bank import fields as F
from quizapp.bank.model import Question, Scalar
from quizapp.bank.validate_nodes import BAD, NAME_RE, NodeReader, describe
from quizapp.bank.yaml12 import MappingNode, Node, ScalarNode


def read_vary(reader: NodeReader, node: Node) -> dict[str, tuple[Scalar, ...]] | None:
    reader.visit()
    if not isinstance(node, MappingNode):
        reader.report(
            node,
            "wrong-type",
            f"vary must be a mapping of names to lists, not {describe(node)}",
        )
        return None
    result: dict[str, tuple[Scalar, ...]] = {}
    combinations = 1
    for key_node, value_node in node.value:
        reader.visit()
        if not isinstance(key_node, ScalarNode) or not NAME_RE.fullmatch(key_node.value):
            reader.report(
                key_node, "bad-value", "vary names are lowercase identifiers (d_model, n_heads)"
            )
            continue
        name = key_node.value
        if name in result:
            reader.report(key_node, "duplicate-key", f"duplicate vary name '{name}'")
            continue
        items = reader.sequence(value_node, f"vary '{name}'")
        if items is None:
            continue
        if not F.MIN_VARY_VALUES <= len(items) <= F.MAX_VARY_VALUES:
            reader.report(
                value_node,
                "bad-value",
                f"vary '{name}' needs {F.MIN_VARY_VALUES} to {F.MAX_VARY_VALUES} values, not {len(items)}",
            )
            continue
        values: list[Scalar] = []
        for item in items:
            value = reader.scalar(item, f"a value of '{name}'")
            if value is BAD:
                continue
            if value is None or (isinstance(value, float) and not math.isfinite(value)):
                reader.report(
                    item, "bad-value", f"a value of '{name}' must be a finite number or text"
                )
                continue
            if value in values:
                reader.report(item, "bad-value", f"'{name}' lists {value!r} twice")
                continue
            values.append(value)
        result[name] = tuple(values)
        combinations *= len(values)
    if combinations > F.MAX_VARIANTS:
        reader.report(
            node,
            "too-many-variants",
            f"vary allows {combinations:,} combinations; at most {F.MAX_VARIANTS:,}",
        )
        return None
    return result


def check_placeholders(reader: NodeReader, question: Question, node: Node) -> Question | None:
    """Every {name} must be varied; every varied name should be used somewhere."""
    from quizapp.bank.variants import placeholders, texts

    used: set[str] = set()
    for text in texts(question):
        if "{" in text:  # most texts have no braces at all: skip the regex for them
            used |= placeholders(text)
    unknown = sorted(used - set(question.vary))
    if unknown:
        reader.report(
            node,
            "unknown-placeholder",
            f"{', '.join('{' + n + '}' for n in unknown)} used but not listed under vary",
        )
        return None
    claimed = _claim_placeholders(reader, question)
    if claimed is None or not _second_runs_bounded(reader, question):
        return None
    used |= claimed
    unused = sorted(set(question.vary) - used)
    if unused:
        reader.report(
            node,
            "unused-vary",
            f"vary lists {', '.join(unused)} but no text or argument uses it",
            severity="warning",
        )
    return question


def _claim_placeholders(reader: NodeReader, question: Question) -> set[str] | None:
    """The {names} the claims read (each a value of the variant, bound when evaluated), or
    None when one is not listed under vary (reported at the claim's line)."""
    from quizapp.bank.claim_checks import question_claims

    used: set[str] = set()
    ok = True
    for claim, parsed in question_claims(question):
        unknown = [name for name in parsed.placeholders if name not in question.vary]
        if unknown:
            listed = (
                f"which vary does not list (it lists {', '.join(question.vary)})"
                if question.vary
                else "but the question has no vary:"
            )
            reader.report_at(
                claim.location,
                "unknown-placeholder",
                f"claim {claim.text!r} uses {', '.join('{' + n + '}' for n in unknown)}, {listed}",
            )
            ok = False
        used.update(parsed.placeholders)
    return used if ok else None


def _second_runs_bounded(reader: NodeReader, question: Question) -> bool:
    """A question's claims ask for at most MAX_SECOND_RUNS distinct at(...) runs, so a
    variant costs lint a bounded number of computations."""
    from quizapp.bank.claim_checks import question_claims

    seen: set[str] = set()
    for claim, parsed in question_claims(question):
        for run in parsed.second_runs:
            seen.add(repr([(name, ast.dump(value)) for name, value in sorted(run.arguments)]))
        if len(seen) > F.MAX_SECOND_RUNS:
            reader.report_at(
                claim.location,
                "bad-claim",
                f"the question's claims ask for {len(seen)} different at(...) runs; "
                f"at most {F.MAX_SECOND_RUNS}",
            )
            return False
    return True
