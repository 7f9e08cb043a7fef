"""Position computations: order-blindness, RoPE's relative scores, where learned tables end."""

from __future__ import annotations

import math

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from quizapp.experiments.context import Context
from quizapp.experiments.lab.permutation import permutation_demo
from quizapp.experiments.lab.positions import positional_extrapolation, rope_relative
from quizapp.experiments.registry import get_spec
from quizapp.experiments.runner import run
from quizapp.experiments.spec import ArgumentError

CPU = torch.device("cpu")


def _call(function, name: str, **args):
    """Bind through the registry (defaults and checks) and call the computation directly."""
    bound = get_spec(name).bind(args)
    return function(Context(device=CPU), **bound)


# --- permutation_demo -----------------------------------------------------------------------


def test_without_positions_attention_is_a_bag_of_words() -> None:
    result = _call(permutation_demo, "permutation_demo")
    assert result.values["equivariance_error"] < 1e-10
    assert result.values["pooled_difference"] < 1e-10
    assert result.values["distinguishable"] is False
    assert "bag of words" in result.summary
    # The table lines words up by identity: dog moves 0 -> 2, man 2 -> 0, bites stays.
    rows = {row[0]: row for row in result.table.rows}
    assert (rows["dog"][1], rows["dog"][2]) == (0, 2)
    assert (rows["man"][1], rows["man"][2]) == (2, 0)
    assert (rows["bites"][1], rows["bites"][2]) == (1, 1)
    assert all(row[3] < 1e-10 for row in result.table.rows)


@pytest.mark.parametrize("positional", ["sinusoidal", "learned", "rope"])
def test_every_positional_scheme_tells_the_sentences_apart(positional: str) -> None:
    result = _call(permutation_demo, "permutation_demo", positional=positional)
    assert result.values["pooled_difference"] > 1e-3
    assert result.values["equivariance_error"] > 1e-3
    assert result.values["distinguishable"] is True
    assert "told apart" in result.summary


def test_a_causal_mask_alone_breaks_equivariance() -> None:
    result = _call(permutation_demo, "permutation_demo")
    assert result.values["causal_equivariance_error"] > 1e-3
    assert result.values["causal_pooled_difference"] > 1e-3
    causal = _call(permutation_demo, "permutation_demo", causal=True)
    assert causal.values["equivariance_error"] == result.values["causal_equivariance_error"]
    assert causal.values["unmasked_equivariance_error"] < 1e-10


def test_the_scheme_table_compares_all_four_on_the_same_layer() -> None:
    result = _call(permutation_demo, "permutation_demo", positional="learned")
    (by_scheme,) = result.extra_tables
    rows = {row[0]: row for row in by_scheme.rows}
    assert set(rows) == {"none", "sinusoidal", "learned", "rope"}
    assert rows["none"][1] < 1e-10 and rows["none"][2] < 1e-10
    assert rows["learned"][1] == result.values["equivariance_error"]
    # Same seed, same draws: the no-position row does not depend on the chosen scheme.
    plain = _call(permutation_demo, "permutation_demo")
    assert {r[0]: r for r in plain.extra_tables[0].rows}["none"] == rows["none"]


def test_identical_order_is_reported_as_such() -> None:
    result = _call(
        permutation_demo, "permutation_demo", swapped="dog bites man", positional="sinusoidal"
    )
    assert result.values["equivariance_error"] < 1e-12
    assert "same order" in result.summary


@pytest.mark.parametrize(
    ("swapped", "fragment"),
    [
        ("man bites cat", "lacks 'dog' and has extra 'cat'"),
        ("man bites", "lacks 'dog'"),
        ("man bites dog dog", "has extra 'dog'"),
        ("   ", "no words"),
    ],
)
def test_swapped_must_be_a_permutation(swapped: str, fragment: str) -> None:
    with pytest.raises(ArgumentError, match=fragment) as info:
        _call(permutation_demo, "permutation_demo", swapped=swapped)
    assert info.value.argument == "swapped"


