"""What a mock exam asks, as the forecast sees it: each question's share of the score, its
guessing floor, and the exact distribution of the number right.

`quizapp exam` (quizapp/exam/sampling.py) gives each deck a count of N questions by
`exam_weight` (largest remainder, flashcards left out) and draws that many of the deck's
questions uniformly. So a question of deck d is on the exam with probability count_d / n_d,
and its share of the expected score is count_d / (n_d · N). `ExamBlueprint` holds exactly
that, from the same `apportion` the exam uses.

The number right is random twice over: which questions are drawn, and whether each drawn one
is answered right (a Bernoulli with the question's own chance, independent of the others).
`correct_distribution` computes its distribution exactly: per deck, a dynamic programme over
the deck's questions in turn (each is drawn with probability (still to draw)/(still left),
which is a uniform draw without replacement) tracking how many were drawn and how many of
those were right; then the decks' distributions are convolved.

Guessing floors (the chance of a right answer by a blind guess):
- single choice with k options: 1/k;
- true/false: 1/2;
- multiple choice with k options (graded all-or-nothing): 1/(2^k - 1), a random non-empty set;
- ordering of n steps: 1/n!;
- numeric: 0 (a typed number is not guessed);
- flashcards: never on an exam (0).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from quizapp.bank.model import (
    ChoiceQuestion,
    Deck,
    OrderingQuestion,
    Question,
    QuestionType,
)
from quizapp.exam.sampling import DEFAULT_QUESTIONS, apportion, exam_questions
from quizapp.item_statistics import convolve


def guess_floor(question: Question) -> float:
    """The chance of answering right by a blind guess (see the module docstring)."""
    if question.type == QuestionType.TRUE_FALSE:
        return 0.5
    if isinstance(question, ChoiceQuestion) and question.choices:
        k = len(question.choices)
        if question.type == QuestionType.SINGLE_CHOICE:
            return 1 / k
        return 1 / (2**k - 1) if k < 64 else 0.0
    if isinstance(question, OrderingQuestion) and question.steps:
        return 1 / math.factorial(len(question.steps)) if len(question.steps) < 20 else 0.0
    return 0.0


@dataclass(frozen=True, slots=True)
class ExamItem:
    question_id: str
    deck_id: str
    topic: str  # the question's own (what its first attempts are counted under)
    weight: float  # share of the expected exam score; the items' weights sum to 1
    guess: float  # guessing floor


@dataclass(frozen=True)
class DeckDraw:
    deck_id: str
    topic: str  # the deck's: the forecast's topics are the decks' (the exam draws by deck)
    count: int  # questions the exam draws from this deck
    question_ids: tuple[str, ...]  # the deck's exam-eligible questions


@dataclass(frozen=True)
class ExamBlueprint:
    questions: int  # how many the exam asks (less than requested if the bank runs short)
    draws: tuple[DeckDraw, ...]
    items: tuple[ExamItem, ...]

    @property
    def topics(self) -> list[str]:
        return sorted({d.topic for d in self.draws if d.count})

    def item_map(self) -> dict[str, ExamItem]:
        return {item.question_id: item for item in self.items}


def exam_blueprint(decks: Sequence[Deck], questions: int = DEFAULT_QUESTIONS) -> ExamBlueprint:
    """The exam `quizapp exam --questions N` samples from these decks, as shares."""
    return blueprint_of(
        [
            DeckPool(
                d.id,
                d.topic,
                d.exam_weight,
                [(q.id, guess_floor(q), q.topic) for q in exam_questions(d)],
            )
            for d in decks
        ],
        questions,
    )


@dataclass(frozen=True)
class DeckPool:
    """A deck as the exam sees it: its weight and its exam-eligible questions' guessing floors."""

    deck_id: str
    topic: str
    weight: float
    questions: Sequence[tuple[str, float, str]]  # (question id, guessing floor, topic)


def blueprint_of(pools: Sequence[DeckPool], questions: int) -> ExamBlueprint:
    if questions < 1:
        raise ValueError(f"an exam needs at least one question, not {questions}")
    ordered = sorted(pools, key=lambda d: d.deck_id)  # as sample_exam takes them
    counts = apportion([d.weight for d in ordered], questions, [len(d.questions) for d in ordered])
    total = sum(counts)
    draws = []
    items = []
    for deck, count in zip(ordered, counts, strict=True):
        draws.append(DeckDraw(deck.deck_id, deck.topic, count, tuple(q[0] for q in deck.questions)))
        if not count:
            continue
        share = count / (len(deck.questions) * total)
        items.extend(
            ExamItem(qid, deck.deck_id, topic, share, guess) for qid, guess, topic in deck.questions
        )
    return ExamBlueprint(total, tuple(draws), tuple(items))


