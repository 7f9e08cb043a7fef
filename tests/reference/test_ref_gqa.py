"""Grouped-query and multi-query attention against torch's own SDPA, and RMSNorm against
torch.nn.RMSNorm at the widths and precisions Llama runs it."""

import pytest
import torch
import torch.nn.functional as F
from torch import nn

from quizapp.reference import MultiHeadAttention, RMSNorm, grouped_query_attention, repeat_kv

TOL = {"atol": 1e-12, "rtol": 0.0}


def _qkv(heads: int, kv_heads: int, seq: int = 7, head_dim: int = 16, batch: int = 2):
    g = torch.Generator().manual_seed(heads * 100 + kv_heads)
    q = torch.randn(batch, heads, seq, head_dim, generator=g, dtype=torch.float64)
    k = torch.randn(batch, kv_heads, seq, head_dim, generator=g, dtype=torch.float64)
    v = torch.randn(batch, kv_heads, seq, head_dim, generator=g, dtype=torch.float64)
    return q, k, v


@pytest.mark.parametrize(("heads", "kv_heads"), [(8, 8), (8, 2), (8, 1), (6, 3), (4, 1)])
@pytest.mark.parametrize("causal", [False, True])
def test_gqa_matches_torch_sdpa_with_enable_gqa(heads: int, kv_heads: int, causal: bool) -> None:
    q, k, v = _qkv(heads, kv_heads)
    ours, _ = grouped_query_attention(q, k, v, causal=causal)
    try:
        theirs = F.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=True)
    except TypeError:  # torch < 2.5 has no enable_gqa
        pytest.skip("this torch's scaled_dot_product_attention has no enable_gqa")
    torch.testing.assert_close(ours, theirs, **TOL)


@pytest.mark.parametrize(("heads", "kv_heads"), [(8, 2), (8, 1), (12, 4)])
def test_gqa_equals_sdpa_on_kv_heads_repeated_by_hand(heads: int, kv_heads: int) -> None:
    q, k, v = _qkv(heads, kv_heads)
    group = heads // kv_heads
    # By hand: query head h reads kv head h // group, written as an index, not repeat_interleave.
    index = torch.tensor([h // group for h in range(heads)])
    k_full, v_full = k[:, index], v[:, index]  # [batch, heads, seq, head_dim]
    torch.testing.assert_close(repeat_kv(k, group), k_full, **TOL)
    ours, weights = grouped_query_attention(q, k, v, causal=True)
    theirs = F.scaled_dot_product_attention(q, k_full, v_full, is_causal=True)
    torch.testing.assert_close(ours, theirs, **TOL)
    # Heads of one group share K, so with the same query they would give the same weights.
    same_q = q[:, :1].expand(-1, heads, -1, -1)
    _, w = grouped_query_attention(same_q, k, v)
    torch.testing.assert_close(w[:, 0], w[:, group - 1], **TOL)
    assert weights.shape == (2, heads, 7, 7)


def test_gqa_refuses_kv_heads_that_do_not_divide_heads() -> None:
    q, k, v = _qkv(8, 3)
    with pytest.raises(ValueError, match="must divide n_heads"):
        grouped_query_attention(q, k, v)


@pytest.mark.parametrize("kv_heads", [8, 2, 1])
def test_mha_module_with_kv_heads_matches_sdpa_on_its_projections(kv_heads: int) -> None:
    torch.manual_seed(0)
    d, heads = 64, 8
    mha = MultiHeadAttention(d, heads, bias=False, n_kv_heads=kv_heads).double()
    x = torch.randn(2, 5, d, dtype=torch.float64)
    out, _ = mha(x, causal=True)
    q = mha._split_heads(mha.q_proj(x), heads)
    k = mha._split_heads(mha.k_proj(x), kv_heads)
    v = mha._split_heads(mha.v_proj(x), kv_heads)
    group = heads // kv_heads
    expected = F.scaled_dot_product_attention(
        q, k.repeat_interleave(group, 1), v.repeat_interleave(group, 1), is_causal=True
    )
    expected = mha.out_proj(expected.transpose(1, 2).reshape(2, 5, d))
    torch.testing.assert_close(out, expected, **TOL)
    # K and V shrink with the kv heads; Q and O do not.
    assert mha.k_proj.weight.shape == (kv_heads * d // heads, d)
    assert mha.q_proj.weight.shape == (d, d)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_gqa_matches_sdpa_on_cuda() -> None:
    q, k, v = (t.float().cuda() for t in _qkv(8, 2))
    ours, _ = grouped_query_attention(q, k, v, causal=True)
    theirs = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
    torch.testing.assert_close(ours, theirs, atol=1e-4, rtol=1e-4)


@pytest.mark.parametrize("dtype", [torch.float64, torch.float32])
@pytest.mark.parametrize("eps", [1e-5, 1e-6])
def test_rmsnorm_matches_torch_rmsnorm_with_a_trained_weight(dtype, eps) -> None:
    torch.manual_seed(1)
    ours = RMSNorm(4096, eps=eps).to(dtype)
    theirs = nn.RMSNorm(4096, eps=eps).to(dtype)
    with torch.no_grad():
        ours.weight.normal_()
        theirs.weight.copy_(ours.weight)
    x = (torch.randn(2, 3, 4096) * 3 + 1).to(dtype)
    tol = TOL if dtype == torch.float64 else {"atol": 1e-5, "rtol": 1e-5}
    torch.testing.assert_close(ours(x), theirs(x), **tol)
    assert sum(p.numel() for p in ours.parameters()) == 4096  # a weight, no bias
