"""The issue-24 computations: KV cache, GQA, RMSNorm, RoPE scaling, ALiBi and sliding windows,
held to the model cards' and papers' figures, and their argument errors."""

from __future__ import annotations

import pytest
import torch

from quizapp.experiments.modern_specs import DECODER_PRESETS, DTYPES
from quizapp.experiments.registry import MODEL_PRESETS
from quizapp.experiments.runner import run
from quizapp.experiments.spec import ArgumentError
from quizapp.reference import DTYPES as REFERENCE_DTYPES
from quizapp.reference import PRESETS


def values(name: str, **args: object) -> dict[str, object]:
    return run(name, args, device="cpu").values


def test_declared_choices_are_in_step_with_the_reference() -> None:
    assert set(DECODER_PRESETS) <= set(MODEL_PRESETS)
    assert {PRESETS[p].family for p in DECODER_PRESETS} <= {"gpt2", "llama"}
    assert tuple(REFERENCE_DTYPES) == DTYPES


# -- kv_cache ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "expected"),
    [("llama2-7b", 2_147_483_648), ("llama2-70b", 1_342_177_280)],  # the figures
)
def test_kv_cache_of_llama2_at_4096_tokens_in_float16(preset: str, expected: int) -> None:
    v = values("kv_cache", preset=preset, seq_len=4096, batch=1, dtype="float16")
    assert v["kv_cache_bytes"] == expected
    assert v["formula_agrees"] is True
    assert v["bytes_per_token"] * 4096 == expected
    assert v["bytes_per_token_per_layer"] * v["n_layers"] == v["bytes_per_token"]


def test_kv_cache_saving_is_the_group_size() -> None:
    v = values("kv_cache", preset="llama2-70b")
    assert v["mha_equivalent_bytes"] == 8 * v["kv_cache_bytes"]  # 64 query heads, 8 KV heads
    assert v["gqa_saving"] == 8.0
    assert v["mqa_bytes"] * 8 == v["kv_cache_bytes"]
    seven = values("kv_cache", preset="llama2-7b")
    assert seven["gqa_saving"] == 1.0 and seven["mha_equivalent_bytes"] == seven["kv_cache_bytes"]


@pytest.mark.parametrize("n_kv_heads", [1, 8, 32])
def test_kv_cache_score_flops_do_not_shrink_with_the_kv_heads(n_kv_heads: int) -> None:
    """Every query head scores every cached key: 2 × layers × query heads × head_dim × tokens
    (a multiply and an add each), whatever the K/V heads; only the cache shrinks."""
    v = values("kv_cache", preset="llama3-8b", seq_len=1000, n_kv_heads=n_kv_heads)
    assert v["score_flops_per_token"] == 2 * 32 * 32 * 128 * 1000
    assert v["mha_score_flops_per_token"] == v["score_flops_per_token"]
    fewer_heads = values("kv_cache", preset="llama3-8b", seq_len=1000, n_heads=16, n_kv_heads=8)
    assert 2 * fewer_heads["score_flops_per_token"] == v["score_flops_per_token"]


@pytest.mark.parametrize(
    "args",
    [
        {"preset": "llama3-8b"},
        {"preset": "gpt2-small", "dtype": "float32"},
        {"preset": "mistral-7b", "n_kv_heads": 16, "head_dim": 64},
    ],
)
def test_kv_cache_measured_on_a_forward_pass_ignores_vocab_and_d_ff(args: dict) -> None:
    """Hooks on k_proj and v_proj read what a layer keeps per token: the formula's figure,
    and unchanged when the vocabulary or the FFN doubles."""
    v = values("kv_cache", **args)
    assert v["layer_kv_bytes_per_token"] == v["bytes_per_token_per_layer"]
    assert v["layer_kv_bytes_per_token_vocab_doubled"] == v["layer_kv_bytes_per_token"]
    assert v["layer_kv_bytes_per_token_d_ff_doubled"] == v["layer_kv_bytes_per_token"]
    twice = {"n_kv_heads": 2 * v["n_kv_heads"], "n_heads": 2 * v["n_heads"]}
    more_kv = values("kv_cache", **{**args, **twice})
    assert more_kv["layer_kv_bytes_per_token"] == 2 * v["layer_kv_bytes_per_token"]


def test_kv_cache_scales_with_batch_length_and_dtype() -> None:
    base = values("kv_cache", preset="llama3-8b")["kv_cache_bytes"]
    assert base == 536_870_912  # 32 layers × 8 KV heads × 128 × 4096 × 2 × 2 bytes
    assert (
        values("kv_cache", preset="llama3-8b", batch=32, seq_len=8192)["kv_cache_bytes"]
        == 64 * base
    )
    assert values("kv_cache", preset="llama3-8b", dtype="float32")["kv_cache_bytes"] == 2 * base
    assert (
        values("kv_cache", preset="llama3-8b", dtype="float8_e4m3fn")["kv_cache_bytes"] == base // 2
    )
    assert values("kv_cache", preset="llama3-8b", n_kv_heads=1)["kv_cache_bytes"] == base // 8


