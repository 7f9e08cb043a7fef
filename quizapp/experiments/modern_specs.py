"""The computations behind today's attention (issue 24): the KV cache, grouped-query attention,
RMSNorm, RoPE scaling, ALiBi and sliding windows. Pure Python, like registry.py, which appends
these to COMPUTATIONS; the implementations live in lab/modern_attention.py, lab/modern_positions.py
and lab/rmsnorm.py."""

from __future__ import annotations

from collections.abc import Mapping

from quizapp.experiments.spec import Arg, ArgValue, ComputationSpec, divisible, even

# Decoder-only presets (a KV cache is a decoder's); a test keeps them among MODEL_PRESETS.
DECODER_PRESETS = (
    "gpt2-small",
    "gpt2-medium",
    "gpt2-large",
    "gpt2-xl",
    "llama2-7b",
    "llama2-13b",
    "llama2-70b",
    "llama3-8b",
    "llama3-70b",
    "mistral-7b",
)
# The names of quizapp.reference.kv_cache.DTYPES (a test keeps them in step).
DTYPES = ("float32", "float16", "bfloat16", "float8_e4m3fn", "int8")
ROPE_SCALINGS = ("llama3", "linear", "ntk")

_HEADS = {"minimum": 1, "maximum": 1024}
_SEQ = {"minimum": 1, "maximum": 1_048_576}


def _high_above_low(args: Mapping[str, ArgValue | None]) -> tuple[str, str] | None:
    """`high_freq_factor` must be larger than `low_freq_factor`"""
    low, high = args.get("low_freq_factor"), args.get("high_freq_factor")
    if isinstance(low, int | float) and isinstance(high, int | float) and not high > low:
        return "high_freq_factor", (
            f"high_freq_factor ({high:g}) must be larger than low_freq_factor ({low:g})"
        )
    return None


