"""ln_placement and residual_passthrough: where the norm and the residual sit, measured."""

from __future__ import annotations

import itertools

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from torch import nn

from quizapp.experiments.context import SEED, Context
from quizapp.experiments.lab.placement import (
    affine_norm_count,
    block_steps,
    ln_placement,
    residual_count,
    residual_passthrough,
    trace_steps,
)
from quizapp.experiments.runner import run
from quizapp.reference import TransformerBlock, TransformerStack, to_torch_encoder

POST = ["self-attention", "add", "LayerNorm", "feed-forward", "add", "LayerNorm"]
PRE = ["LayerNorm", "self-attention", "add", "LayerNorm", "feed-forward", "add"]


def _ctx(seed: int = SEED) -> Context:
    return Context(device=torch.device("cpu"), seed=seed)


@pytest.fixture(scope="module")
def placement():
    return run("ln_placement", {})


# --- the trace ------------------------------------------------------------------------------


@pytest.mark.parametrize(("position", "steps"), [("post", POST), ("pre", PRE)])
def test_trace_reads_the_vaswani_and_gpt2_orders_off_reference_and_torch(position, steps) -> None:
    torch.manual_seed(0)
    stack = TransformerStack(16, 4, 32, 2, position)
    x = torch.randn(1, 5, 16)
    ours, theirs = trace_steps(stack, x), trace_steps(to_torch_encoder(stack).eval(), x)
    assert block_steps(ours, 0) == block_steps(ours, 1) == steps
    assert ours == theirs
    final = [label for index, label in ours if index is None]
    assert final == (["LayerNorm"] if position == "pre" else [])


def test_trace_sees_a_dropped_residual_and_leaves_no_hooks_behind() -> None:
    block = TransformerBlock(8, 2, 16, norm=None, residual=False, activation="relu")
    x = torch.randn(1, 3, 8)
    assert block_steps(trace_steps(block, x), 0) == ["self-attention", "feed-forward"]
    assert not any(m._forward_hooks or m._forward_pre_hooks for m in block.modules())
    encoder = to_torch_encoder(TransformerStack(8, 2, 16, 1, "post")).eval()
    trace_steps(encoder, x)
    assert not encoder.training  # the trace's training-mode pass is undone


# --- ln_placement --------------------------------------------------------------------------


def test_where_the_norm_sits_and_the_final_layernorm(placement) -> None:
    v, n_layers = placement.values, placement.args["n_layers"]
    assert n_layers == 6
    assert v["post_ln_norm_count"] == 2 * n_layers == v["torch_post_ln_norm_count"]
    assert v["pre_ln_norm_count"] == 2 * n_layers + 1 == v["torch_pre_ln_norm_count"]
    assert v["pre_ln_has_final_norm"] is True and v["post_ln_has_final_norm"] is False
    assert v["post_ln_order_matches_torch"] is True and v["pre_ln_order_matches_torch"] is True
    assert v["post_ln_torch_max_abs_diff"] < 1e-12 and v["pre_ln_torch_max_abs_diff"] < 1e-12
    rows = placement.table.rows
    assert [row[1] for row in rows] == POST == [row[2] for row in rows]
    assert [row[3] for row in rows] == PRE == [row[4] for row in rows]


def test_both_layouts_have_a_residual_and_a_learned_scale_and_shift_everywhere(placement) -> None:
    v, n_layers = placement.values, placement.args["n_layers"]
    assert v["post_ln_residual_count"] == v["pre_ln_residual_count"] == 2 * n_layers
    assert v["post_ln_affine_norm_count"] == v["post_ln_norm_count"]
    assert v["pre_ln_affine_norm_count"] == v["pre_ln_norm_count"]


@pytest.mark.parametrize("position", ["post", "pre"])
def test_residual_count_finds_each_dropped_residual(position: str) -> None:
    torch.manual_seed(0)
    stack = TransformerStack(16, 2, 32, 3, position).double().eval()
    x, other = torch.randn(2, 1, 5, 16, dtype=torch.float64)
    assert residual_count(stack, x, other) == 6
    stack.blocks[1].residual = False  # both of the middle block's sub-layers lose theirs
    assert residual_count(stack, x, other) == 4
    assert not any(block.attn._forward_hooks for block in stack.blocks)  # the hooks are gone


