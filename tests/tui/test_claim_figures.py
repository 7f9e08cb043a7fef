"""A claim's sentence beside a tick states only figures the claim accounts for (issue 28): the
llama2-70b case, where the claim holds and its sentence's 4,096 is the question's own."""

from __future__ import annotations

import pytest

from quizapp.bank.claim_checks import check
from quizapp.bank.claims import Scope, parse_claim
from quizapp.bank.model import Claim, Location
from quizapp.bank.says_figures import figures_hold, stated_figures, unaccounted_figures
from quizapp.tui.widgets.claims_view import (
    ABOUT_OWN,
    HOLDS,
    changed_arguments,
    claim_lines,
    stale_sentences,
)

CLAIM = "head_dim * n_heads == d_model and head_dim == 128"
SAYS = "Each head is 128 wide, a slice of the 4,096-dim model width"
LLAMA2_7B = {"head_dim": 128, "n_heads": 32, "d_model": 4096}
LLAMA2_70B = {"head_dim": 128, "n_heads": 64, "d_model": 8192}


def test_figures_are_read_as_written_and_names_keep_their_digits() -> None:
    assert stated_figures("GPT-2 has 1,024 positions; W_o and L2 are names; 1.06 and 50%") == [
        (1024.0, 0, False),
        (1.06, 2, False),
        (50.0, 0, True),
    ]


def test_a_sentence_true_for_its_own_arguments_and_false_for_a_preset() -> None:
    parsed = parse_claim(CLAIM)
    assert figures_hold(SAYS, parsed, LLAMA2_7B)
    assert unaccounted_figures(SAYS, parsed, Scope(LLAMA2_70B)) == ["4096"]
    assert not figures_hold(SAYS, parsed, LLAMA2_70B)


@pytest.mark.parametrize(
    ("says", "values", "holds"),
    [
        ("the residual grows more than 1000 times", {"a": 2e6, "b": 1.0}, True),  # a threshold
        ("the final variance is 1.06", {"a": 1.0634, "b": 1.0}, True),  # rounded as written
        ("the final variance is 1.07", {"a": 1.0634, "b": 1.0}, False),
        ("about 50% of it", {"a": 0.5, "b": 1.0}, True),
        ("no figures at all", {"a": 3.0, "b": 1.0}, True),
    ],
)
def test_a_figure_is_a_value_read_or_a_number_written_in_the_claim(says, values, holds) -> None:
    assert figures_hold(says, parse_claim("a > 1000 * b or a >= b"), values) is holds


def shown(claims: list[Claim], values: dict, run: dict, own: dict) -> list[str]:
    """The lab's claim lines, as ClaimsView.show_claims builds them."""
    outcomes = [check(c.text, values, c.says) for c in claims]
    changed = changed_arguments(run, own)
    stale = stale_sentences(claims, values) if changed is not None else None
    return claim_lines(outcomes, changed, stale).plain.splitlines()


def test_the_lab_puts_no_tick_beside_a_stale_sentence() -> None:
    here = Location("deck.yaml", 1, 1)
    claim = Claim(CLAIM, here, SAYS)
    plain = Claim("head_dim == 128", here, "Each head is 128 wide")
    lines = shown([claim, plain], LLAMA2_70B, {"preset": "llama2-70b"}, {"preset": "llama2-7b"})
    assert f"{ABOUT_OWN} {SAYS}" in lines  # holds, but its words are false here: no tick
    assert any("about the question's arguments (preset=llama2-7b)" in line for line in lines)
    assert f"{HOLDS} Each head is 128 wide" in lines  # still true here: ticked
    lines = shown([claim], LLAMA2_7B, {"preset": "llama2-7b"}, {"preset": "llama2-7b"})
    assert f"{HOLDS} {SAYS}" in lines  # on the question's own arguments
