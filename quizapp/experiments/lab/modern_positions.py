"""Positions in today's models: RoPE scaled past its training length, and ALiBi's biases."""

from __future__ import annotations

import math

import torch

from quizapp.experiments.context import Context
from quizapp.experiments.lab.common import round_sig
from quizapp.experiments.result import Result, Series, Table
from quizapp.experiments.spec import ArgumentError
from quizapp.reference import (
    RopeScaling,
    RotaryEmbedding,
    alibi_bias,
    alibi_slopes,
    inverse_frequencies,
    rope_frequencies,
    scaled_dot_product_attention,
)

PAIRS_SHOWN = 8  # rows of the frequency table


# --------------------------------------------------------------------------------------------
# rope_scaling


def _score_drift(
    ctx: Context, rope: RotaryEmbedding, distance: int, shifts: tuple[int, ...]
) -> float:
    """max |q·k at (a + distance, a) - q·k at (distance, 0)| over the shifts a, in float32:
    how far the score moves when only the absolute positions change."""
    head_dim = rope.head_dim
    q = ctx.randn(1, 1, 1, head_dim)  # [batch, heads, seq, head_dim]
    k = ctx.randn(1, 1, 1, head_dim)
    q, k = q / q.norm(), k / k.norm()  # unit vectors: the score is a cosine

    def score(m: int, n: int) -> float:
        at = lambda p: torch.tensor([p], device=ctx.device)  # noqa: E731
        return float((rope(q, at(m)) * rope(k, at(n))).sum())

    reference = score(distance, 0)
    return max(abs(score(a + distance, a) - reference) for a in shifts)


def rope_scaling(
    ctx: Context,
    *,
    method: str = "llama3",
    factor: float = 8.0,
    head_dim: int = 128,
    base: float = 500000.0,
    low_freq_factor: float = 1.0,
    high_freq_factor: float = 4.0,
    original_max_position_embeddings: int = 8192,
    position: int = 32768,
) -> Result:
    original = original_max_position_embeddings
    try:
        scaling = RopeScaling(method, factor, low_freq_factor, high_freq_factor, original)  # type: ignore[arg-type]
    except ValueError as exc:
        raise ArgumentError(
            str(exc), "high_freq_factor" if "freq" in str(exc) else "method"
        ) from None
    ctx.progress(0.1, "computing the frequencies")
    before = rope_frequencies(head_dim, base)  # [head_dim / 2], float64
    after = inverse_frequencies(head_dim, base, scaling)
    ratio = after / before
    unchanged = torch.isclose(ratio, torch.ones_like(ratio), rtol=1e-12, atol=0)
    slowed = ~unchanged & torch.isclose(
        ratio, torch.full_like(ratio, 1 / factor), rtol=1e-12, atol=0
    )
    blended = ~unchanged & ~slowed
    # The largest angle each pair reached in training, and whether it ever turned a full circle.
    trained = before * (original - 1)
    never_turned = trained < 2 * math.pi
    unseen_before = (before * position > trained) & never_turned
    unseen_after = (after * position > trained) & never_turned

    ctx.progress(0.4, f"moving a q·k pair {position:,} apart to other positions")
    shifts = (original, 4 * original, 1_000_000)
    drift_before = _score_drift(ctx, RotaryEmbedding(head_dim, base), position, shifts)
    drift_after = _score_drift(ctx, RotaryEmbedding(head_dim, base, scaling), position, shifts)

    wavelength_before, wavelength_after = 2 * math.pi / before, 2 * math.pi / after
    values: dict[str, int | float | bool | str] = {
        "frequency_max_before": float(before.max()),
        "frequency_max_after": float(after.max()),
        "frequency_min_before": float(before.min()),
        "frequency_min_after": float(after.min()),
        "longest_wavelength_before": float(wavelength_before.max()),
        "longest_wavelength_after": float(wavelength_after.max()),
        "pairs_unchanged": int(unchanged.sum()),
        "pairs_slowed_by_factor": int(slowed.sum()),
        "pairs_blended": int(blended.sum()),
        "effective_context": factor * original,
        "unseen_pairs_before": int(unseen_before.sum()),
        "unseen_pairs_after": int(unseen_after.sum()),
        "score_drift_before": drift_before,
        "score_drift_after": drift_after,
        "n_pairs": head_dim // 2,
    }
    ctx.progress(0.9, "summarising")
    n = head_dim // 2
    shown = sorted({round(i * (n - 1) / (PAIRS_SHOWN - 1)) for i in range(PAIRS_SHOWN)})
    table = Table(
        title=f"{method} scaling, factor {factor:g}: a few of the {n} pairs",
        columns=("pair", "θ before", "θ after", "after / before", "wavelength before",
                 "wavelength after", f"unseen at {position:,}"),
        rows=tuple(
            (j, round_sig(float(before[j])), round_sig(float(after[j])), round_sig(float(ratio[j])),
             round_sig(float(wavelength_before[j])), round_sig(float(wavelength_after[j])),
             f"{'yes' if unseen_before[j] else 'no'} → {'yes' if unseen_after[j] else 'no'}")
            for j in shown
        ),
    )  # fmt: skip
    series = Series(
        x_label="pair j",
        x=tuple(float(j) for j in range(n)),
        lines={
            "wavelength before": tuple(float(w) for w in wavelength_before),
            "wavelength after": tuple(float(w) for w in wavelength_after),
        },
        y_label="tokens per turn",
        log_y=True,
    )
    summary = (
        f"RoPE with base {base:g} rotates its {n} pairs at wavelengths from "
        f"{float(wavelength_before.min()):.3g} to {float(wavelength_before.max()):,.0f} tokens. "
        f"{method} scaling by {factor:g} leaves {values['pairs_unchanged']} pairs alone, slows "
        f"{values['pairs_slowed_by_factor']} by exactly {factor:g}× and blends "
        f"{values['pairs_blended']}; the longest wavelength becomes "
        f"{values['longest_wavelength_after']:,.0f} tokens. Scaling stretches the {original:,} "
        f"trained positions {factor:g}× to **{factor * original:,.0f}** (a model card may claim "
        "more: the rest comes from training on long documents). At distance {position:,}, "
        f"**{values['unseen_pairs_before']}** pairs would turn to angles never seen in "
        f"{original:,}-token training without scaling, **{values['unseen_pairs_after']}** with "
        f"it. The score at that distance moves by at most {drift_before:.2g} (unscaled) and "
        f"{drift_after:.2g} (scaled) when both tokens shift to other positions: still relative, "
        f"up to float32 rounding."
    )
    args = {
        "method": method,
        "factor": factor,
        "head_dim": head_dim,
        "base": base,
        "low_freq_factor": low_freq_factor,
        "high_freq_factor": high_freq_factor,
        "original_max_position_embeddings": original,
        "position": position,
    }
    return Result(
        "rope_scaling", args, str(ctx.device), values, summary, table=table, series=series
    )