def test_affine_norm_count_skips_a_layernorm_without_a_learned_shift() -> None:
    stack = TransformerStack(8, 2, 16, 2, "pre")
    assert affine_norm_count(stack) == 5
    norm = stack.blocks[0].attn_norm
    del norm.bias
    norm.register_buffer("bias", torch.zeros(8))  # a fixed shift: no longer learned
    assert affine_norm_count(stack) == 4


def test_post_ln_output_is_normalised_pre_ln_stream_grows(placement) -> None:
    v = placement.values
    assert v["post_ln_output_is_normalized"] is True
    assert abs(v["post_ln_output_variance"] - 1) < 1e-3
    assert abs(v["pre_ln_output_variance"] - 1) < 1e-3  # thanks to the final LayerNorm
    assert v["pre_ln_residual_stream_variance"] > 3 * v["input_variance"]
    stream = placement.series.lines["Pre-LN: residual stream"]
    assert all(b > a for a, b in itertools.pairwise(stream))  # grows every block
    assert stream[-1] == v["pre_ln_residual_stream_variance"]
    growth = v["pre_ln_stream_growth_per_layer"]
    assert growth == pytest.approx((stream[-1] - stream[0]) / 6)
    assert "final LayerNorm" in placement.summary and "13 = 2 × 6 + 1" in placement.summary
    stack_table = placement.extra_tables[0]
    assert stack_table.rows[0][1].endswith("× 6") and "LayerNorm" in stack_table.rows[1][2]


@settings(max_examples=8, deadline=None)
@given(
    n_layers=st.integers(1, 8), d_model=st.sampled_from([8, 12, 32, 48]), seed=st.integers(0, 2**31)
)
def test_placement_holds_for_any_small_stack(n_layers, d_model, seed) -> None:
    v = ln_placement(_ctx(seed), n_layers=n_layers, d_model=d_model).values
    assert v["post_ln_norm_count"] == 2 * n_layers and v["pre_ln_norm_count"] == 2 * n_layers + 1
    assert v["pre_ln_has_final_norm"] and not v["post_ln_has_final_norm"]
    assert v["post_ln_output_is_normalized"]
    assert v["pre_ln_residual_stream_variance"] > v["input_variance"]
    assert v["post_ln_torch_max_abs_diff"] < 1e-10 and v["pre_ln_torch_max_abs_diff"] < 1e-10
    assert v["post_ln_order_matches_torch"] and v["pre_ln_order_matches_torch"]


# --- residual_passthrough ------------------------------------------------------------------


def test_an_idle_layer_passes_its_input_through_only_with_a_residual() -> None:
    result = run("residual_passthrough", {})
    v = result.values
    assert v["idle_sublayer_output"] == 0  # f really is ≡ 0
    assert v["residual_passthrough_error"] == 0  # exactly: x + 0 = x
    assert v["pre_ln_passthrough_error"] == 0
    assert v["torch_pre_ln_passthrough_error"] == 0
    assert v["post_ln_passthrough_error"] > 0.5  # LN(x) ≠ x
    assert v["post_ln_passthrough_error"] == pytest.approx(v["torch_post_ln_passthrough_error"])
    assert v["post_ln_vs_layernorm_of_input"] < 1e-4  # it is LN(x), up to the second eps
    assert v["plain_idle_output_norm"] == 0 < v["input_norm"]
    rows = {row[0]: row for row in result.table.rows}
    assert rows["no residual"][4] == 0 and rows["Pre-LN"][3] == 0
    assert "exactly" in result.summary and "is lost" in result.summary


@settings(max_examples=10, deadline=None)
@given(d_model=st.integers(4, 96), n_tokens=st.integers(1, 16), seed=st.integers(0, 2**31))
def test_passthrough_is_exact_at_any_size(d_model, n_tokens, seed) -> None:
    v = residual_passthrough(_ctx(seed), d_model=d_model, n_tokens=n_tokens).values
    assert v["residual_passthrough_error"] == v["pre_ln_passthrough_error"] == 0
    assert v["plain_idle_output_norm"] == 0
    assert v["post_ln_passthrough_error"] > 0


def test_an_idle_torch_encoder_layer_also_returns_x() -> None:
    """The claim against PyTorch alone: zero both output projections of a Pre-LN layer."""
    layer = nn.TransformerEncoderLayer(16, 4, 32, dropout=0.0, batch_first=True, norm_first=True)
    with torch.no_grad():
        for linear in (layer.self_attn.out_proj, layer.linear2):
            linear.weight.zero_()
            linear.bias.zero_()
    x = torch.randn(2, 5, 16) * 3 + 1
    assert torch.equal(layer.eval()(x), x)
