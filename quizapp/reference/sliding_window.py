"""Sliding-window attention: a causal mask cut to a band of the last `window` keys (Mistral).

Jiang et al. 2023, "Mistral 7B", §2 (Sliding Window Attention): each position attends to at
most W positions of the previous layer, itself included (the paper's Figure 1; Hugging Face's
Mistral mask, i - j < W). Stacking layers widens what reaches a token: after L layers
information can come from up to L × (W - 1) positions back, which the paper rounds to L × W
("with W = 4096 ... a theoretical attention span of approximately 131K tokens"). The paper's
text says "positions between i - W and i", one more key; Figure 1 and the rolling buffer cache
(W slots) use W.
"""

import torch
from torch import Tensor


def sliding_window_mask(
    seq_q: int,
    window: int,
    seq_k: int | None = None,
    device: torch.device | str | None = None,
) -> Tensor:
    """Bool [seq_q, seq_k], True where query i may attend to key j: 0 ≤ i - j < window.

    Queries are aligned at the end of the keys (query i sits at position seq_k - seq_q + i), as
    when decoding with a cache. The True-means-allowed convention of scaled_dot_product_attention.
    """
    if window < 1:
        raise ValueError(f"window must be at least 1, not {window}")
    seq_k = seq_q if seq_k is None else seq_k
    q_pos = torch.arange(seq_k - seq_q, seq_k, device=device)  # [seq_q]
    k_pos = torch.arange(seq_k, device=device)  # [seq_k]
    distance = q_pos[:, None] - k_pos[None, :]  # [seq_q, seq_k], > 0 for past keys
    return (distance >= 0) & (distance < window)


def reach_after_layers(window: int, n_layers: int) -> int:
    """How many positions back the last token can draw information from after n_layers.

    Walked through the mask itself, layer by layer: the earliest position reached so far is a
    query of the layer below, and the earliest key its mask row allows is the new frontier.
    Every layer has the same banded mask, so one row (the query and the `window` keys before it)
    is built, not a 131K × 131K matrix.
    """
    span = window + 1  # candidate keys: the query itself and `window` before it
    row = sliding_window_mask(1, window, seq_k=span)[0]  # [span], query at position span - 1
    step = span - 1 - int(row.nonzero()[0])  # how far back the earliest allowed key lies
    frontier = 0  # distance back from the last token reached so far
    for _ in range(n_layers):
        frontier += step
    return frontier
