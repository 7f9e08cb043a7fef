"""layernorm_vector and norm_comparison: LayerNorm worked by hand, and against BatchNorm."""

from __future__ import annotations

import math
import statistics

import pytest
import torch
from hypothesis import example, given, settings
from hypothesis import strategies as st

from quizapp.experiments.context import SEED, Context
from quizapp.experiments.lab.layernorm import layernorm_vector, norm_comparison
from quizapp.experiments.registry import get_spec
from quizapp.experiments.runner import run
from quizapp.experiments.spec import ArgumentError


def _ctx(seed: int = SEED) -> Context:
    return Context(device=torch.device("cpu"), seed=seed)


# --- layernorm_vector ----------------------------------------------------------------------


def test_the_lessons_vector_2_4_6_8() -> None:
    v = run("layernorm_vector", {}).values  # the default is 2,4,6,8
    assert v["n"] == 4
    assert v["mean"] == 5
    assert v["biased_variance"] == 5  # 20 / 4
    assert v["unbiased_variance"] == pytest.approx(20 / 3, rel=1e-15)  # 20 / 3, not 6.667
    assert v["biased_std"] == pytest.approx(math.sqrt(5), rel=1e-15)
    assert v["unbiased_std"] == pytest.approx(math.sqrt(20 / 3), rel=1e-15)
    assert abs(v["normalized_mean"]) < 1e-15
    assert v["normalized_variance"] == pytest.approx(5 / (5 + 1e-5), rel=1e-12)  # eps shows
    assert v["normalized_variance_if_unbiased"] == pytest.approx(3 / 4, rel=1e-4)
    assert v["torch_max_abs_diff"] < 1e-12


def test_the_table_shows_each_step_and_the_summary_the_arithmetic() -> None:
    result = run("layernorm_vector", {"values": "2, 4, 6, 8", "eps": 1e-12})
    rows = result.table.rows
    assert [row[1] for row in rows] == [2, 4, 6, 8]
    assert [row[2] for row in rows] == [-3, -1, 1, 3]
    assert [row[3] for row in rows] == [9, 1, 1, 9]
    # (x − 5) / √5, the same in the reference and in torch's column.
    assert [row[4] for row in rows] == [
        round(float(f"{(x - 5) / 5**0.5:.6g}"), 6) for x in (2, 4, 6, 8)
    ]
    assert [row[4] for row in rows] == [row[5] for row in rows]
    summary = result.summary
    assert "20 / 4 = **5**" in summary and "20 / 3 = **6.66667**" in summary
    assert "x.var(unbiased=False)" in summary and "`x.var()`" in summary
    assert result.args == {"values": "2, 4, 6, 8", "eps": 1e-12}


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.floats(-1000, 1000, allow_nan=False, allow_infinity=False), min_size=2, max_size=64
    ),
    st.sampled_from([1e-12, 1e-5, 0.1]),
)
@example([682.7082155337919] * 3, 1e-12)  # constant up to the rounding of its mean
def test_any_vector_matches_statistics_and_torch(numbers: list[float], eps: float) -> None:
    text = ",".join(repr(x) for x in numbers)
    v = layernorm_vector(
        _ctx(), **get_spec("layernorm_vector").bind({"values": text, "eps": eps})
    ).values
    scale = max(1.0, max(abs(x) for x in numbers))
    assert v["mean"] == pytest.approx(statistics.fmean(numbers), abs=1e-12 * scale)
    assert v["biased_variance"] == pytest.approx(statistics.pvariance(numbers), abs=1e-9 * scale**2)
    assert v["unbiased_variance"] == pytest.approx(
        statistics.variance(numbers), abs=1e-9 * scale**2
    )
    if v["biased_variance"] > 1e-3:
        assert abs(v["normalized_mean"]) < 1e-9
        expected = v["biased_variance"] / (v["biased_variance"] + eps)
        assert v["normalized_variance"] == pytest.approx(expected, rel=1e-9)
    # Rounding in x − mean (~1e-16 · scale) is amplified by 1/√(variance + eps): a nearly
    # constant vector with a tiny eps magnifies it, in ours and torch's alike.
    assert v["torch_max_abs_diff"] < 1e-12 * scale / math.sqrt(v["biased_variance"] + eps)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("2", "at least 2 numbers"),
        ("2,,4", "item 2 is nothing"),
        ("2,4,", "item 3 is nothing"),
        ("2,four,6", "item 2 is 'four'"),
        ("1,nan", "item 2 is 'nan'"),
        ("1,inf", "item 2 is 'inf'"),
        ("1,0x10", "item 2 is '0x10'"),
        ("1,1_000", "item 2 is '1_000'"),
        ("1,1e400", "outside"),
        ("1,2e6", "outside"),
        (",".join(["1"] * 65), "at most 64"),
        ("1;2;3", "item 1 is '1;2;3'"),
        ("1,2\x1c", r"values contains control character U\+001C"),  # refused before parsing
        ("1,\x1b[31m2", r"values contains control character U\+001B \(ESC\)"),
        ("1,2\n", r"item 2 is '2\\n'"),
    ],
)
def test_bad_values_are_refused_in_one_line_naming_the_argument(text: str, fragment: str) -> None:
    with pytest.raises(ArgumentError, match=fragment) as info:
        get_spec("layernorm_vector").bind({"values": text})
    assert info.value.argument == "values"
    assert "\n" not in str(info.value)


