"""A class's review histories for the store benchmark (bench/bench_store.py), made up but shaped
like the real thing, and reproducible: the same seed gives the same rows, and each student's
rows come from their own seeded generator, so one student is made without the other 299.

The default shape is issue 13's: 300 students, 100,000 cards and 1,000,000 reviews between
them (exactly), from a bank of 480 questions in 10 decks (bench_drill's ids). Students differ (some have studied
more than others: ~333 cards and ~3.3k reviews on average, within +-20 %); a card has 1 to a
few dozen reviews. Card states are real py-fsrs cards (learning, review, relearning); about
one card in ten is due now, learning cards come due within hours, the rest over the next
months; a few cards were first reviewed today; about 1 % are suspended and 1 % buried.

Rows are tuples in the column order of the SQLite tables (quizapp/srs/store/schema.py), without the
`student` column PostgreSQL adds (bench_store.py puts it in front).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

DAY_MS = 86_400_000
HOUR_MS = 3_600_000
KINDS = ("drill",) * 7 + ("quiz",) * 2 + ("exam",)
RATINGS = (1, 2, 3, 3, 3, 3, 3, 4)  # mostly Good; Again on one answer in eight
# Weights over bench_drill.card_templates: learning, review, review, relearning, review.
STATE_WEIGHTS = (6, 30, 30, 10, 24)
DUE_NOW_SHARE = 0.10
SPREAD = 0.2  # a student's cards and reviews lie within +-20 % of the class mean


@dataclass(frozen=True)
class Shape:
    students: int = 300
    cards: int = 100_000
    reviews: int = 1_000_000
    questions: int = 480
    decks: int = 10
    seed: int = 20261201

    def __post_init__(self) -> None:
        if self.cards > self.students * self.questions:
            raise ValueError("more cards than students x questions")
        if not self.students <= self.cards <= self.reviews:
            raise ValueError("each student needs a card, and each card a review")


@dataclass
class StudentHistory:
    student: str
    # (question id, card JSON, state, due ms, first review ms, last review ms)
    cards: list[tuple[str, str, int, int, int, int]] = field(default_factory=list)
    # (question id, deck, topic, kind, reviewed ms, rating, correct, duration ms, state before,
    # card before as JSON), oldest first
    reviews: list[tuple[str, str, str, str, int, int, bool, int, int | None, str | None]] = field(
        default_factory=list
    )
    # (question id, suspended, buried until ms)
    flags: list[tuple[str, bool, int | None]] = field(default_factory=list)


def student_name(index: int) -> str:
    return f"student{index:03d}"


def question_id(index: int, decks: int) -> str:
    return f"deck{index % decks}-q{index}"


def question_ids(shape: Shape) -> list[str]:
    return [question_id(i, shape.decks) for i in range(shape.questions)]


def allocate(total: int, weights: Sequence[float], floor: int = 0) -> list[int]:
    """Split `total` into len(weights) whole parts in proportion to the weights, each at least
    `floor`, summing to `total` exactly (largest remainders get the leftovers)."""
    spare = total - floor * len(weights)
    if spare < 0:
        raise ValueError(f"{total} cannot give {len(weights)} parts {floor} each")
    scale = spare / sum(weights)
    exact = [w * scale for w in weights]
    parts = [int(x) for x in exact]
    by_remainder = sorted(range(len(weights)), key=lambda i: exact[i] - parts[i], reverse=True)
    for i in by_remainder[: spare - sum(parts)]:
        parts[i] += 1
    return [floor + p for p in parts]


def class_sizes(shape: Shape) -> list[tuple[int, int]]:
    """(cards, reviews) of each student: exactly the shape's totals between them."""
    rng = random.Random(shape.seed)
    weights = [1 + rng.uniform(-SPREAD, SPREAD) for _ in range(shape.students)]
    cards = allocate(shape.cards, weights, floor=1)
    while max(cards) > shape.questions:  # a tiny bank: no student can hold more than all of it
        over = max(range(shape.students), key=cards.__getitem__)
        under = min(range(shape.students), key=cards.__getitem__)
        cards[over] -= 1
        cards[under] += 1
    # More cards, more reviews; each card's first answer is one of them.
    reviews = allocate(
        shape.reviews - shape.cards, [c * w for c, w in zip(cards, weights, strict=True)]
    )
    return [(c, c + r) for c, r in zip(cards, reviews, strict=True)]


