"""The item statistics against examples worked out by hand (figures in the comments)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from quizapp.classroom.item_analysis import (
    Flag,
    ResponseShare,
    analyse_items,
    chosen_options,
    discrimination,
    facility,
    first_attempts,
    flagged_first,
    groups,
    item_flags,
    student_scores,
)
from tests.classroom.helpers import answer, flashcard, multiple, numeric, single, true_false


def test_facility_is_the_share_right_and_none_without_answers():
    assert facility([True, True, False, False, True]) == pytest.approx(0.6)
    assert facility([]) is None


def test_the_first_attempt_is_the_earliest_whatever_order_the_rows_come_in():
    q = single("q")
    later_right = answer("ann", q, True, minutes=10)
    earlier_wrong = answer("ann", q, False, minutes=1)
    firsts = first_attempts([later_right, earlier_wrong])
    assert firsts[("ann", "q")] is earlier_wrong
    assert student_scores(firsts.values()) == {"ann": 0.0}


def test_groups_hold_27_percent_and_the_student_at_the_edge_counts_in_part():
    # Ten students, scores 0.9 … 0.0: each group holds 2.7 students' weight.
    scores = {f"s{i}": (9 - i) / 10 for i in range(10)}
    split = groups(scores)
    assert split.size == pytest.approx(2.7)
    assert split.upper == pytest.approx({"s0": 1.0, "s1": 1.0, "s2": 0.7})
    assert split.lower == pytest.approx({"s9": 1.0, "s8": 1.0, "s7": 0.7})
    # Upper: s0, s1 right, s2 wrong -> 2 / 2.7. Lower: s7 right only -> 0.7 / 2.7.
    correct = {f"s{i}": i in (0, 1, 7, 4) for i in range(10)}
    index = discrimination(correct, scores, min_group=2)
    assert index == pytest.approx(2 / 2.7 - 0.7 / 2.7)  # 0.4815


def test_students_tied_at_the_edge_share_what_is_left_of_the_group_in_any_order():
    # a 1.0, b 0.8, then c, d, e tied at 0.6 across the upper edge (0.7 left: 0.2333 each);
    # the four lowest tied at 0.2 share the lower group's 2.7 (0.675 each).
    scores = {"a": 1.0, "b": 0.8, "c": 0.6, "d": 0.6, "e": 0.6, "f": 0.4}
    scores |= {s: 0.2 for s in "ghij"}
    correct = {"a": True, "b": False, "c": True, "d": False, "e": False, "f": True}
    correct |= {"g": True, "h": False, "i": False, "j": False}
    split = groups(scores)
    assert split.upper == pytest.approx({"a": 1, "b": 1, "c": 0.7 / 3, "d": 0.7 / 3, "e": 0.7 / 3})
    assert split.lower == pytest.approx({s: 0.675 for s in "ghij"})
    # upper (1 + 0.2333) / 2.7 = 0.4568; lower 0.675 / 2.7 = 0.25
    expected = (1 + 0.7 / 3) / 2.7 - 0.25
    assert discrimination(correct, scores, min_group=2) == pytest.approx(expected)
    shuffled = list(correct.items())
    random.Random(7).shuffle(shuffled)
    reordered_scores = dict(reversed(list(scores.items())))
    assert discrimination(dict(shuffled), reordered_scores, min_group=2) == pytest.approx(expected)


def test_a_class_tied_throughout_does_not_discriminate():
    scores = {f"s{i}": 0.5 for i in range(20)}
    correct = {f"s{i}": i % 2 == 0 for i in range(20)}
    assert discrimination(correct, scores) == pytest.approx(0.0)


def test_tiny_groups_are_not_reported():
    # 27 % of 18 is 4.86 students, under the minimum of 5; of 19 it is 5.13.
    scores = {f"s{i}": i / 20 for i in range(19)}
    correct = {s: score >= 0.5 for s, score in scores.items()}
    assert discrimination(correct, scores) == pytest.approx(1.0)
    del correct["s0"]
    assert discrimination(correct, scores) is None
    assert discrimination({"only": True}, {"only": 1.0}) is None
    assert discrimination({}, {}) is None


def _small_class():
    """Four students, three questions: scores A 1, B 2/3, C 1/3, D 0."""
    q1, q2, q3 = single("q1"), true_false("q2"), numeric("q3", traps=(64.0, 2.0))
    answers = [
        answer("A", q1, True, {"chosen": [0]}),
        answer("B", q1, True, {"chosen": [0]}),
        answer("C", q1, False, {"chosen": [1]}),
        answer("D", q1, False, {"chosen": [1]}),
        answer("A", q2, True, {"chosen": True}),
        answer("B", q2, True, {"chosen": True}),
        answer("C", q2, True, {"chosen": True}),
        answer("D", q2, False, {"chosen": False}),
        answer("A", q3, True, {"value": 8.0, "text": "8", "trap": None}),
        answer("B", q3, False, {"value": 64.0, "text": "64", "trap": 0}),
        answer("C", q3, False, {"value": 64.0, "text": "64", "trap": 0}),
        answer("D", q3, False, {"value": 3.0, "text": "3", "trap": None}),
    ]
    return {q.id: q for q in (q1, q2, q3)}, answers


def test_a_small_class_worked_by_hand():
    questions, answers = _small_class()
    items, scores = analyse_items(answers, questions, min_group=1)
    assert scores == pytest.approx({"A": 1.0, "B": 2 / 3, "C": 1 / 3, "D": 0.0})
    by_id = {item.question_id: item for item in items}
    # Groups of 1.08: upper A (1) and B (0.08), lower D (1) and C (0.08).
    q1, q2, q3 = by_id["q1"], by_id["q2"], by_id["q3"]
    assert (q1.students, q1.right, q1.facility) == (4, 2, 0.5)
    assert q1.discrimination == pytest.approx(1.0)
    assert q2.facility == 0.75
    assert q2.discrimination == pytest.approx(1 - 0.08 / 1.08)
    assert q3.facility == 0.25
    assert q3.discrimination == pytest.approx(1 / 1.08)

    assert [s.share for s in q1.shares] == [0.5, 0.5, 0.0, 0.0]
    assert [s.key for s in q1.shares] == [True, False, False, False]
    assert q1.shares[0].upper_share == pytest.approx(1.0)
    assert q1.shares[1].upper_share == pytest.approx(0.0)
    assert [(s.label, s.share) for s in q2.shares] == [("True", 0.75), ("False", 0.25)]
    # Numeric: the key, then each trap; D's 3 is neither.
    assert [(s.label, s.key, s.share) for s in q3.shares] == [
        ("the key", True, 0.25),
        ("64", False, 0.5),
        ("2", False, 0.0),
    ]
    assert q3.shares[1].upper_share == pytest.approx(0.08 / 1.08)
    assert all(item.responded == 4 for item in items)
    assert all(item.flags == () for item in items)  # four responses: too few for "rare key"


def test_without_enough_students_the_index_and_the_upper_shares_are_left_out():
    questions, answers = _small_class()
    items, _ = analyse_items(answers, questions)  # the default minimum group, 5
    assert all(item.discrimination is None for item in items)
    assert all(s.upper_share is None for item in items for s in item.shares)
    assert items[0].facility == 0.5  # the rest is still reported


def test_a_question_the_weaker_students_get_right_has_negative_discrimination():
    questions, answers = _small_class()
    odd = single("odd")
    questions["odd"] = odd
    # Only the two weakest get it right: scores become A 3/4, B 2/4, C 2/4, D 1/4.
    answers += [answer(s, odd, s in "CD", {"chosen": [0 if s in "CD" else 2]}) for s in "ABCD"]
    items, _ = analyse_items(answers, questions, min_group=1)
    item = next(i for i in items if i.question_id == "odd")
    # upper: A (1) and B, C tied (0.04 each) -> 0.04 / 1.08; lower D (1) and B, C (0.04
    # each) -> 1.04 / 1.08.
    assert item.discrimination == pytest.approx(0.04 / 1.08 - 1.04 / 1.08)
    assert Flag.NEGATIVE_DISCRIMINATION in item.flags
    assert Flag.DISTRACTOR_BEATS_KEY in item.flags  # the upper group chose option 2


def test_flags_at_their_lines():
    key = ResponseShare("k", True, 0.5, 0.6)
    weak = ResponseShare("w", False, 0.5, 0.4)
    assert item_flags(-0.01, [key, weak], 10) == (Flag.NEGATIVE_DISCRIMINATION,)
    assert item_flags(0.0, [key, weak], 10) == (Flag.NEAR_ZERO_DISCRIMINATION,)
    assert item_flags(0.149, [key, weak], 10) == (Flag.NEAR_ZERO_DISCRIMINATION,)
    assert item_flags(0.15, [key, weak], 10) == ()
    assert item_flags(None, [key, weak], 10) == ()
    pulling = ResponseShare("p", False, 0.3, 0.61)
    assert item_flags(0.5, [key, pulling], 10) == (Flag.DISTRACTOR_BEATS_KEY,)
    rare = ResponseShare("k", True, 0.09, None)
    assert item_flags(None, [rare, weak], 5) == (Flag.RARE_KEY,)
    assert item_flags(None, [rare, weak], 4) == ()  # too few responses to say
    assert item_flags(None, [ResponseShare("k", True, 0.1, None)], 5) == ()


def test_multiple_choice_shares_count_every_option_chosen_and_the_rarest_key_flags():
    q = multiple("m", keys=(0, 3))
    students = [f"s{i}" for i in range(10)]
    # Everyone picks option 0; only s0 also picks option 3; half pick option 1.
    answers = [
        answer(s, q, i == 0, {"chosen": [0] + ([3] if i == 0 else []) + ([1] if i % 2 else [])})
        for i, s in enumerate(students)
    ]
    (item,), _ = analyse_items(answers, {"m": q})
    assert [s.share for s in item.shares] == [1.0, 0.5, 0.0, 0.1]
    assert Flag.RARE_KEY not in item.flags  # 10 % is not under 10 %
    answers[0] = answer("s0", q, False, {"chosen": [0]})
    (item,), _ = analyse_items(answers, {"m": q})
    assert item.shares[3].share == 0.0
    assert Flag.RARE_KEY in item.flags


def test_unusable_responses_count_as_not_recorded():
    q = single("q", options=3)
    assert chosen_options(q, {"chosen": [7, "1", True, -1]}) == frozenset()
    assert chosen_options(q, {"chosen": "0"}) == frozenset()
    assert chosen_options(q, None) == frozenset()
    assert chosen_options(true_false("t"), {"chosen": "yes"}) == frozenset()
    assert chosen_options(numeric("n", traps=(1.0,)), {"value": 1.0, "trap": 5}) == frozenset()
    answers = [
        answer("a", q, True, {"chosen": [0]}),
        answer("b", q, False, {"chosen": [9]}),
        answer("c", q, False, None),
    ]
    (item,), _ = analyse_items(answers, {"q": q})
    assert (item.students, item.responded) == (3, 1)
    assert [s.share for s in item.shares] == [1.0, 0.0, 0.0]


def test_flashcards_and_questions_not_in_the_bank_are_left_out():
    card, q = flashcard("card"), single("q")
    answers = [answer("a", card, True), answer("a", q, False), answer("a", single("gone"), True)]
    items, scores = analyse_items(answers, {"card": card, "q": q})
    assert [i.question_id for i in items] == ["q"]
    assert scores == {"a": 0.0}  # the flashcard and the removed question do not count


def test_flagged_items_come_first_in_their_own_order():
    questions, answers = _small_class()
    items, _ = analyse_items(answers, questions, min_group=1)
    flagged = [
        replace(items[1], flags=(Flag.RARE_KEY,)),
        replace(items[2], flags=(Flag.RARE_KEY, Flag.NEAR_ZERO_DISCRIMINATION)),
    ]
    ordered = flagged_first([items[0], *flagged])
    assert [i.question_id for i in ordered] == ["q3", "q2", "q1"]
