"""A small, readable reference implementation of the transformer pieces the quizzes ask about.

Read in this order: attention.py, positional.py, normalization.py, blocks.py, stack.py,
config.py, models.py, counting.py; then what today's models change: kv_cache.py,
rope_scaling.py, alibi.py, sliding_window.py. Only torch and the standard library are imported.
"""

from quizapp.reference.alibi import alibi_bias, alibi_slopes
from quizapp.reference.attention import (
    MultiHeadAttention,
    grouped_query_attention,
    repeat_kv,
    scaled_dot_product_attention,
)
from quizapp.reference.blocks import DecoderBlock, FeedForward, TransformerBlock
from quizapp.reference.config import PRESETS, ModelConfig, get_config
from quizapp.reference.counting import count_parameters, parameter_breakdown
from quizapp.reference.kv_cache import DTYPES, KVCache, dtype_bytes, kv_cache_bytes
from quizapp.reference.models import (
    BertModel,
    BertOutput,
    BertPooler,
    EncoderDecoderTransformer,
    GPT2Model,
    LlamaModel,
    MaskedLMHead,
    build_model,
)
from quizapp.reference.normalization import BatchNorm, LayerNorm, RMSNorm, make_norm
from quizapp.reference.positional import (
    LearnedPositionalEmbedding,
    PositionOutOfRange,
    RotaryEmbedding,
    SinusoidalPositionalEncoding,
    sinusoidal_encoding,
)
from quizapp.reference.rope_scaling import (
    SCALING_KINDS,
    RopeScaling,
    inverse_frequencies,
    linear_scaling,
    llama3_scaling,
    ntk_scaled_base,
    rope_frequencies,
)
from quizapp.reference.sliding_window import reach_after_layers, sliding_window_mask
from quizapp.reference.stack import TransformerStack, to_torch_encoder, to_torch_layer

__all__ = [
    "DTYPES",
    "PRESETS",
    "SCALING_KINDS",
    "BatchNorm",
    "BertModel",
    "BertOutput",
    "BertPooler",
    "DecoderBlock",
    "EncoderDecoderTransformer",
    "FeedForward",
    "GPT2Model",
    "KVCache",
    "LayerNorm",
    "LearnedPositionalEmbedding",
    "LlamaModel",
    "MaskedLMHead",
    "ModelConfig",
    "MultiHeadAttention",
    "PositionOutOfRange",
    "RMSNorm",
    "RopeScaling",
    "RotaryEmbedding",
    "SinusoidalPositionalEncoding",
    "TransformerBlock",
    "TransformerStack",
    "alibi_bias",
    "alibi_slopes",
    "build_model",
    "count_parameters",
    "dtype_bytes",
    "get_config",
    "grouped_query_attention",
    "inverse_frequencies",
    "kv_cache_bytes",
    "linear_scaling",
    "llama3_scaling",
    "make_norm",
    "ntk_scaled_base",
    "parameter_breakdown",
    "reach_after_layers",
    "repeat_kv",
    "rope_frequencies",
    "scaled_dot_product_attention",
    "sinusoidal_encoding",
    "sliding_window_mask",
    "to_torch_encoder",
    "to_torch_layer",
]
