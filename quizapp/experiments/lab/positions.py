"""Position computations: attention is order-blind, RoPE is relative, learned tables end.

Everything runs in float64 (float32 on Apple MPS, which has no float64), so that "the same up
to rounding" shows up as ~1e-15 rather than ~1e-7.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict, deque

import torch
from torch import Tensor

from quizapp.bank.literal import markdown_literal
from quizapp.experiments.context import Context
from quizapp.experiments.result import Result, Series, Table
from quizapp.experiments.spec import ArgumentError
from quizapp.reference import (
    LearnedPositionalEmbedding,
    MultiHeadAttention,
    PositionOutOfRange,
    RotaryEmbedding,
    SinusoidalPositionalEncoding,
    count_parameters,
    sinusoidal_encoding,
)

MAX_WORDS = 32
# A learned table this size (max_positions × d_model numbers) is 64 MiB in float64.
MAX_TABLE_NUMBERS = 2**23
SCHEMES = ("none", "sinusoidal", "learned", "rope")
_SCHEME_PHRASE = {
    "none": "no positional information",
    "sinusoidal": "sinusoidal encodings added to the embeddings",
    "learned": "a learned position table added to the embeddings",
    "rope": "RoPE rotating queries and keys",
}
# Learned rows are drawn at the sinusoidal table's RMS (1/√2), so the two schemes compare fairly.
_PE_RMS = 1 / math.sqrt(2)


def _dtype(ctx: Context) -> torch.dtype:
    return torch.float32 if ctx.device.type == "mps" else torch.float64


def _tolerance(dtype: torch.dtype, scale: float = 1.0) -> float:
    """Below this a difference is rounding, not signal."""
    return (1e-9 if dtype == torch.float64 else 1e-3) * max(1.0, scale)


def _learned_table(
    ctx: Context, rows: int, d_model: int, dtype: torch.dtype
) -> LearnedPositionalEmbedding:
    """A LearnedPositionalEmbedding whose rows come from the run's seed, not the global RNG."""
    with torch.device("meta"):
        table = LearnedPositionalEmbedding(rows, d_model)
    table = table.to_empty(device=ctx.device).to(dtype)
    with torch.no_grad():
        table.table.weight.copy_(_PE_RMS * ctx.randn(rows, d_model, dtype=dtype))
    return table


def _seeded_attention(
    ctx: Context, d_model: int, n_heads: int, dtype: torch.dtype
) -> MultiHeadAttention:
    """The reference attention layer, weights N(0, 1/fan_in) and small biases, from the seed."""
    with torch.device("meta"):
        attention = MultiHeadAttention(d_model, n_heads)
    attention = attention.to_empty(device=ctx.device).to(dtype).eval()
    with torch.no_grad():
        for parameter in attention.parameters():  # a fixed order: q, k, v, out
            noise = ctx.randn(*parameter.shape, dtype=dtype)
            scale = 1 / math.sqrt(parameter.shape[1]) if parameter.dim() > 1 else 0.1
            parameter.copy_(scale * noise)
    return attention


def _words(text: str, argument: str) -> list[str]:
    words = text.lower().split()
    if not words:
        raise ArgumentError(f"{argument} has no words", argument)
    if len(words) > MAX_WORDS:
        raise ArgumentError(
            f"{argument} has {len(words)} words; at most {MAX_WORDS} are allowed", argument
        )
    return words


def _check_permutation(original: list[str], swapped: list[str]) -> None:
    missing = Counter(original) - Counter(swapped)
    extra = Counter(swapped) - Counter(original)
    if missing or extra:
        parts = []
        if missing:
            parts.append("lacks " + ", ".join(repr(w) for w in sorted(missing.elements())))
        if extra:
            parts.append("has extra " + ", ".join(repr(w) for w in sorted(extra.elements())))
        raise ArgumentError(
            "swapped must use exactly the words of sentence in another order, but it "
            + " and ".join(parts),
            "swapped",
        )


def _matching(original: list[str], swapped: list[str]) -> list[int]:
    """Where each word of the original sits in the swapped sentence (k-th copy to k-th copy)."""
    slots: dict[str, deque[int]] = defaultdict(deque)
    for j, word in enumerate(swapped):
        slots[word].append(j)
    return [slots[word].popleft() for word in original]


