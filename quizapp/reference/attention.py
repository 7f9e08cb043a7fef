"""Scaled dot-product attention and multi-head attention, written out step by step.

Shape names used in comments:
    batch     sequences in the batch
    heads     attention heads (n_heads)
    kv_heads  key/value heads (n_kv_heads; equal to heads unless grouped-query attention)
    seq_q     query positions; seq_k key/value positions (equal for self-attention)
    head_dim  d_model // n_heads
"""

import math

import torch
from torch import Tensor, nn

from quizapp.reference.positional import RotaryEmbedding


def scaled_dot_product_attention(
    q: Tensor,
    k: Tensor,
    v: Tensor,
    mask: Tensor | None = None,
    causal: bool = False,
) -> tuple[Tensor, Tensor]:
    """softmax(Q Kᵀ / √d_k) V  (Vaswani et al. 2017, eq. 1).

    q: [..., seq_q, d_k], k: [..., seq_k, d_k], v: [..., seq_k, d_v].
    mask: broadcastable to [..., seq_q, seq_k]. A bool mask is True where attention is *allowed*
        (the torch.nn.functional.scaled_dot_product_attention convention); a float mask is added
        to the scores.
    causal: query i may only look at keys 0..i (top-left aligned, like torch's is_causal).

    Returns (output [..., seq_q, d_v], weights [..., seq_q, seq_k]). A query row whose keys are
    all masked has no defined softmax and comes out as NaN, as in PyTorch.
    """
    d_k = q.shape[-1]
    # Dividing by √d_k keeps the score variance ~1 when q and k have unit-variance entries;
    # without it the softmax saturates as d_k grows and its gradients vanish. Scaling q before
    # the product gives the same scores while touching seq_q·d_k numbers, not seq_q·seq_k.
    scores = (q / math.sqrt(d_k)) @ k.transpose(-2, -1)  # [..., seq_q, seq_k]

    if causal:
        seq_q, seq_k = scores.shape[-2:]
        allowed = torch.ones(seq_q, seq_k, dtype=torch.bool, device=scores.device).tril()
        # -inf becomes exactly 0 after the softmax, so future keys get no weight at all.
        scores = scores.masked_fill(~allowed, float("-inf"))
    if mask is not None:
        if mask.dtype == torch.bool:
            scores = scores.masked_fill(~mask, float("-inf"))
        else:
            scores = scores + mask

    weights = scores.softmax(dim=-1)  # [..., seq_q, seq_k], each row sums to 1
    return weights @ v, weights  # [..., seq_q, d_v]


def repeat_kv(x: Tensor, group: int) -> Tensor:
    """[batch, kv_heads, seq, head_dim] -> [batch, kv_heads * group, seq, head_dim].

    Each key/value head is repeated `group` times in place, so query head h meets key/value head
    h // group: heads 0..group-1 share kv head 0, the next `group` share kv head 1, and so on.
    This is the layout of torch's scaled_dot_product_attention(enable_gqa=True) and Meta's Llama.
    """
    return x if group == 1 else x.repeat_interleave(group, dim=1)


def grouped_query_attention(
    q: Tensor,
    k: Tensor,
    v: Tensor,
    mask: Tensor | None = None,
    causal: bool = False,
) -> tuple[Tensor, Tensor]:
    """Attention with fewer key/value heads than query heads.

    Ainslie et al. 2023, "GQA: Training Generalized Multi-Query Transformer Models from
    Multi-Head Checkpoints", §2.2: the query heads are split into kv_heads groups and every head
    of a group uses the group's one key and value head. kv_heads = heads is multi-head attention;
    kv_heads = 1 is multi-query attention (Shazeer 2019, "Fast Transformer Decoding: One
    Write-Head is All You Need", §3). Only K and V shrink, and with them the KV cache: the
    scores and the output still have one row per query head.

    q: [batch, heads, seq_q, head_dim]; k, v: [batch, kv_heads, seq_k, head_dim], with kv_heads
    dividing heads. mask and causal as in scaled_dot_product_attention.
    Returns (output [batch, heads, seq_q, head_dim], weights [batch, heads, seq_q, seq_k]).
    """
    heads, kv_heads = q.shape[-3], k.shape[-3]
    if kv_heads < 1 or heads % kv_heads or v.shape[-3] != kv_heads:
        raise ValueError(
            f"{heads} query heads cannot be shared out over {kv_heads} key/value heads: "
            "n_kv_heads must divide n_heads"
        )
    group = heads // kv_heads
    return scaled_dot_product_attention(
        q, repeat_kv(k, group), repeat_kv(v, group), mask=mask, causal=causal
    )


