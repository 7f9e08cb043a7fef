"""Attention computations: what heads cost, how width divides, and what specialist heads do."""

from __future__ import annotations

import torch
from torch import nn

from quizapp.experiments.context import Context
from quizapp.experiments.result import Result, Series, Table
from quizapp.experiments.spec import ArgumentError
from quizapp.reference import MultiHeadAttention, count_parameters, scaled_dot_product_attention

# Parameter counting needs shapes only. Modules built on the meta device allocate no memory, so
# even d_model = 65536 (17 GB of real float32 weights per attention block) counts instantly.
META = torch.device("meta")

# Below this many dimensions per head, a query·key dot product compares too few numbers for
# unrelated tokens to look clearly unrelated (see the "typical |cos|" column of head_split).
NARROW_HEAD_DIM = 8
# The context the last query reads in head_split: wider than a 128-dimension head, so a head
# that attended only head_dim tokens would show it.
REACH_TOKENS = 256


def _check_heads(d_model: int, n_heads: int) -> int:
    """The registry checks this before a run; direct callers get the same ArgumentError."""
    if n_heads < 1 or d_model % n_heads:
        raise ArgumentError(
            f"d_model ({d_model}) is not divisible by n_heads ({n_heads})", "n_heads"
        )
    return d_model // n_heads


# --------------------------------------------------------------------------------------------
# mha_params: one wide head versus h narrow heads


def _separate_heads_count(d_model: int, n_heads: int, bias: bool) -> int:
    """Count h genuinely separate heads, each with its own d_model→head_dim Q, K and V, plus W_o."""
    head_dim = d_model // n_heads
    with META:
        heads = nn.ModuleList(
            nn.ModuleDict(
                {name: nn.Linear(d_model, head_dim, bias=bias) for name in ("q", "k", "v")}
            )
            for _ in range(n_heads)
        )
        out = nn.Linear(d_model, d_model, bias=bias)
    return count_parameters(heads) + count_parameters(out)


def mha_params(ctx: Context, *, d_model: int, n_heads: int, bias: bool) -> Result:
    head_dim = _check_heads(d_model, n_heads)
    ctx.progress(0.1, "building one wide head")
    with META:
        single = MultiHeadAttention(d_model, 1, bias=bias)
        ctx.progress(0.3, f"building {n_heads} narrow heads")
        multi = MultiHeadAttention(d_model, n_heads, bias=bias)
        torch_mha = nn.MultiheadAttention(d_model, n_heads, bias=bias)
    ctx.progress(0.5, f"building {n_heads} separate heads one by one")
    separate = _separate_heads_count(d_model, n_heads, bias)
    ctx.progress(0.9, "counting")
    per_head_qkv = 3 * (d_model * head_dim + (head_dim if bias else 0))
    w_o = d_model * d_model + (d_model if bias else 0)
    values: dict[str, int | float | bool | str] = {
        "params_single_head": count_parameters(single),
        "params_multi_head": count_parameters(multi),
        "params_separate_heads": separate,
        "torch_nn_multihead": count_parameters(torch_mha),
        "head_dim": head_dim,
        "params_per_head_qkv": per_head_qkv,
    }
    table = Table(
        title="Where the parameters are",
        columns=("design", "Q/K/V per head", "heads", "W_o", "total"),
        rows=(
            (f"1 head × {d_model}", 3 * (d_model * d_model + (d_model if bias else 0)), 1, w_o,
             values["params_single_head"]),
            (f"{n_heads} heads × {head_dim}", per_head_qkv, n_heads, w_o,
             values["params_multi_head"]),
            (f"{n_heads} separate modules", per_head_qkv, n_heads, w_o,
             values["params_separate_heads"]),
            ("nn.MultiheadAttention", "packed", n_heads, "", values["torch_nn_multihead"]),
        ),
    )  # fmt: skip
    counts = {values[k] for k in ("params_single_head", "params_multi_head", "torch_nn_multihead")}
    if len(counts) == 1:
        verdict = (
            f"One head of width {d_model} and {n_heads} heads of width {head_dim} both have "
            f"**{values['params_multi_head']:,}** parameters, and so does PyTorch's "
            "`nn.MultiheadAttention`."
        )
    else:
        verdict = (
            f"One wide head has **{values['params_single_head']:,}** parameters, {n_heads} heads "
            f"**{values['params_multi_head']:,}**, `nn.MultiheadAttention` "
            f"**{values['torch_nn_multihead']:,}**."
        )
    summary = (
        f"{verdict} Each head's Q, K and V shrink to {d_model}×{head_dim}, but there are "
        f"{n_heads} of them ({n_heads} × {head_dim} = {n_heads * head_dim} = d_model): splitting "
        "into heads buys separate subspaces, not savings."
    )
    args = {"d_model": d_model, "n_heads": n_heads, "bias": bias}
    return Result("mha_params", args, str(ctx.device), values, summary, table=table)


