"""The four model families, assembled from the blocks, and `build_model`.

    gpt2         decoder-only, learned positions, Pre-LN, GELU, final LayerNorm, tied LM head
    bert         encoder-only, learned positions + segments, Post-LN, GELU, pooler
    llama        decoder-only, RoPE, Pre-RMSNorm, SwiGLU, no biases, untied LM head
    transformer  encoder-decoder (Vaswani et al. 2017), sinusoidal positions, Post-LN, ReLU

Dropout is left out everywhere: it has no parameters and this code is used for deterministic
demonstrations, not training runs.
"""

import math
from contextlib import nullcontext
from typing import NamedTuple

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from quizapp.reference.blocks import DecoderBlock, TransformerBlock
from quizapp.reference.config import ModelConfig, get_config
from quizapp.reference.normalization import LayerNorm, RMSNorm
from quizapp.reference.positional import (
    LearnedPositionalEmbedding,
    RotaryEmbedding,
    sinusoidal_encoding,
)


def _init_weights(model: nn.Module, std: float = 0.02) -> None:
    # PyTorch's default nn.Embedding init is N(0, 1); with a tied LM head an untrained model's
    # logits would then have a std of about √d_model. GPT-2, BERT and Llama start at N(0, 0.02).
    for module in model.modules():
        if isinstance(module, nn.Linear | nn.Embedding) and module.weight.is_meta:
            continue  # a meta tensor holds no numbers to initialise (and counting needs none)
        if isinstance(module, nn.Linear | nn.Embedding):
            nn.init.normal_(module.weight, mean=0.0, std=std)
        if isinstance(module, nn.Linear) and module.bias is not None:
            nn.init.zeros_(module.bias)


def _positions(input_ids: Tensor) -> Tensor:
    return torch.arange(input_ids.shape[1], device=input_ids.device)  # [seq]


class GPT2Model(nn.Module):
    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.tok_emb = nn.Embedding(cfg.vocab_size, cfg.d_model)  # "wte"
        self.pos_emb = LearnedPositionalEmbedding(cfg.max_positions, cfg.d_model)  # "wpe"
        self.blocks = nn.ModuleList(
            TransformerBlock(
                cfg.d_model,
                cfg.n_heads,
                cfg.d_ff,
                norm_position="pre",
                norm="layernorm",
                activation="gelu_tanh",
                bias=cfg.bias,
                causal=True,
                norm_eps=cfg.norm_eps,
            )
            for _ in range(cfg.n_layers)
        )
        # Pre-LN leaves the residual stream unnormalised, so one last LayerNorm is needed
        # before the output projection.
        self.final_norm = LayerNorm(cfg.d_model, cfg.norm_eps)
        self.lm_head = nn.Linear(cfg.d_model, cfg.vocab_size, bias=False)
        _init_weights(self)
        if cfg.tie_embeddings:
            self.lm_head.weight = self.tok_emb.weight  # [vocab, d_model], one shared tensor

    def forward(self, input_ids: Tensor) -> Tensor:
        """input_ids: [batch, seq] -> logits [batch, seq, vocab]."""
        x = self.tok_emb(input_ids) + self.pos_emb(_positions(input_ids))  # [batch, seq, d]
        for block in self.blocks:
            x = block(x)
        return self.lm_head(self.final_norm(x))


class BertPooler(nn.Module):
    """dense + tanh on the first ([CLS]) token; feeds the next-sentence / classifier heads.
    `bias` follows the model's: a BERT built without biases has none here either."""

    def __init__(self, d_model: int, bias: bool = True) -> None:
        super().__init__()
        self.dense = nn.Linear(d_model, d_model, bias=bias)

    def forward(self, hidden: Tensor) -> Tensor:
        return torch.tanh(self.dense(hidden[:, 0]))  # [batch, d_model]