def permutation_demo(
    ctx: Context,
    *,
    sentence: str,
    swapped: str,
    positional: str,
    causal: bool,
    d_model: int,
    n_heads: int,
) -> Result:
    original = _words(sentence, "sentence")
    reordered = _words(swapped, "swapped")
    _check_permutation(original, reordered)
    head_dim = d_model // n_heads
    if positional == "rope" and head_dim % 2:
        raise ArgumentError(
            f"RoPE rotates pairs of dimensions, but d_model / n_heads = {head_dim} is odd",
            "n_heads",
        )
    n = len(original)
    target = _matching(original, reordered)
    dtype, device = _dtype(ctx), ctx.device

    ctx.progress(0.1, "drawing word embeddings and the attention layer")
    with torch.no_grad():
        # Drawn in a fixed order for every scheme, so only the positions differ between them.
        attention = _seeded_attention(ctx, d_model, n_heads, dtype)
        vocabulary = sorted(set(original))
        embedding = ctx.randn(len(vocabulary), d_model, dtype=dtype)  # one vector per word
        learned = _learned_table(ctx, n, d_model, dtype)
        index = {word: i for i, word in enumerate(vocabulary)}
        ids = torch.tensor(
            [[index[w] for w in original], [index[w] for w in reordered]], device=device
        )
        tokens = embedding[ids]  # [2 sentences, n, d_model]
        sinusoidal = sinusoidal_encoding(n, d_model, dtype=dtype, device=device)
        positions = learned(torch.arange(n, device=device))
        rope = RotaryEmbedding(head_dim) if head_dim % 2 == 0 else None
        perm = torch.tensor(target, device=device)

        def measure(scheme: str, mask: bool) -> tuple[float, float, Tensor]:
            x = tokens
            if scheme == "sinusoidal":
                x = tokens + sinusoidal
            elif scheme == "learned":
                x = tokens + positions
            out, _ = attention(x, causal=mask, rope=rope if scheme == "rope" else None)
            first, second = out[0], out[1]
            # Row i of second[perm] is the swapped sentence's output for the original's word i.
            per_word = (second[perm] - first).abs().amax(dim=-1)  # [n]
            pooled = (second.mean(dim=0) - first.mean(dim=0)).abs().max()
            return float(per_word.max()), float(pooled), per_word

        measured: dict[tuple[str, bool], tuple[float, float, Tensor]] = {}
        schemes = [positional] + [
            s for s in SCHEMES if s != positional and (s != "rope" or rope is not None)
        ]
        for i, scheme in enumerate(schemes):
            ctx.progress(0.2 + 0.7 * i / len(schemes), f"running attention with {scheme} positions")
            for mask in (False, True):
                measured[scheme, mask] = measure(scheme, mask)

    ctx.progress(0.95, "comparing")
    eq, pooled, _ = measured[positional, causal]
    u_eq, u_pooled, u_per_word = measured[positional, False]
    c_eq, c_pooled, c_per_word = measured[positional, True]
    tol = _tolerance(dtype)
    values: dict[str, float | int | bool | str] = {
        "equivariance_error": eq,
        "pooled_difference": pooled,
        "distinguishable": pooled > tol,
        "unmasked_equivariance_error": u_eq,
        "unmasked_pooled_difference": u_pooled,
        "causal_equivariance_error": c_eq,
        "causal_pooled_difference": c_pooled,
        "n_words": n,
        "tolerance": tol,
    }
    table = Table(
        title="Each word's output in the two sentences (positions count from 0)",
        columns=(
            "word",
            "position in sentence",
            "position in swapped",
            "max |Δ output|, no mask",
            "max |Δ output|, causal mask",
        ),
        rows=tuple(
            (word, i, target[i], float(u_per_word[i]), float(c_per_word[i]))
            for i, word in enumerate(original)
        ),
    )
    by_scheme = Table(
        title="Every positional scheme, same words and same attention layer",
        columns=(
            "positions",
            "equivariance error, no mask",
            "pooled difference, no mask",
            "equivariance error, causal",
            "pooled difference, causal",
        ),
        rows=tuple(
            (
                s,
                measured[s, False][0],
                measured[s, False][1],
                measured[s, True][0],
                measured[s, True][1],
            )
            for s in SCHEMES
            if (s, False) in measured
        ),
    )
    summary = _permutation_summary(
        # The words are the caller's text: quoted in the Markdown summary, they must read as typed.
        sentence=markdown_literal(" ".join(original)),
        swapped=markdown_literal(" ".join(reordered)),
        positional=positional,
        causal=causal,
        same_order=original == reordered,
        eq=eq,
        pooled=pooled,
        other_mask_eq=u_eq if causal else c_eq,
        bare=measured["none", False][0],
        tol=tol,
    )
    args = {
        "sentence": sentence,
        "swapped": swapped,
        "positional": positional,
        "causal": causal,
        "d_model": d_model,
        "n_heads": n_heads,
    }
    ctx.progress(1.0, "done")
    return Result(
        "permutation_demo",
        args,
        str(ctx.device),
        values,
        summary,
        table=table,
        extra_tables=(by_scheme,),
    )


