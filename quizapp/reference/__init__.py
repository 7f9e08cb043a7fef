"""A small, readable reference implementation of the transformer pieces the quizzes ask about.

Read in this order: attention.py, positional.py, normalization.py, blocks.py, stack.py,
config.py, models.py, counting.py. Only torch and the standard library are imported.
"""

from quizapp.reference.attention import MultiHeadAttention, scaled_dot_product_attention
from quizapp.reference.blocks import DecoderBlock, FeedForward, TransformerBlock
from quizapp.reference.config import PRESETS, ModelConfig, get_config
from quizapp.reference.counting import count_parameters, parameter_breakdown
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
from quizapp.reference.stack import TransformerStack, to_torch_encoder, to_torch_layer

__all__ = [
    "PRESETS",
    "BatchNorm",
    "BertModel",
    "BertOutput",
    "BertPooler",
    "DecoderBlock",
    "EncoderDecoderTransformer",
    "FeedForward",
    "GPT2Model",
    "LayerNorm",
    "LearnedPositionalEmbedding",
    "LlamaModel",
    "MaskedLMHead",
    "ModelConfig",
    "MultiHeadAttention",
    "PositionOutOfRange",
    "RMSNorm",
    "RotaryEmbedding",
    "SinusoidalPositionalEncoding",
    "TransformerBlock",
    "TransformerStack",
    "build_model",
    "count_parameters",
    "get_config",
    "make_norm",
    "parameter_breakdown",
    "scaled_dot_product_attention",
    "sinusoidal_encoding",
    "to_torch_encoder",
    "to_torch_layer",
]
