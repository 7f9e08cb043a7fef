"""LayerNorm on its own: one vector worked through by hand, and LayerNorm against BatchNorm."""

from __future__ import annotations

import torch
import torch.nn.functional as F

from quizapp.experiments.context import Context
from quizapp.experiments.lab.common import round_sig
from quizapp.experiments.registry import VECTOR_LIMITS
from quizapp.experiments.result import Result, Table
from quizapp.experiments.spec import parse_numbers
from quizapp.reference import BatchNorm, LayerNorm, count_parameters

WARMUP_BATCHES = 10  # training batches BatchNorm sees before it is switched to eval mode


# --------------------------------------------------------------------------------------------
# layernorm_vector: LayerNorm of a vector the student chooses, step by step


def layernorm_vector(ctx: Context, *, values: str, eps: float) -> Result:
    numbers = parse_numbers(values, "values", **VECTOR_LIMITS)
    n = len(numbers)
    # Float64 so that "mean 5, variance 5" prints as 5, not 4.9999998 (float32 on Apple MPS).
    dtype = torch.float32 if ctx.device.type == "mps" else torch.float64
    ctx.progress(0.1, "mean and variance")
    with torch.no_grad():
        x = torch.tensor(numbers, dtype=dtype, device=ctx.device)  # [n], one token's features
        mean = x.mean()
        deviation = x - mean  # [n]
        biased = x.var(unbiased=False)  # sum of squares / n: what LayerNorm divides by
        unbiased = x.var()  # PyTorch's default for Tensor.var: sum of squares / (n - 1)

        ctx.progress(0.4, "normalising with the reference LayerNorm")
        layernorm = LayerNorm(n, eps=eps).to(device=ctx.device, dtype=dtype)
        ours = layernorm(x)  # [n]: (x - mean) / sqrt(biased + eps), then weight 1, bias 0
        theirs = F.layer_norm(x, (n,), eps=eps)
        module = torch.nn.LayerNorm(n, eps=eps).to(device=ctx.device, dtype=dtype)(x)
        # What dividing by the unbiased variance would give instead (not what LayerNorm does).
        with_unbiased = deviation / torch.sqrt(unbiased + eps)

    ctx.progress(0.8, "checking against torch")
    result_values: dict[str, float | int | bool | str] = {
        "n": n,
        "mean": float(mean),
        "biased_variance": float(biased),
        "unbiased_variance": float(unbiased),
        "biased_std": float(biased.sqrt()),
        "unbiased_std": float(unbiased.sqrt()),
        "normalized_mean": float(ours.mean()),
        "normalized_variance": float(ours.var(unbiased=False)),
        "normalized_variance_if_unbiased": float(with_unbiased.var(unbiased=False)),
        "torch_max_abs_diff": max(
            float((ours - theirs).abs().max()), float((ours - module).abs().max())
        ),
        "eps": eps,
    }
    table = Table(
        title=f"LayerNorm of one token with {n} features (weight 1, bias 0, eps {eps:g})",
        columns=(
            "i",
            "x",
            "x − mean",
            "(x − mean)²",
            "LayerNorm (reference)",
            "F.layer_norm",
            "÷ √unbiased instead",
        ),
        rows=tuple(
            (
                i,
                numbers[i],
                round_sig(float(deviation[i]), 6),
                round_sig(float(deviation[i] ** 2), 6),
                round_sig(float(ours[i]), 6),
                round_sig(float(theirs[i]), 6),
                round_sig(float(with_unbiased[i]), 6),
            )
            for i in range(n)
        ),
    )
    ctx.progress(1.0, "done")
    return Result(
        "layernorm_vector",
        {"values": ", ".join(_plain(v) for v in numbers), "eps": eps},
        str(ctx.device),
        result_values,
        _vector_summary(numbers, float(deviation.pow(2).sum()), result_values),
        table=table,
    )


def _plain(number: float) -> str:
    """A number as the student would type it back: 2 not 2.0, full precision otherwise."""
    return str(int(number)) if number.is_integer() and abs(number) < 1e15 else repr(number)


