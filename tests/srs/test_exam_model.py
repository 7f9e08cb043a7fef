"""The exam as the forecast sees it: shares from the exam's own apportionment, guessing floors,
and the exact distribution of the number right."""

from __future__ import annotations

import itertools
import math

import pytest

from quizapp.bank import load_bank
from quizapp.exam.sampling import apportion, exam_questions, sample_exam
from quizapp.srs.readiness.exam_model import (
    DeckPool,
    blueprint_of,
    correct_distribution,
    draw_distribution,
    exam_blueprint,
    guess_floor,
    summarize,
)
from tests.conftest import CORPUS


def brute_force(chances: list[float], count: int) -> list[float]:
    """Every subset of `count` equally likely, every answer independent: enumerate it all."""
    out = [0.0] * (count + 1)
    subsets = list(itertools.combinations(range(len(chances)), count))
    for subset in subsets:
        for outcome in itertools.product((0, 1), repeat=count):
            p = 1.0
            for i, right in zip(subset, outcome, strict=True):
                p *= chances[i] if right else 1 - chances[i]
            out[sum(outcome)] += p / len(subsets)
    return out


@pytest.mark.parametrize(
    ("chances", "count"),
    [
        ([0.9, 0.2, 0.5, 0.7, 0.33], 3),
        ([0.9, 0.2, 0.5, 0.7, 0.33], 5),
        ([0.1, 0.95, 0.6, 0.6, 0.0, 1.0, 0.42], 4),
        ([0.5], 1),
        ([0.3, 0.8], 0),
    ],
)
def test_the_draw_distribution_is_exact(chances: list[float], count: int) -> None:
    assert draw_distribution(chances, count) == pytest.approx(brute_force(chances, count))


def test_decks_are_convolved() -> None:
    pools = [
        DeckPool("a", "ta", 0.5, [("a1", 0.0, "ta"), ("a2", 0.0, "ta")]),
        DeckPool("b", "tb", 0.5, [("b1", 0.0, "tb"), ("b2", 0.0, "tb"), ("b3", 0.0, "tb")]),
    ]
    blueprint = blueprint_of(pools, 2)  # one from each deck
    chances = {"a1": 1.0, "a2": 0.0, "b1": 0.5, "b2": 0.5, "b3": 0.5}
    # a: right half the time; b: right half the time, independently.
    assert correct_distribution(blueprint, chances) == pytest.approx([0.25, 0.5, 0.25])
    assert correct_distribution(blueprint, chances, topic="ta") == pytest.approx([0.5, 0.5])


def test_shares_follow_the_exams_own_apportionment() -> None:
    bank = load_bank([CORPUS / "good"])
    blueprint = exam_blueprint(bank.decks, 5)
    decks = sorted(bank.decks, key=lambda d: d.id)
    pools = [exam_questions(d) for d in decks]
    counts = apportion([d.exam_weight for d in decks], 5, [len(p) for p in pools])
    assert [d.count for d in blueprint.draws] == counts
    assert math.fsum(i.weight for i in blueprint.items) == pytest.approx(1.0)
    flashcards = {q.id for d in decks for q in d.questions if q.type == "flashcard"}
    assert flashcards and not flashcards & {i.question_id for i in blueprint.items}
    # Each question's share is its chance of being drawn over the exam's length, and a large
    # number of sampled exams agree.
    drawn = dict.fromkeys((i.question_id for i in blueprint.items), 0)
    for seed in range(2000):
        for q in sample_exam(bank.decks, 5, seed=seed).questions:
            drawn[q.id] += 1
    for item in blueprint.items:
        assert drawn[item.question_id] / 2000 / 5 == pytest.approx(item.weight, abs=0.02)


def test_guessing_floors() -> None:
    questions = load_bank([CORPUS / "good"]).questions
    assert guess_floor(questions["t-single"]) == 1 / 2  # two options
    assert guess_floor(questions["t-tf"]) == 1 / 2
    k = len(questions["t-multi"].choices)  # type: ignore[attr-defined]
    assert guess_floor(questions["t-multi"]) == 1 / (2**k - 1)
    steps = len(questions["t-order"].steps)  # type: ignore[attr-defined]
    assert guess_floor(questions["t-order"]) == 1 / math.factorial(steps)
    assert guess_floor(questions["t-numeric"]) == 0.0


def test_the_pass_chance_counts_as_the_exam_does() -> None:
    # 10 questions at 70 %: 7 right passes.
    distribution = [0.0] * 11
    distribution[6] = 0.5
    distribution[7] = 0.5
    summary = summarize(distribution, 0.7)
    assert summary.pass_chance == pytest.approx(0.5)
    assert summary.mean == pytest.approx(0.65)
    assert (summary.low, summary.high) == (0.6, 0.7)
