"""Sinusoidal table, learned table and RoPE, each checked against its defining property."""

import math

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from quizapp.reference import (
    LearnedPositionalEmbedding,
    MultiHeadAttention,
    PositionOutOfRange,
    RotaryEmbedding,
    SinusoidalPositionalEncoding,
    count_parameters,
    sinusoidal_encoding,
)

# --- sinusoidal -----------------------------------------------------------------------------


def test_sinusoidal_even_dims_are_sin_odd_dims_are_cos() -> None:
    pe = sinusoidal_encoding(50, 16, dtype=torch.float64)
    assert pe.shape == (50, 16)
    # At position 0 every sin is 0 and every cos is 1, which pins down the layout.
    assert torch.equal(pe[0, 0::2], torch.zeros(8, dtype=torch.float64))
    assert torch.equal(pe[0, 1::2], torch.ones(8, dtype=torch.float64))
    # Dimension pair (0, 1) has frequency 1: PE[pos, 0] = sin(pos), PE[pos, 1] = cos(pos).
    pos = torch.arange(50, dtype=torch.float64)
    torch.testing.assert_close(pe[:, 0], torch.sin(pos))
    torch.testing.assert_close(pe[:, 1], torch.cos(pos))


@pytest.mark.parametrize(("pos", "i", "d"), [(0, 0, 16), (3, 1, 16), (17, 5, 16), (999, 2, 64)])
def test_sinusoidal_matches_paper_formula(pos: int, i: int, d: int) -> None:
    pe = sinusoidal_encoding(pos + 1, d, dtype=torch.float64)
    angle = pos / 10000 ** (2 * i / d)
    assert pe[pos, 2 * i].item() == pytest.approx(math.sin(angle), abs=1e-12)
    assert pe[pos, 2 * i + 1].item() == pytest.approx(math.cos(angle), abs=1e-12)


def test_sinusoidal_matches_numpy_table_for_odd_width_and_long_sequences() -> None:
    n, d = 5000, 7
    pos = np.arange(n)[:, None]
    table = np.zeros((n, d))
    for dim in range(d):
        rate = 10000.0 ** (-(dim - dim % 2) / d)
        table[:, dim] = (np.sin if dim % 2 == 0 else np.cos)(pos[:, 0] * rate)
    pe = sinusoidal_encoding(n, d, dtype=torch.float64)
    np.testing.assert_allclose(pe.numpy(), table, atol=1e-9)
    assert sinusoidal_encoding(3, 8).dtype == torch.get_default_dtype()


def test_sinusoidal_module_has_no_parameters_and_matches_the_table_anywhere() -> None:
    module = SinusoidalPositionalEncoding(10)
    assert count_parameters(module) == 0 and not list(module.buffers())
    positions = torch.tensor([0, 1, 17, 999, 4095])
    table = sinusoidal_encoding(4096, 10, dtype=torch.float64)
    torch.testing.assert_close(
        module(positions, torch.float64), table[positions], atol=1e-12, rtol=0
    )
    # Far past any table: still the formula, and every row has norm √(d/2).
    far = SinusoidalPositionalEncoding(64)(torch.tensor([1_000_000]), torch.float64)[0]
    assert far[0].item() == pytest.approx(math.sin(1_000_000), abs=1e-9)
    assert far.norm().item() == pytest.approx(math.sqrt(32), abs=1e-9)
    # Any shape of positions, and the default dtype unless one is asked for.
    grid = SinusoidalPositionalEncoding(6)(torch.arange(6).view(2, 3))
    assert grid.shape == (2, 3, 6) and grid.dtype == torch.get_default_dtype()


def test_learned_table_parameters_are_rows_times_width() -> None:
    with torch.device("meta"):
        table = LearnedPositionalEmbedding(1024, 768)  # GPT-2 small's wpe: 786,432 numbers
    assert count_parameters(table) == 786_432


