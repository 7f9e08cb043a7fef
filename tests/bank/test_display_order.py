"""Display orders: fixed by their seed text, spread over every position, steps never solved."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter

from quizapp.bank.display_order import (
    export_seed_text,
    session_seed_text,
    shuffled_order,
)
from tests.conftest import REPO


def test_the_same_seed_text_gives_the_same_order_in_another_process() -> None:
    # Not Python's hash(): a process with another PYTHONHASHSEED must draw the same order.
    code = "from quizapp.bank.display_order import shuffled_order as s; print(s('7:q-a', 6))"
    env = {"PYTHONHASHSEED": "123", "PYTHONPATH": str(REPO)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.stdout.strip() == str(shuffled_order("7:q-a", 6))


def test_the_first_option_lands_in_every_position_about_equally() -> None:
    """A key written first is no cue once shown: each position holds it about 1/n of the time."""
    n, cards = 4, 4000
    where = Counter(
        shuffled_order(session_seed_text(5, f"q-{i}"), n).index(0) for i in range(cards)
    )
    assert set(where) == set(range(n))
    for count in where.values():
        assert abs(count / cards - 1 / n) < 0.03  # about 4.4 standard deviations at 4000 cards


def test_steps_are_never_in_the_key_order() -> None:
    for n in range(2, 10):
        for i in range(300):
            order = shuffled_order(f"s:{i}", n, avoid_identity=True)
            assert sorted(order) == list(range(n)) and order != tuple(range(n))


def test_an_export_seed_changes_the_order_and_none_keeps_the_id_alone() -> None:
    assert export_seed_text("q-a") == "q-a"
    orders = {shuffled_order(export_seed_text("q-a", seed), 6) for seed in range(10)}
    assert len(orders) > 1
