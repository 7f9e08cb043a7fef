"""What more heads cost: parameters and attention FLOPs across head counts, measured.

Each row builds the reference MultiHeadAttention on the meta device (shapes only, no memory)
and runs one forward pass under torch.utils.flop_counter.FlopCounterMode, which counts the
FLOPs of every matrix multiply from its shapes. A hook on the batched matmul also records
each call, to show that all heads are computed by the same single call.
"""

from __future__ import annotations

import torch
from torch import nn
from torch.utils.flop_counter import FlopCounterMode, bmm_flop

from quizapp.experiments.context import Context
from quizapp.experiments.result import Result, Series, Table
from quizapp.reference import MultiHeadAttention, count_parameters

META = torch.device("meta")
HEAD_COUNTS = (1, 2, 4, 8, 16, 32, 64)
SHOWN_AT = 8  # the head count the lesson's example uses (512 = 8 × 64)
# PyTorch's own FLOP formula for aten.bmm, on shapes (the registered bmm_flop wraps it to take
# tensors). FlopCounterMode calls a custom formula with shapes, so ours reuses it and logs.
BMM_FLOPS = bmm_flop.__wrapped__


def _head_counts(d_model: int) -> list[int]:
    return [h for h in HEAD_COUNTS if d_model % h == 0]


def attention_flops(seq_len: int, d_model: int) -> int:
    """QKᵀ and AV for one sequence, all heads together: each is a [seq, head_dim] by
    [head_dim, seq] (or [seq, seq] by [seq, head_dim]) product per head, 2·seq²·head_dim FLOPs,
    and h heads × head_dim = d_model. So 2 · 2·seq²·d_model, whatever the head count."""
    return 2 * 2 * seq_len * seq_len * d_model


def measure_heads(d_model: int, n_heads: int, seq_len: int) -> dict[str, int]:
    """Build the reference attention with n_heads on the meta device, count its parameters, and
    count the FLOPs of one forward pass over one sequence of seq_len tokens."""
    with META:
        module = MultiHeadAttention(d_model, n_heads, bias=False)
        theirs = nn.MultiheadAttention(d_model, n_heads, bias=False)
        x = torch.empty(1, seq_len, d_model)  # [batch 1, seq, d_model]
    calls: list[int] = []

    def logged_bmm(a_shape, b_shape, *args, **kwargs) -> int:  # type: ignore[no-untyped-def]
        flops = BMM_FLOPS(a_shape, b_shape, *args, **kwargs)
        calls.append(flops)
        return flops

    with FlopCounterMode(display=False, custom_mapping={torch.ops.aten.bmm: logged_bmm}) as counter:
        module(x)
    totals = {str(op): n for op, n in counter.get_flop_counts()["Global"].items()}
    # Batch 1, so each bmm's batch dimension is the heads: call 1 is QKᵀ, call 2 is AV. (Any
    # other number of calls shows in matmul_calls, and the per-head columns then read 0.)
    qk, av = calls if len(calls) == 2 else (0, 0)
    return {
        "heads": n_heads,
        "head_dim": module.head_dim,
        "params": count_parameters(module),
        "torch_params": count_parameters(theirs),
        "qk_per_head": qk // n_heads,
        "av_per_head": av // n_heads,
        "attention_total": totals.get("aten.bmm", 0),
        "projection_total": totals.get("aten.mm", 0),
        "matmul_calls": len(calls),
    }