class MaskedLMHead(nn.Module):
    """BERT's MLM head: dense + GELU + LayerNorm, then a vocabulary projection whose weight is
    tied to the token embeddings (its per-token bias is not). Without `bias`, neither linear
    layer has one; the LayerNorm keeps its own, as the blocks' LayerNorms do."""

    def __init__(self, d_model: int, vocab_size: int, eps: float, bias: bool = True) -> None:
        super().__init__()
        self.dense = nn.Linear(d_model, d_model, bias=bias)
        self.norm = LayerNorm(d_model, eps)
        self.decoder = nn.Linear(d_model, vocab_size, bias=bias)

    def forward(self, hidden: Tensor) -> Tensor:
        return self.decoder(self.norm(F.gelu(self.dense(hidden))))  # [batch, seq, vocab]


class BertOutput(NamedTuple):
    hidden: Tensor  # [batch, seq, d_model]
    pooled: Tensor  # [batch, d_model]
    mlm_logits: Tensor | None  # [batch, seq, vocab] if the model has an MLM head


class BertModel(nn.Module):
    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.tok_emb = nn.Embedding(cfg.vocab_size, cfg.d_model)
        self.pos_emb = LearnedPositionalEmbedding(cfg.max_positions, cfg.d_model)
        self.type_emb = nn.Embedding(cfg.type_vocab_size, cfg.d_model)  # sentence A / B
        # Post-LN blocks expect a normalised input, so the embedding sum is normalised too.
        self.emb_norm = LayerNorm(cfg.d_model, cfg.norm_eps)
        self.blocks = nn.ModuleList(
            TransformerBlock(
                cfg.d_model,
                cfg.n_heads,
                cfg.d_ff,
                norm_position="post",
                norm="layernorm",
                activation="gelu",
                bias=cfg.bias,
                causal=False,
                norm_eps=cfg.norm_eps,
            )
            for _ in range(cfg.n_layers)
        )
        self.pooler = BertPooler(cfg.d_model, bias=cfg.bias)
        self.mlm_head = (
            MaskedLMHead(cfg.d_model, cfg.vocab_size, cfg.norm_eps, bias=cfg.bias)
            if cfg.mlm_head
            else None
        )
        _init_weights(self)
        if self.mlm_head is not None and cfg.tie_embeddings:
            self.mlm_head.decoder.weight = self.tok_emb.weight

    def forward(
        self,
        input_ids: Tensor,
        token_type_ids: Tensor | None = None,
        key_padding_mask: Tensor | None = None,
    ) -> BertOutput:
        """input_ids, token_type_ids: [batch, seq]; key_padding_mask: [batch, seq], True = pad."""
        if token_type_ids is None:
            token_type_ids = torch.zeros_like(input_ids)
        x = (
            self.tok_emb(input_ids)
            + self.pos_emb(_positions(input_ids))
            + self.type_emb(token_type_ids)
        )
        x = self.emb_norm(x)  # [batch, seq, d_model]
        for block in self.blocks:
            x = block(x, key_padding_mask=key_padding_mask)
        mlm_logits = self.mlm_head(x) if self.mlm_head is not None else None
        return BertOutput(x, self.pooler(x), mlm_logits)


class LlamaModel(nn.Module):
    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.tok_emb = nn.Embedding(cfg.vocab_size, cfg.d_model)
        # No position table: position enters only through RoPE inside every attention layer.
        # One parameter-free RotaryEmbedding is shared by all layers.
        self.rope = RotaryEmbedding(cfg.head_dim, cfg.rope_base)
        self.blocks = nn.ModuleList(
            TransformerBlock(
                cfg.d_model,
                cfg.n_heads,
                cfg.d_ff,
                norm_position="pre",
                norm="rmsnorm",
                activation="swiglu",
                bias=cfg.bias,
                causal=True,
                n_kv_heads=cfg.n_kv_heads,
                norm_eps=cfg.norm_eps,
            )
            for _ in range(cfg.n_layers)
        )
        self.final_norm = RMSNorm(cfg.d_model, cfg.norm_eps)
        self.lm_head = nn.Linear(cfg.d_model, cfg.vocab_size, bias=False)  # "output" in Meta's code
        _init_weights(self)
        if cfg.tie_embeddings:
            self.lm_head.weight = self.tok_emb.weight

    def forward(self, input_ids: Tensor, positions: Tensor | None = None) -> Tensor:
        """input_ids: [batch, seq] -> logits [batch, seq, vocab].

        positions: [seq] or [batch, seq] RoPE positions; default 0..seq-1.
        """
        if positions is None:
            positions = _positions(input_ids)
        x = self.tok_emb(input_ids)  # [batch, seq, d_model]
        for block in self.blocks:
            x = block(x, rope=self.rope, positions=positions)
        return self.lm_head(self.final_norm(x))