def test_word_count_is_bounded_and_rope_needs_even_heads() -> None:
    words = " ".join(f"w{i}" for i in range(33))
    with pytest.raises(ArgumentError, match="at most 32") as info:
        _call(permutation_demo, "permutation_demo", sentence=words, swapped=words)
    assert info.value.argument == "sentence"
    with pytest.raises(ArgumentError, match="odd") as info:
        _call(permutation_demo, "permutation_demo", positional="rope", d_model=12, n_heads=4)
    assert info.value.argument == "n_heads"


def test_case_is_ignored_and_repeated_words_are_matched_in_order() -> None:
    result = _call(
        permutation_demo,
        "permutation_demo",
        sentence="The dog saw the cat",
        swapped="the cat saw THE dog",
    )
    assert result.values["equivariance_error"] < 1e-10
    assert [row[:3] for row in result.table.rows] == [
        ("the", 0, 0),
        ("dog", 1, 4),
        ("saw", 2, 2),
        ("the", 3, 3),
        ("cat", 4, 1),
    ]


@settings(max_examples=25, deadline=None)
@given(
    words=st.lists(
        st.sampled_from(["dog", "man", "bites", "the", "cat", "a"]), min_size=1, max_size=8
    ),
    data=st.data(),
)
def test_no_positions_no_mask_is_equivariant_for_any_permutation(words, data) -> None:
    order = data.draw(st.permutations(list(range(len(words)))))
    swapped = " ".join(words[i] for i in order)
    result = _call(
        permutation_demo, "permutation_demo", sentence=" ".join(words), swapped=swapped, d_model=16
    )
    assert result.values["equivariance_error"] < 1e-10
    assert result.values["pooled_difference"] < 1e-10


# --- rope_relative --------------------------------------------------------------------------


def test_rope_score_depends_only_on_the_offset() -> None:
    result = _call(rope_relative, "rope_relative")
    values = result.values
    assert values["max_offset_deviation"] < 1e-9
    assert values["absolute_positions_differ"] is True
    assert values["rotated_query_spread"] > 1e-3
    assert values["other_offset_difference"] > 1e-3
    assert values["sinusoidal_offset_error"] < 1e-9
    # The layer's V is not rotated: shifting every token leaves its output; rotating V would not.
    assert values["layer_shift_change"] < 1e-9 < 1e-3 < values["rotated_values_shift_change"]
    # At offset 0 the two rotations cancel and the score is the plain q·k.
    zero = _call(rope_relative, "rope_relative", offset=0).values
    assert zero["score_at_offset"] == pytest.approx(zero["unrotated_score"], abs=1e-9)
    # The table rows at the chosen offset all carry (nearly) the same score.
    offset_rows = [row for row in result.table.rows if row[2] == 3]
    assert len(offset_rows) == 5
    assert all(row[1] - row[0] == 3 for row in offset_rows)
    assert max(r[3] for r in offset_rows) - min(r[3] for r in offset_rows) < 1e-9


def test_rope_series_curves_coincide_wherever_the_key_sits() -> None:
    series = _call(rope_relative, "rope_relative").series
    near, far = series.lines.values()
    assert max(abs(a - b) for a, b in zip(near, far, strict=True)) < 1e-9
    assert max(near) - min(near) > 1e-3  # and the score does change with the offset


@settings(max_examples=20, deadline=None)
@given(
    head_dim=st.integers(1, 128).map(lambda h: 2 * h),
    offset=st.integers(0, 4096),
    base=st.sampled_from([100.0, 10000.0, 500000.0]),
)
def test_rope_relative_for_any_offset_and_width(head_dim: int, offset: int, base: float) -> None:
    values = _call(
        rope_relative, "rope_relative", head_dim=head_dim, offset=offset, base=base
    ).values
    assert values["max_offset_deviation"] < 1e-9
    assert values["other_offset_deviation"] < 1e-9
    assert values["other_offset_difference"] > 1e-9
    assert values["sinusoidal_offset_error"] < 1e-9


