"""Issue 18's bar for the shipped bank, in file order: a student who knows nothing scores no
better than chance by position or by length, "tick all" wins at most one question, and every
deck is at least a third scenarios. The app shuffles options too; these hold for exports and
`--no-shuffle` previews, which show the file's order."""

from __future__ import annotations

from collections import Counter

import pytest

from quizapp.bank import QuestionType, TrueFalseQuestion, bundled_bank_path, load_bank

MARGIN = 0.10  # the "chance + 10 points"


@pytest.fixture(scope="module")
def bank():
    return load_bank([bundled_bank_path()])


def _choice(bank, kind: QuestionType):
    return [q for q in bank.questions.values() if q.type is kind]


def test_single_choice_keys_are_spread_over_the_positions(bank) -> None:
    singles = _choice(bank, QuestionType.SINGLE_CHOICE)
    assert len(singles) >= 20
    widest = max(len(q.choices) for q in singles)
    at = Counter(next(iter(q.correct_indices)) for q in singles)
    # Shares of all single-choice keys: a fifth option that one question has is judged
    # against the whole histogram, not as 1 of 1.
    for position in range(widest):
        chance = sum(1 / len(q.choices) for q in singles if len(q.choices) > position)
        assert at[position] <= chance + MARGIN * len(singles), (position, at, chance)


def test_multiple_choice_keys_are_not_the_first_options(bank) -> None:
    multis = _choice(bank, QuestionType.MULTIPLE_CHOICE)
    widest = max(len(q.choices) for q in multis)
    for position in range(widest):
        offered = [q for q in multis if len(q.choices) > position]
        keyed = sum(position in q.correct_indices for q in offered)
        chance = sum(len(q.correct_indices) / len(q.choices) for q in offered)
        assert keyed <= chance + MARGIN * len(multis), (position, keyed, chance)


def test_the_key_is_no_more_often_longest_or_shortest_than_chance_allows(bank) -> None:
    singles = _choice(bank, QuestionType.SINGLE_CHOICE)
    longest = shortest = 0
    for q in singles:
        lengths = [len(c.text) for c in q.choices]
        (key,) = q.correct_indices
        others = lengths[:key] + lengths[key + 1 :]
        longest += lengths[key] > max(others)
        shortest += lengths[key] < min(others)
    chance = sum(1 / len(q.choices) for q in singles)
    bound = chance + MARGIN * len(singles)
    assert longest <= bound, (longest, chance)
    assert shortest <= bound, (shortest, chance)


def test_tick_all_wins_at_most_one_question(bank) -> None:
    multis = _choice(bank, QuestionType.MULTIPLE_CHOICE)
    every_option = [q.id for q in multis if len(q.correct_indices) == len(q.choices)]
    assert len(every_option) <= 1, every_option


def test_true_and_false_are_balanced(bank) -> None:
    answers = Counter(q.answer for q in bank.questions.values() if isinstance(q, TrueFalseQuestion))
    assert abs(answers[True] - answers[False]) <= 1, answers


def test_every_deck_is_at_least_a_third_scenarios(bank) -> None:
    for deck in bank.decks:
        scenarios = sum("scenario" in q.tags for q in deck.questions)
        assert 3 * scenarios >= len(deck.questions), (deck.id, scenarios, len(deck.questions))


def test_the_bank_keeps_its_size(bank) -> None:
    assert len(bank.questions) >= 115
