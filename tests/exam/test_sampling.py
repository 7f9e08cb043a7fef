"""Exam sampling: largest-remainder shares by deck weight, caps, flashcards out, seeds repeat."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quizapp.bank import bundled_bank_path, load_bank
from quizapp.bank.model import (
    Choice,
    ChoiceQuestion,
    Deck,
    Difficulty,
    Flashcard,
    Location,
    OrderingQuestion,
    QuestionType,
    Step,
)
from quizapp.exam.sampling import apportion, exam_questions, sample_exam

HERE = Location("test.yaml", 1, 1)


def choice(qid: str, deck_id: str, topic: str) -> ChoiceQuestion:
    return ChoiceQuestion(
        id=qid,
        type=QuestionType.SINGLE_CHOICE,
        prompt=f"{qid}?",
        explanation="Because.",
        topic=topic,
        tags=(),
        difficulty=Difficulty.EASY,
        deck_id=deck_id,
        location=HERE,
        choices=(
            Choice("right", True, None),
            Choice("wrong", False, None),
            Choice("no", False, None),
        ),
    )


def card(qid: str, deck_id: str, topic: str) -> Flashcard:
    return Flashcard(
        id=qid,
        type=QuestionType.FLASHCARD,
        prompt="Front",
        explanation="More.",
        topic=topic,
        tags=(),
        difficulty=Difficulty.EASY,
        deck_id=deck_id,
        location=HERE,
        back="Back",
    )


def deck(deck_id: str, weight: float, size: int, cards: int = 0) -> Deck:
    questions = [choice(f"{deck_id}-{i}", deck_id, deck_id) for i in range(size)]
    questions += [card(f"{deck_id}-card-{i}", deck_id, deck_id) for i in range(cards)]
    return Deck(
        id=deck_id,
        title=deck_id.title(),
        topic=deck_id,
        domain="d",
        exam_weight=weight,
        path=f"{deck_id}.yaml",
        questions=tuple(questions),
    )


# -- apportionment -------------------------------------------------------------------------------


def test_weights_half_three_tenths_fifth_over_ten_give_5_3_2() -> None:
    assert apportion([0.5, 0.3, 0.2], 10, [100, 100, 100]) == [5, 3, 2]


def test_largest_remainders_get_the_seats_left() -> None:
    # Quotas 7.0, 6.0, 7.0 for the bundled weights; 3.5, 3.0, 3.5 over 10 → 4, 3, 3.
    assert apportion([0.35, 0.30, 0.35], 20, [50, 50, 50]) == [7, 6, 7]
    assert apportion([0.35, 0.30, 0.35], 10, [50, 50, 50]) == [4, 3, 3]
    # Quotas 4.2, 2.8, 2.1, 0.9 over 10: floors 4, 2, 2, 0 and two seats to .9 and .8.
    assert apportion([0.42, 0.28, 0.21, 0.09], 10, [50] * 4) == [4, 3, 2, 1]


def test_weights_are_relative() -> None:
    assert apportion([5, 3, 2], 10, [100] * 3) == apportion([0.5, 0.3, 0.2], 10, [100] * 3)
    assert apportion([1, 1], 4, [10, 10]) == [2, 2]


def test_ties_go_to_the_larger_weight_then_the_earlier_item() -> None:
    assert apportion([1, 1, 1], 10, [10, 10, 10]) == [4, 3, 3]
    assert apportion([1, 1, 1], 11, [10, 10, 10]) == [4, 4, 3]


def test_a_capped_item_gives_all_it_has_and_the_rest_is_shared_out() -> None:
    # The first deck has 1 question for a share of 5: the 4 missing go 3/5 : 2/5.
    assert apportion([0.5, 0.3, 0.2], 10, [1, 100, 100]) == [1, 5, 4]
    # A redistribution that caps a second item in turn.
    assert apportion([0.5, 0.3, 0.2], 10, [1, 2, 100]) == [1, 2, 7]
    # Not enough in the whole bank: everything is asked.
    assert apportion([0.5, 0.3, 0.2], 10, [1, 2, 3]) == [1, 2, 3]


def test_empty_and_zero_cases() -> None:
    assert apportion([], 5, []) == []
    assert apportion([0.5, 0.5], 0, [3, 3]) == [0, 0]
    assert apportion([0.0, 1.0], 4, [9, 9]) == [0, 4]  # a zero weight gets nothing
    assert apportion([1.0, 1.0], 4, [0, 9]) == [0, 4]


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError):
        apportion([1.0], 3, [1, 2])
    with pytest.raises(ValueError):
        apportion([1.0], -1, [1])
    with pytest.raises(ValueError):
        apportion([-1.0], 1, [1])
    with pytest.raises(ValueError):
        apportion([float("nan")], 1, [1])


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.floats(min_value=0.001, max_value=1000, allow_nan=False),
            st.integers(min_value=0, max_value=40),
        ),
        min_size=1,
        max_size=8,
    ),
    st.integers(min_value=0, max_value=200),
)
def test_counts_sum_to_n_and_never_exceed_what_each_has(items, total) -> None:
    weights = [w for w, _ in items]
    caps = [c for _, c in items]
    counts = apportion(weights, total, caps)
    assert sum(counts) == min(total, sum(caps))
    assert all(0 <= count <= cap for count, cap in zip(counts, caps, strict=True))
    # Deterministic, and an uncapped item never gets less than the floor of its quota.
    assert apportion(weights, total, caps) == counts
    if sum(caps) >= total and all(c >= total for c in caps):
        weight_sum = sum(weights)
        for weight, count in zip(weights, counts, strict=True):
            quota = total * weight / weight_sum
            assert quota - 1 - 1e-9 <= count <= quota + 1 + 1e-9


# -- sampling an exam ----------------------------------------------------------------------------


def three_decks() -> list[Deck]:
    return [deck("alpha", 0.5, 12, cards=2), deck("beta", 0.3, 12), deck("gamma", 0.2, 12, cards=1)]


def test_an_exam_takes_each_decks_share_and_leaves_flashcards_out() -> None:
    plan = sample_exam(three_decks(), 10, seed=1)
    by_deck = Counter(q.deck_id for q in plan.questions)
    assert by_deck == {"alpha": 5, "beta": 3, "gamma": 2}
    assert not any(isinstance(q, Flashcard) for q in plan.questions)
    assert plan.excluded_flashcards == 3
    assert len({q.id for q in plan.questions}) == 10
    assert {s.deck_id: s.count for s in plan.shares} == {"alpha": 5, "beta": 3, "gamma": 2}
    assert plan.shortfall == 0 and plan.seed == 1


def test_the_same_seed_gives_the_same_exam_whatever_the_deck_order() -> None:
    decks = three_decks()
    a = sample_exam(decks, 10, seed=42)
    b = sample_exam(list(reversed(decks)), 10, seed=42)
    assert [q.id for q in a.questions] == [q.id for q in b.questions]
    assert a.display_orders == b.display_orders
    others = {tuple(q.id for q in sample_exam(decks, 10, seed=s).questions) for s in range(8)}
    assert len(others) > 1  # the seed does change the exam


def test_no_seed_picks_one_and_keeps_it() -> None:
    plan = sample_exam(three_decks(), 6)
    again = sample_exam(three_decks(), 6, seed=plan.seed)
    assert [q.id for q in plan.questions] == [q.id for q in again.questions]


def test_a_small_bank_gives_everything_it_has() -> None:
    plan = sample_exam([deck("alpha", 0.5, 2, cards=4), deck("beta", 0.5, 3)], 10, seed=0)
    assert len(plan.questions) == 5
    assert plan.shortfall == 5


def test_a_short_deck_gives_its_shortfall_to_the_others() -> None:
    plan = sample_exam(
        [deck("alpha", 0.5, 1), deck("beta", 0.3, 20), deck("gamma", 0.2, 20)], 10, seed=3
    )
    assert Counter(q.deck_id for q in plan.questions) == {"alpha": 1, "beta": 5, "gamma": 4}


def test_display_orders_scramble_orderings_and_cover_every_question() -> None:
    steps = tuple(Step(f"s{i}") for i in range(4))
    ordering = OrderingQuestion(
        id="o",
        type=QuestionType.ORDERING,
        prompt="Order",
        explanation="E",
        topic="t",
        tags=(),
        difficulty=Difficulty.EASY,
        deck_id="d",
        location=HERE,
        steps=steps,
    )
    d = Deck(
        id="d", title="D", topic="t", domain="x", exam_weight=1, path="d", questions=(ordering,)
    )
    for seed in range(10):
        plan = sample_exam([d], 1, seed=seed)
        assert plan.display_orders["o"] != (0, 1, 2, 3)
        assert sorted(plan.display_orders["o"]) == [0, 1, 2, 3]


def test_at_least_one_question_is_needed() -> None:
    with pytest.raises(ValueError, match="at least one"):
        sample_exam(three_decks(), 0)


def test_the_bundled_bank_samples_by_its_weights() -> None:
    bank = load_bank([bundled_bank_path()])
    plan = sample_exam(bank.decks, 20, seed=2024)
    counts = Counter(q.deck_id for q in plan.questions)
    weights = {d.id: d.exam_weight for d in bank.decks}
    expected = apportion(
        [weights[k] for k in sorted(weights)],
        20,
        [len(exam_questions(d)) for d in sorted(bank.decks, key=lambda d: d.id)],
    )
    assert [counts[k] for k in sorted(weights)] == expected
    assert sum(counts.values()) == 20
