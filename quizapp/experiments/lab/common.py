"""Small helpers the lab's computations share: seeded initialisation, variance, display."""

from __future__ import annotations

import math

import torch
from torch import Tensor, nn

from quizapp.experiments.context import Context


def glorot_normal_(module: nn.Module, ctx: Context, gain: float = 1.0) -> None:
    """Re-initialise every nn.Linear in `module` from the run's seeded noise: weights
    N(0, gain² · 2 / (fan_in + fan_out)) (Glorot & Bengio 2010), biases zero."""
    with torch.no_grad():
        for layer in module.modules():
            if isinstance(layer, nn.Linear):
                fan_out, fan_in = layer.weight.shape
                std = gain * math.sqrt(2.0 / (fan_in + fan_out))
                layer.weight.copy_(ctx.randn(fan_out, fan_in) * std)
                if layer.bias is not None:
                    layer.bias.zero_()


def variance(x: Tensor) -> float:
    """Variance of all the activations together (population form), computed in float64."""
    return float(x.double().var(unbiased=False))


def round_sig(value: float, digits: int = 4) -> float:
    """`value` to `digits` significant figures, for table cells."""
    return float(f"{value:.{digits}g}")


def heads_for(d_model: int) -> int:
    """A head count that divides d_model: 4 when it can, else 2, else 1."""
    return next(h for h in (4, 2, 1) if d_model % h == 0)
