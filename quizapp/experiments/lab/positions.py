"""Position computations: RoPE is relative, learned tables end (permutation.py: attention is
order-blind).

Everything runs in float64 (float32 on Apple MPS, which has no float64), so that "the same up
to rounding" shows up as ~1e-15 rather than ~1e-7.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import torch
from torch import Tensor

from quizapp.experiments.context import Context
from quizapp.experiments.lab.common import glorot_normal_
from quizapp.experiments.result import Result, Series, Table
from quizapp.experiments.spec import ArgumentError
from quizapp.reference import (
    LearnedPositionalEmbedding,
    MultiHeadAttention,
    PositionOutOfRange,
    RotaryEmbedding,
    SinusoidalPositionalEncoding,
    TransformerBlock,
    count_parameters,
    scaled_dot_product_attention,
    sinusoidal_encoding,
)

# A learned table this size (max_positions × d_model numbers) is 64 MiB in float64.
MAX_TABLE_NUMBERS = 2**23
# Learned rows are drawn at the sinusoidal table's RMS (1/√2), so the two schemes compare fairly.
PE_RMS = 1 / math.sqrt(2)


def float_dtype(ctx: Context) -> torch.dtype:
    return torch.float32 if ctx.device.type == "mps" else torch.float64


def rounding_tolerance(dtype: torch.dtype, scale: float = 1.0) -> float:
    """Below this a difference is rounding, not signal."""
    return (1e-9 if dtype == torch.float64 else 1e-3) * max(1.0, scale)


LAYER_TOKENS = 6  # tokens through the RoPE attention layer: enough for a mix of values
POSITION_SHIFT = 100  # every token moved this far: the offsets between them stay the same


def _layer_shift_changes(
    ctx: Context, head_dim: int, base: float, dtype: torch.dtype
) -> tuple[float, float]:
    """How much a one-head RoPE attention layer's output moves when every token is shifted by
    POSITION_SHIFT positions: the reference layer as it is (RoPE on Q and K), and the same
    layer with V rotated too. Shifting keeps every offset, so only a rotated V can move it."""
    with torch.device("meta"):
        layer = MultiHeadAttention(head_dim, 1, bias=False)
    layer = layer.to_empty(device=ctx.device).to(dtype)
    glorot_normal_(layer, ctx)
    rope = RotaryEmbedding(head_dim, base=base)
    x = ctx.randn(1, LAYER_TOKENS, head_dim, dtype=dtype)  # [batch, seq, d]
    first = torch.arange(LAYER_TOKENS, device=ctx.device)

    def reference(positions: Tensor) -> Tensor:
        return layer(x, causal=True, rope=rope, positions=positions)[0]

    def values_rotated_too(positions: Tensor) -> Tensor:
        def heads(proj: torch.nn.Linear) -> Tensor:  # [1, 1, seq, head_dim], RoPE applied
            return rope(proj(x)[:, None], positions)

        out, _ = scaled_dot_product_attention(
            heads(layer.q_proj), heads(layer.k_proj), heads(layer.v_proj), causal=True
        )
        return layer.out_proj(out[:, 0])

    def change(attend: Callable[[Tensor], Tensor]) -> float:
        return float((attend(first) - attend(first + POSITION_SHIFT)).abs().max())

    return change(reference), change(values_rotated_too)


def _causal_mask_params(d_model: int) -> int:
    """Parameters a causal mask adds to a block: a decoder block (causal) less the same encoder
    block, both built on the meta device."""
    with torch.device("meta"):
        decoder, encoder = (
            TransformerBlock(d_model, 1, 4 * d_model, causal=c) for c in (True, False)
        )
    return count_parameters(decoder) - count_parameters(encoder)


def learned_table(
    ctx: Context, rows: int, d_model: int, dtype: torch.dtype
) -> LearnedPositionalEmbedding:
    """A LearnedPositionalEmbedding whose rows come from the run's seed, not the global RNG."""
    with torch.device("meta"):
        table = LearnedPositionalEmbedding(rows, d_model)
    table = table.to_empty(device=ctx.device).to(dtype)
    with torch.no_grad():
        table.table.weight.copy_(PE_RMS * ctx.randn(rows, d_model, dtype=dtype))
    return table