# --------------------------------------------------------------------------------------------
# head_split: how d_model divides across heads, and what narrow heads lose


def _head_counts(d_model: int, n_heads: int) -> list[int]:
    """Powers of two that divide d_model, up to d_model / 2 (heads of at least 2 dimensions),
    plus the chosen n_heads."""
    counts = {n_heads, 1}
    h = 2
    while h <= d_model // 2 and d_model % h == 0:
        counts.add(h)
        h *= 2
    return sorted(counts)


def _chance_cosine(module: MultiHeadAttention, a: torch.Tensor, b: torch.Tensor) -> float:
    """Mean |cos| between the per-head slices of unrelated token vectors a and b.

    a, b: [1, pairs, d_model]. Each is split into heads exactly as the attention layer splits its
    queries and keys, and slice h of a is compared with slice h of b. This is how similar a query
    and an unrelated key look by accident: about √(2/(π·head_dim)) for wide heads, 2/π ≈ 0.64 at
    2 dimensions, where a head cannot tell a relevant token from an irrelevant one by direction.
    """
    qa = module._split_heads(a, module.n_heads)  # [1, heads, pairs, head_dim]
    kb = module._split_heads(b, module.n_heads)
    # The dot product as an einsum: (qa * kb).sum(-1) is a parallel reduction that stalls for
    # milliseconds on a busy CPU.
    dots = torch.einsum("...d,...d->...", qa, kb)  # [1, heads, pairs]
    cos = dots / (qa.norm(dim=-1) * kb.norm(dim=-1))
    return cos.abs().mean().item()


def _fewest_keys_attended(ctx: Context, n_heads: int, head_dim: int) -> int:
    """The fewest keys any head's last query gives weight to, over REACH_TOKENS causal tokens:
    each head has its own q and k of width head_dim, and the same tokens to read."""
    q = ctx.randn(1, n_heads, 1, head_dim)  # [batch, heads, the last query, hd]
    k = ctx.randn(1, n_heads, REACH_TOKENS, head_dim)  # [batch, heads, every earlier token, hd]
    # The last position may see every earlier key under a causal mask: no key is masked.
    _, weights = scaled_dot_product_attention(q, k, torch.zeros_like(k))
    return int((weights[0, :, 0] > 0).sum(dim=-1).min())  # per head: keys with weight


