"""Three ways to tell a transformer where each token is.

- sinusoidal_encoding: fixed sin/cos table added to the embeddings (Vaswani et al. 2017, §3.5);
  SinusoidalPositionalEncoding is the same formula as a parameter-free layer.
- LearnedPositionalEmbedding: a trained table with one row per position (GPT-2, BERT).
- RotaryEmbedding: rotate queries and keys by a position-dependent angle (RoPE, Su et al. 2021).
"""

import torch
from torch import Tensor, nn

from quizapp.reference.rope_scaling import RopeScaling, inverse_frequencies


def _sinusoids(positions: Tensor, d_model: int, base: float) -> Tensor:
    """The formula at any positions: [...] -> float64 [..., d_model], on the CPU.

    Float64 on the CPU: at large pos the angles are large and float32 keeps too few of their
    digits, and some accelerators (e.g. MPS) have no float64. Callers move the result.
    """
    f64 = torch.float64
    pos = positions.to(device="cpu", dtype=f64)[..., None]  # [..., 1]
    two_i = torch.arange(0, d_model, 2, dtype=f64)  # [ceil(d_model / 2)]
    angles = pos / base ** (two_i / d_model)  # [..., ceil(d_model / 2)]

    pe = torch.empty(*positions.shape, d_model, dtype=f64)
    pe[..., 0::2] = torch.sin(angles)
    pe[..., 1::2] = torch.cos(angles[..., : d_model // 2])  # an odd d_model has one sin too many
    return pe


def sinusoidal_encoding(
    n_positions: int,
    d_model: int,
    base: float = 10000.0,
    dtype: torch.dtype | None = None,
    device: torch.device | str | None = None,
) -> Tensor:
    """PE[pos, 2i] = sin(pos / base^(2i/d)), PE[pos, 2i+1] = cos(pos / base^(2i/d)).

    Returns [n_positions, d_model]. Nothing is learned, so any number of positions works.
    """
    pe = _sinusoids(torch.arange(n_positions), d_model, base)
    device = torch.get_default_device() if device is None else device
    return pe.to(device=device, dtype=dtype or torch.get_default_dtype())


class SinusoidalPositionalEncoding(nn.Module):
    """The same formula as a layer, looked up like LearnedPositionalEmbedding.

    It has no parameters and stores no table: each row is computed from its position, so
    position 10⁶ costs what position 0 costs. Compare LearnedPositionalEmbedding, which holds
    max_positions × d_model trained numbers and has no row past its length.
    """

    def __init__(self, d_model: int, base: float = 10000.0) -> None:
        super().__init__()
        self.d_model = d_model
        self.base = base

    def forward(self, positions: Tensor, dtype: torch.dtype | None = None) -> Tensor:
        """positions: integer tensor of any shape -> [*positions.shape, d_model], on its device."""
        pe = _sinusoids(positions, self.d_model, self.base)
        return pe.to(device=positions.device, dtype=dtype or torch.get_default_dtype())


class PositionOutOfRange(ValueError):
    """A position beyond what a learned position table was trained for."""


class LearnedPositionalEmbedding(nn.Module):
    """One trainable d_model vector per position, up to max_positions (exclusive)."""

    def __init__(self, max_positions: int, d_model: int) -> None:
        super().__init__()
        self.max_positions = max_positions
        self.table = nn.Embedding(max_positions, d_model)

    def forward(self, positions: Tensor) -> Tensor:
        """positions: integer tensor of any shape -> [*positions.shape, d_model]."""
        # Check before the lookup: a learned table simply has no row for an unseen position,
        # and the plain nn.Embedding failure (an IndexError, or a device assert) hides that.
        if positions.numel() > 0 and not positions.is_meta:
            low, high = int(positions.min()), int(positions.max())
            if low < 0 or high >= self.max_positions:
                bad = high if high >= self.max_positions else low
                raise PositionOutOfRange(
                    f"position {bad} is outside the learned position table of length "
                    f"{self.max_positions} (valid positions are 0..{self.max_positions - 1})"
                )
        return self.table(positions)


class RotaryEmbedding(nn.Module):
    """Rotary position embedding (RoPE, Su et al. 2021, "RoFormer").

    Pair layout: **interleaved**, as in the RoFormer paper and Meta's Llama code. Dimensions
    (0, 1), (2, 3), ... form pairs; pair j at position m is rotated by the angle m·θ_j with
    θ_j = base^(-2j / head_dim):

        out[2j]   = x[2j] cos(mθ_j) - x[2j+1] sin(mθ_j)
        out[2j+1] = x[2j] sin(mθ_j) + x[2j+1] cos(mθ_j)

    Equivalently, x[2j] + i·x[2j+1] is multiplied by e^{i m θ_j}. GPT-NeoX and Hugging Face
    Llama pair dimension j with j + head_dim/2 instead ("split-half"); the two layouts differ only
    by a fixed permutation of the head dimensions, which HF folds into its converted q/k weights.

    Because a rotation by mθ followed by the inverse of nθ is a rotation by (m-n)θ, the score
    rope(q, m) · rope(k, n) depends on the positions only through m - n. No parameters.

    scaling: a model card's `rope_scaling` (rope_scaling.py), which changes the θ_j and nothing
    else; the score still depends only on m - n.
    """

    def __init__(
        self, head_dim: int, base: float = 10000.0, scaling: RopeScaling | None = None
    ) -> None:
        super().__init__()
        if head_dim % 2 != 0:
            raise ValueError(f"RoPE rotates pairs of dimensions; head_dim {head_dim} is odd")
        self.head_dim = head_dim
        self.base = base
        self.scaling = scaling

    def angles(self, positions: Tensor, dtype: torch.dtype = torch.float32) -> Tensor:
        """positions: [...] -> rotation angles m·θ_j, [..., head_dim / 2]."""
        if self.scaling is not None:
            # Computed in float64 on the CPU (rope_scaling.py), then moved: [head_dim / 2]
            theta = inverse_frequencies(self.head_dim, self.base, self.scaling)
            theta = theta.to(device=positions.device, dtype=dtype)
        else:
            two_j = torch.arange(0, self.head_dim, 2, device=positions.device, dtype=dtype)
            theta = self.base ** (-two_j / self.head_dim)  # [head_dim / 2], from 1 to ~1/base
        return positions.to(dtype)[..., None] * theta

    def forward(self, x: Tensor, positions: Tensor | None = None, offset: int = 0) -> Tensor:
        """x: [batch, heads, seq, head_dim]. positions: [seq] or [batch, seq];
        default offset..offset+seq-1 (an offset is what a decoder with a KV cache needs).
        """
        seq = x.shape[-2]
        if positions is None:
            positions = torch.arange(offset, offset + seq, device=x.device)
        # At least float32 for the angles: m·θ for m in the thousands needs the mantissa.
        dtype = torch.promote_types(x.dtype, torch.float32)
        angles = self.angles(positions, dtype)  # [seq, head_dim/2] or [batch, seq, head_dim/2]
        if angles.dim() == 3:
            angles = angles[:, None]  # [batch, 1, seq, head_dim/2], the same for every head
        cos, sin = angles.cos(), angles.sin()

        xf = x.to(dtype)
        even, odd = xf[..., 0::2], xf[..., 1::2]  # each [batch, heads, seq, head_dim/2]
        rotated = torch.stack((even * cos - odd * sin, even * sin + odd * cos), dim=-1)
        # [batch, heads, seq, head_dim/2, 2] -> [batch, heads, seq, head_dim], pairs back in place
        return rotated.flatten(-2).to(x.dtype)
