"""ALiBi: no position embedding at all, a distance penalty added to the attention scores.

Press, Smith & Lewis 2022, "Train Short, Test Long: Attention with Linear Biases Enables Input
Length Extrapolation", §3: score(i, j) = q_i·k_j / √d - m_h · (i - j) for key j ≤ i, where head
h has its own fixed slope m_h. Used by BLOOM and MPT. Nothing is learned, and the penalty is a
function of the distance i - j alone, so a longer input only meets larger distances, never an
unseen position.
"""

import math

import torch
from torch import Tensor


def _geometric_slopes(n_heads: int) -> list[float]:
    # n_heads a power of two: start at 2^(-8/n) and multiply by the same ratio each head,
    # so 8 heads get 1/2, 1/4, ..., 1/256 (§3). Written as powers of 2, not a running product,
    # so every slope is exact.
    return [2.0 ** (-8.0 * (h + 1) / n_heads) for h in range(n_heads)]


def alibi_slopes(n_heads: int) -> Tensor:
    """m_h for h = 0..n_heads-1: [n_heads], float64.

    Powers of two take the geometric sequence 2^(-8/n), 2^(-16/n), ..., 2^-8. Otherwise (the
    authors' code, which §3 points to): the slopes of the largest power of two p below n, then
    every other slope of the 2p-head sequence for the n - p heads left over. 12 heads: the 8-head
    slopes 1/2..1/256, then 2^-0.5, 2^-1.5, 2^-2.5, 2^-3.5.
    """
    if n_heads < 1:
        raise ValueError(f"n_heads must be at least 1, not {n_heads}")
    p = 2 ** math.floor(math.log2(n_heads))
    slopes = _geometric_slopes(p)
    if p != n_heads:
        slopes += _geometric_slopes(2 * p)[0::2][: n_heads - p]
    return torch.tensor(slopes, dtype=torch.float64)


def alibi_bias(n_heads: int, seq_q: int, seq_k: int | None = None) -> Tensor:
    """The bias added to the scores: [n_heads, seq_q, seq_k], float64, bias[h, i, j] = -m_h·|i-j|.

    Queries and keys are aligned at the end (query i sits at position seq_k - seq_q + i), as in
    decoding with a cache. For causal attention only j ≤ i is used; the keys after i are masked
    anyway, and |i - j| keeps the matrix meaningful for an encoder too.
    """
    seq_k = seq_q if seq_k is None else seq_k
    q_pos = torch.arange(seq_k - seq_q, seq_k, dtype=torch.float64)  # [seq_q]
    k_pos = torch.arange(seq_k, dtype=torch.float64)  # [seq_k]
    distance = (q_pos[:, None] - k_pos[None, :]).abs()  # [seq_q, seq_k]
    return -alibi_slopes(n_heads)[:, None, None] * distance  # [n_heads, seq_q, seq_k]