def test_eps_is_bounded_and_values_must_be_text() -> None:
    spec = get_spec("layernorm_vector")
    for bad, fragment in ((0, "at least"), (2.0, "at most"), (float("nan"), "finite")):
        with pytest.raises(ArgumentError, match=fragment) as info:
            spec.bind({"eps": bad})
        assert info.value.argument == "eps"
    with pytest.raises(ArgumentError, match="text"):
        spec.bind({"values": [2, 4, 6, 8]})
    with pytest.raises(ArgumentError, match="longer than"):
        spec.bind({"values": "1," * 600})
    assert spec.bind({"values": " -1.5, +2, .5e1 , 3. "})["values"]


def test_a_constant_vector_normalises_to_zero_not_nan() -> None:
    v = run("layernorm_vector", {"values": "7,7,7"}).values
    assert v["biased_variance"] == 0 and v["unbiased_variance"] == 0
    assert v["normalized_variance"] == 0 and v["torch_max_abs_diff"] == 0


# --- norm_comparison -----------------------------------------------------------------------


def test_layernorm_ignores_the_batch_batchnorm_does_not() -> None:
    result = run("norm_comparison", {})
    v = result.values
    assert v["layernorm_change"] <= 1e-6
    assert v["batchnorm_change"] > 1e-3
    assert v["layernorm_mean"] < 1e-5 and abs(v["layernorm_variance"] - 1) < 1e-3
    # The table shows it: identical LN columns, different BN columns.
    columns = result.table.columns
    ln_a, ln_b = columns.index("LN, batch A"), columns.index("LN, batch B")
    bn_a, bn_b = columns.index("BN, batch A"), columns.index("BN, batch B")
    assert all(row[ln_a] == row[ln_b] for row in result.table.rows)
    assert any(row[bn_a] != row[bn_b] for row in result.table.rows)


@pytest.mark.parametrize("d_model", [2, 8, 40])
def test_batchnorm_has_a_learned_scale_and_shift_like_torchs(d_model: int) -> None:
    counted = run("norm_comparison", {"d_model": d_model}).values["batchnorm_params"]
    assert counted == sum(p.numel() for p in torch.nn.BatchNorm1d(d_model).parameters()) > 0


def test_a_batch_of_one_token_has_zero_variance_for_batchnorm() -> None:
    v = run("norm_comparison", {}).values
    assert v["batchnorm_single_token_variance"] == 0
    assert v["batchnorm_single_token_output"] == 0
    assert v["batchnorm_single_token_refused"] is True
    assert abs(v["layernorm_single_token_variance"] - 1) < 1e-3


def test_batchnorm_in_eval_mode_depends_only_on_the_token() -> None:
    result = run("norm_comparison", {})
    v = result.values
    assert v["batchnorm_eval_change"] == 0  # running statistics: a fixed affine map per feature
    assert v["batchnorm_eval_single_token_change"] == 0  # and a batch of one is fine
    assert v["batchnorm_change"] > 1e-3  # while training mode's output moves
    assert v["batchnorm_train_eval_gap"] > 1e-3  # and differs from inference's
    assert v["batchnorm_padding_change"] > 1e-3 and v["layernorm_padding_change"] == 0
    (inference,) = result.extra_tables
    train, eval_a, eval_b, alone = zip(*(row[1:] for row in inference.rows), strict=True)
    assert eval_a == eval_b == alone and train != eval_a
    assert "running" in result.summary and "padd" in result.summary


def test_eval_mode_batchnorm_is_nn_batchnorm1d_eval() -> None:
    """The eval path the computation relies on, against PyTorch, after the same training."""
    from torch import nn

    from quizapp.reference import BatchNorm

    torch.manual_seed(0)
    ours, theirs = BatchNorm(5).double(), nn.BatchNorm1d(5).double()
    for _ in range(4):
        batch = torch.randn(6, 5, dtype=torch.float64) * 3 + 1
        ours(batch), theirs(batch)
    ours.eval(), theirs.eval()
    token = torch.randn(1, 5, dtype=torch.float64)
    torch.testing.assert_close(ours(token), theirs(token), atol=1e-12, rtol=0)


@settings(max_examples=40, deadline=None)
@given(d_model=st.integers(4, 256), batch_size=st.integers(2, 64), seed=st.integers(0, 2**31))
def test_layernorm_gives_mean_zero_variance_one_at_any_size(d_model, batch_size, seed) -> None:
    v = norm_comparison(_ctx(seed), d_model=d_model, batch_size=batch_size).values
    assert v["layernorm_mean"] < 1e-5
    assert 0.99 < v["layernorm_variance"] <= 1 + 1e-5
    assert v["layernorm_change"] <= 1e-6
    assert v["batchnorm_change"] > 1e-3
    assert v["batchnorm_eval_change"] == 0 and v["layernorm_padding_change"] == 0


# --- computed, not stored ------------------------------------------------------------------


def test_layernorm_vector_is_computed_not_stored() -> None:
    a = run("layernorm_vector", {"values": "1,2,3"}).values
    b = run("layernorm_vector", {"values": "1,2,4"}).values
    assert a["mean"] == 2 and b["mean"] == pytest.approx(7 / 3)
