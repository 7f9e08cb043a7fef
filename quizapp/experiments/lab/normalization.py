"""Normalisation and residual computations through depth: how activation variance drifts, and
how gradients reach the layers of a deep stack at initialisation."""

from __future__ import annotations

import math

import torch
from torch import nn

from quizapp.experiments.context import Context
from quizapp.experiments.lab.common import glorot_normal_, heads_for, round_sig, variance
from quizapp.experiments.result import Result, Series, Table
from quizapp.reference import LayerNorm, TransformerBlock
from quizapp.wording import plural

# --------------------------------------------------------------------------------------------
# variance_drift
# --------------------------------------------------------------------------------------------

STACKS = ("plain", "residual", "post_ln", "pre_ln")
STACK_LABELS = {
    "plain": "plain x = f(x)",
    "residual": "residual x = x + f(x)",
    "post_ln": "Post-LN x = LN(x + f(x))",
    "pre_ln": "Pre-LN x = x + f(LN(x))",
}


def variance_drift(ctx: Context, *, n_layers: int, d_model: int, n_tokens: int) -> Result:
    """Push the same tokens through four stacks built from the same sub-layers and measure the
    activation variance after every layer."""
    device = ctx.device
    with torch.no_grad():
        # One sub-layer = a bias-free square linear map with Glorot-normal weights (std 1/√d):
        # on its own it keeps the variance of its input. All four stacks share these weights,
        # so the only difference between them is where the residual and the norm go.
        sublayers = nn.ModuleList(
            nn.utils.skip_init(nn.Linear, d_model, d_model, bias=False, device=device)
            for _ in range(n_layers)
        )
        glorot_normal_(sublayers, ctx)
        norms = nn.ModuleList(LayerNorm(d_model) for _ in range(n_layers)).to(device)
        x0 = ctx.randn(n_tokens, d_model)

        states = dict.fromkeys(STACKS, x0)
        curves: dict[str, list[float]] = {name: [variance(x0)] for name in STACKS}
        for layer, (f, norm) in enumerate(zip(sublayers, norms, strict=True), start=1):
            ctx.progress((layer - 1) / n_layers, f"layer {layer} of {n_layers}")
            x = states
            states = {
                "plain": f(x["plain"]),
                "residual": x["residual"] + f(x["residual"]),
                "post_ln": norm(x["post_ln"] + f(x["post_ln"])),
                "pre_ln": x["pre_ln"] + f(norm(x["pre_ln"])),
            }
            for name in STACKS:
                curves[name].append(variance(states[name]))
        ctx.progress(1.0, "done")

    start = curves["residual"][0]
    final = {name: curves[name][-1] for name in STACKS}
    doubling = (final["residual"] / start) ** (1.0 / n_layers)
    values: dict[str, float | int] = {
        "plain_final": final["plain"],
        "residual_final": final["residual"],
        "post_ln_final": final["post_ln"],
        "pre_ln_final": final["pre_ln"],
        "input_variance": start,
        "residual_doubling_ratio": doubling,  # geometric mean of successive-layer ratios
        "two_to_the_n_layers": 2**n_layers,
        "residual_vs_two_to_the_n": final["residual"] / 2**n_layers,
        "pre_ln_growth_per_layer": (final["pre_ln"] - start) / n_layers,
        "post_ln_max_deviation": max(abs(v - 1.0) for v in curves["post_ln"][1:]),
        "plain_max_deviation": max(abs(v - start) for v in curves["plain"][1:]),
        # Pre-LN's stream against depth + 1: about 1 when each layer adds one unit of variance.
        "pre_ln_final_over_depth": final["pre_ln"] / (n_layers + 1),
        "n_layers": n_layers,
    }

    shown = sorted({0, 1, 2, 5, 10, 20, 40, n_layers} & set(range(n_layers + 1)))
    table = Table(
        title="Activation variance after each layer",
        columns=("layer", "plain", "residual", "2^layer", "Post-LN", "Pre-LN"),
        rows=tuple(
            (
                layer,
                round_sig(curves["plain"][layer]),
                round_sig(curves["residual"][layer]),
                2**layer,
                round_sig(curves["post_ln"][layer]),
                round_sig(curves["pre_ln"][layer]),
            )
            for layer in shown
        ),
    )
    series = Series(
        x_label="layer",
        x=tuple(float(i) for i in range(n_layers + 1)),
        lines={STACK_LABELS[name]: tuple(curves[name]) for name in STACKS},
        y_label="activation variance",
        log_y=True,
    )
    return Result(
        "variance_drift",
        {"n_layers": n_layers, "d_model": d_model, "n_tokens": n_tokens},
        str(device),
        values,
        _drift_summary(n_layers, final, start, doubling),
        table=table,
        series=series,
    )


