"""The store benchmark's class (bench/store_data.py) has the shape bench/bench_store.py
promises: exact totals, students of ~the same size, real card states, due dates spread, and
the same rows for the same seed."""

from __future__ import annotations

import importlib
import json
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import pytest

BENCH_DIR = Path(__file__).resolve().parents[2] / "bench"
NOW = datetime(2026, 3, 12, 15, 0, tzinfo=UTC)
NOW_MS = int(NOW.timestamp() * 1000)


@pytest.fixture(scope="module")
def bench(request: pytest.FixtureRequest):
    """The bench modules, imported as bench/run.py imports them (bench/ on the path)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(BENCH_DIR))
        store_data = importlib.import_module("store_data")
        templates = importlib.import_module("bench_drill").card_templates(NOW)
        yield store_data, templates


def small_class(bench, seed: int = 7):
    store_data, templates = bench
    shape = store_data.Shape(students=6, cards=1_200, reviews=12_000, questions=480, seed=seed)
    return shape, list(store_data.class_histories(shape, NOW, templates))


def test_the_default_shape_is_issue_13s_class(bench) -> None:
    store_data, _ = bench
    shape = store_data.Shape()
    sizes = store_data.class_sizes(shape)
    assert len(sizes) == 300
    assert sum(c for c, _ in sizes) == 100_000
    assert sum(r for _, r in sizes) == 1_000_000
    assert all(333 * 0.75 <= c <= 334 * 1.25 for c, _ in sizes)
    assert all(3_333 * 0.6 <= r <= 3_334 * 1.4 for _, r in sizes)
    assert len({c for c, _ in sizes}) > 50, "students differ in how much they studied"


def test_a_small_class_has_the_promised_totals_and_rows(bench) -> None:
    shape, histories = small_class(bench)
    assert [h.student for h in histories] == [f"student{i:03d}" for i in range(6)]
    assert sum(len(h.cards) for h in histories) == shape.cards
    assert sum(len(h.reviews) for h in histories) == shape.reviews
    bank = {f"deck{i % 10}-q{i}" for i in range(shape.questions)}
    for history in histories:
        ids = [card[0] for card in history.cards]
        assert len(ids) == len(set(ids)) and set(ids) <= bank
        assert 160 <= len(ids) <= 240
        times = [review[4] for review in history.reviews]
        assert times == sorted(times) and times[-1] <= NOW_MS
        by_card = Counter(review[0] for review in history.reviews)
        assert set(by_card) == set(ids), "every card has at least one review"
        first = {}
        for qid, deck, topic, kind, ms, rating, correct, duration, state, before in history.reviews:
            assert qid.startswith(deck + "-") and topic == "topic-" + deck.removeprefix("deck")
            assert kind in {"drill", "quiz", "exam"} and 1 <= rating <= 4
            assert correct == (rating > 1) and 2_000 <= duration < 90_000
            if qid not in first:  # a card's first answer: nothing before it
                first[qid] = ms
                assert state is None and before is None
            else:
                assert json.loads(before)["state"] == state
        for qid, card_json, state, _due, first_ms, last_ms in history.cards:
            assert first[qid] == first_ms <= last_ms <= NOW_MS
            assert json.loads(card_json)["state"] == state


def test_states_due_dates_and_flags_are_spread(bench) -> None:
    _, histories = small_class(bench)
    cards = [card for h in histories for card in h.cards]
    states = Counter(card[2] for card in cards)
    assert set(states) == {1, 2, 3} and states[2] > len(cards) / 2
    due_now = sum(card[3] <= NOW_MS for card in cards) / len(cards)
    assert 0.05 < due_now < 0.25
    later_days = {(card[3] - NOW_MS) // 86_400_000 for card in cards if card[3] > NOW_MS}
    assert max(later_days) > 60 and len(later_days) > 30, "due dates over the coming months"
    today = sum(card[4] >= NOW_MS - 2 * 3_600_000 for card in cards)
    assert 0 < today <= 5 * len(histories), "a few cards first reviewed today"
    flags = [flag for h in histories for flag in h.flags]
    assert any(suspended for _, suspended, _ in flags)
    assert any(buried and buried > NOW_MS for _, _, buried in flags)


def test_the_same_seed_gives_the_same_rows_and_a_student_alone_matches(bench) -> None:
    store_data, templates = bench
    shape, histories = small_class(bench)
    _, again = small_class(bench)
    assert [h.reviews for h in again] == [h.reviews for h in histories]
    alone = store_data.student_history(shape, 4, NOW, templates)
    assert (alone.cards, alone.reviews, alone.flags) == (
        histories[4].cards,
        histories[4].reviews,
        histories[4].flags,
    )
    _, other = small_class(bench, seed=8)
    assert [h.cards for h in other] != [h.cards for h in histories]


def test_allocate_splits_exactly_with_a_floor(bench) -> None:
    store_data, _ = bench
    assert store_data.allocate(10, [1, 1, 1]) in ([4, 3, 3], [3, 4, 3], [3, 3, 4])
    assert store_data.allocate(7, [0.0001, 5, 5], floor=1)[0] == 1
    assert sum(store_data.allocate(1_000_003, [0.3, 1.7, 2.2, 0.9], floor=2)) == 1_000_003
    with pytest.raises(ValueError):
        store_data.allocate(2, [1, 1, 1], floor=1)
