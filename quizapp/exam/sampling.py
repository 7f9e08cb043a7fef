"""Which questions a mock exam asks: a share of N per deck by `exam_weight`, then a seeded draw.

Pure Python: no textual, no torch. The same bank, N and seed always give the same exam.

The shares are a largest-remainder (Hamilton) apportionment, in exact decimal arithmetic so
that weights of 0.5/0.3/0.2 over 10 questions give exactly 5/3/2. A deck that has fewer
questions than its share gives all it has, and the shortfall is shared out among the others
by the same rule.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from quizapp.bank.model import Deck, Flashcard, Question

DEFAULT_QUESTIONS = 20
MINUTES_PER_QUESTION = 1.5  # the default time allowed, when no --minutes is given


def _exact(weight: float) -> Fraction:
    # repr() is the shortest decimal that round-trips: the number the author wrote.
    return Fraction(repr(float(weight)))


def apportion(weights: Sequence[float], total: int, caps: Sequence[int]) -> list[int]:
    """Share `total` among items in proportion to `weights`, none getting more than its cap.

    Largest remainder: each item gets the floor of its exact quota, and the seats left go to
    the largest fractional parts (ties: the larger weight, then the earlier item). An item
    whose quota reaches its cap gets its cap and leaves the count; what it could not take is
    apportioned among the rest by the same rule. Items with weight or cap 0 get nothing.
    The counts sum to min(total, sum of the caps of items with a positive weight).
    """
    if len(weights) != len(caps):
        raise ValueError("one cap per weight")
    if total < 0:
        raise ValueError("the total must not be negative")
    if any(c < 0 for c in caps):
        raise ValueError("caps must not be negative")
    if any(not math.isfinite(w) or w < 0 for w in weights):
        raise ValueError("weights must be finite and not negative")
    exact = [_exact(w) for w in weights]
    counts = [0] * len(weights)
    active = [i for i in range(len(weights)) if exact[i] > 0 and caps[i] > 0]
    remaining = min(total, sum(caps[i] for i in active))
    while remaining > 0 and active:
        weight_sum = sum(exact[i] for i in active)
        quotas = {i: remaining * exact[i] / weight_sum for i in active}
        capped = [i for i in active if quotas[i] >= caps[i] - counts[i]]
        if capped:
            for i in capped:
                remaining -= caps[i] - counts[i]
                counts[i] = caps[i]
            active = [i for i in active if i not in capped]
            continue
        # No cap binds: floor + largest remainders. Each quota is below its headroom, so
        # floor(quota) + 1 never exceeds the cap.
        floors = {i: math.floor(quotas[i]) for i in active}
        for i in active:
            counts[i] += floors[i]
        left = remaining - sum(floors.values())
        by_remainder = sorted(active, key=lambda i: (-(quotas[i] - floors[i]), -exact[i], i))
        for i in by_remainder[:left]:
            counts[i] += 1
        remaining = 0
    return counts


def exam_questions(deck: Deck) -> list[Question]:
    """The questions of a deck an exam may ask: all but flashcards, which are self-graded."""
    return [q for q in deck.questions if not isinstance(q, Flashcard)]


@dataclass(frozen=True)
class DeckShare:
    deck_id: str
    title: str
    topic: str
    weight: float
    available: int  # exam-eligible questions in the deck (flashcards left out)
    count: int  # how many the exam asks


@dataclass(frozen=True)
class ExamPlan:
    questions: tuple[Question, ...]  # in the order the exam asks them
    seed: int
    requested: int
    shares: tuple[DeckShare, ...] = ()
    excluded_flashcards: int = 0  # flashcards in the chosen decks, left out of every exam
    display_orders: dict[str, tuple[int, ...]] = field(default_factory=dict)

    @property
    def shortfall(self) -> int:
        """How many fewer questions than asked for: the bank had no more to give."""
        return max(0, self.requested - len(self.questions))


def new_seed() -> int:
    """A fresh seed, recorded with the exam so it can be taken again."""
    return random.SystemRandom().randrange(1, 2**31)


def sample_exam(decks: Sequence[Deck], questions: int, seed: int | None = None) -> ExamPlan:
    """Apportion `questions` among the decks by exam_weight, then draw each deck's share.

    Decks are taken in id order (so the load order of the files does not matter); each
    deck's draw and the final shuffle use one random.Random(seed). Options and ordering
    steps are scrambled per card from a session seed drawn from it (as a quiz session does),
    always: no option turns that off for an exam.
    """
    if questions < 1:
        raise ValueError(f"an exam needs at least one question, not {questions}")
    if seed is None:
        seed = new_seed()
    ordered = sorted(decks, key=lambda d: d.id)
    pools = [exam_questions(d) for d in ordered]
    counts = apportion([d.exam_weight for d in ordered], questions, [len(p) for p in pools])
    rng = random.Random(seed)
    chosen: list[Question] = []
    for pool, count in zip(pools, counts, strict=True):
        chosen.extend(rng.sample(pool, count))
    # Mixed topics, and each question's options and steps scrambled: QuizSession already
    # knows how (an ordering question is never shown solved), so reuse it.
    from quizapp.bank.session import QuizSession, SessionOptions

    session = QuizSession.start(chosen, SessionOptions(shuffle=True, seed=rng.randrange(2**63)))
    shares = tuple(
        DeckShare(d.id, d.title, d.topic, d.exam_weight, len(pool), count)
        for d, pool, count in zip(ordered, pools, counts, strict=True)
    )
    excluded = sum(1 for d in ordered for q in d.questions if isinstance(q, Flashcard))
    return ExamPlan(
        questions=tuple(session.questions),
        seed=seed,
        requested=questions,
        shares=shares,
        excluded_flashcards=excluded,
        display_orders=dict(session.display_orders),
    )


__all__ = [
    "DEFAULT_QUESTIONS",
    "MINUTES_PER_QUESTION",
    "DeckShare",
    "ExamPlan",
    "apportion",
    "exam_questions",
    "new_seed",
    "sample_exam",
]