# --- positional_extrapolation ---------------------------------------------------------------


@pytest.mark.parametrize("max_positions", [1, 8, 512])
def test_learned_table_ends_exactly_at_max_positions(max_positions: int) -> None:
    for position, defined in [
        (max_positions - 1, True),
        (max_positions, False),
        (max_positions + 1, False),
    ]:
        values = _call(
            positional_extrapolation,
            "positional_extrapolation",
            max_positions=max_positions,
            position=position,
        ).values
        assert values["learned_defined"] is defined, position
        assert values["sinusoidal_defined"] is True
        assert values["sinusoidal_norm"] == pytest.approx(math.sqrt(64 / 2), abs=1e-9)
        if defined:
            assert values["learned_message"] == "" and values["learned_norm"] > 0
        else:
            assert f"position {position}" in values["learned_message"]
            assert f"length {max_positions}" in values["learned_message"]


def test_extrapolation_defaults_and_series() -> None:
    result = _call(positional_extrapolation, "positional_extrapolation")
    assert result.values["learned_defined"] is False
    assert result.values["reference_table_error"] < 1e-12
    assert "stops at row 511" in result.summary
    series = result.series
    coverage = series.lines["learned table has this row (1 yes, 0 no)"]
    assert all((c == 1.0) == (x < 512) for x, c in zip(series.x, coverage, strict=True))
    similarity = series.lines["sinusoidal: cosine similarity to position 0"]
    assert similarity[0] == pytest.approx(1.0) and all(math.isfinite(s) for s in similarity)
    assert 1000.0 in series.x and 512.0 in series.x


def test_parameters_are_counted_from_the_modules() -> None:
    values = _call(positional_extrapolation, "positional_extrapolation").values
    assert values["sinusoidal_params"] == 0
    assert values["learned_params"] == 512 * 64 == values["learned_rows"] * values["d_model"]
    other = _call(
        positional_extrapolation, "positional_extrapolation", max_positions=1024, d_model=32
    ).values
    assert other["learned_params"] == 1024 * 32 and other["sinusoidal_params"] == 0
    # RoPE's angles and a causal mask are fixed: nothing to train, counted on real modules.
    assert values["rope_params"] == other["rope_params"] == 0
    assert values["causal_mask_params"] == other["causal_mask_params"] == 0
    assert "**0**" in _call(positional_extrapolation, "positional_extrapolation").summary


def test_huge_learned_tables_are_refused_naming_the_argument() -> None:
    with pytest.raises(ArgumentError, match="too big") as info:
        _call(
            positional_extrapolation,
            "positional_extrapolation",
            max_positions=65536,
            d_model=4096,
        )
    assert info.value.argument == "max_positions"


# --- through the runner ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("permutation_demo", {"positional": "rope", "causal": True}),
        ("rope_relative", {"head_dim": 16, "offset": 7}),
        ("positional_extrapolation", {"max_positions": 64, "position": 100, "d_model": 8}),
    ],
)
def test_runner_results_keep_their_promises_and_repeat_exactly(name: str, args: dict) -> None:
    seen: list[float] = []
    first = run(name, args, device="cpu", on_progress=lambda f, m: seen.append(f))
    second = run(name, args, device="cpu")
    assert set(get_spec(name).values) <= set(first.values)
    assert first.as_json() == second.as_json()
    assert first.summary and first.table is not None and first.device == "cpu"
    assert seen and seen == sorted(seen) and seen[-1] == 1.0


def test_runner_turns_a_bad_swap_into_an_argument_error() -> None:
    with pytest.raises(ArgumentError) as info:
        run("permutation_demo", {"swapped": "cat bites dog"}, device="cpu")
    assert info.value.argument == "swapped"
