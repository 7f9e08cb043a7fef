"""A JSON Schema of the bank format, generated from the same key table the validator reads.

Editors use it through yaml-language-server for completion and hover docs. Given the
computations (quizapp.authoring.compute_schema describes the registry, which the bank may not
import), it also knows their names, arguments and values. The loader stays the authority: it
also checks what a schema cannot say (exactly one correct choice, ids unique across files,
rules between a computation's arguments).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from quizapp.bank import fields as F
from quizapp.bank.model import QuestionType

SCHEMA_ID = "https://quizapp.invalid/schema/bank-v1.json"
# A whole-string {placeholder} of a varied question, which `vary:` fills in (bank/variants.py).
PLACEHOLDER_PATTERN = "^\\{[a-z][a-z0-9_]*\\}$"


@dataclass(frozen=True)
class ComputationSchema:
    """What the schema says of one computation: the bank cannot import the registry, so the
    caller (quizapp.authoring.compute_schema) describes each one in these terms."""

    name: str
    description: str
    args: Mapping[str, dict[str, Any]] = field(default_factory=dict)  # argument -> its schema
    values: Mapping[str, str] = field(default_factory=dict)  # value -> its meaning and unit


def _object(
    table: dict[str, F.Field], title: str, *, extra: dict[str, F.Field] | None = None
) -> dict[str, Any]:
    properties = {
        key: {**spec.schema, "description": spec.doc}
        for key, spec in {**table, **(extra or {})}.items()
    }
    required = [key for key, spec in table.items() if spec.required]
    schema: dict[str, Any] = {
        "title": title,
        "type": "object",
        "properties": properties,
        "additionalProperties": False,
    }
    if required:
        schema["required"] = required
    return schema


def _question_schema() -> dict[str, Any]:
    variants = []
    for qtype, type_fields in F.TYPE_FIELDS.items():
        variant = _object({**F.COMMON_QUESTION_FIELDS, **type_fields}, f"{qtype.value} question")
        variant["properties"]["type"] = {"const": qtype.value, "description": "The question type."}
        variants.append({"if": {"properties": {"type": {"const": qtype.value}}}, "then": variant})
    # Type-specific keys are listed here by name only (their types differ between question
    # types, e.g. `answer`); each `then` branch below holds the exact shape for its type.
    properties: dict[str, Any] = {
        key: {"description": spec.doc} for key, spec in F.ALL_QUESTION_FIELDS.items()
    }
    properties.update(
        {
            key: {**spec.schema, "description": spec.doc}
            for key, spec in F.COMMON_QUESTION_FIELDS.items()
        }
    )
    return {
        "title": "Question",
        "type": "object",
        "required": [k for k, f in F.COMMON_QUESTION_FIELDS.items() if f.required],
        "properties": properties,
        "allOf": variants,
    }


def _computations(computations: Sequence[ComputationSchema]) -> dict[str, Any]:
    """The schema's knowledge of the registry: `compute.name` one of the names, `compute.args`
    exactly the named computation's arguments, and a numeric answer's `from:` one of its
    values. Returns {"compute": ..., "question": [if-then, ...], "defs": {...}}."""
    names = {
        "description": F.COMPUTE_FIELDS["name"].doc,
        "anyOf": [{"const": c.name, "description": c.description} for c in computations],
    }
    args_rules, from_rules, defs = [], [], {}
    for c in computations:
        defs[f"args_{c.name}"] = {
            "title": f"Arguments of {c.name}",
            "type": "object",
            "properties": dict(c.args),
            "additionalProperties": False,
        }
        named = {"properties": {"name": {"const": c.name}}, "required": ["name"]}
        args_rules.append(
            {"if": named, "then": {"properties": {"args": {"$ref": f"#/$defs/args_{c.name}"}}}}
        )
        values = [{"const": v, "description": meaning} for v, meaning in c.values.items()]
        from_rules.append(
            {
                "if": {"properties": {"compute": named}, "required": ["compute"]},
                "then": {
                    "properties": {
                        "answer": {
                            "if": {"type": "object"},
                            "then": {"properties": {"from": {"anyOf": values}}},
                        }
                    }
                },
            }
        )
    return {"name": names, "compute": args_rules, "question": from_rules, "defs": defs}


def bank_schema(computations: Sequence[ComputationSchema] = ()) -> dict[str, Any]:
    """The schema; with `computations`, one that also knows their names, arguments and values
    (what `quizapp schema` prints)."""
    numeric_answer = {
        "anyOf": [
            {"type": "number"},
            {
                **_object(F.NUMERIC_ANSWER_FIELDS, "Numeric answer"),
                "oneOf": [{"required": ["value"]}, {"required": ["from"]}],
            },
        ]
    }
    schema = _object(F.FILE_FIELDS, "quizapp question bank file")
    question = _question_schema()
    compute = _object(F.COMPUTE_FIELDS, "Live computation")
    known: dict[str, Any] = {}
    if computations:
        known = _computations(computations)
        compute["properties"]["name"] = known["name"]
        compute["allOf"] = known["compute"]
        question["allOf"] = [*question["allOf"], *known["question"]]
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        **schema,
        "$defs": {
            "deck": _object(F.DECK_FIELDS, "Deck"),
            "question": question,
            "choice": _object(F.CHOICE_FIELDS, "Choice"),
            "step": _object(F.STEP_FIELDS, "Ordering step"),
            "compute": compute,
            "claim_text": {**F.CLAIM_TEXT_SCHEMA, "title": "Claim"},
            "claim": _object(F.CLAIM_FIELDS, "Claim with words"),
            "numeric_answer": numeric_answer,
            "trap": _object(F.TRAP_FIELDS, "Trap"),
            **known.get("defs", {}),
        },
    }


def bank_schema_json(computations: Sequence[ComputationSchema] = ()) -> str:
    return json.dumps(bank_schema(computations), indent=2, sort_keys=False) + "\n"


__all__ = ["ComputationSchema", "QuestionType", "bank_schema", "bank_schema_json"]
