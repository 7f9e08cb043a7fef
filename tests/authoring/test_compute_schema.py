"""The JSON Schema knows the registry (quizapp/authoring/compute_schema.py): an editor completes
and checks a compute block's name and arguments, and a numeric answer's `from:`."""

from __future__ import annotations

import copy
import json

import pytest

from quizapp.authoring.compute_schema import schema_json
from quizapp.bank import bundled_bank_path
from quizapp.bank.yaml12 import compose
from quizapp.experiments.registry import COMPUTATIONS
from tests.bank.test_bundled_bank import _plain

jsonschema = pytest.importorskip("jsonschema")
SCHEMA = json.loads(schema_json())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def deck(compute: dict, answer: object = None) -> dict:
    question = {
        "id": "q",
        "type": "numeric" if answer is not None else "flashcard",
        "prompt": "P",
        "explanation": "E",
        "difficulty": "easy",
        "tags": ["t"],
        "compute": compute,
    }
    if answer is None:
        question["back"] = "B"
    else:
        question["answer"] = answer
    return {
        "deck": {"id": "d", "title": "T", "topic": "t", "domain": "D", "exam_weight": 1},
        "questions": [question],
    }


def errors(document: dict) -> list[str]:
    return [error.message for error in VALIDATOR.iter_errors(document)]


def test_the_schema_is_valid_and_is_the_committed_copy() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    committed = json.loads((bundled_bank_path() / "schema.json").read_text(encoding="utf-8"))
    assert committed == SCHEMA, "run: quizapp schema > question_bank/schema.json"


def test_it_lists_every_computation_its_arguments_and_values() -> None:
    compute = SCHEMA["$defs"]["compute"]
    names = [option["const"] for option in compute["properties"]["name"]["anyOf"]]
    assert names == [spec.name for spec in COMPUTATIONS]
    for spec in COMPUTATIONS:
        args = SCHEMA["$defs"][f"args_{spec.name}"]
        assert list(args["properties"]) == [arg.name for arg in spec.args]
        assert args["additionalProperties"] is False
    kv = SCHEMA["$defs"]["args_kv_cache"]["properties"]["seq_len"]
    assert kv["default"] == 4096 and kv["anyOf"][0] == {
        "type": "integer",
        "minimum": 1,
        "maximum": 1_048_576,
    }


def test_the_shipped_decks_validate_and_their_compute_blocks_are_checked() -> None:
    checked = 0
    for path in sorted(bundled_bank_path().glob("*.yaml")):
        document = _plain(compose(path.read_text(encoding="utf-8")))
        found = errors(document)
        assert found == [], f"{path.name}: {found[0]}"
        checked += sum("compute" in q for q in document["questions"])
    assert checked > 20


@pytest.mark.parametrize(
    ("compute", "answer"),
    [
        ({"name": "kv_cache", "args": {"seq_len": 8192, "dtype": "bfloat16"}}, None),
        ({"name": "mha_params", "args": {"d_model": "{d_model}", "bias": "yes"}}, None),
        ({"name": "head_parallelism", "args": {"seq_len": 1024}}, {"from": "projection_flops"}),
        ({"name": "attention_heads"}, None),
    ],
)
def test_a_right_compute_block_passes(compute: dict, answer: object) -> None:
    assert errors(deck(compute, answer)) == []


@pytest.mark.parametrize(
    ("compute", "answer"),
    [
        ({"name": "kv_cache", "args": {"seq_length": 8192}}, None),  # a wrong argument name
        ({"name": "kv_cache", "args": {"seq_len": 0}}, None),  # below its minimum
        ({"name": "kv_cache", "args": {"seq_len": 1.5}}, None),  # not whole
        ({"name": "kv_cache", "args": {"dtype": "float64"}}, None),  # not one of its choices
        ({"name": "mha_params", "args": {"d_model": "{d model}"}}, None),  # not a placeholder
        ({"name": "attention_heads", "args": {"d_model": 8}}, None),  # it takes none
        ({"name": "attention_cost"}, None),  # no such computation
        ({"name": "head_parallelism"}, {"from": "attention_cost"}),  # no such value
    ],
)
def test_a_wrong_compute_block_is_refused(compute: dict, answer: object) -> None:
    assert errors(deck(compute, answer)), (compute, answer)


def test_a_wrong_argument_in_a_shipped_deck_is_refused() -> None:
    path = bundled_bank_path() / "multi-head-attention.yaml"
    document = _plain(compose(path.read_text(encoding="utf-8")))
    broken = copy.deepcopy(document)
    question = next(q for q in broken["questions"] if q.get("compute", {}).get("args"))
    args = question["compute"]["args"]
    first = next(iter(args))
    args[first + "s"] = args.pop(first)
    assert errors(document) == []
    assert any(f"'{first}s'" in message for message in errors(broken))
