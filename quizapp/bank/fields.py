"""The bank format's keys, in one table. The validator and the JSON Schema both read it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from quizapp.bank.claims import MAX_CLAIM_LENGTH, MAX_CLAIMS, MAX_SAYS_LENGTH
from quizapp.bank.model import Difficulty, QuestionType

ID_PATTERN = r"^[a-z0-9]+(?:[-_.][a-z0-9]+)*$"
ID_MAX_LENGTH = 80
TAG_PATTERN = r"^[a-z0-9]+(?:[-_.][a-z0-9]+)*$"
MAX_DECK_QUESTIONS = 5000  # per deck file: ten times a large exam's pool, and lint stays fast
# Rows `quizapp import` reads from one CSV by default (--max-rows raises it to a deck's size).
DEFAULT_CSV_ROWS = 2000
MAX_TEXT_LENGTH = 20_000  # characters of one text (a prompt, an explanation, an option)
MAX_TAGS = 64  # per question: a tag is a label, and lint's work grows with their number
MIN_CHOICES, MAX_CHOICES = 2, 9  # keys 1-9 pick them
MIN_STEPS, MAX_STEPS = 2, 9
MIN_VARY_VALUES, MAX_VARY_VALUES = 1, 20
MAX_VARIANTS = 1000  # combinations a question may have; lint checks up to MAX_LINTED_VARIANTS
MAX_LINTED_VARIANTS = 64
# Distinct at(...) second runs a question's claims may ask for (each variant runs at most this
# many more computations; claims.MAX_CLAIM_SECOND_RUNS bounds one claim).
MAX_SECOND_RUNS = 8
FORMAT_VERSION = 1

JsonSchema = dict[str, Any]


@dataclass(frozen=True)
class Field:
    doc: str
    schema: JsonSchema = field(default_factory=dict)
    required: bool = False


_TEXT: JsonSchema = {"type": "string", "minLength": 1}
_MARKDOWN: JsonSchema = {"type": "string", "minLength": 1}
# `yes`/`no` are accepted where a boolean is meant: YAML 1.1 habits should not change meaning.
_BOOL: JsonSchema = {
    "anyOf": [
        {"type": "boolean"},
        {"type": "string", "pattern": "^(yes|no|true|false|Yes|No|True|False|YES|NO|TRUE|FALSE)$"},
    ]
}
_NUMBER: JsonSchema = {"type": "number"}
_ID: JsonSchema = {"type": "string", "pattern": ID_PATTERN, "maxLength": ID_MAX_LENGTH}
_SCALAR: JsonSchema = {"type": ["string", "number", "boolean"]}

FILE_FIELDS: dict[str, Field] = {
    "format": Field("The format version this file is written for.", {"const": FORMAT_VERSION}),
    "deck": Field("The deck's metadata.", {"$ref": "#/$defs/deck"}, required=True),
    "questions": Field(
        "The deck's questions.",
        {
            "type": "array",
            "minItems": 1,
            "maxItems": MAX_DECK_QUESTIONS,
            "items": {"$ref": "#/$defs/question"},
        },
        required=True,
    ),
}

DECK_FIELDS: dict[str, Field] = {
    "id": Field("Stable deck id, unique across the bank.", _ID, required=True),
    "title": Field("The deck's title, shown on the home screen.", _TEXT, required=True),
    "topic": Field("The default topic of the deck's questions.", _ID, required=True),
    "domain": Field("The exam domain the deck belongs to.", _TEXT, required=True),
    "exam_weight": Field(
        "Relative weight of this deck when a mock exam samples by topic (> 0, at most 1000).",
        {"type": "number", "exclusiveMinimum": 0, "maximum": 1000},
        required=True,
    ),
    "description": Field("A short Markdown description.", _MARKDOWN),
}

COMMON_QUESTION_FIELDS: dict[str, Field] = {
    "id": Field(
        "Stable id, unique across the whole bank; review history is keyed by it.",
        _ID,
        required=True,
    ),
    "type": Field("The question type.", {"enum": [t.value for t in QuestionType]}, required=True),
    "prompt": Field("The question in Markdown (a flashcard's front).", _MARKDOWN, required=True),
    "explanation": Field("Markdown shown after answering.", _MARKDOWN, required=True),
    "difficulty": Field("How hard it is.", {"enum": [d.value for d in Difficulty]}, required=True),
    "tags": Field(
        "Short lowercase tags.",
        {
            "type": "array",
            "minItems": 1,
            "maxItems": MAX_TAGS,
            "items": {"type": "string", "pattern": TAG_PATTERN, "maxLength": ID_MAX_LENGTH},
        },
        required=True,
    ),
    "topic": Field("Overrides the deck's topic.", _ID),
    "source": Field("The lesson section the question comes from.", _TEXT),
    "pairs_with": Field(
        "Ids of questions whose stem this one resembles on purpose (lint does not call the "
        "pair a near-duplicate).",
        {"type": "array", "minItems": 1, "uniqueItems": True, "items": _ID},
    ),
    "compute": Field("The live computation behind the explanation.", {"$ref": "#/$defs/compute"}),
    "vary": Field(
        "Parameters: each name lists the values a showing picks from; write {name} in the texts "
        'and "{name}" as a compute argument.',
        {
            "type": "object",
            "propertyNames": {"pattern": r"^[a-z][a-z0-9_]*$"},
            "additionalProperties": {
                "type": "array",
                "minItems": MIN_VARY_VALUES,
                "maxItems": MAX_VARY_VALUES,
                "items": _SCALAR,
            },
        },
    ),
}

_CHOICES = Field(
    f"The options, {MIN_CHOICES} to {MAX_CHOICES}.",
    {
        "type": "array",
        "minItems": MIN_CHOICES,
        "maxItems": MAX_CHOICES,
        "items": {"$ref": "#/$defs/choice"},
    },
    required=True,
)
_SHUFFLE = Field("Shuffle the options when shown (default true).", _BOOL)
# A claim tying a key to the computation; its schema is CLAIM_TEXT_SCHEMA (set below).
_HOLDS_DOC = (
    "A claim over the question's computation values (same syntax as an `expect:` claim). "
    "`quizapp lint` checks, for each variant, that {what}. Never shown to the student."
)

TYPE_FIELDS: dict[QuestionType, dict[str, Field]] = {
    QuestionType.SINGLE_CHOICE: {"choices": _CHOICES, "shuffle": _SHUFFLE},
    QuestionType.MULTIPLE_CHOICE: {"choices": _CHOICES, "shuffle": _SHUFFLE},
    QuestionType.TRUE_FALSE: {
        "answer": Field("Whether the prompt's statement is true.", _BOOL, required=True),
        "why_true": Field("Why answering 'true' is right, or which trap it is.", _MARKDOWN),
        "why_false": Field("Why answering 'false' is right, or which trap it is.", _MARKDOWN),
        "holds": Field(
            _HOLDS_DOC.format(what="`answer` is whether this claim holds"),
            {"$ref": "#/$defs/claim_text"},
        ),
    },
    QuestionType.NUMERIC: {
        "answer": Field("The key.", {"$ref": "#/$defs/numeric_answer"}, required=True),
        "traps": Field(
            "Common wrong answers and the mistake behind each.",
            {"type": "array", "items": {"$ref": "#/$defs/trap"}},
        ),
    },
    QuestionType.ORDERING: {
        "steps": Field(
            f"The steps in the correct order ({MIN_STEPS} to {MAX_STEPS}); the app shuffles them.",
            {
                "type": "array",
                "minItems": MIN_STEPS,
                "maxItems": MAX_STEPS,
                "items": {"anyOf": [_TEXT, {"$ref": "#/$defs/step"}]},
            },
            required=True,
        ),
        "order_by_value": Field(
            "With a `value:` on every step: whether the steps, as written, go from the smallest "
            "value to the largest (`ascending`) or the reverse (`descending`). `quizapp lint` "
            "checks it for each variant.",
            {"enum": ["ascending", "descending"]},
        ),
    },
    QuestionType.FLASHCARD: {
        "back": Field("The answer side, in Markdown.", _MARKDOWN, required=True),
    },
}

CHOICE_FIELDS: dict[str, Field] = {
    "text": Field("The option, in Markdown.", _MARKDOWN, required=True),
    "correct": Field("Whether this option is correct (default false).", _BOOL),
    "why": Field("Why this option is right, or which trap it is.", _MARKDOWN),
    "holds": Field(
        _HOLDS_DOC.format(
            what="the option is marked `correct: true` exactly when this claim holds"
        ),
        {"$ref": "#/$defs/claim_text"},
    ),
}

STEP_FIELDS: dict[str, Field] = {
    "text": Field("The step.", _MARKDOWN, required=True),
    "why": Field("Why the step stands where it does.", _MARKDOWN),
    "value": Field(
        "An expression over the question's computation values that places this step, e.g. "
        "`params_multi_head / 1000`; with `order_by_value`, `quizapp lint` checks the steps "
        "are written sorted by it. Never shown to the student.",
        {"$ref": "#/$defs/claim_text"},
    ),
}

COMPUTE_FIELDS: dict[str, Field] = {
    "name": Field(
        "A computation from `quizapp compute --list`.",
        {"type": "string", "pattern": r"^[a-z][a-z0-9_]*$"},
        required=True,
    ),
    "args": Field(
        "Arguments for the computation.",
        {"type": "object", "additionalProperties": _SCALAR},
    ),
    "expect": Field(
        f"Claims over the computation's values that must hold, 1 to {MAX_CLAIMS}: each an "
        "expression such as `residual_final > 1000 * plain_final`, or a mapping with `claim` "
        "and `says`. `quizapp lint` evaluates them.",
        {
            "type": "array",
            "minItems": 1,
            "maxItems": MAX_CLAIMS,
            "items": {"anyOf": [{"$ref": "#/$defs/claim_text"}, {"$ref": "#/$defs/claim"}]},
        },
    ),
}

# One line, no comment: what the claim evaluator reads (it checks the rest).
CLAIM_TEXT_SCHEMA: JsonSchema = {
    "type": "string",
    "minLength": 1,
    "maxLength": MAX_CLAIM_LENGTH,
    "pattern": "^[^\\n\\r#]+$",
}

CLAIM_FIELDS: dict[str, Field] = {
    "claim": Field(
        "An expression over the computation's values that must be true, e.g. "
        "`params_single_head == params_multi_head`.",
        CLAIM_TEXT_SCHEMA,
        required=True,
    ),
    "says": Field(
        f"The claim in words, one line (at most {MAX_SAYS_LENGTH} characters); the lab panel "
        "shows it beside the result.",
        {"type": "string", "minLength": 1, "maxLength": MAX_SAYS_LENGTH, "pattern": "^[^\\n\\r]+$"},
    ),
}

NUMERIC_ANSWER_FIELDS: dict[str, Field] = {
    "value": Field("A literal key.", _NUMBER),
    "from": Field(
        "The name of one of the question's computation values, used as the key.",
        {"type": "string", "pattern": r"^[a-z][a-z0-9_]*$"},
    ),
    "tolerance": Field("Absolute tolerance.", {"type": "number", "minimum": 0}),
    "relative_tolerance": Field("Relative tolerance.", {"type": "number", "minimum": 0}),
    "unit": Field("The unit shown beside the answer box.", _TEXT),
}

TRAP_FIELDS: dict[str, Field] = {
    "value": Field("The wrong answer.", _NUMBER, required=True),
    "why": Field("The mistake that produces it.", _MARKDOWN, required=True),
}


def all_question_fields() -> dict[str, Field]:
    """Every key any question may have. Type-specific keys are checked once the type is known."""
    merged = dict(COMMON_QUESTION_FIELDS)
    for fields in TYPE_FIELDS.values():
        for key, spec in fields.items():
            merged.setdefault(key, Field(spec.doc, spec.schema, required=False))
    return merged


ALL_QUESTION_FIELDS = all_question_fields()


# Where each table's keys are written, in the words an unknown-key message uses. A key known
# at another place than where it is written gets that place named (`expect` under a question:
# "it belongs under 'compute:'"), so a key at the wrong level reads as what it is.
PLACES: tuple[tuple[dict[str, Field], str], ...] = (
    (FILE_FIELDS, "at the top of the file"),
    (DECK_FIELDS, "under 'deck:'"),
    (ALL_QUESTION_FIELDS, "in a question (an item of 'questions:')"),
    (COMPUTE_FIELDS, "under the question's 'compute:'"),
    (CHOICE_FIELDS, "in an option (an item of 'choices:')"),
    (STEP_FIELDS, "in a step (an item of 'steps:')"),
    (NUMERIC_ANSWER_FIELDS, "under a numeric question's 'answer:'"),
    (TRAP_FIELDS, "in a trap (an item of 'traps:')"),
    (CLAIM_FIELDS, "in an item of 'expect:' written as a mapping"),
)


def places_of(key: str, here: Mapping[str, Field]) -> list[str]:
    """The places other than `here` (one of the tables above) where `key` is a key."""
    return [where for table, where in PLACES if table is not here and key in table]