def head_parallelism(ctx: Context, *, d_model: int, seq_len: int) -> Result:
    counts = _head_counts(d_model)
    rows: list[dict[str, int]] = []
    for i, heads in enumerate(counts):
        ctx.progress(i / len(counts), f"measuring {heads} heads")
        rows.append(measure_heads(d_model, heads, seq_len))
    ctx.progress(0.95, "comparing")
    by_heads = {row["heads"]: row for row in rows}
    at_8 = by_heads[SHOWN_AT]

    def constant(key: str) -> bool:
        return len({row[key] for row in rows}) == 1

    values: dict[str, float | int | bool | str] = {
        "params_constant": constant("params"),
        "total_flops_constant": constant("attention_total"),
        "projection_flops_constant": constant("projection_total"),
        "head_dim_at_8": at_8["head_dim"],
        "max_heads": counts[-1],
        "params_1_head": by_heads[1]["params"],
        "params_8_heads": at_8["params"],
        "torch_params_agree": all(row["params"] == row["torch_params"] for row in rows),
        "attention_flops_1_head": by_heads[1]["attention_total"],
        "attention_flops_8_heads": at_8["attention_total"],
        "attention_flops_per_head_at_8": at_8["qk_per_head"] + at_8["av_per_head"],
        "qk_flops_per_head_at_8": at_8["qk_per_head"],
        "av_flops_per_head_at_8": at_8["av_per_head"],
        "projection_flops": at_8["projection_total"],
        "flop_formula_agrees": all(
            row["attention_total"] == attention_flops(seq_len, d_model) for row in rows
        ),
        "matmul_calls_per_forward": at_8["matmul_calls"],
        "matmul_calls_constant": constant("matmul_calls"),
    }
    table = Table(
        title=f"Attention over one sequence of {seq_len} tokens, d_model = {d_model}, no biases "
        "(nn.MultiheadAttention's parameter count "
        + ("is the same in every row)" if values["torch_params_agree"] else "differs)"),
        columns=(
            "heads",
            "head_dim",
            "params",
            "QKᵀ FLOPs/head",
            "AV FLOPs/head",
            "QKᵀ+AV, all heads",
            "matmul calls",
        ),
        rows=tuple(
            (
                row["heads"],
                row["head_dim"],
                row["params"],
                row["qk_per_head"],
                row["av_per_head"],
                row["attention_total"],
                row["matmul_calls"],
            )
            for row in rows
        ),
    )
    series = Series(
        x_label="heads",
        x=tuple(float(h) for h in counts),
        lines={
            "QKᵀ + AV FLOPs, all heads": tuple(float(r["attention_total"]) for r in rows),
            "QKᵀ + AV FLOPs, one head": tuple(
                float(r["qk_per_head"] + r["av_per_head"]) for r in rows
            ),
        },
        y_label="FLOPs",
        log_y=True,
    )
    ctx.progress(1.0, "done")
    return Result(
        "head_parallelism",
        {"d_model": d_model, "seq_len": seq_len},
        str(ctx.device),
        values,
        _parallelism_summary(d_model, seq_len, counts, values),
        table=table,
        series=series,
    )


def _parallelism_summary(
    d_model: int, seq_len: int, counts: list[int], v: dict[str, float | int | bool | str]
) -> str:
    heads = ", ".join(str(h) for h in counts)
    params = (
        f"the attention block has **{v['params_8_heads']:,}** parameters at every head count "
        f"({heads}), as does `nn.MultiheadAttention`"
        if v["params_constant"] and v["torch_params_agree"]
        else f"parameters: {v['params_1_head']:,} at 1 head, {v['params_8_heads']:,} at 8"
    )
    flops = (
        f"and QKᵀ plus AV cost **{v['attention_flops_8_heads']:,}** FLOPs in total at every head "
        f"count — 2 · 2 · {seq_len}² · {d_model}"
        if v["total_flops_constant"] and v["flop_formula_agrees"]
        else f"and QKᵀ plus AV cost {v['attention_flops_1_head']:,} FLOPs at 1 head, "
        f"{v['attention_flops_8_heads']:,} at 8"
    )
    lines = [
        f"Counted on the reference attention (d_model = {d_model}, {seq_len} tokens): {params}, "
        f"{flops}. At 8 heads each head works in {v['head_dim_at_8']} dimensions and does "
        f"{v['attention_flops_per_head_at_8']:,} FLOPs, an eighth of the total: more heads split "
        "the same work into narrower pieces, they do not add to it.",
        f"- The heads run **in parallel inside one batched matrix multiply**: "
        f"{v['matmul_calls_per_forward']} calls per forward pass (one for QKᵀ, one for AV) "
        + (
            "at every head count, "
            if v["matmul_calls_constant"]
            else "at 8 heads (the count varies with heads here), "
        )
        + "with the heads as the batch dimension. They are computed together on the same "
        "device — not one head per GPU.",
    ]
    return "\n".join(lines)
