"""The registry in the bank's JSON Schema: `quizapp schema` (and question_bank/schema.json)
lists every computation's name, its arguments with their types, bounds and defaults, and its
values with their meanings and units, so an editor completes and checks `compute: {name,
args}` and a numeric answer's `from:`. The loader and lint stay the authority (cross-argument
rules, a varied question's filled-in values)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from quizapp.bank.schema import PLACEHOLDER_PATTERN, ComputationSchema, bank_schema_json
from quizapp.experiments.registry import COMPUTATIONS
from quizapp.experiments.spec import Arg, ComputationSpec
from quizapp.experiments.value_docs import value_docs

# A `vary:` placeholder stands for any argument's value until the variant is drawn.
_PLACEHOLDER = {"type": "string", "pattern": PLACEHOLDER_PATTERN}
_BOOLEAN_WORDS = "^([Yy][Ee][Ss]|[Nn][Oo]|[Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])$"


def _bounded(arg: Arg, kind: str) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": kind}
    if arg.minimum is not None:
        schema["minimum"] = arg.minimum
    if arg.maximum is not None:
        schema["maximum"] = arg.maximum
    return schema


def arg_schema(arg: Arg) -> dict[str, Any]:
    """One argument: its type and bounds (or choices), default and meaning."""
    if arg.kind == "int":
        shape: dict[str, Any] = {"anyOf": [_bounded(arg, "integer"), _PLACEHOLDER]}
    elif arg.kind == "float":
        shape = {"anyOf": [_bounded(arg, "number"), _PLACEHOLDER]}
    elif arg.kind == "bool":
        # Arg.coerce also takes yes/no and true/false written as text.
        shape = {
            "anyOf": [
                {"type": "boolean"},
                {"type": "string", "pattern": _BOOLEAN_WORDS},
                _PLACEHOLDER,
            ]
        }
    elif arg.kind == "choice":
        shape = {"anyOf": [{"enum": list(arg.choices)}, _PLACEHOLDER]}
    else:
        shape = {"type": "string"}  # after a variant fills it in, at most max_length
    described = arg.describe()
    schema = {**shape, "description": f"{arg.doc}: {described}"}
    if arg.default is not None:
        schema["default"] = arg.default
    return schema


def computation_schema(spec: ComputationSpec) -> ComputationSchema:
    return ComputationSchema(
        name=spec.name,
        description=f"{spec.title}: {spec.description}",
        args={arg.name: arg_schema(arg) for arg in spec.args},
        values={
            doc.name: f"{doc.meaning} ({doc.unit})" if doc.unit else doc.meaning
            for doc in value_docs(spec.name, spec.values)
        },
    )


def schema_json(computations: Sequence[ComputationSpec] = COMPUTATIONS) -> str:
    """What `quizapp schema` prints."""
    return bank_schema_json([computation_schema(spec) for spec in computations])
