"""Stretching RoPE past the context it was trained on: three published ways to rescale it.

RoPE (positional.py) rotates dimension pair j at position m by m·θ_j, θ_j = base^(-2j/head_dim).
Pair j turns once every 2π/θ_j tokens, its *wavelength*. Pairs with a wavelength longer than
the training context never complete a turn in training, so past that length they meet angles
the model has never seen. Each method changes the θ_j (a position interpolation is the same as
dividing every θ_j by the factor):

    linear  θ'_j = θ_j / factor                       (every pair slowed down alike)
    ntk     θ'_j = base'^(-2j/d), base' = base · factor^(d/(d-2))   (high pairs barely move)
    llama3  θ'_j = θ_j for short wavelengths, θ_j / factor for long ones, a blend in between

All take [head_dim / 2] frequencies in float64 and return the same shape.
"""

import math
from dataclasses import dataclass
from typing import Literal

import torch
from torch import Tensor

ScalingKind = Literal["linear", "ntk", "llama3"]
SCALING_KINDS: tuple[str, ...] = ("linear", "ntk", "llama3")


@dataclass(frozen=True)
class RopeScaling:
    """A model card's `rope_scaling`. low/high_freq_factor and the original length are Llama 3's
    (Meta's Llama 3.1 values are the defaults); linear and ntk use only `factor`."""

    kind: ScalingKind
    factor: float
    low_freq_factor: float = 1.0
    high_freq_factor: float = 4.0
    original_max_position_embeddings: int = 8192

    def __post_init__(self) -> None:
        if self.kind not in SCALING_KINDS:
            raise ValueError(f"unknown RoPE scaling {self.kind!r}; expected one of {SCALING_KINDS}")
        if self.factor < 1:
            raise ValueError(f"factor must be at least 1 (a stretch), not {self.factor}")
        if self.kind == "llama3" and not self.high_freq_factor > self.low_freq_factor:
            raise ValueError("high_freq_factor must be larger than low_freq_factor")


def rope_frequencies(head_dim: int, base: float) -> Tensor:
    """θ_j = base^(-2j / head_dim) for j = 0..head_dim/2 - 1: [head_dim / 2], float64, from 1 down."""
    two_j = torch.arange(0, head_dim, 2, dtype=torch.float64)
    return base ** (-two_j / head_dim)


def linear_scaling(inv_freq: Tensor, factor: float) -> Tensor:
    """Position interpolation (Chen et al. 2023, "Extending Context Window of Large Language
    Models via Positional Interpolation", §2.2): position m is read as m / factor, so an input
    factor× longer is squeezed into the trained range. m/s · θ = m · θ/s: slow every pair."""
    return inv_freq / factor


def ntk_scaled_base(base: float, head_dim: int, factor: float) -> float:
    """NTK-aware scaling (bloc97 2023; written up in Peng et al. 2023, "YaRN: Efficient Context
    Window Extension of Large Language Models", §3.1): raise the base to
    base · factor^(d / (d - 2)). The fastest pair (j = 0) keeps θ = 1; the slowest is divided by
    exactly `factor`, so high frequencies (local order) are left nearly alone."""
    return base * factor ** (head_dim / (head_dim - 2))


def llama3_scaling(
    inv_freq: Tensor,
    factor: float,
    low_freq_factor: float,
    high_freq_factor: float,
    original_max_position_embeddings: int,
) -> Tensor:
    """Llama 3's frequency-dependent scaling (Meta's `apply_scaling` in the Llama 3.1 code;
    "The Llama 3 Herd of Models", §3.4.2 trains long context with it; Hugging Face's
    `_compute_llama3_parameters`). With L the original context:

        wavelength < L / high_freq_factor    θ kept            (turns many times within L)
        wavelength > L / low_freq_factor     θ / factor        (never turns within L)
        otherwise                            (1 - s) θ / factor + s θ,
                                             s = (L / wavelength - low) / (high - low)
    """
    wavelength = 2 * math.pi / inv_freq  # [head_dim / 2], tokens per full turn
    original = original_max_position_embeddings
    smooth = (original / wavelength - low_freq_factor) / (high_freq_factor - low_freq_factor)
    blended = (1 - smooth) * inv_freq / factor + smooth * inv_freq
    out = torch.where(wavelength > original / low_freq_factor, inv_freq / factor, blended)
    return torch.where(wavelength < original / high_freq_factor, inv_freq, out)


def inverse_frequencies(head_dim: int, base: float, scaling: RopeScaling | None = None) -> Tensor:
    """The θ_j a RoPE with this base and `rope_scaling` rotates by: [head_dim / 2], float64."""
    if scaling is None:
        return rope_frequencies(head_dim, base)
    if scaling.kind == "ntk":
        return rope_frequencies(head_dim, ntk_scaled_base(base, head_dim, scaling.factor))
    inv_freq = rope_frequencies(head_dim, base)
    if scaling.kind == "linear":
        return linear_scaling(inv_freq, scaling.factor)
    return llama3_scaling(
        inv_freq,
        scaling.factor,
        scaling.low_freq_factor,
        scaling.high_freq_factor,
        scaling.original_max_position_embeddings,
    )