def _drift_summary(n_layers: int, final: dict[str, float], start: float, doubling: float) -> str:
    L = n_layers
    lines = [
        f"{plural(L, 'sub-layer')}, each a bias-free square `nn.Linear` with Glorot-normal weights "
        f"(so each one alone keeps the variance), fed tokens of variance {start:.3g}. "
        "A simple linear sub-layer stands in for attention or the FFN, to keep the arithmetic "
        "visible; the norm is `quizapp.reference.LayerNorm`."
    ]
    plain = final["plain"]
    lines.append(
        f"- **Plain stack** x = f(x): variance {plain:.3g} after {plural(L, 'layer')}"
        + (" — it stays near 1." if 0.5 <= plain <= 2 else " — it drifts even without residuals.")
    )
    res = final["residual"]
    per_layer = " on average" if L > 1 else ""
    if 1.7 <= doubling <= 2.3:
        verdict = (
            "x and f(x) are nearly uncorrelated at random init, so Var(x + f(x)) ≈ Var(x) + "
            f"Var(f(x)) = 2·Var(x): it **doubles each layer** (×{doubling:.2f}{per_layer}): "
            f"{res:.3g} after {plural(L, 'layer')}, against 2^{L} = {2**L:,}."
        )
    else:
        verdict = f"it is multiplied by {doubling:.2f} per layer{per_layer}, reaching {res:.3g}."
    lines.append(f"- **Residual, no norm** x = x + f(x): {verdict}")
    post = final["post_ln"]
    lines.append(
        f"- **Post-LN** x = LN(x + f(x)): {post:.3g} after {plural(L, 'layer')}"
        + (
            " — the norm resets it to 1 every layer, so the drift never compounds."
            if abs(post - 1) < 0.05
            else "."
        )
    )
    pre = final["pre_ln"]
    linear = 0.5 * (L + 1) <= pre <= 2 * (L + 1)
    lines.append(
        f"- **Pre-LN** x = x + f(LN(x)): {pre:.3g} after {plural(L, 'layer')}"
        + (
            f" — each layer adds about one unit of variance to the residual stream (≈ L + 1 = "
            f"{L + 1}): linear growth, not exponential, because only f's input is normalised."
            if linear
            else "; the residual stream itself is never normalised."
        )
    )
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------
# gradient_flow
# --------------------------------------------------------------------------------------------

SEEDS_PER_DEPTH = 3  # fresh weights and data each time; the gradient norms are averaged
BATCH, SEQ = 2, 32


def _depths(n_layers: int) -> list[int]:
    depths, depth = {1, n_layers}, 2
    while depth < n_layers:
        depths.add(depth)
        depth *= 2
    return sorted(depths)


def _last_ffn_grad(ctx: Context, position: str, depth: int, d_model: int) -> float:
    """‖∂loss/∂W₂‖ for the last block's FFN output matrix in a fresh `depth`-block stack."""
    blocks = nn.ModuleList(
        TransformerBlock(
            d_model, heads_for(d_model), 4 * d_model, norm_position=position, activation="relu"
        )
        for _ in range(depth)
    ).to(ctx.device)
    glorot_normal_(blocks, ctx)  # Xavier init, as in Xiong et al.'s analysis
    x = ctx.randn(BATCH, SEQ, d_model)
    target = ctx.randn(BATCH, SEQ, d_model)
    for block in blocks:
        x = block(x)
    if position == "pre":
        x = LayerNorm(d_model).to(ctx.device)(x)  # the final LayerNorm Pre-LN models add
    # Mean squared error to a random target. (A sum of squares would be useless here: a
    # LayerNorm's output always has the same norm, so its gradient through the norm is zero.)
    loss = (x - target).pow(2).mean()
    loss.backward()
    grad = blocks[-1].ffn.down_proj.weight.grad
    assert grad is not None
    return float(grad.norm())