def rope_relative(ctx: Context, *, head_dim: int, offset: int, base: float) -> Result:
    dtype, device = float_dtype(ctx), ctx.device
    ctx.progress(0.1, "drawing q and k")
    with torch.no_grad():
        q = ctx.randn(head_dim, dtype=dtype)
        k = ctx.randn(head_dim, dtype=dtype)
        rope = RotaryEmbedding(head_dim, base=base)

        def rotate(x: Tensor, positions: list[int]) -> Tensor:
            """x: [head_dim] placed at each position -> [len(positions), head_dim]."""
            where = torch.tensor(positions, device=device)
            return rope(x.expand(1, 1, len(positions), head_dim), positions=where)[0, 0]

        def scores(key_positions: list[int], deltas: list[int]) -> Tensor:
            """q at n + delta against k at n, for each (n, delta) pair -> [pairs]."""
            query_positions = [n + d for n, d in zip(key_positions, deltas, strict=True)]
            return (rotate(q, query_positions) * rotate(k, key_positions)).sum(dim=-1)

        ctx.progress(0.3, "rotating q and k at several positions")
        key_positions = [0, 5, 17, 100, 1000]
        at_offset = scores(key_positions, [offset] * len(key_positions))
        other_offset = offset + 1
        at_other = scores(key_positions, [other_offset] * len(key_positions))
        queries = rotate(q, [n + offset for n in key_positions])
        deviation = float(at_offset.max() - at_offset.min())
        other_deviation = float(at_other.max() - at_other.min())
        query_spread = float((queries - queries[0]).abs().max())
        other_difference = float((at_other[0] - at_offset[0]).abs())

        ctx.progress(0.5, "scoring offsets 0 to 64")
        deltas = list(range(65))
        curves = scores([0] * len(deltas) + [1000] * len(deltas), deltas + deltas)
        near, far = curves.view(2, len(deltas)).tolist()

        ctx.progress(0.7, "checking the sinusoidal table's shift map")
        span = 1025  # positions 0..1024
        pe = sinusoidal_encoding(span + offset, head_dim, base=base, dtype=dtype, device=device)
        # M_k rotates each (sin, cos) pair by k·ω_i: built from k and the frequencies alone,
        # then checked against the table at every position.
        omega = base ** (-torch.arange(0, head_dim, 2, dtype=torch.float64) / head_dim)
        c, s = torch.cos(offset * omega), torch.sin(offset * omega)
        shift = torch.block_diag(*torch.stack([c, -s, s, c], dim=-1).view(-1, 2, 2))
        shift = shift.to(device=device, dtype=dtype)
        sinusoidal_error = float((pe[:span] @ shift - pe[offset:]).abs().max())

        ctx.progress(0.8, "shifting every token through a RoPE attention layer")
        layer_change, rotated_v_change = _layer_shift_changes(ctx, head_dim, base, dtype)

    scale = float(q.norm() * k.norm())
    tol = rounding_tolerance(dtype, scale)
    values: dict[str, float | int | bool | str] = {
        "max_offset_deviation": deviation,
        "score_at_offset": float(at_offset[0]),
        "unrotated_score": float(q @ k),
        "other_offset": other_offset,
        "score_at_other_offset": float(at_other[0]),
        "other_offset_difference": other_difference,
        "other_offset_deviation": other_deviation,
        "rotated_query_spread": query_spread,
        "absolute_positions_differ": query_spread > tol,
        "sinusoidal_offset_error": sinusoidal_error,
        "layer_shift_change": layer_change,
        "rotated_values_shift_change": rotated_v_change,
        "tolerance": tol,
    }
    rows = [
        (n, n + offset, offset, float(v)) for n, v in zip(key_positions, at_offset, strict=True)
    ]
    rows += [
        (n, n + other_offset, other_offset, float(v))
        for n, v in zip(key_positions[:2], at_other, strict=False)
    ]
    table = Table(
        title="q at position m, k at position n = m − offset",
        columns=("key position n", "query position m", "offset m − n", "q·k"),
        rows=tuple(rows),
    )
    series = Series(
        x_label="offset m − n",
        x=tuple(float(d) for d in deltas),
        lines={"q·k, key at 0": tuple(near), "q·k, key at 1000": tuple(far)},
        y_label="q·k after RoPE",
    )
    where = ", ".join(str(n) for n in key_positions)
    parts = [
        f"RoPE rotates the query (at m = n + {offset}) and the key (at n) by angles proportional "
        f"to their positions. With the key at n = {where}, "
    ]
    if deviation <= tol:
        parts.append(
            f"the score q·k is {float(at_offset[0]):.6g} every time (spread {deviation:.1e}): it "
            "depends on the offset alone, not on where the pair sits"
        )
    else:
        parts.append(f"the score q·k spreads by {deviation:.3g} across those positions")
    if query_spread > tol:
        parts.append(f" — yet the rotated queries themselves differ by up to {query_spread:.3g}.")
    else:
        parts.append(f"; the rotated queries differ by only {query_spread:.1e}.")
    if other_difference > tol:
        parts.append(
            f" At offset {other_offset} the score is {float(at_other[0]):.6g} instead: a different "
            "distance gives a different score."
        )
    else:
        parts.append(
            f" At offset {other_offset} the score is {float(at_other[0]):.6g}, the same to "
            f"{other_difference:.1e}."
        )
    if sinusoidal_error <= tol:
        parts.append(
            f" The sinusoidal table has a matching property: one fixed matrix M_{offset} turns "
            f"PE[pos] into PE[pos + {offset}] at every position 0–{span - 1} (largest error "
            f"{sinusoidal_error:.1e})."
        )
    else:
        parts.append(
            f" The fixed matrix M_{offset} maps PE[pos] to PE[pos + {offset}] with largest error "
            f"{sinusoidal_error:.3g} over positions 0–{span - 1}."
        )
    ctx.progress(1.0, "done")
    args = {"head_dim": head_dim, "offset": offset, "base": base}
    return Result(
        "rope_relative", args, str(device), values, "".join(parts), table=table, series=series
    )