class MultiHeadAttention(nn.Module):
    """Multi-head attention with separate Q, K, V and output projections.

    n_kv_heads < n_heads gives grouped-query attention (Ainslie et al. 2023, used by
    Llama-2-70B, Llama 3 and Mistral 7B); n_kv_heads = 1 is multi-query attention. Each
    key/value head is shared by n_heads // n_kv_heads consecutive query heads (see
    grouped_query_attention); k_proj and v_proj are n_kv_heads * head_dim wide.
    """

    def __init__(
        self, d_model: int, n_heads: int, bias: bool = True, n_kv_heads: int | None = None
    ) -> None:
        super().__init__()
        n_kv_heads = n_heads if n_kv_heads is None else n_kv_heads
        if d_model % n_heads != 0:
            raise ValueError(
                f"d_model ({d_model}) must be divisible by n_heads ({n_heads}): "
                "each head gets an equal d_model // n_heads slice"
            )
        if n_heads % n_kv_heads != 0:
            raise ValueError(
                f"n_heads ({n_heads}) must be divisible by n_kv_heads ({n_kv_heads}): "
                "each key/value head serves an equal group of query heads"
            )
        self.d_model = d_model
        self.n_heads = n_heads
        self.n_kv_heads = n_kv_heads
        self.head_dim = d_model // n_heads

        # All heads live side by side in one matrix: output columns h*head_dim..(h+1)*head_dim
        # belong to head h.
        self.q_proj = nn.Linear(d_model, n_heads * self.head_dim, bias=bias)
        self.k_proj = nn.Linear(d_model, n_kv_heads * self.head_dim, bias=bias)
        self.v_proj = nn.Linear(d_model, n_kv_heads * self.head_dim, bias=bias)
        self.out_proj = nn.Linear(n_heads * self.head_dim, d_model, bias=bias)

    def _split_heads(self, x: Tensor, n_heads: int) -> Tensor:
        batch, seq, _ = x.shape
        # [batch, seq, heads * head_dim] -> [batch, heads, seq, head_dim]
        return x.view(batch, seq, n_heads, self.head_dim).transpose(1, 2)

    def forward(
        self,
        x: Tensor,
        kv: Tensor | None = None,
        causal: bool = False,
        rope: RotaryEmbedding | None = None,
        positions: Tensor | None = None,
        key_padding_mask: Tensor | None = None,
    ) -> tuple[Tensor, Tensor]:
        """x: [batch, seq_q, d_model]; kv: [batch, seq_k, d_model] for cross-attention
        (default: x itself). rope rotates q and k at `positions` (default 0..seq-1).
        key_padding_mask: [batch, seq_k], True marks padding keys to ignore (the
        torch.nn.MultiheadAttention convention).

        Returns (output [batch, seq_q, d_model], weights [batch, heads, seq_q, seq_k]).
        """
        if rope is not None and kv is not None:
            raise ValueError(
                "rope is for self-attention; queries and keys here have no shared axis"
            )
        batch, seq_q, _ = x.shape
        source = x if kv is None else kv

        q = self._split_heads(self.q_proj(x), self.n_heads)  # [batch, heads, seq_q, head_dim]
        k = self._split_heads(self.k_proj(source), self.n_kv_heads)  # [batch, kv_heads, seq_k, hd]
        v = self._split_heads(self.v_proj(source), self.n_kv_heads)  # [batch, kv_heads, seq_k, hd]

        if rope is not None:
            # Rotate after projecting: position then enters only through the q·k dot product,
            # which is what makes the score depend on the offset m - n. V is never rotated.
            q = rope(q, positions)
            k = rope(k, positions)

        mask = None
        if key_padding_mask is not None:
            mask = ~key_padding_mask[:, None, None, :]  # [batch, 1, 1, seq_k], True = may attend

        # Query head h reads key/value head h // (n_heads // n_kv_heads); equal counts: plain MHA.
        out, weights = grouped_query_attention(q, k, v, mask=mask, causal=causal)
        # Concatenate heads back: [batch, heads, seq_q, head_dim] -> [batch, seq_q, d_model]
        out = out.transpose(1, 2).reshape(batch, seq_q, self.n_heads * self.head_dim)
        return self.out_proj(out), weights