def _first_layer_grads(ctx: Context, n_layers: int, d_model: int) -> dict[str, list[float]]:
    """Gradient norm reaching each layer of a deep sigmoid stack, with and without residuals.

    Float64: without residuals the first layer's gradient can be ~1e-30, below float32's range.
    """
    layers = nn.ModuleList(
        nn.utils.skip_init(nn.Linear, d_model, d_model, bias=False, device=ctx.device)
        for _ in range(n_layers)
    )
    glorot_normal_(layers, ctx)
    layers.double()
    x0 = ctx.randn(BATCH * SEQ, d_model).double()
    target = ctx.randn(BATCH * SEQ, d_model).double()
    grads: dict[str, list[float]] = {}
    for name, residual in (("plain", False), ("residual", True)):
        layers.zero_grad(set_to_none=True)
        x = x0
        for layer in layers:
            x = x + torch.sigmoid(layer(x)) if residual else torch.sigmoid(layer(x))
        (x - target).pow(2).mean().backward()
        grads[name] = [float(layer.weight.grad.norm()) for layer in layers]  # type: ignore[union-attr]
    return grads


def _slope(xs: list[int], ys: list[float]) -> float:
    """Least-squares slope of log y against log x (the exponent p in y ∝ x^p)."""
    lx = [math.log(x) for x in xs]
    ly = [math.log(y) for y in ys]
    mx, my = sum(lx) / len(lx), sum(ly) / len(ly)
    sxx = sum((a - mx) ** 2 for a in lx)
    return sum((a - mx) * (b - my) for a, b in zip(lx, ly, strict=True)) / sxx


def gradient_flow(ctx: Context, *, n_layers: int, d_model: int) -> Result:
    """(1) Xiong et al. 2020: the last layer's FFN gradient against depth, Post-LN and Pre-LN.
    (2) The gradient reaching the first layer of a deep stack, with and without residuals."""
    depths = _depths(n_layers)
    total = 2 * SEEDS_PER_DEPTH * sum(depths) + n_layers
    done = 0
    grads: dict[str, list[float]] = {"post": [], "pre": []}
    with torch.enable_grad():
        for depth in depths:
            for position in ("post", "pre"):
                runs = []
                for seed in range(SEEDS_PER_DEPTH):
                    ctx.progress(
                        done / total,
                        f"{position.capitalize()}-LN, {depth} blocks, draw {seed + 1}",
                    )
                    runs.append(_last_ffn_grad(ctx, position, depth, d_model))
                    done += depth
                grads[position].append(sum(runs) / len(runs))
        ctx.progress(done / total, f"sigmoid stack of {n_layers} layers")
        first = _first_layer_grads(ctx, n_layers, d_model)
    ctx.progress(1.0, "done")

    post, pre = grads["post"], grads["pre"]
    # Ratios are taken from depth 2 (depth 1 when 2 is the deepest, so there is a comparison).
    base = 2 if n_layers > 2 else 1
    i2 = depths.index(base)
    sqrt_ratio = math.sqrt(base / n_layers)
    values: dict[str, float | int] = {
        "post_ln_last_ffn_grad": post[-1],
        "pre_ln_last_ffn_grad": pre[-1],
        "baseline_depth": base,
        "post_ln_depth_ratio": post[-1] / post[i2],  # grad(L) / grad(base)
        "pre_ln_depth_ratio": pre[-1] / pre[i2],
        "inverse_sqrt_depth_ratio": sqrt_ratio,  # √(base/L): what exact 1/√L would give
        "pre_ln_ratio_vs_sqrt": pre[-1] * math.sqrt(n_layers) / (pre[i2] * math.sqrt(base)),
        "post_ln_slope": _slope(depths, post),  # exponent p in grad ∝ L^p
        "pre_ln_slope": _slope(depths, pre),
        "first_layer_grad_residual": first["residual"][0],
        "first_layer_grad_plain": first["plain"][0],
        "first_layer_grad_ratio": first["residual"][0] / first["plain"][0],
        "last_layer_grad_plain": first["plain"][-1],
        "last_layer_grad_residual": first["residual"][-1],
        "plain_first_over_last": first["plain"][0] / first["plain"][-1],
    }

    table = Table(
        title="‖∂loss/∂W₂‖ of the last block's FFN at initialisation",
        columns=("blocks L", "Post-LN", "Pre-LN", "Pre-LN × √L"),
        rows=tuple(
            (d, round_sig(po), round_sig(pr), round_sig(pr * math.sqrt(d)))
            for d, po, pr in zip(depths, post, pre, strict=True)
        ),
    )
    step = max(1, math.ceil(n_layers / 12))
    shown = sorted({*range(1, n_layers + 1, step), n_layers})
    per_layer = Table(
        title=f"‖∂loss/∂W‖ reaching each layer of a {n_layers}-layer sigmoid stack",
        columns=("layer", "plain σ(Wx)", "residual x + σ(Wx)"),
        rows=tuple(
            (i, round_sig(first["plain"][i - 1]), round_sig(first["residual"][i - 1]))
            for i in shown
        ),
    )
    series = Series(
        x_label="blocks L",
        x=tuple(float(d) for d in depths),
        lines={
            "Post-LN": tuple(post),
            "Pre-LN": tuple(pre),
            f"∝ 1/√L (through Pre-LN at L = {base})": tuple(
                pre[i2] * math.sqrt(base / d) for d in depths
            ),
        },
        y_label="‖∂loss/∂W₂‖, last block",
    )
    return Result(
        "gradient_flow",
        {"n_layers": n_layers, "d_model": d_model},
        str(ctx.device),
        values,
        _flow_summary(n_layers, d_model, values),
        table=table,
        series=series,
        extra_tables=(per_layer,),
    )