def draw_distribution(chances: Sequence[float], count: int) -> list[float]:
    """P(k right) when `count` of these questions are drawn uniformly without replacement and
    each drawn one is right with its own chance. Exact; O(len(chances) · count²)."""
    n = len(chances)
    if not 0 <= count <= n:
        raise ValueError(f"cannot draw {count} of {n} questions")
    # table[j][c]: probability of having drawn j so far, c of them right.
    table = [[0.0] * (count + 1) for _ in range(count + 1)]
    table[0][0] = 1.0
    for i, p in enumerate(chances):
        left = n - i
        for j in range(min(i, count), -1, -1):  # downwards: each question is drawn once
            row = table[j]
            if not any(row):
                continue
            take = (count - j) / left
            if take <= 0:
                continue
            nxt = table[j + 1]
            for c in range(j, -1, -1):
                mass = row[c]
                if mass:
                    nxt[c + 1] += mass * take * p
                    nxt[c] += mass * take * (1 - p)
                    row[c] = mass * (1 - take)
    return table[count]


def correct_distribution(
    blueprint: ExamBlueprint, chances: Mapping[str, float], topic: str | None = None
) -> list[float]:
    """P(k right) for k = 0..(questions asked), over the whole exam or one topic's part."""
    result = [1.0]
    for draw in blueprint.draws:
        if not draw.count or (topic is not None and draw.topic != topic):
            continue
        deck = draw_distribution([chances[q] for q in draw.question_ids], draw.count)
        result = convolve(result, deck)
    return result


@dataclass(frozen=True)
class ScoreSummary:
    """A predicted score: its mean, an 80 % interval and the chance of passing, as fractions."""

    questions: int
    mean: float
    low: float  # 10th percentile
    high: float  # 90th percentile
    pass_chance: float

    def as_json(self) -> dict[str, float | int]:
        return {
            "questions": self.questions,
            "expected_score": self.mean,
            "interval_80": [self.low, self.high],
            "pass_chance": self.pass_chance,
        }


INTERVAL_SHARE = 0.8  # the forecast's interval: scores holding about 80 % of the chance


def count_interval(
    probabilities: Sequence[float], share: float = INTERVAL_SHARE
) -> tuple[int, int]:
    """The range of whole scores (counts right) holding nearest `share` of a distribution.

    Scores are whole questions, so the 10th to 90th percentile holds at least 80 % and often
    far more: near a full score, P(16-20 of 20) is 0.96 when each answer is right with 0.9.
    An 80 % interval should hold the result about 80 % of the time (the bench checks it on
    simulated students), so the percentile range is trimmed by a score at either end or
    both, whichever of the four ranges holds nearest `share` (ties: the wider)."""
    cumulative = []
    running = 0.0
    for p in probabilities:
        running += p
        cumulative.append(running)
    total = running or 1.0
    cumulative = [c / total for c in cumulative]
    tail = (1 - share) / 2

    def quantile(q: float) -> int:
        return next((k for k, c in enumerate(cumulative) if c >= q - 1e-12), len(cumulative) - 1)

    def mass(low: int, high: int) -> float:
        return cumulative[high] - (cumulative[low - 1] if low > 0 else 0.0)

    low, high = quantile(tail), quantile(1 - tail)
    candidates = [(low, high), (low + 1, high), (low, high - 1), (low + 1, high - 1)]
    return min(
        ((a, b) for a, b in candidates if a <= b),
        key=lambda c: (round(abs(mass(*c) - share), 9), c[0] - c[1]),
    )


def summarize(distribution: Sequence[float], threshold: float) -> ScoreSummary:
    """Mean, 80 % interval (`count_interval`) and P(score >= threshold) of a count
    distribution."""
    n = len(distribution) - 1
    if n < 1:
        return ScoreSummary(0, 0.0, 0.0, 0.0, 0.0)
    total = sum(distribution)
    probs = [p / total for p in distribution]
    mean = sum(k * p for k, p in enumerate(probs)) / n
    low, high = count_interval(probs)
    # As the exam decides (quizapp/exam/session.py): right / asked >= threshold.
    needed = math.ceil(threshold * n - 1e-9)
    passing = sum(probs[needed:])
    return ScoreSummary(n, mean, low / n, high / n, min(1.0, passing))


__all__ = [
    "INTERVAL_SHARE",
    "DeckDraw",
    "DeckPool",
    "ExamBlueprint",
    "ExamItem",
    "ScoreSummary",
    "blueprint_of",
    "correct_distribution",
    "count_interval",
    "draw_distribution",
    "exam_blueprint",
    "guess_floor",
    "summarize",
]
