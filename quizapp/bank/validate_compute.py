"""A question's `compute:` block: the computation's name, its arguments and its claims.

Only the form is checked here; whether the computation and its arguments exist is a registry
question, which `quizapp lint` asks (the bank never imports the registry).
"""

from __future__ import annotations

import math

from quizapp.bank import fields as F
from quizapp.bank.model import Claim, ComputeSpec, Location, Scalar
from quizapp.bank.validate_nodes import BAD, NAME_RE, NodeReader, describe
from quizapp.bank.yaml12 import NULL, MappingNode, Node, ScalarNode


def read_compute(reader: NodeReader, node: Node) -> ComputeSpec | None:
    found = reader.mapping(node, F.COMPUTE_FIELDS, "compute")
    if found is None:
        return None
    name = reader.identifier(found["name"][1], "compute name", NAME_RE) if "name" in found else None
    args: dict[str, Scalar] = {}
    arg_locations: dict[str, Location] = {}
    if "args" in found:
        args_node = found["args"][1]
        if isinstance(args_node, ScalarNode) and args_node.tag == NULL:
            pass  # `args:` left empty means no arguments
        elif isinstance(args_node, MappingNode):
            seen: dict[str, ScalarNode] = {}
            for key_node, value_node in args_node.value:
                reader.visit()
                if not isinstance(key_node, ScalarNode) or not NAME_RE.fullmatch(key_node.value):
                    reader.report(key_node, "bad-value", "argument names are lowercase identifiers")
                    continue
                if key_node.value in seen:
                    reader.report(
                        key_node,
                        "duplicate-key",
                        f"duplicate argument '{key_node.value}' "
                        f"(first at line {seen[key_node.value].start_mark.line + 1})",
                    )
                    continue
                seen[key_node.value] = key_node
                value = reader.scalar(value_node, f"argument '{key_node.value}'")
                if value is BAD:
                    continue
                if value is None:
                    reader.report(
                        value_node, "bad-value", f"argument '{key_node.value}' has no value"
                    )
                    continue
                if isinstance(value, float) and not math.isfinite(value):
                    reader.report(
                        value_node, "bad-value", f"argument '{key_node.value}' must be finite"
                    )
                    continue
                args[key_node.value] = value
                arg_locations[key_node.value] = reader.location(value_node)
        else:
            reader.report(
                args_node,
                "wrong-type",
                f"compute args must be a mapping, not {describe(args_node)}",
            )
    expect: tuple[Claim, ...] | None = ()
    if "expect" in found:
        from quizapp.bank.expect import read_expect

        expect = read_expect(reader, found["expect"][1])
    if name is None or expect is None:
        return None
    return ComputeSpec(
        name=name,
        args=args,
        location=reader.location(found["name"][1]),
        arg_locations=arg_locations,
        expect=expect,
    )