def _flow_summary(n_layers: int, d_model: int, v: dict[str, float | int]) -> str:
    L = n_layers
    post_r, pre_r, sq = (
        v["post_ln_depth_ratio"],
        v["pre_ln_depth_ratio"],
        v["inverse_sqrt_depth_ratio"],
    )
    lines = [
        f"Stacks of `quizapp.reference.TransformerBlock` (attention + ReLU FFN, width {d_model}, "
        f"Xavier init), {SEEDS_PER_DEPTH} random draws per depth, loss = mean squared error to a "
        "random target; Pre-LN ends with a final LayerNorm, as in Xiong et al. (2020).",
        f"- From {v['baseline_depth']} to {L} blocks, the last FFN's weight gradient goes "
        f"×{post_r:.2f} under **Post-LN** and ×{pre_r:.2f} under **Pre-LN** (exact 1/√L would "
        f"be ×{sq:.2f}).",
    ]
    if pre_r < post_r and pre_r < 1:
        level = 2 / 3 <= post_r <= 3 / 2
        lines.append(
            "- Pre-LN's final norm divides by the residual stream's growing scale, so the gradient "
            f"shrinks with depth (fitted exponent {v['pre_ln_slope']:.2f}; the paper: −½); "
            + (
                f"Post-LN's stays roughly level (exponent {v['post_ln_slope']:.2f}). Xiong et al. "
                "trace Post-LN's need for learning-rate warm-up to these large gradients near "
                "the output."
                if level
                else f"Post-LN's fitted exponent is {v['post_ln_slope']:.2f}."
            )
        )
    res, plain = v["first_layer_grad_residual"], v["first_layer_grad_plain"]
    last = v["last_layer_grad_plain"]
    lines.append(
        f"- A {L}-layer stack of sigmoid(Wx) with Glorot weights: without residuals the last "
        f"layer's gradient is {last:.2e} but only **{plain:.2e}** reaches the first"
        + (
            " — the sigmoid's slope is at most ¼, so every layer the gradient passes back "
            "through shrinks it."
            if plain < last
            else "."
        )
        + f" With residuals x + sigmoid(Wx), the first layer gets **{res:.2e}**"
        + (
            f" (×{res / plain:.3g}): the identity path carries the gradient straight back."
            if res > plain
            else "."
        )
    )
    return "\n".join(lines)