# --------------------------------------------------------------------------------------------
# alibi


def alibi(ctx: Context, *, n_heads: int = 8, distance: int = 10, seq_len: int = 8) -> Result:
    ctx.progress(0.1, "computing the slopes")
    slopes = alibi_slopes(n_heads)  # [n_heads], float64
    at_distance = alibi_bias(n_heads, 1, distance + 1)[:, 0, 0]  # the key `distance` back
    ctx.progress(0.4, "building the bias matrix")
    matrix = alibi_bias(n_heads, seq_len)  # [n_heads, seq, seq]
    constant = all(
        bool((d == d[:, :1]).all())
        for offset in range(-seq_len + 1, seq_len)
        for d in [torch.diagonal(matrix, offset=offset, dim1=1, dim2=2)]
    )
    ctx.progress(0.7, "attending with equal content scores")
    # q = k = 0: every content score is equal, so the weights show ALiBi's preference alone.
    zeros = torch.zeros(1, n_heads, seq_len, 1, device=ctx.device)
    bias = matrix.to(device=ctx.device, dtype=torch.float32)
    _, weights = scaled_dot_product_attention(zeros, zeros, zeros, mask=bias, causal=True)
    first_token = weights[0, :, -1, 0]  # [n_heads]: the last query's weight on token 0
    ratio = float(slopes[1] / slopes[0]) if n_heads > 1 else float(slopes[0])
    values: dict[str, int | float | bool | str] = {
        "slope_first": float(slopes[0]),
        "slope_last": float(slopes[-1]),
        "slope_ratio": ratio,
        "slopes": ", ".join(f"{s:.6g}" for s in slopes.tolist()),
        "bias_at_distance_first_head": float(at_distance[0]),
        "bias_at_distance_last_head": float(at_distance[-1]),
        "depends_only_on_distance": constant,
        "weight_on_first_token_first_head": float(first_token[0]),
        "weight_on_first_token_last_head": float(first_token[-1]),
        "is_power_of_two": n_heads & (n_heads - 1) == 0,
    }
    ctx.progress(0.9, "summarising")
    table = Table(
        title=f"Slopes and the bias {distance:,} tokens back",
        columns=("head", "slope m", "log2(1/m)", f"bias at {distance:,}",
                 f"weight on token 0 of {seq_len}"),
        rows=tuple(
            (h, round_sig(float(slopes[h]), 6), round_sig(-math.log2(float(slopes[h]))),
             round_sig(float(at_distance[h]), 6), round_sig(float(first_token[h])))
            for h in range(n_heads)
        ),
    )  # fmt: skip
    rule = (
        f"{n_heads} is a power of two, so the slopes are the geometric sequence 2^(-8/{n_heads}), "
        f"2^(-16/{n_heads}), …, 2^-8"
        if values["is_power_of_two"]
        else f"{n_heads} is not a power of two, so the first "
        f"{2 ** math.floor(math.log2(n_heads))} slopes are that power's sequence and the rest "
        "are every other slope of the sequence for twice as many heads"
    )
    summary = (
        f"ALiBi adds −m·(i − j) to each score instead of a position embedding. {rule}: from "
        f"**{float(slopes.max()):.6g}** down to **{float(slopes.min()):.6g}**. A key {distance:,} tokens back costs "
        f"head 0 {float(at_distance[0]):.6g} and the last head {float(at_distance[-1]):.6g}. "
        f"Every diagonal of the {seq_len}×{seq_len} bias is constant "
        f"({'checked' if constant else 'NOT, which is a bug'}): it depends only on the "
        f"distance. With equal content scores the last query gives token 0 a weight of "
        f"{float(first_token[0]):.3g} in head 0 (slope {slopes[0]:.3g}) and "
        f"{float(first_token[-1]):.3g} in the last head (slope {slopes[-1]:.3g}): the steeper "
        "the slope, the nearer the head looks."
    )
    args = {"n_heads": n_heads, "distance": distance, "seq_len": seq_len}
    return Result("alibi", args, str(ctx.device), values, summary, table=table)