def test_kv_cache_explicit_shape_and_the_rolling_buffer() -> None:
    v = values(
        "kv_cache", n_layers=2, n_heads=4, n_kv_heads=2, head_dim=8, seq_len=10, dtype="float32"
    )
    assert v["kv_cache_bytes"] == 2 * 2 * 2 * 8 * 10 * 4
    mistral = values("kv_cache", preset="mistral-7b", seq_len=32768)
    assert mistral["kv_cache_bytes"] == 8 * mistral["rolling_buffer_bytes"]  # window 4096
    # A multi-head preset given fewer heads stays multi-head.
    assert values("kv_cache", preset="gpt2-small", n_heads=6)["n_kv_heads"] == 6


@pytest.mark.parametrize(
    ("args", "culprit"),
    [
        ({"n_heads": 32, "n_kv_heads": 3}, "n_kv_heads"),
        ({"preset": "llama2-70b", "n_kv_heads": 3}, "n_kv_heads"),  # 64 heads: 3 does not divide
        ({"preset": "llama2-70b", "n_heads": 12}, "n_heads"),  # its 8 KV heads do not divide 12
        ({"seq_len": 10**7}, "seq_len"),
        ({"dtype": "float64"}, "dtype"),
        ({"preset": "bert-base"}, "preset"),  # an encoder keeps no cache
    ],
)
def test_kv_cache_bad_arguments_name_the_culprit(args: dict[str, object], culprit: str) -> None:
    with pytest.raises(ArgumentError) as caught:
        run("kv_cache", args)
    assert caught.value.argument == culprit and "\n" not in str(caught.value)


# -- gqa -------------------------------------------------------------------------------------------


def test_gqa_counts_and_the_sdpa_check() -> None:
    v = values("gqa", d_model=4096, n_heads=32, n_kv_heads=8)  # Llama 3 8B / Mistral 7B
    assert v["params_mha"] == 4 * 4096 * 4096
    assert v["params_gqa"] == 2 * 4096 * 4096 + 2 * 4096 * 1024
    assert v["params_mqa"] == 2 * 4096 * 4096 + 2 * 4096 * 128
    assert v["kv_saving_gqa"] == 4.0 and v["kv_saving_mqa"] == 32.0
    assert v["kv_bytes_per_token_gqa"] == 2 * 8 * 128 * 2
    assert v["matches_sdpa"] is True
    assert (
        v["sdpa_max_abs_diff"] <= v["tolerance"] and v["repeat_kv_max_abs_diff"] <= v["tolerance"]
    )


def test_gqa_with_equal_heads_is_mha() -> None:
    v = values("gqa", d_model=256, n_heads=4, n_kv_heads=4)
    assert v["params_gqa"] == v["params_mha"] and v["kv_saving_gqa"] == 1.0


def test_gqa_refuses_kv_heads_that_do_not_divide() -> None:
    with pytest.raises(ArgumentError, match="not divisible") as caught:
        run("gqa", {"n_heads": 32, "n_kv_heads": 5})
    assert caught.value.argument == "n_kv_heads"


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
@pytest.mark.parametrize("name", ["gqa", "rmsnorm", "rope_scaling", "alibi", "sliding_window"])
def test_runs_on_cuda(name: str) -> None:
    result = run(name, {}, device="cuda")
    assert result.device.startswith("cuda")
    cpu = run(name, {}, device="cpu").values
    for key in ("matches_sdpa", "matches_torch", "depends_only_on_distance", "exact_reach"):
        if key in cpu:
            assert result.values[key] == cpu[key]


# -- rmsnorm ---------------------------------------------------------------------------------------


def test_rmsnorm_does_not_centre_and_has_half_the_parameters() -> None:
    v = values("rmsnorm", d_model=64, offset=3.0, n_tokens=16)
    assert abs(v["layernorm_output_mean"]) < 1e-5
    assert v["rmsnorm_output_mean"] > 0.9  # shifted by 3 against noise of std 1: mean ≈ 3/√10
    assert v["rmsnorm_output_rms"] == pytest.approx(1.0, abs=1e-4)
    assert v["layernorm_shift_change"] < 1e-5 < v["rmsnorm_shift_change"]
    assert v["rmsnorm_scale_change"] < 1e-4 and v["layernorm_scale_change"] < 1e-4
    assert (v["rmsnorm_params"], v["layernorm_params"]) == (64, 128)
    assert v["matches_torch"] is True


@pytest.mark.parametrize("n_tokens", [1, 2, 16])
def test_rmsnorm_gives_a_token_the_same_output_alone_or_in_its_batch(n_tokens: int) -> None:
    assert values("rmsnorm", d_model=16, n_tokens=n_tokens)["rmsnorm_batch_change"] < 1e-12