MODERN_COMPUTATIONS: tuple[ComputationSpec, ...] = (
    ComputationSpec(
        name="kv_cache",
        title="The KV cache",
        description="Bytes a decoder keeps per token and for a whole sequence, by dtype, against MHA and MQA.",
        implementation="quizapp.experiments.lab.modern_attention:kv_cache",
        args=(
            Arg("preset", "choice", "llama2-7b", "a published decoder", choices=DECODER_PRESETS),
            Arg("n_layers", "int", None, "layers", optional=True, minimum=1, maximum=256),
            Arg("n_heads", "int", None, "query heads", optional=True, **_HEADS),
            Arg("n_kv_heads", "int", None, "key/value heads", optional=True, **_HEADS),
            Arg("head_dim", "int", None, "width of one head", optional=True, **_HEADS),
            Arg("seq_len", "int", 4096, "tokens cached per sequence", **_SEQ),
            Arg("batch", "int", 1, "sequences in the batch", minimum=1, maximum=4096),
            Arg("dtype", "choice", "float16", "the cache's number format", choices=DTYPES),
        ),
        values=(
            "kv_cache_bytes",
            "kv_cache_gib",
            "bytes_per_token",
            "bytes_per_token_per_layer",
            "mha_equivalent_bytes",
            "mqa_bytes",
            "gqa_saving",
            "rolling_buffer_bytes",
            "formula_agrees",
            "score_flops_per_token",
            "mha_score_flops_per_token",
            "layer_kv_bytes_per_token",
            "layer_kv_bytes_per_token_vocab_doubled",
            "layer_kv_bytes_per_token_d_ff_doubled",
            "dtype_bytes",
            "n_layers",
            "n_heads",
            "n_kv_heads",
            "head_dim",
        ),
        rules=(divisible("n_heads", "n_kv_heads"),),
        restated=(
            ("dtype_bytes", ""),
            ("n_layers", ""),
            ("n_heads", ""),
            ("n_kv_heads", ""),
            ("head_dim", ""),
        ),
        notes="""
            The cache holds K and V for every layer, KV head and token: 2 × n_layers ×
            n_kv_heads × head_dim × seq_len × batch × bytes. It is built on the meta device as
            per-layer buffers and their bytes are counted; `formula_agrees` checks the count
            against that formula. `rolling_buffer_bytes` is Mistral's rolling buffer (Mistral 7B
            §2: at most `sliding_window` positions kept) and equals `kv_cache_bytes` for a model
            without a sliding window.
        """,
    ),
    ComputationSpec(
        name="gqa",
        title="Grouped-query attention",
        description="Parameters and KV cache of MHA, GQA and MQA at one width; the output checked against torch's SDPA.",
        implementation="quizapp.experiments.lab.modern_attention:gqa",
        args=(
            Arg("d_model", "int", 4096, "model width", minimum=2, maximum=65536),
            Arg("n_heads", "int", 32, "query heads", **_HEADS),
            Arg("n_kv_heads", "int", 8, "key/value heads (GQA)", **_HEADS),
            Arg("seq_len", "int", 4096, "tokens cached", **_SEQ),
            Arg("dtype", "choice", "float16", "the cache's number format", choices=DTYPES),
        ),
        values=(
            "params_mha",
            "params_gqa",
            "params_mqa",
            "params_saved_gqa",
            "kv_bytes_per_token_mha",
            "kv_bytes_per_token_gqa",
            "kv_bytes_per_token_mqa",
            "kv_cache_bytes_mha",
            "kv_cache_bytes_gqa",
            "kv_cache_bytes_mqa",
            "kv_saving_gqa",
            "kv_saving_mqa",
            "group_size",
            "sdpa_max_abs_diff",
            "repeat_kv_max_abs_diff",
            "matches_sdpa",
            "tolerance",
        ),
        rules=(divisible("d_model", "n_heads"), divisible("n_heads", "n_kv_heads")),
        restated=(("group_size", "n_heads // n_kv_heads"),),
        constants=("tolerance",),
    ),
    ComputationSpec(
        name="rmsnorm",
        title="RMSNorm against LayerNorm",
        description="RMSNorm and LayerNorm on the same shifted input: what each removes, their parameters, the match with torch.",
        implementation="quizapp.experiments.lab.rmsnorm:rmsnorm",
        args=(
            Arg("d_model", "int", 8, "features per token", minimum=2, maximum=8192),
            Arg(
                "offset",
                "float",
                2.0,
                "a constant added to every feature",
                minimum=-1000,
                maximum=1000,
            ),
            Arg("n_tokens", "int", 4, "tokens normalised", minimum=1, maximum=1024),
            Arg("eps", "float", 1e-6, "added under the root", minimum=1e-12, maximum=1.0),
        ),
        values=(
            "input_mean",
            "rmsnorm_output_mean",
            "layernorm_output_mean",
            "rmsnorm_output_rms",
            "layernorm_output_std",
            "rmsnorm_shift_change",
            "layernorm_shift_change",
            "rmsnorm_scale_change",
            "layernorm_scale_change",
            "rmsnorm_batch_change",
            "rmsnorm_params",
            "layernorm_params",
            "torch_rmsnorm_max_abs_diff",
            "torch_layernorm_max_abs_diff",
            "matches_torch",
            "tolerance",
        ),
        constants=("tolerance",),
    ),
    ComputationSpec(
        name="rope_scaling",
        title="RoPE scaling",
        description="Rotation frequencies before and after linear, NTK-aware or Llama 3 scaling, and what a position past the original length meets.",
        implementation="quizapp.experiments.lab.modern_positions:rope_scaling",
        args=(
            Arg(
                "method",
                "choice",
                "llama3",
                "how the frequencies are scaled",
                choices=ROPE_SCALINGS,
            ),
            Arg(
                "factor", "float", 8.0, "how many times longer the context", minimum=1, maximum=128
            ),
            Arg("head_dim", "int", 128, "width of one head", minimum=4, maximum=1024),
            Arg("base", "float", 500000.0, "rope_theta", minimum=2, maximum=1e9),
            Arg(
                "low_freq_factor",
                "float",
                1.0,
                "llama3: below this many turns, slow fully",
                minimum=0.01,
                maximum=1000,
            ),
            Arg(
                "high_freq_factor",
                "float",
                4.0,
                "llama3: above this many turns, keep",
                minimum=0.01,
                maximum=1000,
            ),
            Arg(
                "original_max_position_embeddings",
                "int",
                8192,
                "the context trained on",
                minimum=2,
                maximum=1_048_576,
            ),
            Arg(
                "position",
                "int",
                32768,
                "a distance to look at (default 4× the original)",
                minimum=0,
                maximum=16_777_216,
            ),
        ),
        values=(
            "frequency_max_before",
            "frequency_max_after",
            "frequency_min_before",
            "frequency_min_after",
            "longest_wavelength_before",
            "longest_wavelength_after",
            "pairs_unchanged",
            "pairs_slowed_by_factor",
            "pairs_blended",
            "effective_context",
            "unseen_pairs_before",
            "unseen_pairs_after",
            "score_drift_before",
            "score_drift_after",
            "n_pairs",
        ),
        rules=(even("head_dim"), _high_above_low),
        restated=(
            ("effective_context", "factor * original_max_position_embeddings"),
            ("n_pairs", "head_dim // 2"),
        ),
        notes="""
            A pair is *unseen* at `position` when its rotation angle there is larger than any it
            reached within the original context and it never completed a turn there: the model
            was never trained on that angle. After scaling the angle is the scaled one, compared
            with what the unscaled model saw in training. `score_drift_*` is how far q·k at
            distance `position` moves when both tokens are shifted to other absolute positions
            (in float32): RoPE's score depends only on the distance, up to rounding, with or
            without scaling.
        """,
    ),
    ComputationSpec(
        name="alibi",
        title="ALiBi's linear biases",
        description="Per-head slopes (with the non-power-of-two rule), the bias at a distance, and that it depends only on the distance.",
        implementation="quizapp.experiments.lab.modern_positions:alibi",
        args=(
            Arg("n_heads", "int", 8, "attention heads", minimum=1, maximum=256),
            Arg(
                "distance", "int", 10, "query position minus key position", minimum=0, maximum=16384
            ),
            Arg("seq_len", "int", 8, "positions in the bias matrix", minimum=2, maximum=64),
        ),
        values=(
            "slope_first",
            "slope_last",
            "slope_ratio",
            "slopes",
            "bias_at_distance_first_head",
            "bias_at_distance_last_head",
            "depends_only_on_distance",
            "weight_on_first_token_first_head",
            "weight_on_first_token_last_head",
            "is_power_of_two",
        ),
        restated=(("is_power_of_two", ""),),
    ),
    ComputationSpec(
        name="sliding_window",
        title="Sliding-window attention",
        description="The banded causal mask, the receptive field after L layers, and the memory against full attention.",
        implementation="quizapp.experiments.lab.modern_attention:sliding_window",
        args=(
            Arg(
                "window",
                "int",
                4096,
                "keys each query may see, itself included",
                minimum=1,
                maximum=1_048_576,
            ),
            Arg("n_layers", "int", 32, "layers stacked", minimum=1, maximum=256),
            Arg("seq_len", "int", 32768, "tokens in the sequence", minimum=1, maximum=1_048_576),
        ),
        values=(
            "receptive_field",
            "exact_reach",
            "keys_per_query",
            "cache_saving",
            "score_entries_window",
            "score_entries_full",
            "attention_saving",
            "mask_matches_definition",
        ),
        restated=(("receptive_field", "n_layers * window"),),
        notes="""
            `receptive_field` is Mistral 7B's L × W (§2: 32 × 4,096 ≈ 131K). `exact_reach` walks
            the mask layer by layer: with W keys per query, itself included, information moves
            W - 1 positions per layer, so L × (W - 1) positions back (131,040 for Mistral).
            `cache_saving` is seq_len over the positions a rolling buffer keeps.
        """,
    ),
)