def head_split(ctx: Context, *, d_model: int, n_heads: int) -> Result:
    head_dim = _check_heads(d_model, n_heads)
    ctx.progress(0.05, f"splitting a {d_model}-wide activation into {n_heads} heads")
    # A real activation through the real split: [batch, seq, d_model] -> [batch, heads, seq, hd],
    # then concatenated back. The split is only a reshape, so the round trip must be exact.
    with META:
        chosen = MultiHeadAttention(d_model, n_heads, bias=False)
    x = ctx.randn(1, 4, d_model)
    split = chosen._split_heads(x, n_heads)
    rejoined = split.transpose(1, 2).reshape(1, 4, d_model)
    roundtrip_exact = tuple(split.shape) == (1, n_heads, 4, head_dim) and torch.equal(rejoined, x)

    # Two sets of unrelated random tokens, reused for every row so that each row differs only in
    # how the same vectors are split. About 2^15 numbers each (at least 8 token pairs): enough for
    # two decimals, and quick on any device.
    pairs = max(8, 2**15 // d_model)
    a, b = ctx.randn(1, pairs, d_model), ctx.randn(1, pairs, d_model)

    counts = _head_counts(d_model, n_heads)
    rows: list[tuple[int | float | str, ...]] = []
    params_by_heads: dict[int, int] = {}
    chance: dict[int, float] = {}
    for i, heads in enumerate(counts):
        ctx.progress(0.1 + 0.85 * i / len(counts), f"building attention with {heads} heads")
        with META:
            module = MultiHeadAttention(d_model, heads, bias=False)
        width = module.head_dim
        params_by_heads[heads] = count_parameters(module)
        chance[heads] = _chance_cosine(module, a, b)
        notes = []
        if heads == n_heads:
            notes.append("← chosen")
        if width <= NARROW_HEAD_DIM:
            notes.append(f"too narrow: Q·K compares only {width} numbers")
        rows.append(
            (
                heads,
                width,
                params_by_heads[heads],
                3 * d_model * width,
                round(chance[heads], 3),
                "; ".join(notes),
            )
        )
    ctx.progress(0.97, "summarising")

    params = params_by_heads[n_heads]
    constant = len(set(params_by_heads.values())) == 1
    wide_enough = [h for h in counts if d_model // h > NARROW_HEAD_DIM]
    values: dict[str, int | float | bool | str] = {
        "head_dim": head_dim,
        "params_multi_head": params,
        "params_single_head": params_by_heads[1],
        "params_constant": constant,
        "chance_cosine": round(chance[n_heads], 4),
        "split_roundtrip_exact": roundtrip_exact,
        "max_heads_wide_enough": max(wide_enough) if wide_enough else 0,
        "keys_attended_per_head": _fewest_keys_attended(ctx, n_heads, head_dim),
    }
    table = Table(
        title=f"Splitting d_model = {d_model} across heads (no biases)",
        columns=(
            "heads",
            "head_dim",
            "attention params",
            "Q/K/V params per head",
            "typical |cos| of unrelated vectors",
            "note",
        ),
        rows=tuple(rows),
    )
    series = Series(
        x_label="heads",
        x=tuple(float(h) for h in counts),
        lines={"typical |cos| of unrelated vectors": tuple(chance[h] for h in counts)},
        y_label="mean |cos| of random pairs at head_dim",
    )

    if constant:
        cost = (
            f"Across all {len(counts)} head counts in the table the attention block keeps "
            f"exactly **{params:,}** parameters: more heads means narrower heads, not more weights."
        )
    else:
        cost = "The parameter count varies across the table: " + ", ".join(
            f"{h} heads → {p:,}" for h, p in params_by_heads.items()
        )
    narrowest = counts[-1]
    width_line = (
        f" What shrinks is each head's comparison space: two unrelated {head_dim}-dimensional "
        f"vectors have a typical |cos| of {chance[n_heads]:.2f}"
    )
    if narrowest != n_heads:
        width_line += (
            f", at {narrowest} heads ({d_model // narrowest} dims each) it is "
            f"{chance[narrowest]:.2f}"
        )
    width_line += "."
    narrow = [h for h in counts if d_model // h <= NARROW_HEAD_DIM]
    if narrow:
        where = (
            "At every head count here" if narrow[0] == counts[0] else f"From {narrow[0]} heads on"
        )
        width_line += (
            f" {where}, each head has ≤ {NARROW_HEAD_DIM} dimensions: too few to hold a "
            "meaningful Q·K comparison."
        )
    summary = (
        f"{d_model} dimensions over {n_heads} heads gives each head **{head_dim}** dimensions "
        f"({d_model} / {n_heads} = {head_dim}); the heads' slices concatenate back to the "
        f"original activation {'exactly' if roundtrip_exact else 'NOT exactly'}. "
        + cost
        + width_line
    )
    args = {"d_model": d_model, "n_heads": n_heads}
    return Result("head_split", args, str(ctx.device), values, summary, table=table, series=series)


# --------------------------------------------------------------------------------------------
# attention_heads: a committee of two hand-built specialists

SENTENCE = "the animal didn't cross the street because it was tired"
HEAD_DIM = 10  # head 2 needs one dimension per position; both heads get the same width
D_MODEL = 2 * HEAD_DIM

# The embedding layout, 20 dimensions. Head h's value is x[h·10:(h+1)·10] (W_v is the identity),
# so head 1 moves the word features around and head 2 moves the position codes.
NOUN, ANIMATE, PRONOUN, WANTS_ANIMATE = 0, 1, 2, 3  # dims 4..9 carry nothing but noise
POSITION = HEAD_DIM  # dims 10..19: a one-hot code for positions 0..9

# Softmax logits (after the 1/√head_dim scaling) that the hand-set weights aim for. Each head
# still spreads a little weight elsewhere: specialists, not lookup tables.
COREF_LOGIT = 2.5  # per matching feature: "animal" matches twice (noun, animate), "street" once
ADJACENT_LOGIT = 4.0
NOISE = 0.05  # real embeddings are never this clean: every coordinate gets N(0, 0.05²) added


def _neighbour(position: int) -> int:
    """The token head 2 looks at: the previous one, or for the first token its only neighbour."""
    return position - 1 if position > 0 else 1


def _specialist_heads(ctx: Context) -> tuple[list[str], torch.Tensor, torch.Tensor, torch.Tensor]:
    """Build the two-head attention, run it, and return (tokens, x, output, weights).

    weights: [heads=2, seq, seq], row = query token, column = key token.
    """
    tokens = SENTENCE.split()
    seq = len(tokens)
    device = ctx.device

    # Embeddings. In a trained model these features would be spread over many directions and
    # partly written by earlier layers; here each gets its own dimension so the weights below
    # can be read off directly.
    x = torch.zeros(seq, D_MODEL)
    for i, token in enumerate(tokens):
        if token in ("animal", "street"):
            x[i, NOUN] = 1.0
        if token == "animal":
            x[i, ANIMATE] = 1.0
        if token == "it":
            x[i, PRONOUN] = 1.0
            # "was tired" needs a living subject. A single attention layer computes the query of
            # "it" from "it" alone, so we write in what an earlier layer would have added after
            # reading "tired": this pronoun is looking for something animate.
            x[i, WANTS_ANIMATE] = 1.0
        x[i, POSITION + i] = 1.0  # a learned-table style position code
    x = x.to(device) + NOISE * ctx.randn(seq, D_MODEL)

    scale = HEAD_DIM**0.5  # undo the 1/√head_dim inside scaled dot-product attention
    w_q = torch.zeros(D_MODEL, D_MODEL)  # [out, in], as nn.Linear stores it
    w_k = torch.zeros(D_MODEL, D_MODEL)

    # Head 1, output dims 0..9: coreference. The query of a pronoun asks "a noun? animate?";
    # every token's key answers with its own noun/animate features. Score("it", "animal") is
    # 2·COREF_LOGIT, score("it", "street") is COREF_LOGIT, everything else about 0. Tokens that
    # are not pronouns send a zero query, so their rows spread evenly: nothing to resolve.
    w_q[NOUN, PRONOUN] = COREF_LOGIT * scale
    w_q[ANIMATE, WANTS_ANIMATE] = COREF_LOGIT * scale
    w_k[NOUN, NOUN] = 1.0
    w_k[ANIMATE, ANIMATE] = 1.0

    # Head 2, output dims 10..19: adjacency. Each key announces its position (identity on the
    # one-hot code); each query asks for its neighbour's position: a shift matrix, which is
    # linear, so a plain projection can do it. Score = ADJACENT_LOGIT on the neighbour, ~0 else.
    for i in range(seq):
        w_q[POSITION + _neighbour(i), POSITION + i] = ADJACENT_LOGIT * scale
        w_k[POSITION + i, POSITION + i] = 1.0

    mha = MultiHeadAttention(D_MODEL, 2, bias=False).to(device)
    with torch.no_grad():
        mha.q_proj.weight.copy_(w_q)
        mha.k_proj.weight.copy_(w_k)
        # Identity V and W_o: each head's output is a weighted average of the features it reads,
        # so the result shows what information moved where.
        mha.v_proj.weight.copy_(torch.eye(D_MODEL))
        mha.out_proj.weight.copy_(torch.eye(D_MODEL))
        out, weights = mha(x[None])  # out [1, seq, d_model], weights [1, heads, seq, seq]
    return tokens, x, out[0], weights[0]


def _labels(tokens: list[str]) -> list[str]:
    """Column labels; a word that occurs twice ("the") gets its position attached."""
    return [f"{t}({i})" if tokens.count(t) > 1 else t for i, t in enumerate(tokens)]


def attention_heads(ctx: Context) -> Result:
    ctx.progress(0.1, "building two specialist heads")
    tokens, x, out, weights = _specialist_heads(ctx)
    ctx.progress(0.7, "reading the attention maps")
    w = weights.cpu().double()
    labels = _labels(tokens)
    seq = len(tokens)
    it, animal = tokens.index("it"), tokens.index("animal")
    coref_row = w[0, it]
    top = int(coref_row.argmax())
    runner_up = float(coref_row.topk(2).values[1])
    adjacent = torch.tensor([float(w[1, i, _neighbour(i)]) for i in range(seq)])
    peaks_at_neighbour = sum(int(w[1, i].argmax()) == _neighbour(i) for i in range(seq))
    other_rows = torch.cat([w[0, :it], w[0, it + 1 :]])
    it_animate_before, it_animate = float(x[it, ANIMATE]), float(out[it, ANIMATE])

    values: dict[str, int | float | bool | str] = {
        "coreference_weight": round(float(coref_row[animal]), 4),
        "coreference_target": tokens[top],
        "coreference_runner_up": round(runner_up, 4),
        "coreference_idle_max": round(float(other_rows.max()), 4),
        "adjacency_weight": round(float(adjacent.mean()), 4),
        "adjacency_min_weight": round(float(adjacent.min()), 4),
        "adjacency_rows_peaking_at_neighbour": peaks_at_neighbour,
        "it_animate_before": round(it_animate_before, 4),
        "it_animate_after": round(it_animate, 4),
    }

    def attention_map(head: int, title: str) -> Table:
        rows = tuple((labels[i], *(round(float(v), 2) for v in w[head, i])) for i in range(seq))
        return Table(title=title, columns=("query \\ key", *labels), rows=rows)

    maps = (
        attention_map(0, "Head 1 (coreference): attention weights, each row sums to 1"),
        attention_map(1, "Head 2 (adjacency): attention weights, each row sums to 1"),
    )

    def focus(head: int, i: int) -> tuple[str, float]:
        # A row whose largest weight is under twice the uniform 1/seq has no real focus; naming
        # its argmax would report noise as a preference.
        peak = float(w[head, i].max())
        target = labels[int(w[head, i].argmax())] if peak >= 2 / seq else "(spread evenly)"
        return target, round(peak, 2)

    summary_rows = tuple((labels[i], *focus(0, i), *focus(1, i)) for i in range(seq))
    table = Table(
        title="Where each head looks hardest, per query token",
        columns=("token", "head 1 looks at", "weight", "head 2 looks at", "weight"),
        rows=summary_rows,
    )
    ctx.progress(0.9, "summarising")

    street = tokens.index("street")
    summary = (
        f"A committee of two specialists over *{SENTENCE}*. **Head 1** sends "
        f"{float(coref_row[animal]):.0%} of the attention from “it” to “{tokens[animal]}” "
        f"(its row peaks at “{tokens[top]}”; “street” gets {float(coref_row[street]):.0%}), "
        f"so the *animate* feature of “it” goes from {it_animate_before:.2f} to "
        f"{it_animate:.2f}: the animal's information has moved into the pronoun. "
        f"Rows without a pronoun have nothing to resolve and spread out (at most "
        f"{float(other_rows.max()):.0%} on any token). **Head 2** puts on average "
        f"{float(adjacent.mean()):.0%} of each token's attention on its neighbour (least "
        f"{float(adjacent.min()):.0%}); {peaks_at_neighbour} of {seq} rows peak there. Same "
        "sentence, same layer, two different questions asked of it: that is what separate heads "
        "buy. The weights are set by hand (see the code), the forward pass is real."
    )
    return Result(
        "attention_heads",
        {},
        str(ctx.device),
        values,
        summary,
        table=table,
        extra_tables=maps,
    )