def test_rmsnorm_without_a_shift_has_a_small_mean() -> None:
    v = values("rmsnorm", d_model=4096, offset=0.0, n_tokens=8)
    assert abs(v["rmsnorm_output_mean"]) < 0.05


# -- rope_scaling ----------------------------------------------------------------------------------


def test_llama3_scaling_at_four_times_the_original_length() -> None:
    v = values("rope_scaling")  # Llama 3.1: base 500000, factor 8, 1, 4, 8192; distance 32768
    assert (v["pairs_unchanged"], v["pairs_slowed_by_factor"], v["pairs_blended"]) == (29, 29, 6)
    assert v["effective_context"] == 65536
    assert v["unseen_pairs_before"] > 0 and v["unseen_pairs_after"] == 0
    assert v["frequency_max_after"] == v["frequency_max_before"] == 1.0
    assert v["frequency_min_after"] == pytest.approx(v["frequency_min_before"] / 8)
    assert v["score_drift_before"] < 1e-3 and v["score_drift_after"] < 1e-3


def test_linear_scaling_slows_every_pair() -> None:
    v = values(
        "rope_scaling",
        method="linear",
        factor=4.0,
        base=10000.0,
        original_max_position_embeddings=4096,
        position=16000,
    )
    assert v["pairs_slowed_by_factor"] == v["n_pairs"] == 64 and v["pairs_unchanged"] == 0
    assert v["unseen_pairs_after"] == 0  # 16000 / 4 < 4096: every angle was seen in training


def test_ntk_scaling_keeps_the_fastest_pair_and_slows_the_slowest_by_the_factor() -> None:
    v = values("rope_scaling", method="ntk", factor=8.0)
    assert v["frequency_max_after"] == 1.0
    assert v["frequency_min_after"] == pytest.approx(v["frequency_min_before"] / 8, rel=1e-12)


def test_rope_scaling_refuses_high_below_low() -> None:
    with pytest.raises(ArgumentError, match="larger than low_freq_factor") as caught:
        run("rope_scaling", {"low_freq_factor": 4.0, "high_freq_factor": 1.0})
    assert caught.value.argument == "high_freq_factor"
    with pytest.raises(ArgumentError, match="even"):
        run("rope_scaling", {"head_dim": 127})


# -- alibi -----------------------------------------------------------------------------------------


def test_alibi_eight_heads() -> None:
    v = values("alibi", n_heads=8, distance=10)
    assert v["slope_first"] == 0.5 and v["slope_last"] == 1 / 256 and v["slope_ratio"] == 0.5
    assert v["bias_at_distance_first_head"] == -5.0
    assert v["bias_at_distance_last_head"] == -10 / 256
    assert v["depends_only_on_distance"] is True and v["is_power_of_two"] is True
    assert v["weight_on_first_token_first_head"] < v["weight_on_first_token_last_head"]


def test_alibi_twelve_heads_follow_the_non_power_of_two_rule() -> None:
    v = values("alibi", n_heads=12)
    slopes = [float(s) for s in str(v["slopes"]).split(",")]
    assert slopes[:8] == [2.0**-i for i in range(1, 9)]
    assert slopes[8:] == pytest.approx([2**-0.5, 2**-1.5, 2**-2.5, 2**-3.5], rel=1e-5)
    assert v["is_power_of_two"] is False


# -- sliding_window --------------------------------------------------------------------------------


def test_mistral_window_reach_and_memory() -> None:
    v = values("sliding_window")  # window 4096, 32 layers, 32768 tokens
    assert v["receptive_field"] == 131_072
    assert v["exact_reach"] == 32 * 4095
    assert v["keys_per_query"] == 4096 and v["cache_saving"] == 8.0  # Mistral 7B §2: 8× at 32k
    assert v["score_entries_full"] == 32768 * 32769 // 2
    assert v["mask_matches_definition"] is True


def test_a_window_covering_the_sequence_saves_nothing() -> None:
    v = values("sliding_window", window=100, n_layers=2, seq_len=50)
    assert v["keys_per_query"] == 50 and v["cache_saving"] == 1.0 and v["attention_saving"] == 1.0
    assert v["exact_reach"] == 2 * 99


def test_rmsnorm_matches_torch_however_far_the_tokens_are_shifted() -> None:
    """Rounding in float32's mean subtraction once made a large shift look like a mismatch."""
    for offset in (0.0, 100.0, -1000.0):
        result = values("rmsnorm", offset=offset)
        assert result["matches_torch"], offset
        assert result["layernorm_shift_change"] < 1e-9


def test_alibi_names_the_steepest_and_the_gentlest_slope_for_any_head_count() -> None:
    """Past a power of two the slopes interleave, so the last head's is not the smallest."""
    summary = run("alibi", {"n_heads": 12}).summary
    assert "**0.707107** down to **0.00390625**" in summary.replace(",", "")