def _permutation_summary(
    *,
    sentence: str,
    swapped: str,
    positional: str,
    causal: bool,
    same_order: bool,
    eq: float,
    pooled: float,
    other_mask_eq: float,
    bare: float,
    tol: float,
) -> str:
    setting = f"{_SCHEME_PHRASE[positional]}, {'a causal mask' if causal else 'no mask'}"
    if same_order:
        return (
            f"Self-attention ({setting}) on “{sentence}” twice: the two sentences have their "
            "words in the same order, so there is nothing to tell apart — every difference is "
            f"{max(eq, pooled):.1e}. Reorder the words to see what positions do."
        )
    parts = [f"Self-attention ({setting}) on “{sentence}” and “{swapped}”: "]
    if eq <= tol:
        parts.append(
            "each word's output is the same in both orders, merely moved to the word's new place "
            f"(largest difference {eq:.1e}, floating-point rounding) — the layer is "
            "permutation-equivariant. "
        )
    else:
        parts.append(
            f"a word's output changes when the word moves (largest difference {eq:.4g}) — the "
            "layer can see where each word sits. "
        )
    if pooled <= tol:
        parts.append(
            f"Averaged over the sentence, the outputs agree to {pooled:.1e}: to this layer the two "
            "sentences are the same bag of words."
        )
    else:
        parts.append(
            f"Averaged over the sentence, the outputs differ by up to {pooled:.4g}, so the two "
            "sentences can be told apart."
        )
    other = "no mask" if causal else "a causal mask"
    if positional == "none":
        if max(eq, other_mask_eq) > tol:
            masked_eq = eq if causal else other_mask_eq
            parts.append(
                f" A causal mask alone breaks the symmetry (largest difference {masked_eq:.4g}): "
                "each word sees only the words before it, and that is itself positional information."
            )
        else:
            parts.append(f" With {other} the largest difference is {other_mask_eq:.1e}.")
    else:
        parts.append(
            f" With {other} the largest difference is {other_mask_eq:.4g}; with no positions and no "
            f"mask it is {bare:.1e}."
        )
    return "".join(parts)


def rope_relative(ctx: Context, *, head_dim: int, offset: int, base: float) -> Result:
    dtype, device = _dtype(ctx), ctx.device
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

    scale = float(q.norm() * k.norm())
    tol = _tolerance(dtype, scale)
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
    dtype, device = _dtype(ctx), ctx.device
    with torch.no_grad():
        ctx.progress(0.1, "evaluating the sinusoidal formula")
        sinusoidal = SinusoidalPositionalEncoding(d_model)

        def sinusoidal_rows(positions: list[int]) -> Tensor:
            return sinusoidal(torch.tensor(positions, device=device), dtype=dtype)

        checked = min(max(position, max_positions) + 1, 2048)
        reference = sinusoidal_encoding(checked, d_model, dtype=dtype, device=device)
        reference_error = float((sinusoidal_rows(list(range(checked))) - reference).abs().max())

        ctx.progress(0.3, f"building a learned table of {max_positions} rows")
        learned = _learned_table(ctx, max_positions, d_model, dtype)

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
    same_norm = abs(sin_norm - expected_norm) <= _tolerance(dtype, expected_norm)
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
