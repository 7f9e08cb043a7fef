# Over 500 lines: a table of declarations, one entry per computation; data, not logic.
"""Every live computation, declared in one place: name, arguments with bounds, promised values.

Pure Python. The implementations live in `lab/` and import torch; the runner imports them
only when a computation actually runs.
"""

from __future__ import annotations

from quizapp.experiments.discover import unknown_name_hint
from quizapp.experiments.modern_specs import MODERN_COMPUTATIONS
from quizapp.experiments.spec import (
    Arg,
    ArgumentError,
    ComputationSpec,
    divisible,
    even,
    multiple_of,
    number_list,
)

# Kept in step with quizapp.reference.config.PRESETS by a test; listed here so that checking
# a bank never imports torch.
MODEL_PRESETS = (
    "gpt2-small",
    "gpt2-medium",
    "gpt2-large",
    "gpt2-xl",
    "bert-base",
    "bert-large",
    "llama2-7b",
    "llama2-13b",
    "llama2-70b",
    "llama3-8b",
    "llama3-70b",
    "mistral-7b",
    "transformer-base",
    "transformer-big",
)
FAMILIES = ("gpt2", "bert", "llama", "transformer")
POSITIONAL = ("none", "sinusoidal", "learned", "rope")

# model_params' values that restate its configuration rather than count anything.
_CONFIGURATION = ("head_dim", "d_model", "n_layers", "n_heads", "n_kv_heads", "d_ff", "vocab_size")
_D_MODEL = {"minimum": 2, "maximum": 65536}
# layernorm_vector's `values`: kept here (not in lab/, which imports torch) for the checks.
VECTOR_LIMITS = {"at_least": 2, "at_most": 64, "magnitude": 1e6}
_HEADS = {"minimum": 1, "maximum": 1024}

