"""Model configurations and the published presets.

One dataclass covers all four families; `family` decides the architecture (see models.py) and
the fields only size it. Shrink a preset for experiments with dataclasses.replace, e.g.
replace(PRESETS["gpt2-small"], n_layers=2, d_model=64, n_heads=4, d_ff=256).
"""

from dataclasses import dataclass, replace
from typing import Literal

Family = Literal["gpt2", "bert", "llama", "transformer"]
FAMILIES: tuple[str, ...] = ("gpt2", "bert", "llama", "transformer")


@dataclass(frozen=True)
class ModelConfig:
    family: Family
    vocab_size: int
    d_model: int
    n_layers: int  # encoder layers for "transformer"
    n_heads: int
    d_ff: int
    max_positions: int = 1024  # context length; a learned table of this size for gpt2/bert
    n_kv_heads: int | None = None  # grouped-query attention (llama); None = n_heads
    n_decoder_layers: int | None = None  # "transformer" only; None = n_layers
    type_vocab_size: int = 2  # bert segment (sentence A/B) embeddings
    tie_embeddings: bool = True  # output projection shares the token embedding matrix
    bias: bool = True
    norm_eps: float = 1e-5
    rope_base: float = 10000.0  # llama
    sliding_window: int | None = None  # llama family: Mistral's banded mask (sliding_window.py)
    mlm_head: bool = False  # bert: add the masked-LM head (not in the published bert-base count)

    def __post_init__(self) -> None:
        if self.family not in FAMILIES:
            raise ValueError(f"unknown family {self.family!r}; expected one of {FAMILIES}")
        if self.d_model % self.n_heads != 0:
            raise ValueError(
                f"d_model ({self.d_model}) must be divisible by n_heads ({self.n_heads})"
            )

    @property
    def head_dim(self) -> int:
        return self.d_model // self.n_heads


def _gpt2(d_model: int, n_layers: int, n_heads: int) -> ModelConfig:
    # GPT-2: 50257 BPE tokens, 1024 positions, d_ff = 4·d_model, LM head tied to wte.
    return ModelConfig("gpt2", 50257, d_model, n_layers, n_heads, 4 * d_model, max_positions=1024)


def _bert(d_model: int, n_layers: int, n_heads: int) -> ModelConfig:
    # bert-*-uncased: 30522 WordPiece tokens, 512 positions, 2 segment types, LayerNorm eps 1e-12.
    return ModelConfig(
        "bert", 30522, d_model, n_layers, n_heads, 4 * d_model, max_positions=512, norm_eps=1e-12
    )


def _llama2(
    d_model: int, n_layers: int, n_heads: int, d_ff: int, n_kv_heads: int | None = None
) -> ModelConfig:
    # Llama 2: 32000 SentencePiece tokens, 4096-token context, no biases, untied output head.
    return ModelConfig(
        "llama",
        32000,
        d_model,
        n_layers,
        n_heads,
        d_ff,
        max_positions=4096,
        n_kv_heads=n_kv_heads,
        tie_embeddings=False,
        bias=False,
        norm_eps=1e-5,
    )


def _llama3(d_model: int, n_layers: int, n_heads: int, d_ff: int) -> ModelConfig:
    # Llama 3 (Meta's model cards, "The Llama 3 Herd of Models" Table 3): a 128,256-token
    # tiktoken vocabulary, 8 key/value heads at every size, RoPE base 500,000, 8,192 tokens.
    return replace(
        _llama2(d_model, n_layers, n_heads, d_ff, n_kv_heads=8),
        vocab_size=128256,
        max_positions=8192,
        rope_base=500000.0,
    )


def _transformer(d_model: int, n_heads: int, d_ff: int) -> ModelConfig:
    # Vaswani et al. 2017, WMT14 En-De: 37000 shared BPE tokens, 6 + 6 layers. The paper does not
    # give the LayerNorm eps; 1e-6 is tensor2tensor's value.
    return ModelConfig(
        "transformer", 37000, d_model, 6, n_heads, d_ff, max_positions=0, norm_eps=1e-6
    )


PRESETS: dict[str, ModelConfig] = {
    "gpt2-small": _gpt2(768, 12, 12),
    "gpt2-medium": _gpt2(1024, 24, 16),
    "gpt2-large": _gpt2(1280, 36, 20),
    "gpt2-xl": _gpt2(1600, 48, 25),
    "bert-base": _bert(768, 12, 12),
    "bert-large": _bert(1024, 24, 16),
    # Llama 2's d_ff is 8/3·d_model rounded up to a multiple of 256 (70B: times 1.3, then up
    # to a multiple of 4096); the published values are written out.
    "llama2-7b": _llama2(4096, 32, 32, 11008),
    "llama2-13b": _llama2(5120, 40, 40, 13824),
    "llama2-70b": _llama2(8192, 80, 64, 28672, n_kv_heads=8),
    "llama3-8b": _llama3(4096, 32, 32, 14336),
    "llama3-70b": _llama3(8192, 80, 64, 28672),
    # Mistral 7B v0.1 (Jiang et al. 2023, Table 1): Llama's architecture with 8 KV heads, a
    # 4,096-token sliding window and a 32,000-token vocabulary.
    "mistral-7b": replace(
        _llama2(4096, 32, 32, 14336, n_kv_heads=8), max_positions=32768, sliding_window=4096
    ),
    "transformer-base": _transformer(512, 8, 2048),
    "transformer-big": _transformer(1024, 16, 4096),
}


def get_config(name: str) -> ModelConfig:
    try:
        return PRESETS[name]
    except KeyError:
        raise KeyError(f"unknown preset {name!r}; available: {sorted(PRESETS)}") from None