def _vector_summary(
    numbers: tuple[float, ...], squares: float, v: dict[str, float | int | bool | str]
) -> str:
    n = len(numbers)
    shown = " + ".join(_plain(x) for x in numbers) if n <= 8 else f"the {n} numbers"
    lines = [
        f"Mean = ({shown}) / {n} = **{v['mean']:.6g}**. The squared deviations from it add up "
        f"to {squares:.6g}.",
        f"- **Biased variance** (÷ n = {n}): {squares:.6g} / {n} = **{v['biased_variance']:.6g}**"
        f" (std {v['biased_std']:.6g}). This is what LayerNorm uses: it standardises this "
        "token's own features, it does not estimate a population. In PyTorch: "
        "`x.var(unbiased=False)`.",
        f"- **Unbiased variance** (÷ n − 1 = {n - 1}): {squares:.6g} / {n - 1} = "
        f"**{v['unbiased_variance']:.6g}** (std {v['unbiased_std']:.6g}). This is what a bare "
        "`x.var()` returns in PyTorch — the wrong one for LayerNorm.",
        f"- LayerNorm's output has mean {v['normalized_mean']:.1e} and (biased) variance "
        f"{v['normalized_variance']:.6g} — just under 1 because eps = {v['eps']:g} is added to the "
        f"variance. Dividing by the unbiased variance instead would give variance "
        f"{v['normalized_variance_if_unbiased']:.4g}, i.e. (n − 1)/n.",
        f"- The reference `LayerNorm`, `torch.nn.functional.layer_norm` and `nn.LayerNorm` agree "
        f"to {v['torch_max_abs_diff']:.1e}.",
    ]
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------
# norm_comparison: one token in two batches


def norm_comparison(ctx: Context, *, d_model: int, batch_size: int) -> Result:
    """One token in two batches: LayerNorm's output for it is the same, BatchNorm's is not."""
    device = ctx.device
    with torch.no_grad():
        ctx.progress(0.1, "drawing a token and its batch-mates")
        # Features at an arbitrary scale and offset, so normalising visibly changes them.
        token = ctx.randn(d_model) * 3 + 1
        mates = ctx.randn(batch_size - 1, d_model) * 3 + 1
        # Batch B keeps the token and replaces each batch-mate by its mirror image through the
        # token (m -> 2·token - m): the same spread, a different mean. Any replacement changes
        # BatchNorm's statistics; the mirror guarantees it does so in every feature.
        batch_a = torch.cat([token[None], mates])  # [batch, d]
        batch_b = torch.cat([token[None], 2 * token - mates])

        layernorm = LayerNorm(d_model).to(device)
        ln_a, ln_b = layernorm(batch_a), layernorm(batch_b)
        ctx.progress(0.4, "BatchNorm with each batch's statistics")
        batchnorm = BatchNorm(d_model).to(device).train()  # training mode: this batch's stats
        bn_a, bn_b = batchnorm(batch_a), batchnorm(batch_b)

        ctx.progress(0.7, "a batch of one token")
        single = token[None]  # [1, d]: one token at a time, as in autoregressive decoding
        single_var = single.var(dim=0, unbiased=False)  # [d]: zero in every feature
        # What training-mode BatchNorm's formula gives a batch of one: the token minus itself.
        single_out = (single - single.mean(dim=0)) / torch.sqrt(single_var + batchnorm.eps)
        try:
            BatchNorm(d_model).to(device).train()(single)
            refused = False
        except ValueError:
            refused = True
        ln_single = layernorm(single)

        ctx.progress(0.8, "BatchNorm at inference, with running statistics")
        served = BatchNorm(d_model).to(device).train()
        for _ in range(WARMUP_BATCHES):  # training gathers running averages of mean and variance
            served(ctx.randn(batch_size, d_model) * 3 + 1)
        served.eval()  # inference: those fixed averages replace the batch's statistics
        eval_a, eval_b, eval_single = served(batch_a), served(batch_b), served(single)

        # Padding: the same real tokens, plus as many all-zero padding rows. BatchNorm counts
        # the padding in its statistics; a mask would have to be threaded through by hand.
        padded = torch.cat([batch_a, torch.zeros_like(batch_a)])
        bn_padded = BatchNorm(d_model).to(device).train()(padded)

        both = torch.cat([ln_a, ln_b])
        values = {
            "layernorm_mean": float(both.mean(dim=-1).abs().max()),
            "layernorm_variance": float(both.var(dim=-1, unbiased=False).mean()),
            "layernorm_change": float((ln_a[0] - ln_b[0]).abs().max()),
            "batchnorm_change": float((bn_a[0] - bn_b[0]).abs().max()),
            "batchnorm_token_mean": float(bn_a[0].mean().abs()),
            "batchnorm_token_variance": float(bn_a[0].var(unbiased=False)),
            "batchnorm_single_token_variance": float(single_var.abs().max()),
            "batchnorm_single_token_output": float(single_out.abs().max()),
            "batchnorm_single_token_refused": refused,
            "layernorm_single_token_variance": float(ln_single.var(unbiased=False)),
            "batchnorm_eval_change": float((eval_a[0] - eval_b[0]).abs().max()),
            "batchnorm_eval_single_token_change": float((eval_single[0] - eval_a[0]).abs().max()),
            "batchnorm_train_eval_gap": float((bn_a[0] - eval_a[0]).abs().max()),
            "batchnorm_padding_change": float((bn_padded[0] - bn_a[0]).abs().max()),
            "layernorm_padding_change": float((layernorm(padded)[0] - ln_a[0]).abs().max()),
            # Counted on the module, not assumed: BatchNorm learns a scale and shift too.
            "batchnorm_params": count_parameters(batchnorm),
        }
    ctx.progress(1.0, "done")

    shown = min(d_model, 12)
    table = Table(
        title="The token under both norms, in two batches"
        + (f" (first {shown} of {d_model} features)" if shown < d_model else ""),
        columns=("feature", "token", "LN, batch A", "LN, batch B", "BN, batch A", "BN, batch B"),
        rows=tuple(
            (
                i,
                round_sig(float(token[i])),
                round_sig(float(ln_a[0, i])),
                round_sig(float(ln_b[0, i])),
                round_sig(float(bn_a[0, i])),
                round_sig(float(bn_b[0, i])),
            )
            for i in range(shown)
        ),
    )
    inference = Table(
        title="The same token under BatchNorm: training statistics versus running statistics"
        + (f" (first {shown} of {d_model} features)" if shown < d_model else ""),
        columns=("feature", "train, batch A", "eval, batch A", "eval, batch B", "eval, alone"),
        rows=tuple(
            (
                i,
                round_sig(float(bn_a[0, i])),
                round_sig(float(eval_a[0, i])),
                round_sig(float(eval_b[0, i])),
                round_sig(float(eval_single[0, i])),
            )
            for i in range(shown)
        ),
    )
    return Result(
        "norm_comparison",
        {"d_model": d_model, "batch_size": batch_size},
        str(device),
        values,
        _norm_summary(d_model, batch_size, values),
        table=table,
        extra_tables=(inference,),
    )


