"""Your traps and the trap drill's set, from a crafted history with known answers."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from quizapp.bank import load_file
from quizapp.bank.answers import (
    Answer,
    ChoiceAnswer,
    NumericAnswerText,
    OrderingAnswer,
    TrueFalseAnswer,
)
from quizapp.srs.store.sqlite.store import ReviewStore
from quizapp.srs.study.traps import trap_question_ids, your_traps
from tests.conftest import CORPUS
from tests.srs.readiness_helpers import answer as plain_answer
from tests.srs.readiness_helpers import answer_given

T0 = datetime(2026, 3, 2, 10, 0, tzinfo=UTC)
DECK, _ = load_file(CORPUS / "good" / "every_type.yaml")
QUESTIONS = {q.id: q for q in DECK.questions}
pytestmark = pytest.mark.usefixtures("utc_local_time")  # days start at UTC midnight


@pytest.fixture
def store(tmp_path: Path):
    with ReviewStore.open(tmp_path / "history.sqlite3") as store:
        yield store


def answer(store: ReviewStore, qid: str, given: Answer, when: datetime, kind: str = "drill"):
    answer_given(store, QUESTIONS[qid], given, when, kind)


def test_the_traps_picked_most_come_first_with_their_why(store: ReviewStore) -> None:
    answer(store, "t-single", ChoiceAnswer(frozenset({1})), T0)
    answer(store, "t-tf", TrueFalseAnswer(True), T0 + timedelta(hours=1))
    answer(store, "t-single", ChoiceAnswer(frozenset({1})), T0 + timedelta(days=1), "practice")
    answer(store, "t-single", ChoiceAnswer(frozenset({0})), T0 + timedelta(days=2))  # right
    answer(store, "t-numeric", NumericAnswerText("131,072"), T0 + timedelta(days=2))
    answer(store, "t-numeric", NumericAnswerText("7"), T0 + timedelta(days=3))  # no known trap
    answer(store, "t-order", OrderingAnswer((2, 1, 0)), T0 + timedelta(days=3))  # no traps
    answer(store, "t-multi", ChoiceAnswer(frozenset({0, 2})), T0 + timedelta(days=4))
    traps = your_traps(store, QUESTIONS)
    assert [(t.question_id, t.answer, t.why, t.times) for t in traps] == [
        ("t-single", "Wrong", "The trap.", 2),
        ("t-multi", "C", "c", 1),  # the latest of the ones picked once
        ("t-numeric", "131,072 parameters", "Divided by the head count.", 1),
        ("t-tf", "True", "The trap.", 1),
    ]
    assert traps[0].last == T0 + timedelta(days=1)
    assert traps[0].prompt == "Which is **right**?"
    # A question since removed from the bank is left out.
    without_single = {k: v for k, v in QUESTIONS.items() if k != "t-single"}
    assert "t-single" not in {t.question_id for t in your_traps(store, without_single)}


def test_a_mock_exams_answers_count(store: ReviewStore) -> None:
    store.record_exam(
        taken=T0,
        questions=2,
        correct=1,
        passed=False,
        threshold=0.7,
        seconds=60.0,
        detail={
            "question_ids": ["t-tf", "t-single"],
            "missed": ["t-tf"],
            "responses": {"t-tf": {"chosen": True}, "t-single": {"chosen": [0]}},
        },
    )
    store.record_exam(  # an exam from before responses were kept
        taken=T0, questions=1, correct=0, passed=False, threshold=0.7, seconds=1.0, detail={}
    )
    [trap] = your_traps(store, QUESTIONS)
    assert (trap.question_id, trap.answer, trap.last) == ("t-tf", "True", T0)
    assert trap_question_ids(store, QUESTIONS) == ["t-tf"]


def test_a_trap_clears_after_right_answers_on_two_separate_days(store: ReviewStore) -> None:
    wrong, right = ChoiceAnswer(frozenset({1})), ChoiceAnswer(frozenset({0}))
    assert trap_question_ids(store, QUESTIONS) == []
    answer(store, "t-single", wrong, T0)
    answer(store, "t-tf", TrueFalseAnswer(True), T0 + timedelta(minutes=5))
    assert trap_question_ids(store, QUESTIONS) == ["t-tf", "t-single"]  # the latest fall first
    # Right twice on one day is one day.
    answer(store, "t-single", right, T0 + timedelta(hours=1))
    answer(store, "t-single", right, T0 + timedelta(hours=2))
    assert "t-single" in trap_question_ids(store, QUESTIONS)
    answer(store, "t-single", right, T0 + timedelta(days=1))
    assert trap_question_ids(store, QUESTIONS) == ["t-tf"]
    # Falling for it again puts it back, and the count starts again.
    answer(store, "t-single", wrong, T0 + timedelta(days=2))
    answer(store, "t-single", right, T0 + timedelta(days=3))
    assert trap_question_ids(store, QUESTIONS) == ["t-single", "t-tf"]
    answer(store, "t-single", right, T0 + timedelta(days=4, hours=1))
    assert trap_question_ids(store, QUESTIONS) == ["t-tf"]
    # Clearing leaves the tally of what was picked alone.
    assert [t.times for t in your_traps(store, QUESTIONS) if t.question_id == "t-single"] == [2]


def test_a_wrong_answer_that_is_no_known_trap_is_not_one(store: ReviewStore) -> None:
    answer(store, "t-numeric", NumericAnswerText("7"), T0)
    answer(store, "t-order", OrderingAnswer((1, 0, 2)), T0)
    # Answers from before responses were kept: wrong, but what was picked is unknown.
    plain_answer(store, QUESTIONS["t-single"], T0, right=False)
    assert your_traps(store, QUESTIONS) == []
    assert trap_question_ids(store, QUESTIONS) == []