def student_history(
    shape: Shape,
    index: int,
    now: datetime,
    templates: Sequence[dict[str, object]],
    sizes: Sequence[tuple[int, int]] | None = None,
) -> StudentHistory:
    """One student's cards, reviews and flags, from their own seeded generator."""
    n_cards, n_reviews = (sizes or class_sizes(shape))[index]
    rng = random.Random(f"{shape.seed}/{index}")
    now_ms = int(now.astimezone(UTC).timestamp() * 1000)
    history = StudentHistory(student_name(index))
    started_ms = now_ms - rng.randrange(30 * DAY_MS, 240 * DAY_MS)
    chosen = sorted(rng.sample(range(shape.questions), n_cards))
    per_card = allocate(n_reviews, [rng.expovariate(1.0) + 0.2 for _ in chosen], floor=1)
    new_today = rng.randrange(0, 6)
    shapes = rng.choices(range(len(templates)), weights=STATE_WEIGHTS, k=n_cards)
    for n, (q, answers, kind) in enumerate(zip(chosen, per_card, shapes, strict=True)):
        qid = question_id(q, shape.decks)
        deck = f"deck{q % shape.decks}"
        template = dict(templates[kind])
        state = int(template["state"])  # type: ignore[call-overload]
        if n < new_today:
            first_ms = now_ms - rng.randrange(60_000, 2 * HOUR_MS)
        else:
            first_ms = rng.randrange(started_ms, now_ms - 2 * DAY_MS)
        last_ms = first_ms + (rng.randrange(now_ms - first_ms) if answers > 1 else 0)
        due_ms = _due(rng, state, now_ms, last_ms)
        template["card_id"] = 1_700_000_000_000 + index * shape.questions + q
        template["due"] = datetime.fromtimestamp(due_ms / 1000, tz=UTC).isoformat()
        template["last_review"] = datetime.fromtimestamp(last_ms / 1000, tz=UTC).isoformat()
        card_json = json.dumps(template)
        history.cards.append((qid, card_json, state, due_ms, first_ms, last_ms))
        step = (last_ms - first_ms) // max(1, answers - 1)
        for k in range(answers):
            rating = rng.choice(RATINGS)
            history.reviews.append(
                (
                    qid,
                    deck,
                    f"topic-{q % shape.decks}",
                    rng.choice(KINDS),
                    first_ms + k * step,
                    rating,
                    rating > 1,
                    rng.randrange(2_000, 90_000),
                    None if k == 0 else state,
                    None if k == 0 else card_json,
                )
            )
        roll = rng.random()
        if roll < 0.01:
            history.flags.append((qid, True, None))
        elif roll < 0.02:
            history.flags.append((qid, False, now_ms + DAY_MS))
    history.reviews.sort(key=lambda row: row[4])
    return history


def _due(rng: random.Random, state: int, now_ms: int, last_ms: int) -> int:
    if rng.random() < DUE_NOW_SHARE:
        return now_ms - rng.randrange(60_000, 7 * DAY_MS)
    if state != 2:  # learning and relearning steps are minutes to hours long
        return now_ms + rng.randrange(60_000, 12 * HOUR_MS)
    return max(last_ms, now_ms) + int(rng.expovariate(1 / 30) * DAY_MS) + HOUR_MS


def class_histories(
    shape: Shape, now: datetime, templates: Sequence[dict[str, object]]
) -> Iterator[StudentHistory]:
    sizes = class_sizes(shape)
    for index in range(shape.students):
        yield student_history(shape, index, now, templates, sizes)
