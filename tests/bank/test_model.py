"""Each question type loads into the model with the values its YAML says."""

from __future__ import annotations

import pytest

from quizapp.bank import (
    ChoiceQuestion,
    Difficulty,
    Flashcard,
    NumericQuestion,
    OrderingQuestion,
    QuestionType,
    TrueFalseQuestion,
    load_file,
)
from tests.conftest import CORPUS


@pytest.fixture(scope="module")
def deck():
    deck, diagnostics = load_file(CORPUS / "good" / "every_type.yaml")
    assert [d for d in diagnostics if d.severity == "error"] == []
    assert deck is not None
    return deck


@pytest.fixture(scope="module")
def questions(deck):
    return {q.id: q for q in deck.questions}


def test_deck_metadata(deck) -> None:
    assert (deck.id, deck.title, deck.topic, deck.domain) == (
        "every-type",
        "Every question type",
        "testing",
        "Test domain",
    )
    assert deck.exam_weight == 0.25
    assert deck.description.startswith("One question of each type")
    assert {q.type for q in deck.questions} == set(QuestionType)


def test_single_choice(questions) -> None:
    q = questions["t-single"]
    assert isinstance(q, ChoiceQuestion) and q.type is QuestionType.SINGLE_CHOICE
    assert [c.text for c in q.choices] == ["Right", "Wrong"]
    assert q.correct_indices == {0}
    assert q.choices[1].why == "The trap."
    assert q.shuffle is False
    assert q.tags == ("basics", "exam-trap")
    assert q.source == "Lesson › Part 1"
    assert q.difficulty is Difficulty.EASY
    assert q.topic == "testing"  # inherited from the deck


def test_compute_arguments_follow_yaml_1_2(questions) -> None:
    compute = questions["t-single"].compute
    assert compute.name == "rope_relative"
    # `1e4` is a number and `010` is ten, unlike PyYAML's YAML 1.1 defaults.
    assert dict(compute.args) == {"head_dim": 64, "base": 1e4, "offset": 10}
    assert isinstance(compute.args["base"], float)
    # ...and `no` stays the word "no".
    assert dict(questions["t-multi"].compute.args) == {
        "sentence": "no",
        "swapped": "no",
        "causal": "no",
    }


def test_multiple_choice_accepts_yes_and_no_for_correct(questions) -> None:
    q = questions["t-multi"]
    assert q.correct_indices == {0, 1}
    assert q.topic == "other-topic"
    assert q.shuffle is True


def test_true_false_reads_no_as_false(questions) -> None:
    q = questions["t-tf"]
    assert isinstance(q, TrueFalseQuestion)
    assert q.answer is False
    assert (q.why_true, q.why_false) == ("The trap.", "The reason.")


def test_numeric_literal(questions) -> None:
    q = questions["t-numeric"]
    assert isinstance(q, NumericQuestion)
    assert q.answer.value == 1_048_576 and q.answer.from_value is None
    assert q.answer.tolerance == 0 and q.answer.unit == "parameters"
    assert [(t.value, t.why) for t in q.traps] == [(131072, "Divided by the head count.")]


def test_numeric_derived_from_computation(questions) -> None:
    q = questions["t-numeric-derived"]
    assert q.answer.value is None and q.answer.from_value == "params_multi_head"
    assert q.answer.relative_tolerance == 1e-3
    assert q.compute.args == {}


def test_numeric_short_form(questions) -> None:
    assert questions["t-numeric-short"].answer.value == 0.25


def test_ordering_keeps_written_order(questions) -> None:
    q = questions["t-order"]
    assert isinstance(q, OrderingQuestion)
    assert [s.text for s in q.steps] == ["First", "Then", "Last"]
    assert q.steps[0].why == "It starts." and q.steps[1].why is None


def test_flashcard(questions) -> None:
    q = questions["t-card"]
    assert isinstance(q, Flashcard)
    assert (q.prompt, q.back) == ("Front?", "Back.")


def test_locations_point_at_the_question(questions) -> None:
    lines = (CORPUS / "good" / "every_type.yaml").read_text().splitlines()
    for q in questions.values():
        assert lines[q.location.line - 1].strip() == f"- id: {q.id}"
