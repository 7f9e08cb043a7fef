"""LayerNorm, RMSNorm and BatchNorm, written out so the reduction axes are visible.

All three take x: [..., d] with features last. The difference is *which* numbers share a mean:
LayerNorm and RMSNorm look across the d features of one token; BatchNorm looks across every
token in the batch, separately for each feature.
"""

from typing import Literal

import torch
from torch import Tensor, nn

NormKind = Literal["layernorm", "rmsnorm"]


class LayerNorm(nn.Module):
    """Ba et al. 2016: y = (x - mean) / sqrt(var + eps) * weight + bias, per token."""

    def __init__(self, d: int, eps: float = 1e-5) -> None:
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(d))
        self.bias = nn.Parameter(torch.zeros(d))

    def forward(self, x: Tensor) -> Tensor:
        mean = x.mean(dim=-1, keepdim=True)  # [..., 1]
        # Biased variance (divide by d, not d-1): we normalise this token's own features; we
        # are not estimating a population variance. nn.LayerNorm does the same.
        var = x.var(dim=-1, keepdim=True, unbiased=False)  # [..., 1]
        return (x - mean) / torch.sqrt(var + self.eps) * self.weight + self.bias


class RMSNorm(nn.Module):
    """Zhang & Sennrich 2019, "Root Mean Square Layer Normalization", §4 (eq. 4), as in Llama
    and Mistral: y = x / sqrt(mean(x²) + eps) * weight. torch.nn.RMSNorm computes the same.

    No mean subtraction and no bias: the paper argues LayerNorm's success comes from re-scaling
    invariance, not re-centring, and drops the mean for fewer operations. What it gives up: the
    output is not centred (a shift of the input is not removed), and there is d, not 2d,
    parameters per norm.
    """

    def __init__(self, d: int, eps: float = 1e-6) -> None:
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(d))

    def forward(self, x: Tensor) -> Tensor:
        # Squares of half-precision activations overflow or lose digits; reduce in >= float32.
        xf = x.to(torch.promote_types(x.dtype, torch.float32))
        rms_inv = torch.rsqrt(xf.pow(2).mean(dim=-1, keepdim=True) + self.eps)  # [..., 1]
        return (xf * rms_inv).to(x.dtype) * self.weight


class BatchNorm(nn.Module):
    """Ioffe & Szegedy 2015: each feature is normalised over all batch (and sequence) positions.

    In training mode the current batch's statistics are used and exponential running averages
    are kept (matching nn.BatchNorm1d); in eval mode the running averages are used. It is here to
    contrast with LayerNorm: a token's output depends on the *other* sequences in the batch.
    """

    def __init__(self, d: int, eps: float = 1e-5, momentum: float = 0.1) -> None:
        super().__init__()
        self.eps = eps
        self.momentum = momentum
        self.weight = nn.Parameter(torch.ones(d))
        self.bias = nn.Parameter(torch.zeros(d))
        self.register_buffer("running_mean", torch.zeros(d))
        self.register_buffer("running_var", torch.ones(d))

    def forward(self, x: Tensor) -> Tensor:
        if not self.training:
            mean, var = self.running_mean, self.running_var
        else:
            flat = x.reshape(-1, x.shape[-1])  # [batch * seq, d]: every token is one sample
            n = flat.shape[0]
            if n < 2:
                raise ValueError("BatchNorm needs more than one value per feature in training")
            mean = flat.mean(dim=0)  # [d]
            var = flat.var(dim=0, unbiased=False)  # [d], biased: used to normalise this batch
            with torch.no_grad():
                # The running variance is an estimate of the population variance, so it gets
                # the unbiased n / (n - 1) correction (as nn.BatchNorm1d does).
                self.running_mean.lerp_(mean, self.momentum)
                self.running_var.lerp_(var * n / (n - 1), self.momentum)
        return (x - mean) / torch.sqrt(var + self.eps) * self.weight + self.bias


def make_norm(kind: NormKind | None, d: int, eps: float) -> nn.Module:
    """The normalisation layer named by `kind`; None gives an identity (no parameters)."""
    if kind is None:
        return nn.Identity()
    if kind == "layernorm":
        return LayerNorm(d, eps)
    if kind == "rmsnorm":
        return RMSNorm(d, eps)
    raise ValueError(f"unknown norm {kind!r}; expected 'layernorm', 'rmsnorm' or None")
