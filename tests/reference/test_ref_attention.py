"""Attention parity against PyTorch's own implementations (float64, tight tolerances)."""

import pytest
import torch
import torch.nn.functional as F
from torch import nn

from quizapp.reference import MultiHeadAttention, RotaryEmbedding, scaled_dot_product_attention

B, S, D, H = 2, 7, 16, 4
TOL = {"atol": 1e-6, "rtol": 0.0}


def _paired_mha(seed: int = 0) -> tuple[MultiHeadAttention, nn.MultiheadAttention]:
    torch.manual_seed(seed)
    torch_mha = nn.MultiheadAttention(D, H, batch_first=True, dtype=torch.float64)
    with torch.no_grad():
        # PyTorch initialises these biases to zero; make them non-zero so they are really tested.
        torch_mha.in_proj_bias.normal_()
        torch_mha.out_proj.bias.normal_()
    ours = MultiHeadAttention(D, H).double()
    w_q, w_k, w_v = torch_mha.in_proj_weight.chunk(3)  # packed as [q; k; v]
    b_q, b_k, b_v = torch_mha.in_proj_bias.chunk(3)
    with torch.no_grad():
        for proj, w, b in (
            (ours.q_proj, w_q, b_q),
            (ours.k_proj, w_k, b_k),
            (ours.v_proj, w_v, b_v),
        ):
            proj.weight.copy_(w)
            proj.bias.copy_(b)
        ours.out_proj.weight.copy_(torch_mha.out_proj.weight)
        ours.out_proj.bias.copy_(torch_mha.out_proj.bias)
    return ours, torch_mha


@pytest.mark.parametrize("causal", [False, True])
def test_mha_matches_torch_multihead_attention(causal: bool) -> None:
    ours, torch_mha = _paired_mha()
    x = torch.randn(B, S, D, dtype=torch.float64)
    # nn.MultiheadAttention's bool attn_mask is True where attention is *blocked*.
    blocked = torch.ones(S, S, dtype=torch.bool).triu(1) if causal else None

    out, weights = ours(x, causal=causal)
    ref_out, ref_avg = torch_mha(x, x, x, attn_mask=blocked, need_weights=True)
    _, ref_heads = torch_mha(
        x, x, x, attn_mask=blocked, need_weights=True, average_attn_weights=False
    )

    assert out.shape == (B, S, D)
    assert weights.shape == (B, H, S, S)
    torch.testing.assert_close(out, ref_out, **TOL)
    torch.testing.assert_close(weights, ref_heads, **TOL)
    torch.testing.assert_close(weights.mean(dim=1), ref_avg, **TOL)
    if causal:
        assert (weights.triu(1) == 0).all()


def test_mha_key_padding_mask_matches_torch() -> None:
    ours, torch_mha = _paired_mha(seed=1)
    x = torch.randn(B, S, D, dtype=torch.float64)
    pad = torch.zeros(B, S, dtype=torch.bool)
    pad[0, -3:] = True  # last three tokens of sequence 0 are padding
    out, weights = ours(x, key_padding_mask=pad)
    ref_out, ref_heads = torch_mha(
        x, x, x, key_padding_mask=pad, need_weights=True, average_attn_weights=False
    )
    torch.testing.assert_close(out, ref_out, **TOL)
    torch.testing.assert_close(weights, ref_heads, **TOL)
    assert (weights[0, :, :, -3:] == 0).all()


def test_mha_rejects_indivisible_heads() -> None:
    with pytest.raises(ValueError, match="divisible by n_heads"):
        MultiHeadAttention(10, 3)
    with pytest.raises(ValueError, match="divisible by n_kv_heads"):
        MultiHeadAttention(16, 4, n_kv_heads=3)


def test_grouped_query_attention_equals_mha_with_repeated_kv_heads() -> None:
    torch.manual_seed(0)
    n_kv = 2
    gqa = MultiHeadAttention(D, H, n_kv_heads=n_kv).double()
    full = MultiHeadAttention(D, H).double()
    head_dim, group = D // H, H // n_kv
    assert gqa.k_proj.weight.shape == (n_kv * head_dim, D)

    def repeat_heads(t: torch.Tensor) -> torch.Tensor:
        # rows are [kv_heads * head_dim]; query head h must see kv head h // group
        return t.view(n_kv, head_dim, *t.shape[1:]).repeat_interleave(group, 0).flatten(0, 1)

    with torch.no_grad():
        full.q_proj.load_state_dict(gqa.q_proj.state_dict())
        full.out_proj.load_state_dict(gqa.out_proj.state_dict())
        for src, dst in ((gqa.k_proj, full.k_proj), (gqa.v_proj, full.v_proj)):
            dst.weight.copy_(repeat_heads(src.weight))
            dst.bias.copy_(repeat_heads(src.bias))

    x = torch.randn(B, S, D, dtype=torch.float64)
    rope = RotaryEmbedding(D // H)
    out_gqa, w_gqa = gqa(x, causal=True, rope=rope)
    out_full, w_full = full(x, causal=True, rope=rope)
    torch.testing.assert_close(out_gqa, out_full, **TOL)
    torch.testing.assert_close(w_gqa, w_full, **TOL)


def test_cross_attention_uses_kv_sequence() -> None:
    torch.manual_seed(0)
    mha = MultiHeadAttention(D, H).double()
    x = torch.randn(B, 3, D, dtype=torch.float64)
    memory = torch.randn(B, 5, D, dtype=torch.float64)
    out, weights = mha(x, kv=memory)
    assert out.shape == (B, 3, D)
    assert weights.shape == (B, H, 3, 5)
    with pytest.raises(ValueError, match="self-attention"):
        mha(x, kv=memory, rope=RotaryEmbedding(D // H))


@pytest.mark.parametrize("mask_kind", ["none", "causal", "bool", "float"])
def test_sdpa_matches_torch_functional(mask_kind: str) -> None:
    torch.manual_seed(0)
    q = torch.randn(2, 3, 5, 8, dtype=torch.float64)
    k = torch.randn(2, 3, 6, 8, dtype=torch.float64)
    v = torch.randn(2, 3, 6, 4, dtype=torch.float64)
    mask = None
    if mask_kind == "bool":
        mask = torch.rand(5, 6) > 0.3
        mask[:, 0] = True  # keep every query row attending to something
    elif mask_kind == "float":
        mask = torch.randn(5, 6, dtype=torch.float64)
    causal = mask_kind == "causal"

    out, weights = scaled_dot_product_attention(q, k, v, mask=mask, causal=causal)
    expected = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=causal)
    torch.testing.assert_close(out, expected, **TOL)
    torch.testing.assert_close(weights.sum(-1), torch.ones(2, 3, 5, dtype=torch.float64))
    if causal:
        assert (weights.triu(1) == 0).all()


def test_sdpa_weights_are_softmax_of_scaled_scores() -> None:
    torch.manual_seed(0)
    q, k, v = (torch.randn(4, 8, dtype=torch.float64) for _ in range(3))
    _, weights = scaled_dot_product_attention(q, k, v)
    # Independent route: softmax written as exp / sum with the 1/√d scale.
    scores = torch.exp(q @ k.T / 8**0.5)
    torch.testing.assert_close(weights, scores / scores.sum(-1, keepdim=True), **TOL)