COMPUTATIONS: tuple[ComputationSpec, ...] = (
    ComputationSpec(
        name="mha_params",
        title="Multi-head attention parameters",
        description="Build one wide head and h narrow heads of the same total width; count both.",
        implementation="quizapp.experiments.lab.attention:mha_params",
        args=(
            Arg("d_model", "int", 512, "model width", **_D_MODEL),
            Arg("n_heads", "int", 8, "number of heads", **_HEADS),
            Arg("bias", "bool", False, "give the projections biases"),
        ),
        values=(
            "params_single_head",
            "params_multi_head",
            "head_dim",
            "torch_nn_multihead",
            "params_separate_heads",
            "params_per_head_qkv",
        ),
        rules=(divisible("d_model", "n_heads"),),
        restated=(
            ("head_dim", "d_model // n_heads"),
            ("params_per_head_qkv", ""),  # 3 × (d_model + bias) × head_dim
        ),
    ),
    ComputationSpec(
        name="head_split",
        title="Per-head width across head counts",
        description="How the model width divides across heads, and the trade-off as heads multiply.",
        implementation="quizapp.experiments.lab.attention:head_split",
        args=(
            Arg("d_model", "int", 4096, "model width", **_D_MODEL),
            Arg("n_heads", "int", 32, "number of heads", **_HEADS),
        ),
        values=(
            "head_dim",
            "params_multi_head",
            "params_single_head",
            "params_constant",
            "chance_cosine",
            "split_roundtrip_exact",
            "max_heads_wide_enough",
            "keys_attended_per_head",
        ),
        rules=(divisible("d_model", "n_heads"),),
        restated=(("head_dim", "d_model // n_heads"), ("max_heads_wide_enough", "")),
    ),
    ComputationSpec(
        name="model_params",
        title="Whole-model parameter count",
        description="Build a model on the meta device and count its parameters, by component.",
        implementation="quizapp.experiments.lab.models:model_params",
        args=(
            Arg("preset", "choice", "gpt2-small", "a published model", choices=MODEL_PRESETS),
            Arg(
                "family",
                "choice",
                None,
                "build from a family's defaults instead",
                choices=FAMILIES,
                optional=True,
            ),
            Arg("d_model", "int", None, "model width", optional=True, **_D_MODEL),
            Arg(
                "n_layers",
                "int",
                None,
                "layers (transformer: encoder and decoder each)",
                minimum=1,
                maximum=256,
                optional=True,
            ),
            Arg("n_heads", "int", None, "attention heads", optional=True, **_HEADS),
            Arg(
                "n_kv_heads",
                "int",
                None,
                "key/value heads (grouped-query attention)",
                optional=True,
                **_HEADS,
            ),
            Arg(
                "d_ff", "int", None, "feed-forward width", minimum=1, maximum=262144, optional=True
            ),
            Arg(
                "vocab_size",
                "int",
                None,
                "vocabulary size",
                minimum=1,
                maximum=1_000_000,
                optional=True,
            ),
            Arg(
                "max_positions",
                "int",
                None,
                "context length",
                minimum=0,
                maximum=1_048_576,
                optional=True,
            ),
            Arg("tie_embeddings", "bool", None, "share input and output embeddings", optional=True),
            Arg("bias", "bool", None, "biases in linear layers", optional=True),
        ),
        values=(
            "total",
            "embeddings",
            "attention",
            "ffn",
            "norms",
            "head_dim",
            "d_model",
            "n_layers",
            "n_heads",
            "n_kv_heads",
            "d_ff",
            "vocab_size",
        ),
        rules=(divisible("d_model", "n_heads"), divisible("n_heads", "n_kv_heads")),
        # Its figures are checked against the computation by a test.
        notes="""
            `transformer-base` and `transformer-big` count 63,082,496 and 214,245,376
            parameters, where Vaswani et al. (2017, Table 3) print 65M and 213M. The paper
            rounds and does not say exactly what it counted. This build shares one 37,000-token
            embedding between the source, the target and the output projection (§3.4), and
            its layers match PyTorch's `nn.TransformerEncoderLayer` and
            `nn.TransformerDecoderLayer` parameter for parameter. 65M would take a vocabulary
            of about 40,700 tokens and 213M one of about 35,800: no one vocabulary gives both
            figures, so the gap lies in details the paper leaves out (its exact vocabulary,
            what it shared), not in the counting. The lab's summary for either preset says the
            same. With `bias: false` every linear layer has no bias, BERT's pooler included;
            LayerNorms keep theirs.
        """,
        # The configuration: the arguments given, or the preset's (no formula over arguments).
        restated=tuple((value, "") for value in _CONFIGURATION),
    ),
    ComputationSpec(
        name="permutation_demo",
        title="Attention is order-blind",
        description="Swap the words of a sentence and compare self-attention outputs, with and without positions.",
        implementation="quizapp.experiments.lab.permutation:permutation_demo",
        args=(
            Arg("sentence", "str", "dog bites man", "the original sentence"),
            Arg("swapped", "str", "man bites dog", "the same words in another order"),
            Arg("positional", "choice", "none", "positional information added", choices=POSITIONAL),
            Arg("causal", "bool", False, "apply a causal mask"),
            Arg("d_model", "int", 64, "model width", minimum=4, maximum=1024),
            Arg("n_heads", "int", 4, "number of heads", minimum=1, maximum=64),
        ),
        values=(
            "equivariance_error",
            "pooled_difference",
            "causal_equivariance_error",
            "causal_pooled_difference",
            "distinguishable",
            "unmasked_equivariance_error",
            "unmasked_pooled_difference",
            "n_words",
            "tolerance",
        ),
        rules=(divisible("d_model", "n_heads"),),
        restated=(("n_words", ""),),
        constants=("tolerance",),
    ),
    ComputationSpec(
        name="rope_relative",
        title="RoPE encodes relative position",
        description="q·k after rotary encoding depends only on the offset between positions.",
        implementation="quizapp.experiments.lab.positions:rope_relative",
        args=(
            Arg("head_dim", "int", 64, "width of one head", minimum=2, maximum=1024),
            Arg("offset", "int", 3, "distance between query and key", minimum=0, maximum=4096),
            Arg("base", "float", 10000.0, "the rotation base", minimum=2, maximum=1e7),
        ),
        values=(
            "max_offset_deviation",
            "absolute_positions_differ",
            "other_offset_difference",
            "sinusoidal_offset_error",
            "score_at_offset",
            "unrotated_score",
            "other_offset",
            "score_at_other_offset",
            "other_offset_deviation",
            "rotated_query_spread",
            "layer_shift_change",
            "rotated_values_shift_change",
            "tolerance",
        ),
        rules=(even("head_dim"),),
        restated=(("other_offset", "offset + 1"),),
        constants=("tolerance",),
    ),
    ComputationSpec(
        name="positional_extrapolation",
        title="Positions past the training length",
        description="Sinusoidal encoding exists at any position; a learned table stops at its length.",
        implementation="quizapp.experiments.lab.positions:positional_extrapolation",
        args=(
            Arg("max_positions", "int", 512, "rows in the learned table", minimum=1, maximum=65536),
            Arg("position", "int", 1000, "the position asked for", minimum=0, maximum=1_000_000),
            Arg("d_model", "int", 64, "model width", minimum=2, maximum=4096),
        ),
        values=(
            "sinusoidal_defined",
            "sinusoidal_norm",
            "learned_defined",
            "learned_message",
            "sinusoidal_norm_expected",
            "learned_last_position",
            "reference_table_error",
            "sinusoidal_params",
            "learned_params",
            "rope_params",
            "causal_mask_params",
            "learned_rows",
            "d_model",
        ),
        rules=(even("d_model"),),
        restated=(
            ("learned_rows", "max_positions"),
            ("learned_last_position", "max_positions - 1"),
            ("sinusoidal_norm_expected", "(d_model / 2) ** 0.5"),
            ("d_model", "d_model"),
        ),
    ),
    ComputationSpec(
        name="variance_drift",
        title="Activation variance through depth",
        description="Variance per layer: plain stack, residuals without norm, Post-LN and Pre-LN.",
        implementation="quizapp.experiments.lab.normalization:variance_drift",
        args=(
            Arg("n_layers", "int", 20, "depth of the stack", minimum=1, maximum=64),
            Arg("d_model", "int", 256, "model width", minimum=8, maximum=1024),
            Arg("n_tokens", "int", 256, "tokens pushed through", minimum=8, maximum=1024),
        ),
        values=(
            "plain_final",
            "residual_final",
            "post_ln_final",
            "pre_ln_final",
            "residual_doubling_ratio",
            "input_variance",
            "two_to_the_n_layers",
            "residual_vs_two_to_the_n",
            "pre_ln_growth_per_layer",
            "pre_ln_final_over_depth",
            "post_ln_max_deviation",
            "plain_max_deviation",
            "n_layers",
        ),
        restated=(("two_to_the_n_layers", "2 ** n_layers"), ("n_layers", "n_layers")),
    ),
    ComputationSpec(
        name="norm_comparison",
        title="LayerNorm versus BatchNorm",
        description="LayerNorm treats each token alone; BatchNorm's output depends on the batch.",
        implementation="quizapp.experiments.lab.layernorm:norm_comparison",
        args=(
            Arg("d_model", "int", 8, "features per token", minimum=2, maximum=4096),
            Arg("batch_size", "int", 4, "tokens in the batch", minimum=2, maximum=1024),
        ),
        values=(
            "layernorm_mean",
            "layernorm_variance",
            "layernorm_change",
            "batchnorm_change",
            "batchnorm_single_token_variance",
            "batchnorm_token_mean",
            "batchnorm_token_variance",
            "batchnorm_single_token_output",
            "batchnorm_single_token_refused",
            "layernorm_single_token_variance",
            "batchnorm_eval_change",
            "batchnorm_eval_single_token_change",
            "batchnorm_train_eval_gap",
            "batchnorm_padding_change",
            "layernorm_padding_change",
            "batchnorm_params",
        ),
    ),
    ComputationSpec(
        name="gradient_flow",
        title="Gradients at initialisation",
        description="Gradient norms across depth for Post-LN and Pre-LN, with and without residuals.",
        implementation="quizapp.experiments.lab.normalization:gradient_flow",
        args=(
            Arg("n_layers", "int", 12, "deepest stack measured", minimum=2, maximum=48),
            Arg("d_model", "int", 64, "model width", minimum=8, maximum=256),
        ),
        values=(
            "post_ln_last_ffn_grad",
            "pre_ln_last_ffn_grad",
            "pre_ln_ratio_vs_sqrt",
            "first_layer_grad_residual",
            "first_layer_grad_plain",
            "baseline_depth",
            "post_ln_depth_ratio",
            "pre_ln_depth_ratio",
            "inverse_sqrt_depth_ratio",
            "post_ln_slope",
            "pre_ln_slope",
            "first_layer_grad_ratio",
            "last_layer_grad_plain",
            "last_layer_grad_residual",
            "plain_first_over_last",
        ),
        restated=(("baseline_depth", ""), ("inverse_sqrt_depth_ratio", "")),
    ),
    ComputationSpec(
        name="attention_heads",
        title="A committee of specialist heads",
        description="Two hand-set heads: one resolves 'it' to 'animal', the other attends to neighbours.",
        implementation="quizapp.experiments.lab.attention:attention_heads",
        args=(),
        values=(
            "coreference_weight",
            "adjacency_weight",
            "coreference_target",
            "coreference_runner_up",
            "coreference_idle_max",
            "adjacency_min_weight",
            "adjacency_rows_peaking_at_neighbour",
            "it_animate_before",
            "it_animate_after",
        ),
    ),
    ComputationSpec(
        name="layernorm_vector",
        title="LayerNorm of one vector, by hand",
        description="Mean, biased and unbiased variance, and LayerNorm of a vector you give, checked against torch.",
        implementation="quizapp.experiments.lab.layernorm:layernorm_vector",
        args=(
            Arg(
                "values",
                "str",
                "2,4,6,8",
                "one token's features, comma-separated",
                max_length=1000,
            ),
            Arg("eps", "float", 1e-5, "added to the variance", minimum=1e-12, maximum=1.0),
        ),
        values=(
            "mean",
            "biased_variance",
            "unbiased_variance",
            "biased_std",
            "unbiased_std",
            "normalized_mean",
            "normalized_variance",
            "normalized_variance_if_unbiased",
            "torch_max_abs_diff",
            "n",
            "eps",
        ),
        rules=(number_list("values", **VECTOR_LIMITS),),
        restated=(("n", ""), ("eps", "eps")),
    ),
    ComputationSpec(
        name="ln_placement",
        title="Post-LN versus Pre-LN",
        description="Where the norm sits in a block, the final LayerNorm Pre-LN stacks add, checked against torch.",
        implementation="quizapp.experiments.lab.placement:ln_placement",
        args=(
            Arg("n_layers", "int", 6, "blocks in each stack", minimum=1, maximum=24),
            Arg("d_model", "int", 64, "model width", minimum=8, maximum=128),
        ),
        values=(
            "post_ln_norm_count",
            "pre_ln_norm_count",
            "post_ln_affine_norm_count",
            "pre_ln_affine_norm_count",
            "post_ln_residual_count",
            "pre_ln_residual_count",
            "pre_ln_has_final_norm",
            "post_ln_has_final_norm",
            "post_ln_output_is_normalized",
            "pre_ln_residual_stream_variance",
            "post_ln_output_variance",
            "pre_ln_output_variance",
            "pre_ln_stream_growth_per_layer",
            "input_variance",
            "torch_post_ln_norm_count",
            "torch_pre_ln_norm_count",
            "post_ln_torch_max_abs_diff",
            "pre_ln_torch_max_abs_diff",
            "post_ln_order_matches_torch",
            "pre_ln_order_matches_torch",
            "n_layers",
        ),
        restated=(("n_layers", "n_layers"),),
        # torch's encoder is converted from our stack (to_torch_encoder), norms and all: its
        # LayerNorm count repeats ours by construction. The outputs' max_abs_diff is the check.
        aliases=(
            ("torch_post_ln_norm_count", "post_ln_norm_count"),
            ("torch_pre_ln_norm_count", "pre_ln_norm_count"),
        ),
    ),
    ComputationSpec(
        name="residual_passthrough",
        title="An idle layer passes its input through",
        description="A block whose sub-layers output zero: with a residual it returns x exactly, without one it loses x.",
        implementation="quizapp.experiments.lab.placement:residual_passthrough",
        args=(
            Arg("d_model", "int", 64, "model width", minimum=4, maximum=256),
            Arg("n_tokens", "int", 8, "tokens pushed through", minimum=1, maximum=512),
        ),
        values=(
            "residual_passthrough_error",
            "pre_ln_passthrough_error",
            "post_ln_passthrough_error",
            "plain_idle_output_norm",
            "input_norm",
            "post_ln_vs_layernorm_of_input",
            "idle_sublayer_output",
            "torch_pre_ln_passthrough_error",
            "torch_post_ln_passthrough_error",
        ),
    ),
    ComputationSpec(
        name="head_parallelism",
        title="More heads, same cost",
        description="Parameters and attention FLOPs across head counts, counted; all heads run in one batched matmul.",
        implementation="quizapp.experiments.lab.parallelism:head_parallelism",
        args=(
            Arg("d_model", "int", 512, "model width", minimum=8, maximum=65536),
            Arg("seq_len", "int", 128, "tokens in the sequence", minimum=1, maximum=32768),
        ),
        values=(
            "params_constant",
            "total_flops_constant",
            "head_dim_at_8",
            "max_heads",
            "params_1_head",
            "params_8_heads",
            "projection_flops_constant",
            "torch_params_agree",
            "attention_flops_1_head",
            "attention_flops_8_heads",
            "attention_flops_per_head_at_8",
            "qk_flops_per_head_at_8",
            "av_flops_per_head_at_8",
            "projection_flops",
            "flop_formula_agrees",
            "matmul_calls_per_forward",
            "matmul_calls_constant",
        ),
        rules=(multiple_of("d_model", 8),),
        restated=(("head_dim_at_8", "d_model // 8"), ("max_heads", "")),
    ),
    ComputationSpec(
        name="learned_table_coverage",
        title="A long input against a learned position table",
        description="Look up every position of an input in a learned table; count the tokens left without a row.",
        implementation="quizapp.experiments.lab.positional_encoding_scenarios:learned_table_coverage",
        args=(
            Arg("max_positions", "int", 512, "rows in the learned table", minimum=1, maximum=8192),
            Arg("seq_len", "int", 700, "tokens in the input", minimum=1, maximum=8192),
            Arg("d_model", "int", 768, "model width", minimum=1, maximum=1024),
        ),
        values=(
            "tokens_past_table",
            "tokens_with_row",
            "first_missing_position",
            "table_params",
        ),
    ),
)

COMPUTATIONS += MODERN_COMPUTATIONS  # issue 24: KV cache, GQA, RMSNorm, RoPE scaling, ALiBi

REGISTRY: dict[str, ComputationSpec] = {spec.name: spec for spec in COMPUTATIONS}


def get_spec(name: str) -> ComputationSpec:
    try:
        return REGISTRY[name]
    except KeyError:
        raise ArgumentError(
            f"unknown computation {name!r}{unknown_name_hint(name, COMPUTATIONS)}"
        ) from None
