"""RoPE scaling against the published formulas, each written out here independently."""

import math

import pytest
import torch

from quizapp.reference import (
    RopeScaling,
    RotaryEmbedding,
    inverse_frequencies,
    llama3_scaling,
    ntk_scaled_base,
    rope_frequencies,
)

# Llama 3.1 8B's config.json: head_dim 128, rope_theta 500000, and its rope_scaling.
LLAMA31 = {"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0, "original": 8192}


def _meta_apply_scaling(freqs: list[float], factor, low, high, original) -> list[float]:
    """Meta's `apply_scaling` (llama-models, Llama 3.1), one frequency at a time."""
    low_freq_wavelen = original / low
    high_freq_wavelen = original / high
    out = []
    for freq in freqs:
        wavelen = 2 * math.pi / freq
        if wavelen < high_freq_wavelen:
            out.append(freq)
        elif wavelen > low_freq_wavelen:
            out.append(freq / factor)
        else:
            smooth = (original / wavelen - low) / (high - low)
            out.append((1 - smooth) * freq / factor + smooth * freq)
    return out


def test_unscaled_frequencies_are_base_to_the_minus_two_j_over_d() -> None:
    expected = [500000.0 ** (-2 * j / 128) for j in range(64)]
    torch.testing.assert_close(rope_frequencies(128, 500000.0).tolist(), expected)


@pytest.mark.parametrize(
    ("head_dim", "base", "factor", "low", "high", "original"),
    [
        (128, 500000.0, *LLAMA31.values()),
        (64, 10000.0, 4.0, 1.0, 4.0, 2048),
        (128, 500000.0, 32.0, 1.0, 4.0, 8192),  # Llama 3.2 1B/3B
    ],
)
def test_llama3_scaling_matches_metas_formula(head_dim, base, factor, low, high, original) -> None:
    freqs = [base ** (-2 * j / head_dim) for j in range(head_dim // 2)]
    expected = _meta_apply_scaling(freqs, factor, low, high, original)
    ours = llama3_scaling(rope_frequencies(head_dim, base), factor, low, high, original)
    torch.testing.assert_close(ours.tolist(), expected, atol=0.0, rtol=1e-15)


def test_llama31_8b_keeps_fast_pairs_and_slows_slow_ones_by_eight() -> None:
    scaling = RopeScaling("llama3", 8.0)  # defaults are Llama 3.1's low/high/original
    before = rope_frequencies(128, 500000.0)
    after = inverse_frequencies(128, 500000.0, scaling)
    wavelength = 2 * math.pi / before
    fast, slow = wavelength < 8192 / 4, wavelength > 8192 / 1
    assert torch.equal(after[fast], before[fast])
    torch.testing.assert_close(after[slow], before[slow] / 8, atol=0.0, rtol=1e-15)
    middle = ~fast & ~slow
    assert (
        middle.any()
        and ((after[middle] < before[middle]) & (after[middle] > before[middle] / 8)).all()
    )
    # By hand: wavelength_j = 2π · 500000^(j/64) < 2048 for j ≤ 28 and > 8192 for j ≥ 35.
    assert (int(fast.sum()), int(slow.sum()), int(middle.sum())) == (29, 29, 6)


def test_ntk_base_is_base_times_factor_to_the_d_over_d_minus_two() -> None:
    assert ntk_scaled_base(10000.0, 128, 8.0) == pytest.approx(10000.0 * 8.0 ** (128 / 126))
    before = rope_frequencies(128, 10000.0)
    after = inverse_frequencies(128, 10000.0, RopeScaling("ntk", 8.0))
    assert after[0] == before[0] == 1.0  # the fastest pair is untouched
    torch.testing.assert_close(after[-1], before[-1] / 8, atol=0.0, rtol=1e-12)  # slowest ÷ factor


def test_linear_scaling_at_position_m_is_plain_rope_at_m_over_factor() -> None:
    x = torch.randn(1, 2, 6, 32, dtype=torch.float64, generator=torch.Generator().manual_seed(0))
    positions = torch.tensor([0, 1, 5, 4096, 16384, 32767])
    scaled = RotaryEmbedding(32, scaling=RopeScaling("linear", 4.0))
    plain = RotaryEmbedding(32)
    torch.testing.assert_close(scaled(x, positions), plain(x, positions / 4.0), atol=1e-9, rtol=0)


@pytest.mark.parametrize("kind", ["linear", "ntk", "llama3"])
def test_scaled_rope_scores_still_depend_only_on_the_offset(kind: str) -> None:
    g = torch.Generator().manual_seed(1)
    q, k = (torch.randn(1, 1, 1, 64, dtype=torch.float64, generator=g) for _ in range(2))
    rope = RotaryEmbedding(64, base=500000.0, scaling=RopeScaling(kind, 8.0))

    def score(m: int, n: int) -> float:
        return float((rope(q, torch.tensor([m])) * rope(k, torch.tensor([n]))).sum())

    assert score(40000, 7000) == pytest.approx(score(33000, 0), abs=1e-9)


def test_bad_scalings_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown RoPE scaling"):
        RopeScaling("yarn", 2.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="at least 1"):
        RopeScaling("linear", 0.5)
    with pytest.raises(ValueError, match="high_freq_factor"):
        RopeScaling("llama3", 8.0, low_freq_factor=4.0, high_freq_factor=1.0)
