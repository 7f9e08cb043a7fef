"""ALiBi's slopes against the paper's values, its bias by brute force, and the sliding-window
mask and its reach against a mask built cell by cell."""

import pytest
import torch

from quizapp.reference import (
    alibi_bias,
    alibi_slopes,
    reach_after_layers,
    scaled_dot_product_attention,
    sliding_window_mask,
)


def test_eight_heads_get_a_half_down_to_one_over_256() -> None:
    # Press et al. 2022, §3: "For a model with 8 heads, the slopes ... are 1/2^1, 1/2^2, ..., 1/2^8".
    assert alibi_slopes(8).tolist() == [1 / 2**i for i in range(1, 9)]


def test_sixteen_heads_interleave_square_roots() -> None:
    # §3: for 16 heads, the geometric sequence starting at 1/√2 with ratio 1/√2.
    expected = [2 ** (-0.5 * i) for i in range(1, 17)]
    torch.testing.assert_close(alibi_slopes(16).tolist(), expected, atol=0.0, rtol=1e-15)


@pytest.mark.parametrize(
    ("n", "expected_exponents"),
    [
        (12, [1, 2, 3, 4, 5, 6, 7, 8, 0.5, 1.5, 2.5, 3.5]),  # 8 heads, then odd ones of 16
        (6, [2, 4, 6, 8, 1, 3]),  # 4 heads (2^-2 .. 2^-8), then the first 2 odd ones of 8
        (1, [8]),
    ],
)
def test_non_power_of_two_rule(n: int, expected_exponents: list[float]) -> None:
    expected = [2.0**-e for e in expected_exponents]
    torch.testing.assert_close(alibi_slopes(n).tolist(), expected, atol=0.0, rtol=1e-15)


def test_bias_is_minus_slope_times_distance_cell_by_cell() -> None:
    bias = alibi_bias(6, 5, 9)  # 5 queries at the end of 9 keys
    slopes = alibi_slopes(6)
    for h in range(6):
        for i in range(5):
            for j in range(9):
                assert bias[h, i, j] == -slopes[h] * abs((9 - 5 + i) - j)
    # Depends only on the distance: every diagonal is constant.
    square = alibi_bias(4, 7)
    for offset in range(-6, 7):
        diagonal = torch.diagonal(square, offset=offset, dim1=1, dim2=2)
        assert (diagonal == diagonal[:, :1]).all()


def test_alibi_bias_in_attention_prefers_near_keys() -> None:
    q = torch.zeros(1, 8, 5, 4, dtype=torch.float64)  # equal content scores: only ALiBi speaks
    k = torch.zeros(1, 8, 5, 4, dtype=torch.float64)
    _, weights = scaled_dot_product_attention(q, k, k, mask=alibi_bias(8, 5), causal=True)
    last = weights[0, :, -1]  # [heads, keys]
    assert (last.diff(dim=-1) > 0).all()  # weight rises toward the query itself
    assert last[0, -1] < last[-1, -1] or last[0, 0] < last[-1, 0]  # steep head more local


def _brute_mask(seq_q: int, seq_k: int, window: int) -> torch.Tensor:
    mask = torch.zeros(seq_q, seq_k, dtype=torch.bool)
    for i in range(seq_q):
        position = seq_k - seq_q + i
        for j in range(seq_k):
            mask[i, j] = j <= position and position - j < window
    return mask


@pytest.mark.parametrize(
    ("seq_q", "seq_k", "window"), [(8, 8, 3), (8, 8, 1), (8, 8, 20), (3, 10, 4)]
)
def test_sliding_window_mask_matches_brute_force(seq_q: int, seq_k: int, window: int) -> None:
    assert torch.equal(
        sliding_window_mask(seq_q, window, seq_k=seq_k), _brute_mask(seq_q, seq_k, window)
    )


def test_sliding_window_equals_causal_when_the_window_covers_the_sequence() -> None:
    causal = torch.ones(6, 6, dtype=torch.bool).tril()
    assert torch.equal(sliding_window_mask(6, 6), causal)
    assert sliding_window_mask(6, 2).sum(-1).tolist() == [1, 2, 2, 2, 2, 2]


@pytest.mark.parametrize(("window", "layers"), [(3, 1), (3, 4), (5, 3), (1, 5)])
def test_reach_equals_composing_the_mask_layer_by_layer(window: int, layers: int) -> None:
    seq = window * layers + 4
    mask = _brute_mask(seq, seq, window).to(torch.int64)
    reach = torch.eye(seq, dtype=torch.int64)
    for _ in range(layers):
        reach = (reach @ mask).clamp(max=1)  # who the last row can hear after one more layer
    earliest = int(reach[-1].nonzero()[0])
    assert reach_after_layers(window, layers) == seq - 1 - earliest == layers * (window - 1)


def test_mistral_reach_is_about_the_papers_131k() -> None:
    reach = reach_after_layers(4096, 32)
    assert reach == 32 * 4095  # the paper's 32 × 4096 = 131,072 counts the window's own token
    assert 131_072 - reach == 32  # one token per layer
