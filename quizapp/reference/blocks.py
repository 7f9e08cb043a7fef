"""Feed-forward layers and transformer blocks (encoder/decoder-only, and encoder-decoder)."""

from collections.abc import Callable
from typing import Literal

import torch.nn.functional as F
from torch import Tensor, nn

from quizapp.reference.attention import MultiHeadAttention
from quizapp.reference.normalization import NormKind, make_norm
from quizapp.reference.positional import RotaryEmbedding

Activation = Literal["gelu", "gelu_tanh", "relu", "swiglu"]
NormPosition = Literal["pre", "post"]

_ACTIVATIONS: dict[str, Callable[[Tensor], Tensor]] = {
    "gelu": F.gelu,  # exact, erf-based (BERT)
    "gelu_tanh": lambda x: F.gelu(x, approximate="tanh"),  # GPT-2's approximation
    "relu": F.relu,  # Vaswani et al.
}


class FeedForward(nn.Module):
    """Position-wise feed-forward network, applied to each token independently.

    gelu / gelu_tanh / relu:  down_proj(act(up_proj(x)))
    swiglu (Shazeer 2020):    down_proj(silu(gate_proj(x)) * up_proj(x))
    In Meta's Llama code gate_proj, up_proj, down_proj are called w1, w3, w2.
    """

    def __init__(
        self, d_model: int, d_ff: int, activation: Activation = "gelu", bias: bool = True
    ) -> None:
        super().__init__()
        if activation not in (*_ACTIVATIONS, "swiglu"):
            raise ValueError(f"unknown activation {activation!r}")
        self.activation = activation
        if activation == "swiglu":
            # A gated FFN has a third matrix; Llama shrinks d_ff to ~8/3·d_model (not 4·d_model)
            # so the parameter count stays close to a plain FFN's.
            self.gate_proj = nn.Linear(d_model, d_ff, bias=bias)
        self.up_proj = nn.Linear(d_model, d_ff, bias=bias)
        self.down_proj = nn.Linear(d_ff, d_model, bias=bias)

    def forward(self, x: Tensor) -> Tensor:
        # x: [..., d_model] -> hidden [..., d_ff] -> [..., d_model]
        if self.activation == "swiglu":
            hidden = F.silu(self.gate_proj(x)) * self.up_proj(x)
        else:
            hidden = _ACTIVATIONS[self.activation](self.up_proj(x))
        return self.down_proj(hidden)


def _sublayer(
    x: Tensor,
    fn: Callable[[Tensor], Tensor],
    norm: nn.Module,
    position: NormPosition,
    residual: bool,
) -> Tensor:
    """One sublayer with its residual connection and norm.

    post (Vaswani, BERT):     x = Norm(x + F(x))  -- the residual stream itself is normalised
    pre  (GPT-2, Llama):      x = x + F(Norm(x))  -- only F's input is; the stream grows freely
    residual=False drops the "x +" (a plain stack); norm=Identity drops the normalisation.
    """
    if position == "pre":
        out = fn(norm(x))
        return x + out if residual else out
    out = fn(x)
    return norm(x + out if residual else out)


def _check_position(norm_position: str) -> None:
    if norm_position not in ("pre", "post"):
        raise ValueError(f"norm_position must be 'pre' or 'post', got {norm_position!r}")


class TransformerBlock(nn.Module):
    """Self-attention then feed-forward, each wrapped by `_sublayer`.

    norm=None and residual=False let an experiment build the "plain stack", "residual without
    normalisation", Post-LN and Pre-LN variants from the same code.
    """

    def __init__(
        self,
        d_model: int,
        n_heads: int,
        d_ff: int,
        norm_position: NormPosition = "pre",
        norm: NormKind | None = "layernorm",
        activation: Activation = "gelu",
        bias: bool = True,
        causal: bool = False,
        residual: bool = True,
        n_kv_heads: int | None = None,
        norm_eps: float = 1e-5,
    ) -> None:
        super().__init__()
        _check_position(norm_position)
        self.norm_position = norm_position
        self.causal = causal
        self.residual = residual
        self.attn_norm = make_norm(norm, d_model, norm_eps)
        self.attn = MultiHeadAttention(d_model, n_heads, bias=bias, n_kv_heads=n_kv_heads)
        self.ffn_norm = make_norm(norm, d_model, norm_eps)
        self.ffn = FeedForward(d_model, d_ff, activation, bias=bias)

    def forward(
        self,
        x: Tensor,
        rope: RotaryEmbedding | None = None,
        positions: Tensor | None = None,
        key_padding_mask: Tensor | None = None,
    ) -> Tensor:
        """x: [batch, seq, d_model] -> [batch, seq, d_model]."""

        def attend(h: Tensor) -> Tensor:
            out, _ = self.attn(
                h,
                causal=self.causal,
                rope=rope,
                positions=positions,
                key_padding_mask=key_padding_mask,
            )
            return out

        x = _sublayer(x, attend, self.attn_norm, self.norm_position, self.residual)
        return _sublayer(x, self.ffn, self.ffn_norm, self.norm_position, self.residual)


class DecoderBlock(nn.Module):
    """Encoder-decoder decoder layer: causal self-attention, cross-attention to the encoder
    output ("memory"), then feed-forward (Vaswani et al. 2017, §3.1)."""

    def __init__(
        self,
        d_model: int,
        n_heads: int,
        d_ff: int,
        norm_position: NormPosition = "post",
        norm: NormKind | None = "layernorm",
        activation: Activation = "relu",
        bias: bool = True,
        residual: bool = True,
        norm_eps: float = 1e-5,
    ) -> None:
        super().__init__()
        _check_position(norm_position)
        self.norm_position = norm_position
        self.residual = residual
        self.self_attn_norm = make_norm(norm, d_model, norm_eps)
        self.self_attn = MultiHeadAttention(d_model, n_heads, bias=bias)
        self.cross_attn_norm = make_norm(norm, d_model, norm_eps)
        self.cross_attn = MultiHeadAttention(d_model, n_heads, bias=bias)
        self.ffn_norm = make_norm(norm, d_model, norm_eps)
        self.ffn = FeedForward(d_model, d_ff, activation, bias=bias)

    def forward(
        self,
        x: Tensor,
        memory: Tensor,
        key_padding_mask: Tensor | None = None,
        memory_padding_mask: Tensor | None = None,
    ) -> Tensor:
        """x: [batch, tgt_seq, d_model], memory: [batch, src_seq, d_model] -> like x."""

        def self_attend(h: Tensor) -> Tensor:
            # Causal: while generating, target token t cannot have seen tokens after t.
            return self.self_attn(h, causal=True, key_padding_mask=key_padding_mask)[0]

        def cross_attend(h: Tensor) -> Tensor:
            # Queries from the decoder, keys and values from the encoder; every source token is
            # visible, so no causal mask.
            return self.cross_attn(h, kv=memory, key_padding_mask=memory_padding_mask)[0]

        pos, res = self.norm_position, self.residual
        x = _sublayer(x, self_attend, self.self_attn_norm, pos, res)
        x = _sublayer(x, cross_attend, self.cross_attn_norm, pos, res)
        return _sublayer(x, self.ffn, self.ffn_norm, pos, res)