def positional_extrapolation(
    ctx: Context, *, max_positions: int, position: int, d_model: int
) -> Result:
    if max_positions * d_model > MAX_TABLE_NUMBERS:
        raise ArgumentError(
            f"a learned table of {max_positions} × {d_model} = {max_positions * d_model:,} numbers "
            f"is too big to build here (at most {MAX_TABLE_NUMBERS:,}); lower max_positions or d_model",
            "max_positions",
        )
    dtype, device = float_dtype(ctx), ctx.device
    with torch.no_grad():
        ctx.progress(0.1, "evaluating the sinusoidal formula")
        sinusoidal = SinusoidalPositionalEncoding(d_model)

        def sinusoidal_rows(positions: list[int]) -> Tensor:
            return sinusoidal(torch.tensor(positions, device=device), dtype=dtype)

        checked = min(max(position, max_positions) + 1, 2048)
        reference = sinusoidal_encoding(checked, d_model, dtype=dtype, device=device)
        reference_error = float((sinusoidal_rows(list(range(checked))) - reference).abs().max())

        ctx.progress(0.3, f"building a learned table of {max_positions} rows")
        learned = learned_table(ctx, max_positions, d_model, dtype)

        def look_up(p: int) -> tuple[Tensor | None, str]:
            try:
                return learned(torch.tensor([p], device=device))[0], ""
            except PositionOutOfRange as exc:
                return None, str(exc)

        ctx.progress(0.5, f"asking both for position {position}")
        sin_vec = sinusoidal_rows([position])[0]
        learned_vec, message = look_up(position)

        rows = []
        for p in sorted({0, max_positions - 1, max_positions, position}):
            vec = sinusoidal_rows([p])[0]
            row, _ = look_up(p)
            rows.append(
                (
                    p,
                    "yes" if bool(torch.isfinite(vec).all()) else "no",
                    float(vec.norm()),
                    "yes" if row is not None else "no: no such row",
                    float(row.norm()) if row is not None else "",
                )
            )

        ctx.progress(0.7, "tracing similarity to position 0")
        last = max(position, max_positions)
        span = max(last + last // 4, 8)
        sample = torch.linspace(0, span, 201, dtype=torch.float64).round().long().tolist()
        xs = sorted({*sample, position, max_positions - 1, max_positions})
        pe = sinusoidal_rows(xs)
        similarity = torch.nn.functional.cosine_similarity(pe, pe[:1], dim=-1)

    sin_norm = float(sin_vec.norm())
    expected_norm = math.sqrt(d_model / 2)
    learned_defined = learned_vec is not None
    values: dict[str, float | int | bool | str] = {
        "sinusoidal_defined": bool(torch.isfinite(sin_vec).all()),
        "sinusoidal_norm": sin_norm,
        "sinusoidal_norm_expected": expected_norm,
        "learned_defined": learned_defined,
        "learned_message": message,
        "learned_last_position": max_positions - 1,
        "reference_table_error": reference_error,
        # Counted from the modules: the formula has nothing to learn; the table is all learned.
        "sinusoidal_params": count_parameters(sinusoidal),
        "learned_params": count_parameters(learned),
        "rope_params": count_parameters(RotaryEmbedding(d_model)),
        "causal_mask_params": _causal_mask_params(d_model),
        "learned_rows": max_positions,
        "d_model": d_model,
    }
    if learned_vec is not None:
        values["learned_norm"] = float(learned_vec.norm())
    table = Table(
        title=f"Sinusoidal formula versus a learned table of {max_positions} rows",
        columns=(
            "position",
            "sinusoidal defined",
            "sinusoidal norm",
            "learned defined",
            "learned norm",
        ),
        rows=tuple(rows),
    )
    series = Series(
        x_label="position",
        x=tuple(float(x) for x in xs),
        lines={
            "sinusoidal: cosine similarity to position 0": tuple(float(v) for v in similarity),
            "learned table has this row (1 yes, 0 no)": tuple(
                1.0 if x < max_positions else 0.0 for x in xs
            ),
        },
        y_label="similarity / coverage",
    )
    same_norm = abs(sin_norm - expected_norm) <= rounding_tolerance(dtype, expected_norm)
    parts = [
        f"The sinusoidal formula is defined at position {position}: a {d_model}-number vector of "
        f"norm {sin_norm:.6g}"
        + (f", the same √(d/2) = {expected_norm:.6g} as at every position." if same_norm else ".")
    ]
    if learned_defined:
        parts.append(
            f" The learned table has rows 0–{max_positions - 1}, so position {position} is inside "
            f"it and both schemes give a vector. Ask for position {max_positions} or beyond and the "
            "learned table has no row to give."
        )
    else:
        parts.append(
            f" The learned table stops at row {max_positions - 1}: asking it for position "
            f"{position} fails with “{message}”. A learned table has rows only for the positions it was built, and trained, for."
        )
    parts.append(
        f" Parameters, counted from the modules: the sinusoidal encoding has "
        f"**{values['sinusoidal_params']}** (a fixed function of the position, nothing is "
        f"learned); the learned table has **{values['learned_params']:,}** "
        f"({max_positions} rows × {d_model})."
    )
    ctx.progress(1.0, "done")
    args = {"max_positions": max_positions, "position": position, "d_model": d_model}
    return Result(
        "positional_extrapolation",
        args,
        str(device),
        values,
        "".join(parts),
        table=table,
        series=series,
    )
