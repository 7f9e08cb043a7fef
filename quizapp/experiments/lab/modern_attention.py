"""Today's attention, computed: the KV cache, grouped-query attention, sliding windows."""

from __future__ import annotations

import dataclasses

import torch
import torch.nn.functional as F
from torch.utils.flop_counter import FlopCounterMode

from quizapp.experiments.context import Context
from quizapp.experiments.lab.common import round_sig
from quizapp.experiments.result import Result, Table
from quizapp.experiments.spec import ArgumentError
from quizapp.reference import (
    DTYPES,
    PRESETS,
    KVCache,
    ModelConfig,
    MultiHeadAttention,
    build_model,
    count_parameters,
    grouped_query_attention,
    kv_cache_bytes,
    reach_after_layers,
    repeat_kv,
    sliding_window_mask,
)
from quizapp.wording import plural

META = torch.device("meta")
GIB = 2**30
_KIND_SHORT = {"multi-head": "MHA", "grouped-query": "GQA", "multi-query": "MQA"}
# float32 attention on any device: our softmax(QKᵀ/√d)V against torch's fused kernels.
GQA_TOLERANCE = 1e-4
CHECK_TOKENS = 16  # queries and keys in the SDPA check: the heads matter there, not the length
MASK_SHOWN = 12  # positions in the mask table
MASK_CHECKED = 64  # positions of the mask compared cell by cell with the definition


def _bytes(n: int) -> str:
    return f"{n:,} B ({n / GIB:,.3g} GiB)" if n >= 2**20 else f"{n:,} B"


# --------------------------------------------------------------------------------------------
# kv_cache


def _cache_bytes(n_layers: int, n_kv: int, head_dim: int, seq: int, batch: int, dtype: str) -> int:
    """Build the cache's buffers on the meta device and count the bytes they would hold."""
    with META:
        cache = KVCache(n_layers, n_kv, head_dim, seq, batch=batch, dtype=DTYPES[dtype])
    return cache.nbytes()


