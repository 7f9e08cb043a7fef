"""RMSNorm beside LayerNorm on the same input: what each removes, and the match with torch."""

from __future__ import annotations

import torch
from torch import Tensor, nn

from quizapp.experiments.context import Context
from quizapp.experiments.lab.common import round_sig
from quizapp.experiments.result import Result, Table
from quizapp.reference import LayerNorm, RMSNorm, count_parameters

TOLERANCE = 1e-5  # float64 (float32 on Apple MPS, which has no float64)
SCALE = 10.0  # the input is also multiplied by this: both norms should not notice


def _max_diff(a: Tensor, b: Tensor) -> float:
    return float((a - b).abs().max())


@torch.no_grad()  # nothing here is trained: no graph, and no warning when reading a scalar
def rmsnorm(
    ctx: Context, *, d_model: int = 8, offset: float = 2.0, n_tokens: int = 4, eps: float = 1e-6
) -> Result:
    ctx.progress(0.1, "drawing tokens and building both norms")
    # float64: a large shift costs LayerNorm's mean subtraction float32's last digits, and the
    # match with torch would then fail on rounding, not on a difference in the formulas.
    dtype = torch.float32 if ctx.device.type == "mps" else torch.float64
    noise = ctx.randn(n_tokens, d_model, dtype=dtype)  # [tokens, d], centred noise
    x = noise + offset  # the same tokens shifted by a constant
    rms = RMSNorm(d_model, eps).to(ctx.device, dtype)
    ln = LayerNorm(d_model, eps).to(ctx.device, dtype)
    with torch.no_grad():  # a trained-looking gain (and bias), the same in ours and torch's
        rms.weight.copy_(1 + 0.1 * ctx.randn(d_model, dtype=dtype))
        ln.weight.copy_(rms.weight)
        ln.bias.copy_(0.1 * ctx.randn(d_model, dtype=dtype))
    torch_rms = nn.RMSNorm(d_model, eps=eps).to(ctx.device, dtype)
    torch_ln = nn.LayerNorm(d_model, eps=eps).to(ctx.device, dtype)
    torch_rms.load_state_dict(rms.state_dict())
    torch_ln.load_state_dict(ln.state_dict())

    ctx.progress(0.5, "normalising")
    plain_rms = RMSNorm(d_model, eps).to(
        ctx.device, dtype
    )  # unit gain: the output's own statistics
    plain_ln = LayerNorm(d_model, eps).to(ctx.device, dtype)
    y_rms, y_ln = plain_rms(x), plain_ln(x)  # [tokens, d]
    torch_rms_diff = _max_diff(rms(x), torch_rms(x))
    torch_ln_diff = _max_diff(ln(x), torch_ln(x))
    # Each token normalised alone, as a batch of one, against the same token in the batch: a
    # norm that reads the batch (BatchNorm) would move here; one that reads the token would not.
    alone = torch.cat([rms(x[i : i + 1]) for i in range(n_tokens)])
    values: dict[str, int | float | bool | str] = {
        "input_mean": float(x.mean()),
        "rmsnorm_output_mean": float(y_rms.mean(-1).mean()),
        "layernorm_output_mean": float(y_ln.mean(-1).mean()),
        "rmsnorm_output_rms": float(y_rms.pow(2).mean(-1).sqrt().mean()),
        "layernorm_output_std": float(y_ln.var(-1, unbiased=False).sqrt().mean()),
        "rmsnorm_shift_change": _max_diff(plain_rms(x), plain_rms(noise)),
        "layernorm_shift_change": _max_diff(plain_ln(x), plain_ln(noise)),
        "rmsnorm_scale_change": _max_diff(plain_rms(SCALE * x), y_rms),
        "layernorm_scale_change": _max_diff(plain_ln(SCALE * x), y_ln),
        "rmsnorm_batch_change": _max_diff(rms(x), alone),
        "rmsnorm_params": count_parameters(rms),
        "layernorm_params": count_parameters(ln),
        "torch_rmsnorm_max_abs_diff": torch_rms_diff,
        "torch_layernorm_max_abs_diff": torch_ln_diff,
        "matches_torch": max(torch_rms_diff, torch_ln_diff) <= TOLERANCE,
        "tolerance": TOLERANCE,
    }
    ctx.progress(0.9, "summarising")
    v = values
    table = Table(
        title=f"{n_tokens} tokens of {d_model} features, shifted by {offset:g}",
        columns=("", "RMSNorm", "LayerNorm"),
        rows=(
            ("output mean", round_sig(v["rmsnorm_output_mean"]), round_sig(v["layernorm_output_mean"])),
            ("output RMS / std", round_sig(v["rmsnorm_output_rms"]), round_sig(v["layernorm_output_std"])),
            ("change when the shift is removed", round_sig(v["rmsnorm_shift_change"]),
             round_sig(v["layernorm_shift_change"])),
            (f"change when the input is ×{SCALE:g}", round_sig(v["rmsnorm_scale_change"]),
             round_sig(v["layernorm_scale_change"])),
            ("parameters", v["rmsnorm_params"], v["layernorm_params"]),
            ("change when each token is normalised alone", v["rmsnorm_batch_change"], ""),
            ("max |ours − torch.nn|", torch_rms_diff, torch_ln_diff),
        ),
    )  # fmt: skip
    summary = (
        f"Both norms undo a change of scale (×{SCALE:g} moves RMSNorm's output by "
        f"{v['rmsnorm_scale_change']:.2g}, LayerNorm's by {v['layernorm_scale_change']:.2g}). "
        f"Only LayerNorm undoes a shift: with every feature moved by {offset:g} its output mean "
        f"stays {v['layernorm_output_mean']:.2g}, while RMSNorm's is "
        f"**{v['rmsnorm_output_mean']:.3g}**: RMSNorm divides by the root mean square and never "
        f"subtracts the mean. It keeps a gain and drops the bias: **{v['rmsnorm_params']}** "
        f"parameters against LayerNorm's {v['layernorm_params']}. Ours match "
        f"`torch.nn.RMSNorm` to {torch_rms_diff:.2g} and `torch.nn.LayerNorm` to "
        f"{torch_ln_diff:.2g} (float32, {ctx.device.type})."
    )
    args = {"d_model": d_model, "offset": offset, "n_tokens": n_tokens, "eps": eps}
    return Result("rmsnorm", args, str(ctx.device), values, summary, table=table)
