"""Every live computation, declared in one place: name, arguments with bounds, promised values.

Pure Python. The implementations live in `lab/` and import torch; the runner imports them
only when a computation actually runs.
"""

from __future__ import annotations

import difflib

from quizapp.experiments.spec import Arg, ArgumentError, ComputationSpec, divisible, even

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
    "transformer-base",
    "transformer-big",
)
FAMILIES = ("gpt2", "bert", "llama", "transformer")
POSITIONAL = ("none", "sinusoidal", "learned", "rope")

_D_MODEL = {"minimum": 2, "maximum": 65536}
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
        values=("params_single_head", "params_multi_head", "head_dim", "torch_nn_multihead"),
        rules=(divisible("d_model", "n_heads"),),
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
        values=("head_dim", "params_multi_head"),
        rules=(divisible("d_model", "n_heads"),),
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
        values=("total", "embeddings", "attention", "ffn", "norms", "head_dim"),
        rules=(divisible("d_model", "n_heads"), divisible("n_heads", "n_kv_heads")),
    ),
    ComputationSpec(
        name="permutation_demo",
        title="Attention is order-blind",
        description="Swap the words of a sentence and compare self-attention outputs, with and without positions.",
        implementation="quizapp.experiments.lab.positions:permutation_demo",
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
        ),
        rules=(divisible("d_model", "n_heads"),),
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
        ),
        rules=(even("head_dim"),),
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
        values=("sinusoidal_defined", "sinusoidal_norm", "learned_defined", "learned_message"),
        rules=(even("d_model"),),
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
        ),
    ),
    ComputationSpec(
        name="norm_comparison",
        title="LayerNorm versus BatchNorm",
        description="LayerNorm treats each token alone; BatchNorm's output depends on the batch.",
        implementation="quizapp.experiments.lab.normalization:norm_comparison",
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
        ),
    ),
    ComputationSpec(
        name="attention_heads",
        title="A committee of specialist heads",
        description="Two hand-set heads: one resolves 'it' to 'animal', the other attends to neighbours.",
        implementation="quizapp.experiments.lab.attention:attention_heads",
        args=(),
        values=("coreference_weight", "adjacency_weight"),
    ),
)

REGISTRY: dict[str, ComputationSpec] = {spec.name: spec for spec in COMPUTATIONS}


def get_spec(name: str) -> ComputationSpec:
    try:
        return REGISTRY[name]
    except KeyError:
        close = difflib.get_close_matches(name, list(REGISTRY), n=1)
        hint = f"; did you mean {close[0]!r}?" if close else " (see 'quizapp compute --list')"
        raise ArgumentError(f"unknown computation {name!r}{hint}") from None
