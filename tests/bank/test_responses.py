"""What the history keeps of an answer: the response's JSON forms, read back and checked, and
the traps a response fell for."""

from __future__ import annotations

import json
import random

import pytest

from quizapp.bank import load_file
from quizapp.bank.answers import (
    ChoiceAnswer,
    FlashcardRating,
    NumericAnswerText,
    OrderingAnswer,
    TrueFalseAnswer,
)
from quizapp.bank.grading import grade
from quizapp.bank.model import ChoiceQuestion, OrderingQuestion
from quizapp.bank.responses import decode, encode, fallen_traps, from_json, to_json, variant
from quizapp.bank.session import QuizSession, SessionOptions
from quizapp.bank.variants import instantiate
from quizapp.tui.widgets.answer_input import choice_answer
from tests.conftest import CORPUS, REPO


@pytest.fixture(scope="module")
def q():
    deck, _ = load_file(CORPUS / "good" / "every_type.yaml")
    return {question.id: question for question in deck.questions}


def test_every_type_has_its_json_form_and_reads_back(q) -> None:
    cases = [
        ("t-single", ChoiceAnswer(frozenset({1})), {"chosen": [1]}),
        ("t-multi", ChoiceAnswer(frozenset({2, 0})), {"chosen": [0, 2]}),
        ("t-tf", TrueFalseAnswer(True), {"chosen": True}),
        (
            "t-numeric",
            NumericAnswerText("131,072"),
            {"value": 131072.0, "text": "131,072", "trap": 0},
        ),
        (
            "t-numeric",
            NumericAnswerText("1048576"),
            {"value": 1048576.0, "text": "1048576", "trap": None},
        ),
        ("t-numeric", NumericAnswerText("lots"), {"value": None, "text": "lots", "trap": None}),
        ("t-order", OrderingAnswer((2, 0, 1)), {"order": [2, 0, 1]}),
        ("t-card", FlashcardRating(3), {"grade": 3}),
    ]
    for qid, answer, expected in cases:
        response = encode(q[qid], answer)
        assert response == expected, qid
        stored = from_json(to_json(response))
        assert stored == expected
        assert decode(q[qid], stored) == answer


def test_a_grade_carries_its_response(q) -> None:
    assert grade(q["t-tf"], TrueFalseAnswer(True)).response == {"chosen": True}
    assert grade(q["t-card"], FlashcardRating(1)).response == {"grade": 1}


@pytest.mark.parametrize(
    ("qid", "stored"),
    [
        ("t-single", {"chosen": [5]}),  # no such option (the bank changed)
        ("t-single", {"chosen": [True]}),
        ("t-single", {"chosen": "0"}),
        ("t-tf", {"chosen": 1}),
        ("t-order", {"order": [0, 0, 1]}),
        ("t-order", {"order": [0, 1]}),
        ("t-card", {"grade": 9}),
        ("t-numeric", {"text": 5}),
    ],
)
def test_a_response_that_does_not_fit_the_question_reads_as_none(q, qid, stored) -> None:
    assert decode(q[qid], stored) is None


@pytest.mark.parametrize("text", [None, "", "not json", "[1, 2]", "3", "x" * 30_000])
def test_stored_text_that_is_not_an_object_is_no_response(text) -> None:
    assert from_json(text) is None


def test_the_traps_a_response_fell_for(q) -> None:
    [wrong] = fallen_traps(q["t-single"], {"chosen": [1]})
    assert (wrong.key, wrong.answer, wrong.why) == ("choice:1", "Wrong", "The trap.")
    assert fallen_traps(q["t-single"], {"chosen": [0]}) == []
    # A multiple choice with a right and a wrong pick: only the wrong one is a trap.
    assert [t.key for t in fallen_traps(q["t-multi"], {"chosen": [0, 2]})] == ["choice:2"]
    [tf] = fallen_traps(q["t-tf"], {"chosen": True})
    assert (tf.key, tf.answer, tf.why) == ("true_false:true", "True", "The trap.")
    assert fallen_traps(q["t-tf"], {"chosen": False}) == []
    [numeric] = fallen_traps(q["t-numeric"], {"value": 131072.0, "text": "131072", "trap": 0})
    assert numeric.answer == "131,072 parameters" and numeric.why == "Divided by the head count."
    for stored in ({"trap": None}, {"trap": 4}, {"trap": True}, {"trap": "0"}):
        assert fallen_traps(q["t-numeric"], stored) == []
    assert fallen_traps(q["t-order"], {"order": [2, 1, 0]}) == []


def test_a_varied_question_keeps_its_assignment() -> None:
    deck, _ = load_file(REPO / "question_bank" / "multi-head-attention.yaml")
    varied = next(question for question in deck.questions if question.vary)
    assignment = {name: values[-1] for name, values in varied.vary.items()}
    shown = instantiate(varied, assignment)
    answer = (
        ChoiceAnswer(frozenset({0}))
        if isinstance(shown, ChoiceQuestion)
        else NumericAnswerText("1")
    )
    response = json.loads(to_json(encode(shown, answer)) or "")
    assert variant(response) == assignment
    assert variant({"variant": {"ok": 1, "bad": [1]}}) == {"ok": 1}


@pytest.mark.parametrize("seed", range(6))
def test_shuffled_options_and_steps_are_stored_in_the_banks_order(seed: int) -> None:
    deck, _ = load_file(REPO / "question_bank" / "multi-head-attention.yaml")
    questions = [
        question
        for question in deck.questions
        if isinstance(question, ChoiceQuestion | OrderingQuestion) and not question.vary
    ]
    session = QuizSession.start(questions, SessionOptions(seed=seed))
    rng = random.Random(seed)
    shuffled = 0
    for question in session.questions:
        shown = session.display_orders[question.id]
        shuffled += shown != tuple(sorted(shown))
        if isinstance(question, OrderingQuestion):
            # The student submits the steps as shown: their keys are step indices.
            assert grade(question, OrderingAnswer(shown)).response == {"order": list(shown)}
            continue
        position = rng.randrange(len(shown))  # the option in that place on screen
        answer = choice_answer(question, shown, {position})
        response = grade(question, answer).response
        assert response == {"chosen": [shown[position]]}
        picked = question.choices[shown[position]]
        trap = fallen_traps(question, response)
        assert [t.answer for t in trap] == ([] if picked.correct else [picked.text])
    assert shuffled  # the display order really differed from the bank's