def _shift_rotation(k: int, d: int, base: float) -> torch.Tensor:
    """Block-diagonal map predicted by sin(a+b) and cos(a+b), for row vectors (sin, cos)."""
    rotation = torch.zeros(d, d, dtype=torch.float64)
    for i in range(d // 2):
        w = k / base ** (2 * i / d)
        c, s = math.cos(w), math.sin(w)
        # [sin(a+w), cos(a+w)] = [sin a, cos a] @ [[c, -s], [s, c]]
        block = torch.tensor([[c, -s], [s, c]], dtype=torch.float64)
        rotation[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = block
    return rotation


@pytest.mark.parametrize("k", [1, 5, 17])
def test_sinusoidal_shift_is_a_fixed_block_rotation(k: int) -> None:
    n, d = 300, 16
    pe = sinusoidal_encoding(n + k, d, dtype=torch.float64)
    torch.testing.assert_close(pe[:n] @ _shift_rotation(k, d, 10000.0), pe[k:], atol=1e-9, rtol=0)


@pytest.mark.parametrize("k", [1, 5, 17])
def test_sinusoidal_shift_map_fitted_from_data_is_that_rotation(k: int) -> None:
    # Fit the best linear map X with PE[pos] @ X = PE[pos + k] over all positions at once; a
    # zero residual means one map serves every pos. base=100 so that even the slowest pair
    # completes a turn within n positions; with 10000 the fit is ill-conditioned, not wrong.
    n, d, base = 400, 16, 100.0
    pe = sinusoidal_encoding(n + k, d, base=base, dtype=torch.float64)
    x_fit = torch.linalg.lstsq(pe[:n], pe[k:]).solution
    torch.testing.assert_close(pe[:n] @ x_fit, pe[k:], atol=1e-9, rtol=0)
    torch.testing.assert_close(x_fit, _shift_rotation(k, d, base), atol=1e-8, rtol=0)


# --- learned table --------------------------------------------------------------------------


def test_learned_table_looks_up_rows() -> None:
    table = LearnedPositionalEmbedding(8, 4)
    positions = torch.tensor([[0, 3], [7, 7]])
    out = table(positions)
    assert out.shape == (2, 2, 4)
    torch.testing.assert_close(out[1, 0], table.table.weight[7])


@pytest.mark.parametrize("bad", [8, 100, -1])
def test_learned_table_out_of_range_is_a_clear_error(bad: int) -> None:
    table = LearnedPositionalEmbedding(8, 4)
    with pytest.raises(PositionOutOfRange) as info:
        table(torch.tensor([0, 1, bad]))
    assert isinstance(info.value, ValueError)
    assert not isinstance(info.value, IndexError)
    message = str(info.value)
    assert f"position {bad}" in message
    assert "length 8" in message


# --- RoPE -----------------------------------------------------------------------------------

HEAD_DIM = 8


def _score(rope: RotaryEmbedding, q: torch.Tensor, k: torch.Tensor, m: int, n: int) -> float:
    # q, k: [head_dim] -> one query at position m and one key at position n
    q_rot = rope(q.view(1, 1, 1, -1), positions=torch.tensor([m]))
    k_rot = rope(k.view(1, 1, 1, -1), positions=torch.tensor([n]))
    return (q_rot * k_rot).sum().item()


@settings(max_examples=40, deadline=None)
@given(
    m=st.integers(0, 4000),
    n=st.integers(0, 4000),
    shift=st.integers(-3000, 3000).filter(lambda s: s != 0),
)
def test_rope_score_depends_only_on_relative_position(m: int, n: int, shift: int) -> None:
    torch.manual_seed(0)
    rope = RotaryEmbedding(HEAD_DIM)
    q, k = torch.randn(2, HEAD_DIM, dtype=torch.float64)
    m2, n2 = m + shift, n + shift
    if min(m2, n2) < 0:
        m2, n2 = m - shift, n - shift
    assert _score(rope, q, k, m, n) == pytest.approx(_score(rope, q, k, m2, n2), abs=1e-9)


def test_a_rope_attention_layer_leaves_v_unrotated() -> None:
    """Moving every token by the same distance keeps the offsets, so a layer that rotates only
    q and k gives the same output; rotating v as well (the counterfactual) would move it."""
    torch.manual_seed(0)
    layer = MultiHeadAttention(HEAD_DIM, 2, bias=False).double()
    rope = RotaryEmbedding(HEAD_DIM // 2)
    x = torch.randn(1, 7, HEAD_DIM, dtype=torch.float64)
    near, far = torch.arange(7), torch.arange(7) + 250
    out_near = layer(x, causal=True, rope=rope, positions=near)[0]
    out_far = layer(x, causal=True, rope=rope, positions=far)[0]
    torch.testing.assert_close(out_near, out_far, atol=1e-12, rtol=0)
    v = layer._split_heads(layer.v_proj(x), 2)  # [1, heads, seq, head_dim]
    assert (rope(v, near) - rope(v, far)).abs().max() > 0.1  # a rotated v would not keep still


def test_rope_score_changes_with_the_offset() -> None:
    torch.manual_seed(0)
    rope = RotaryEmbedding(HEAD_DIM)
    q, k = torch.randn(2, HEAD_DIM, dtype=torch.float64)
    scores = {_score(rope, q, k, 10 + delta, 10) for delta in range(5)}
    assert len(scores) == 5
    assert _score(rope, q, k, 10, 10) == pytest.approx((q @ k).item(), abs=1e-12)


def test_rope_preserves_norms_and_position_zero_is_identity() -> None:
    torch.manual_seed(0)
    rope = RotaryEmbedding(HEAD_DIM)
    x = torch.randn(2, 3, 11, HEAD_DIM, dtype=torch.float64)
    out = rope(x)
    torch.testing.assert_close(out.norm(dim=-1), x.norm(dim=-1))
    torch.testing.assert_close(out[:, :, 0], x[:, :, 0])
    assert not torch.allclose(out[:, :, 1:], x[:, :, 1:])


def test_rope_uses_interleaved_pairs() -> None:
    rope = RotaryEmbedding(HEAD_DIM)
    m = 3
    e0 = torch.zeros(1, 1, 1, HEAD_DIM, dtype=torch.float64)
    e0[..., 0] = 1.0
    out = rope(e0, positions=torch.tensor([m]))[0, 0, 0]
    # Pair (0, 1) has θ_0 = 1, so e_0 turns into (cos m, sin m) and nothing else moves.
    expected = torch.zeros(HEAD_DIM, dtype=torch.float64)
    expected[0], expected[1] = math.cos(m), math.sin(m)
    torch.testing.assert_close(out, expected)


def test_rope_matches_complex_multiplication() -> None:
    rng = np.random.default_rng(0)
    batch, heads, seq, base = 2, 3, 6, 500.0
    x = rng.standard_normal((batch, heads, seq, HEAD_DIM))
    positions = rng.integers(0, 1000, size=(batch, seq))
    # Independent formulation: x[2j] + i·x[2j+1] times exp(i·pos·base^(-2j/d)).
    theta = base ** (-np.arange(0, HEAD_DIM, 2) / HEAD_DIM)
    z = x[..., 0::2] + 1j * x[..., 1::2]
    z = z * np.exp(1j * positions[:, None, :, None] * theta)
    expected = np.stack([z.real, z.imag], axis=-1).reshape(x.shape)

    out = RotaryEmbedding(HEAD_DIM, base=base)(torch.from_numpy(x), torch.from_numpy(positions))
    np.testing.assert_allclose(out.numpy(), expected, atol=1e-9)


def test_rope_offset_and_explicit_positions_agree() -> None:
    torch.manual_seed(0)
    rope = RotaryEmbedding(HEAD_DIM)
    x = torch.randn(2, 3, 10, HEAD_DIM)
    full = rope(x)
    torch.testing.assert_close(rope(x[:, :, 4:], offset=4), full[:, :, 4:])
    torch.testing.assert_close(rope(x[:, :, 4:], positions=torch.arange(4, 10)), full[:, :, 4:])
    batch_positions = torch.arange(10).expand(2, 10)  # [batch, seq]
    torch.testing.assert_close(rope(x, positions=batch_positions), full)


def test_rope_keeps_dtype_and_rejects_odd_head_dim() -> None:
    x = torch.randn(1, 1, 4, HEAD_DIM, dtype=torch.bfloat16)
    assert RotaryEmbedding(HEAD_DIM)(x).dtype == torch.bfloat16
    with pytest.raises(ValueError, match="odd"):
        RotaryEmbedding(7)