class EncoderDecoderTransformer(nn.Module):
    """Vaswani et al. 2017. One embedding matrix serves the source, the target and (tied) the
    pre-softmax projection, which works because the BPE vocabulary is shared (§3.4)."""

    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.d_model = cfg.d_model
        self.embed = nn.Embedding(cfg.vocab_size, cfg.d_model)
        self.encoder = nn.ModuleList(
            TransformerBlock(
                cfg.d_model,
                cfg.n_heads,
                cfg.d_ff,
                norm_position="post",
                norm="layernorm",
                activation="relu",
                bias=cfg.bias,
                causal=False,
                norm_eps=cfg.norm_eps,
            )
            for _ in range(cfg.n_layers)
        )
        n_dec = cfg.n_layers if cfg.n_decoder_layers is None else cfg.n_decoder_layers
        self.decoder = nn.ModuleList(
            DecoderBlock(
                cfg.d_model,
                cfg.n_heads,
                cfg.d_ff,
                norm_position="post",
                norm="layernorm",
                activation="relu",
                bias=cfg.bias,
                norm_eps=cfg.norm_eps,
            )
            for _ in range(n_dec)
        )
        self.lm_head = nn.Linear(cfg.d_model, cfg.vocab_size, bias=False)
        _init_weights(self)
        # Embeddings are multiplied by √d_model below; starting them at std 1/√d_model puts the
        # scaled token vectors on the same unit scale as the sinusoids they are added to.
        nn.init.normal_(self.embed.weight, mean=0.0, std=cfg.d_model**-0.5)
        if cfg.tie_embeddings:
            self.lm_head.weight = self.embed.weight

    def _embed(self, ids: Tensor) -> Tensor:
        x = self.embed(ids) * math.sqrt(self.d_model)  # [batch, seq, d_model]
        return x + sinusoidal_encoding(ids.shape[1], self.d_model, dtype=x.dtype, device=x.device)

    def encode(self, src_ids: Tensor, src_padding_mask: Tensor | None = None) -> Tensor:
        """src_ids: [batch, src_seq] -> memory [batch, src_seq, d_model]."""
        x = self._embed(src_ids)
        for block in self.encoder:
            x = block(x, key_padding_mask=src_padding_mask)
        return x

    def decode(
        self,
        tgt_ids: Tensor,
        memory: Tensor,
        tgt_padding_mask: Tensor | None = None,
        src_padding_mask: Tensor | None = None,
    ) -> Tensor:
        """tgt_ids: [batch, tgt_seq] -> logits [batch, tgt_seq, vocab]."""
        x = self._embed(tgt_ids)
        for block in self.decoder:
            x = block(
                x, memory, key_padding_mask=tgt_padding_mask, memory_padding_mask=src_padding_mask
            )
        return self.lm_head(x)  # Post-LN: the last block already ends in a LayerNorm

    def forward(
        self,
        src_ids: Tensor,
        tgt_ids: Tensor,
        src_padding_mask: Tensor | None = None,
        tgt_padding_mask: Tensor | None = None,
    ) -> Tensor:
        memory = self.encode(src_ids, src_padding_mask)
        return self.decode(tgt_ids, memory, tgt_padding_mask, src_padding_mask)


_FAMILIES: dict[str, type[nn.Module]] = {
    "gpt2": GPT2Model,
    "bert": BertModel,
    "llama": LlamaModel,
    "transformer": EncoderDecoderTransformer,
}


def build_model(config: ModelConfig | str, device: torch.device | str | None = None) -> nn.Module:
    """Build a model from a config or a preset name.

    device="meta" creates every parameter as shape-only metadata: a 70B model can be built and
    counted without allocating its weights. `with torch.device("meta"):` works as well.
    """
    cfg = get_config(config) if isinstance(config, str) else config
    with torch.device(device) if device is not None else nullcontext():
        return _FAMILIES[cfg.family](cfg)
