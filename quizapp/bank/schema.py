"""A JSON Schema of the bank format, generated from the same key table the validator reads.

Editors use it through yaml-language-server for completion and hover docs. The loader
stays the authority: it also checks what a schema cannot say (exactly one correct choice,
ids unique across files, computation arguments against the registry).
"""

from __future__ import annotations

import json
from typing import Any

from quizapp.bank import fields as F
from quizapp.bank.model import QuestionType

SCHEMA_ID = "https://quizapp.invalid/schema/bank-v1.json"


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


def bank_schema() -> dict[str, Any]:
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
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        **schema,
        "$defs": {
            "deck": _object(F.DECK_FIELDS, "Deck"),
            "question": _question_schema(),
            "choice": _object(F.CHOICE_FIELDS, "Choice"),
            "step": _object(F.STEP_FIELDS, "Ordering step"),
            "compute": _object(F.COMPUTE_FIELDS, "Live computation"),
            "claim_text": {**F.CLAIM_TEXT_SCHEMA, "title": "Claim"},
            "claim": _object(F.CLAIM_FIELDS, "Claim with words"),
            "numeric_answer": numeric_answer,
            "trap": _object(F.TRAP_FIELDS, "Trap"),
        },
    }


def bank_schema_json() -> str:
    return json.dumps(bank_schema(), indent=2, sort_keys=False) + "\n"


__all__ = ["QuestionType", "bank_schema", "bank_schema_json"]
