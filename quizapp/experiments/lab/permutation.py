"""Attention is order-blind: swap the words and each keeps its output, unless positions are added.

The shared set-up (dtype, tolerance, a seeded learned table) is in positions.py.

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
from quizapp.experiments.lab.positions import float_dtype, learned_table, rounding_tolerance
from quizapp.experiments.result import Result, Table
from quizapp.experiments.spec import ArgumentError
from quizapp.reference import (
    MultiHeadAttention,
    RotaryEmbedding,
    sinusoidal_encoding,
)

MAX_WORDS = 32
SCHEMES = ("none", "sinusoidal", "learned", "rope")
_SCHEME_PHRASE = {
    "none": "no positional information",
    "sinusoidal": "sinusoidal encodings added to the embeddings",
    "learned": "a learned position table added to the embeddings",
    "rope": "RoPE rotating queries and keys",
}


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
    dtype, device = float_dtype(ctx), ctx.device

    ctx.progress(0.1, "drawing word embeddings and the attention layer")
    with torch.no_grad():
        # Drawn in a fixed order for every scheme, so only the positions differ between them.
        attention = _seeded_attention(ctx, d_model, n_heads, dtype)
        vocabulary = sorted(set(original))
        embedding = ctx.randn(len(vocabulary), d_model, dtype=dtype)  # one vector per word
        learned = learned_table(ctx, n, d_model, dtype)
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
    tol = rounding_tolerance(dtype)
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