def _score_flops(n_heads: int, n_kv: int, head_dim: int, seq: int) -> int:
    """FLOPs of one new token's scores QKᵀ in one layer against `seq` cached keys, counted by
    torch's FlopCounterMode on meta tensors: each of the n_heads query heads meets its group's
    shared key head (repeat_kv, as the reference attention does it)."""
    q = torch.empty(1, n_heads, 1, head_dim, device=META)  # [batch, heads, new token, hd]
    k = torch.empty(1, n_kv, seq, head_dim, device=META)  # [batch, kv_heads, cached, hd]
    with FlopCounterMode(display=False) as counter:
        q @ repeat_kv(k, n_heads // n_kv).transpose(-2, -1)
    return counter.get_total_flops()


def _layer_kv_bytes_per_token(cfg: ModelConfig, dtype: str) -> int:
    """Bytes of K and V one decoder layer produces per token, measured: a one-layer decoder of
    cfg's shape (Llama layout) is built on the meta device and runs two tokens while forward
    hooks read what every k_proj and v_proj outputs, which is what a cache keeps."""
    model = build_model(dataclasses.replace(cfg, family="llama", n_layers=1), device=META)
    numbers: list[int] = []
    for module in model.modules():
        if isinstance(module, MultiHeadAttention):
            for proj in (module.k_proj, module.v_proj):
                proj.register_forward_hook(lambda _m, _a, out: numbers.append(out.numel()))
    tokens = 2
    with torch.no_grad():
        model(torch.zeros(1, tokens, dtype=torch.long, device=META))
    return sum(numbers) // tokens * kv_cache_bytes(1, 1, 1, 1, 1, dtype) // 2


def kv_cache(
    ctx: Context,
    *,
    preset: str = "llama2-7b",
    n_layers: int | None = None,
    n_heads: int | None = None,
    n_kv_heads: int | None = None,
    head_dim: int | None = None,
    seq_len: int = 4096,
    batch: int = 1,
    dtype: str = "float16",
) -> Result:
    if preset not in PRESETS:
        raise ArgumentError(f"unknown preset {preset!r}", "preset")
    cfg = PRESETS[preset]
    layers = cfg.n_layers if n_layers is None else n_layers
    heads = cfg.n_heads if n_heads is None else n_heads
    preset_kv = cfg.n_heads if cfg.n_kv_heads is None else cfg.n_kv_heads
    # A multi-head preset stays multi-head when n_heads changes; a GQA preset keeps its KV heads.
    kv = n_kv_heads if n_kv_heads is not None else heads if preset_kv == cfg.n_heads else preset_kv
    width = cfg.head_dim if head_dim is None else head_dim
    if heads % kv:
        culprit = "n_kv_heads" if n_kv_heads is not None else "n_heads"
        raise ArgumentError(
            f"n_kv_heads ({kv}) does not divide n_heads ({heads}): each key/value head must "
            "serve an equal group of query heads",
            culprit,
        )

    ctx.progress(0.1, f"building a {layers}-layer cache on the meta device")
    total = _cache_bytes(layers, kv, width, seq_len, batch, dtype)
    ctx.progress(0.5, "sizing the same cache for MHA and MQA")
    formula = kv_cache_bytes(layers, kv, width, seq_len, batch, dtype)
    per_token_layer = kv_cache_bytes(1, kv, width, 1, 1, dtype)
    per_token = kv_cache_bytes(layers, kv, width, 1, 1, dtype)
    mha = _cache_bytes(layers, heads, width, seq_len, batch, dtype)
    mqa = _cache_bytes(layers, 1, width, seq_len, batch, dtype)
    window = cfg.sliding_window
    rolling = (
        total
        if window is None or window >= seq_len
        else kv_cache_bytes(layers, kv, width, window, batch, dtype)
    )
    element = kv_cache_bytes(1, 1, 1, 1, 1, dtype) // 2
    score_flops = layers * _score_flops(heads, kv, width, seq_len)
    # The model the cache belongs to, then the same with a wider vocabulary or FFN.
    shape = dataclasses.replace(cfg, d_model=heads * width, n_heads=heads, n_kv_heads=kv)
    measured = {
        name: _layer_kv_bytes_per_token(dataclasses.replace(shape, **change), dtype)
        for name, change in (
            ("as built", {}),
            ("vocab doubled", {"vocab_size": 2 * cfg.vocab_size}),
            ("d_ff doubled", {"d_ff": 2 * cfg.d_ff}),
        )
    }
    mha_score_flops = layers * _score_flops(heads, heads, width, seq_len)
    values: dict[str, int | float | bool | str] = {
        "kv_cache_bytes": total,
        "kv_cache_gib": round_sig(total / GIB, 6),
        "bytes_per_token": per_token,
        "bytes_per_token_per_layer": per_token_layer,
        "mha_equivalent_bytes": mha,
        "mqa_bytes": mqa,
        "gqa_saving": mha / total,
        "rolling_buffer_bytes": rolling,
        "formula_agrees": formula == total,
        "score_flops_per_token": score_flops,
        "mha_score_flops_per_token": mha_score_flops,
        "layer_kv_bytes_per_token": measured["as built"],
        "layer_kv_bytes_per_token_vocab_doubled": measured["vocab doubled"],
        "layer_kv_bytes_per_token_d_ff_doubled": measured["d_ff doubled"],
        "dtype_bytes": element,
        "n_layers": layers,
        "n_heads": heads,
        "n_kv_heads": kv,
        "head_dim": width,
    }
    ctx.progress(0.9, "summarising")
    kind = "multi-head" if kv == heads else "multi-query" if kv == 1 else "grouped-query"
    table = Table(
        title=f"Cache for {batch} × {seq_len:,} tokens in {dtype}",
        columns=("attention", "KV heads", "bytes per token", "cache bytes", "GiB"),
        rows=tuple(
            (label, n, kv_cache_bytes(layers, n, width, 1, 1, dtype), b, round_sig(b / GIB))
            for label, n, b in (
                ("MHA", heads, mha),
                (f"this model ({_KIND_SHORT[kind]})", kv, total),
                ("MQA", 1, mqa),
            )
        ),
    )
    summary = (
        f"Every token leaves K and V in each of {layers} layers: 2 × {layers} × {kv} KV heads × "
        f"{width} dims × {element} bytes ({dtype}) = **{per_token:,} bytes per token**. For "
        f"{batch} × {seq_len:,} tokens the cache is **{total:,} bytes** "
        f"({total / GIB:,.3g} GiB), built as meta buffers and counted"
        f"{'' if formula == total else ' (the formula disagrees!)'}. This is {kind} attention "
        f"({heads} query heads, {kv} KV heads): with one KV head per query head it would be "
        f"{_bytes(mha)}, {mha / total:g}× as much; with a single KV head (MQA) {_bytes(mqa)}."
    )
    if window is not None:
        summary += (
            f" {preset} attends over a {window:,}-token sliding window, so a rolling buffer "
            f"needs only {_bytes(rolling)}."
        )
    args = {
        "preset": preset,
        "n_layers": n_layers,
        "n_heads": n_heads,
        "n_kv_heads": n_kv_heads,
        "head_dim": head_dim,
        "seq_len": seq_len,
        "batch": batch,
        "dtype": dtype,
    }
    return Result("kv_cache", args, str(ctx.device), values, summary, table=table)


# --------------------------------------------------------------------------------------------
# gqa


def _attention_params(d_model: int, n_heads: int, n_kv: int) -> int:
    with META:
        return count_parameters(MultiHeadAttention(d_model, n_heads, bias=False, n_kv_heads=n_kv))


def _sdpa_differences(ctx: Context, n_heads: int, n_kv: int, head_dim: int) -> tuple[float, float]:
    """Max |ours - torch| against SDPA(enable_gqa=True) and against SDPA on K/V repeated."""
    q = ctx.randn(1, n_heads, CHECK_TOKENS, head_dim)  # [batch, heads, seq, head_dim]
    k = ctx.randn(1, n_kv, CHECK_TOKENS, head_dim)  # [batch, kv_heads, seq, head_dim]
    v = ctx.randn(1, n_kv, CHECK_TOKENS, head_dim)
    ours, _ = grouped_query_attention(q, k, v, causal=True)
    group = n_heads // n_kv
    # By hand: query head h reads kv head h // group, picked by index (not repeat_kv).
    index = torch.arange(n_heads, device=q.device) // group
    by_hand = F.scaled_dot_product_attention(q, k[:, index], v[:, index], is_causal=True)
    try:
        fused = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
    except TypeError:  # torch < 2.5: no enable_gqa; the repeated check stands alone
        fused = by_hand
    return float((ours - fused).abs().max()), float((ours - by_hand).abs().max())


def gqa(
    ctx: Context,
    *,
    d_model: int = 4096,
    n_heads: int = 32,
    n_kv_heads: int = 8,
    seq_len: int = 4096,
    dtype: str = "float16",
) -> Result:
    if d_model % n_heads or n_heads % n_kv_heads:
        raise ArgumentError(
            f"n_kv_heads ({n_kv_heads}) must divide n_heads ({n_heads}), which must divide "
            f"d_model ({d_model})",
            "n_kv_heads" if d_model % n_heads == 0 else "n_heads",
        )
    head_dim = d_model // n_heads
    ctx.progress(0.1, "counting MHA, GQA and MQA on the meta device")
    params = {
        label: _attention_params(d_model, n_heads, n)
        for label, n in (("mha", n_heads), ("gqa", n_kv_heads), ("mqa", 1))
    }
    heads = {"mha": n_heads, "gqa": n_kv_heads, "mqa": 1}
    per_token = {k: kv_cache_bytes(1, n, head_dim, 1, 1, dtype) for k, n in heads.items()}
    cache = {k: kv_cache_bytes(1, n, head_dim, seq_len, 1, dtype) for k, n in heads.items()}
    ctx.progress(0.5, f"checking against torch's SDPA on {ctx.device.type}")
    fused_diff, repeated_diff = _sdpa_differences(ctx, n_heads, n_kv_heads, head_dim)
    values: dict[str, int | float | bool | str] = {
        **{f"params_{k}": v for k, v in params.items()},
        "params_saved_gqa": params["mha"] - params["gqa"],
        **{f"kv_bytes_per_token_{k}": v for k, v in per_token.items()},
        **{f"kv_cache_bytes_{k}": v for k, v in cache.items()},
        "kv_saving_gqa": cache["mha"] / cache["gqa"],
        "kv_saving_mqa": cache["mha"] / cache["mqa"],
        "group_size": n_heads // n_kv_heads,
        "sdpa_max_abs_diff": fused_diff,
        "repeat_kv_max_abs_diff": repeated_diff,
        "matches_sdpa": max(fused_diff, repeated_diff) <= GQA_TOLERANCE,
        "tolerance": GQA_TOLERANCE,
    }
    ctx.progress(0.9, "summarising")
    table = Table(
        title=f"One attention layer, d_model {d_model}, {n_heads} query heads of {head_dim}",
        columns=("design", "KV heads", "parameters", "KV bytes per token", "cache bytes"),
        rows=tuple(
            (label.upper(), heads[label], params[label], per_token[label], cache[label])
            for label in ("mha", "gqa", "mqa")
        ),
    )
    summary = (
        f"Only K and V shrink: {plural(n_kv_heads, 'KV head')} "
        f"{'serves' if n_kv_heads == 1 else 'serve'} {n_heads} query heads in groups of "
        f"{n_heads // n_kv_heads}. One layer holds **{params['gqa']:,}** parameters against "
        f"MHA's {params['mha']:,} ({params['mha'] - params['gqa']:,} fewer) and MQA's "
        f"{params['mqa']:,}. Its KV cache for {seq_len:,} tokens in {dtype} is "
        f"**{cache['gqa']:,} bytes** per layer, {values['kv_saving_gqa']:g}× smaller than MHA's "
        f"(MQA: {values['kv_saving_mqa']:g}×). The reference attention matches torch's "
        f"`scaled_dot_product_attention(enable_gqa=True)` to {fused_diff:.2g} and SDPA on K/V "
        f"repeated by hand to {repeated_diff:.2g} (float32, {ctx.device.type})."
    )
    args = {
        "d_model": d_model,
        "n_heads": n_heads,
        "n_kv_heads": n_kv_heads,
        "seq_len": seq_len,
        "dtype": dtype,
    }
    return Result("gqa", args, str(ctx.device), values, summary, table=table)


# --------------------------------------------------------------------------------------------
# sliding_window


def _mask_matches_definition(window: int, size: int, device: torch.device) -> bool:
    """The reference mask against 0 ≤ i - j < window, cell by cell."""
    mask = sliding_window_mask(size, window, device=device).cpu().tolist()
    return all(mask[i][j] == (0 <= i - j < window) for i in range(size) for j in range(size))


def _score_entries(seq_len: int, window: int, device: torch.device) -> tuple[int, int]:
    """(query-key pairs scored with the window, with plain causal attention): row i of the
    banded mask has min(i + 1, window) keys, of the causal one i + 1."""
    keys = torch.arange(1, seq_len + 1, device=device, dtype=torch.int64)  # [seq_len]
    return int(keys.clamp(max=window).sum()), int(keys.sum())


def sliding_window(
    ctx: Context, *, window: int = 4096, n_layers: int = 32, seq_len: int = 32768
) -> Result:
    ctx.progress(0.1, "checking the mask against its definition")
    matches = _mask_matches_definition(window, MASK_CHECKED, ctx.device)
    ctx.progress(0.3, f"walking the mask through {n_layers} layers")
    reach = reach_after_layers(window, n_layers)
    ctx.progress(0.6, "counting what full attention would score and cache")
    last_row = sliding_window_mask(1, window, seq_k=seq_len, device=ctx.device)  # [1, seq_len]
    keys = int(last_row.sum())
    windowed, full = _score_entries(seq_len, window, ctx.device)
    values: dict[str, int | float | bool | str] = {
        "receptive_field": n_layers * window,
        "exact_reach": reach,
        "keys_per_query": keys,
        "cache_saving": seq_len / keys,
        "score_entries_window": windowed,
        "score_entries_full": full,
        "attention_saving": full / windowed,
        "mask_matches_definition": matches,
    }
    ctx.progress(0.9, "summarising")
    shown = sliding_window_mask(min(seq_len, MASK_SHOWN), window).int().tolist()
    table = Table(
        title=f"The mask, first {len(shown)} positions (1 = may attend)",
        columns=("query", *(str(j) for j in range(len(shown)))),
        rows=tuple((i, *row) for i, row in enumerate(shown)),
    )
    summary = (
        f"Each query sees at most **{window:,}** keys, itself included (a causal mask cut to a "
        f"band). Stacked {n_layers} deep, information still travels: the Mistral paper counts layers "
        f"× window, {n_layers} × {window:,} = **{n_layers * window:,}** positions; walking the mask layer "
        f"by layer gives {reach:,} ({window - 1:,} per layer, since the band includes the query "
        f"itself). At {seq_len:,} tokens the last query reads {keys:,} keys, so a rolling "
        f"buffer keeps {keys:,} positions instead of {seq_len:,} ({seq_len / keys:g}× less "
        f"cache), and the model scores {windowed:,} query-key pairs instead of {full:,} "
        f"({full / windowed:.3g}× fewer)."
    )
    if window >= MASK_SHOWN:
        summary += f" The table's {MASK_SHOWN} positions all fit in the window: it is plain causal."
    args = {"window": window, "n_layers": n_layers, "seq_len": seq_len}
    return Result("sliding_window", args, str(ctx.device), values, summary, table=table)