def _norm_summary(d_model: int, batch_size: int, v: dict[str, float | bool]) -> str:
    ln_same = v["layernorm_change"] <= 1e-6
    bn_moves = v["batchnorm_change"] > 1e-3
    lines = [
        f"One token with {d_model} features, in a batch of {batch_size}; batch B keeps the "
        "token and swaps its batch-mates for different ones (their mirror images through it).",
        f"- **LayerNorm** normalises across the token's own features: every token comes out with "
        f"mean ≈ {v['layernorm_mean']:.1e} and variance {v['layernorm_variance']:.4f}, and the "
        f"token's output changes by {v['layernorm_change']:.1e} when its batch-mates change"
        + (" — it cannot see them." if ln_same else "."),
        f"- **BatchNorm** (training mode) normalises each feature across the batch: the same "
        f"token's output changes by up to **{v['batchnorm_change']:.3g}**"
        + (" — it depends on what else is in the batch." if bn_moves else "."),
    ]
    if v["batchnorm_single_token_variance"] == 0:
        lines.append(
            "- **A batch of one token** (decoding one token at a time): each feature's variance "
            "across the batch is exactly 0 and the token minus the batch mean is 0, so BatchNorm "
            f"would output {v['batchnorm_single_token_output']:g} everywhere — the token erased"
            + (
                "; the reference BatchNorm, like `nn.BatchNorm1d`, refuses it in training mode."
                if v["batchnorm_single_token_refused"]
                else "."
            )
            + f" LayerNorm still gives that token variance {v['layernorm_single_token_variance']:.4f}."
        )
    lines.append(
        f"- **BatchNorm at inference** (eval mode) uses running averages gathered over "
        f"{WARMUP_BATCHES} training batches instead: the token's output changes by "
        f"{v['batchnorm_eval_change']:.1e} with its batch-mates and by "
        f"{v['batchnorm_eval_single_token_change']:.1e} alone, so at generation it too depends "
        "only on the token. The trouble is elsewhere: for the same token in the same batch, "
        f"training computed an output up to **{v['batchnorm_train_eval_gap']:.3g}** away from "
        "inference's (batch statistics versus running statistics), and padding the batch with "
        f"as many zero rows moves the token's training output by "
        f"**{v['batchnorm_padding_change']:.3g}** (LayerNorm: "
        f"{v['layernorm_padding_change']:.1e}) — variable-length batches are padded."
    )
    return "\n".join(lines)
