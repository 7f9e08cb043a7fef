"""The bank that ships with quizapp: complete, clean, and valid under its own JSON Schema."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from quizapp.authoring.lint import lint
from quizapp.bank import QuestionType, TrueFalseQuestion, bundled_bank_path, load_bank
from quizapp.bank.yaml12 import compose


@pytest.fixture(scope="module")
def bank():
    return load_bank([bundled_bank_path()])


def test_the_bundled_bank_loads_whole(bank) -> None:
    assert bank.errors == []
    assert len(bank.questions) >= 60
    assert {d.id for d in bank.decks} == {
        "multi-head-attention",
        "positional-encoding",
        "normalization-residuals",
        "modern-attention",
    }


def test_every_deck_uses_all_six_types_and_has_domain_and_weight(bank) -> None:
    for deck in bank.decks:
        assert {q.type for q in deck.questions} == set(QuestionType), deck.id
        assert deck.domain and deck.exam_weight > 0


def test_every_question_has_a_computation_and_every_option_a_why(bank) -> None:
    for question in bank.questions.values():
        assert question.compute is not None, question.id
        assert question.source, question.id
        for choice in getattr(question, "choices", ()):
            assert choice.why, (question.id, choice.text)


def test_lint_strict_passes_with_evaluation() -> None:
    # No time budget here: this checks the bank's keys and claims, not how fast a loaded
    # machine runs them (the budget has tests of its own).
    report = lint([bundled_bank_path()], strict=True, eval_budget=None)
    assert [d.format() for d in report.diagnostics] == []
    assert report.exit_code == 0


def test_the_lessons_keyed_trap_is_there(bank) -> None:
    # Lesson 004's self-check: "Multi-head attention exists primarily to..." keys
    # "reduce the number of parameters" as the wrong answer.
    trap_options = [
        choice
        for q in bank.questions.values()
        for choice in getattr(q, "choices", ())
        if "parameter" in choice.text.lower() and not choice.correct
    ]
    assert trap_options


def test_the_bank_cannot_be_answered_by_item_writing_cues(bank) -> None:
    """Issue 10's bar for the bundled bank, which lint's significance tests alone would let
    drift: at least 100 questions; the key strictly the longest option in no more
    single-choice items than chance; multiple-choice key counts of 1, 2 and 3 (issue 18: "tick
    all" may win at most one item, tests/bank/test_bank_cues.py); as many true statements as
    false ones, give or take one."""
    questions = list(bank.questions.values())
    assert len(questions) >= 100

    singles = [q for q in questions if q.type is QuestionType.SINGLE_CHOICE]
    longest, chance = 0, 0.0
    for q in singles:
        lengths = [len(c.text) for c in q.choices]
        (key,) = q.correct_indices
        others = lengths[:key] + lengths[key + 1 :]
        longest += lengths[key] > max(others)
        chance += 1 / len(lengths)
    assert longest <= chance, (longest, chance)

    counts = {
        (len(q.correct_indices), len(q.choices))
        for q in questions
        if q.type is QuestionType.MULTIPLE_CHOICE
    }
    assert {keys for keys, _ in counts} >= {1, 2, 3}

    answers = Counter(q.answer for q in questions if isinstance(q, TrueFalseQuestion))
    assert abs(answers[True] - answers[False]) <= 1, answers


def test_difficulty_spread(bank) -> None:
    counts = Counter(q.difficulty.value for q in bank.questions.values())
    assert set(counts) == {"easy", "medium", "hard"}


def test_files_carry_the_schema_modeline_and_validate_against_the_schema() -> None:
    import jsonschema

    folder = bundled_bank_path()
    schema = json.loads((folder / "schema.json").read_text())
    validator = jsonschema.Draft202012Validator(schema)
    for path in sorted(folder.glob("*.yaml")):
        text = path.read_text()
        assert text.startswith("# yaml-language-server: $schema=schema.json\n"), path.name
        document = _plain(compose(text))
        errors = sorted(validator.iter_errors(document), key=str)
        assert errors == [], f"{path.name}: {errors[0].message}"


def test_the_schema_rejects_what_the_loader_rejects() -> None:
    import jsonschema

    schema = json.loads((bundled_bank_path() / "schema.json").read_text())
    base = {
        "deck": {"id": "d", "title": "T", "topic": "t", "domain": "D", "exam_weight": 1},
        "questions": [
            {
                "id": "q",
                "type": "flashcard",
                "prompt": "P",
                "explanation": "E",
                "difficulty": "easy",
                "tags": ["t"],
                "back": "B",
            }
        ],
    }
    jsonschema.validate(base, schema)
    bad_key = json.loads(json.dumps(base))
    bad_key["questions"][0]["explenation"] = "typo"
    wrong_type_key = json.loads(json.dumps(base))
    wrong_type_key["questions"][0]["choices"] = []
    for broken in (bad_key, wrong_type_key):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(broken, schema)


def _plain(node):
    """The node tree as plain JSON-like data, scalars resolved by the same YAML 1.2 rules."""
    from quizapp.bank.yaml12 import MappingNode, SequenceNode, scalar_value

    if isinstance(node, MappingNode):
        return {k.value: _plain(v) for k, v in node.value}
    if isinstance(node, SequenceNode):
        return [_plain(v) for v in node.value]
    return scalar_value(node)


def test_at_least_two_thirds_of_the_computed_keys_are_proven(bank) -> None:
    # Issue 27: the computation checks the key wherever it can; lint counts the same way.
    from quizapp.authoring.key_claims import key_status

    statuses = Counter(key_status(q) for q in bank.questions.values())
    decided = statuses["proven"] + statuses["judged"]
    assert decided >= 100
    assert statuses["proven"] * 3 >= 2 * decided, statuses
