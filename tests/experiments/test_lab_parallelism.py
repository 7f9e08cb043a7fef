"""head_parallelism: more heads cost no more parameters and no more attention FLOPs."""

from __future__ import annotations

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from torch.utils.flop_counter import FlopCounterMode

from quizapp.experiments.context import Context
from quizapp.experiments.lab.parallelism import attention_flops, head_parallelism, measure_heads
from quizapp.experiments.registry import get_spec
from quizapp.experiments.runner import run
from quizapp.experiments.spec import ArgumentError
from quizapp.reference import MultiHeadAttention


def test_the_lessons_512_over_8_heads() -> None:
    result = run("head_parallelism", {})
    v = result.values
    assert v["params_1_head"] == v["params_8_heads"] == 1_048_576  # 4 · 512², the lesson's sum
    assert v["head_dim_at_8"] == 64 and v["max_heads"] == 64
    assert v["params_constant"] and v["total_flops_constant"] and v["projection_flops_constant"]
    assert v["torch_params_agree"] and v["flop_formula_agrees"]
    # QKᵀ and AV: 2 · 128² · 512 FLOPs each, split evenly over the heads.
    assert v["attention_flops_8_heads"] == v["attention_flops_1_head"] == 2 * 2 * 128**2 * 512
    assert v["qk_flops_per_head_at_8"] == v["av_flops_per_head_at_8"] == 2 * 128**2 * 64
    assert v["attention_flops_per_head_at_8"] * 8 == v["attention_flops_8_heads"]
    assert v["projection_flops"] == 4 * 2 * 128 * 512 * 512
    assert v["matmul_calls_per_forward"] == 2 and v["matmul_calls_constant"]
    assert [row[0] for row in result.table.rows] == [1, 2, 4, 8, 16, 32, 64]
    assert "batched" in result.summary and "not one head per GPU" in result.summary


def test_head_counts_shown_are_the_divisors_up_to_64() -> None:
    rows = run("head_parallelism", {"d_model": 24, "seq_len": 4}).table.rows
    assert [row[0] for row in rows] == [1, 2, 4, 8]
    assert [row[1] for row in rows] == [24, 12, 6, 3]
    assert run("head_parallelism", {"d_model": 24}).values["max_heads"] == 8


@settings(max_examples=25, deadline=None)
@given(
    d_model=st.sampled_from([8, 16, 24, 64, 96, 256, 768, 4096]),
    heads=st.sampled_from([1, 2, 4, 8]),
    seq_len=st.integers(1, 300),
)
def test_the_formula_is_what_flop_counter_mode_measures(d_model, heads, seq_len) -> None:
    """Independently of the computation's hook: count the reference attention directly."""
    with torch.device("meta"):
        module = MultiHeadAttention(d_model, heads, bias=False)
        x = torch.empty(1, seq_len, d_model)
    with FlopCounterMode(display=False) as counter:
        module(x)
    counts = {str(op): n for op, n in counter.get_flop_counts()["Global"].items()}
    assert counts["aten.bmm"] == attention_flops(seq_len, d_model)
    measured = measure_heads(d_model, heads, seq_len)
    assert measured["attention_total"] == counts["aten.bmm"]
    assert measured["qk_per_head"] == measured["av_per_head"] == 2 * seq_len**2 * (d_model // heads)
    assert measured["params"] == measured["torch_params"] == 4 * d_model * d_model


def test_d_model_must_be_a_multiple_of_8_and_bounded() -> None:
    spec = get_spec("head_parallelism")
    with pytest.raises(ArgumentError, match="multiple of 8") as info:
        spec.bind({"d_model": 500})
    assert info.value.argument == "d_model"
    with pytest.raises(ArgumentError, match="at most"):
        spec.bind({"seq_len": 10**6})
    with pytest.raises(ArgumentError, match="at least"):
        spec.bind({"seq_len": 0})


def test_huge_sizes_cost_nothing_on_the_meta_device() -> None:
    v = run("head_parallelism", {"d_model": 65536, "seq_len": 32768}).values
    assert v["params_8_heads"] == 4 * 65536**2
    assert v["attention_flops_8_heads"] == attention_flops(32768, 65536)


def test_flops_follow_the_arguments() -> None:
    other = head_parallelism(Context(device=torch.device("cpu")), d_model=64, seq_len=7)
    assert other.values["attention_flops_8_heads"] == 2 * 2 * 7**2 * 64
