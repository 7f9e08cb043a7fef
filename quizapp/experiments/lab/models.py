"""Whole-model computations: build a published (or resized) model and count what it holds."""

from __future__ import annotations

import dataclasses

from quizapp.experiments.context import Context
from quizapp.experiments.result import Result, Table
from quizapp.experiments.spec import ArgumentError
from quizapp.reference import PRESETS, ModelConfig, build_model, parameter_breakdown

# The preset whose sizes stand for a family when `family` is given instead of `preset`.
FAMILY_DEFAULTS = {
    "gpt2": "gpt2-small",
    "bert": "bert-base",
    "llama": "llama2-7b",
    "transformer": "transformer-base",
}
# Shown first in the breakdown; anything else the model has (lm_head, pooler, ...) follows.
MAIN_COMPONENTS = ("embeddings", "attention", "ffn", "norms")
# Vaswani et al. 2017, Table 3 ("params ×10⁶"): rounded, and not said how they were counted.
PAPER_TOTALS = {"transformer-base": 65_000_000, "transformer-big": 213_000_000}
# Fields a caller may override, in the order the configuration table lists them.
OVERRIDES = (
    "d_model",
    "n_layers",
    "n_heads",
    "n_kv_heads",
    "d_ff",
    "vocab_size",
    "max_positions",
    "tie_embeddings",
    "bias",
)


def default_d_ff(family: str, d_model: int) -> int:
    """The feed-forward width a family uses for a given d_model.

    gpt2, bert, transformer: 4·d_model. llama: SwiGLU has three matrices instead of two, so Meta
    takes 2/3 of 4·d_model (8/3·d_model) and rounds up to a multiple of 256 (their code:
    hidden = int(2 * 4d / 3); multiple_of * ceil(hidden / multiple_of)).
    """
    if family == "llama":
        hidden = 8 * d_model // 3
        return -(-hidden // 256) * 256
    return 4 * d_model


def resolve_config(
    preset: str, family: str | None, overrides: dict[str, int | bool | None]
) -> tuple[ModelConfig, str, dict[str, str]]:
    """Start from the preset (or the family's defaults), apply overrides, check the result.

    Returns (config, name of the starting preset, {field: where its value came from}).
    Raises ArgumentError naming the argument at fault.
    """
    start = FAMILY_DEFAULTS[family] if family is not None else preset
    if start not in PRESETS:
        raise ArgumentError(f"unknown preset {start!r}", "preset")
    base = PRESETS[start]
    given = {k: v for k, v in overrides.items() if v is not None}
    origin = {name: "override" if name in given else start for name in OVERRIDES}

    if "n_kv_heads" in given and base.family != "llama":
        raise ArgumentError(
            f"n_kv_heads (grouped-query attention) exists only in the llama family, not "
            f"{base.family}",
            "n_kv_heads",
        )
    changes = dict(given)
    d_model = given.get("d_model", base.d_model)
    if "d_ff" not in given and d_model != base.d_model:
        changes["d_ff"] = default_d_ff(base.family, d_model)
        origin["d_ff"] = "derived from d_model"

    n_heads = given.get("n_heads", base.n_heads)
    if d_model % n_heads:
        culprit = "n_heads" if "n_heads" in given else "d_model"
        raise ArgumentError(
            f"d_model ({d_model}) is not divisible by n_heads ({n_heads}): every head needs an "
            "equal slice",
            culprit,
        )
    n_kv_heads = given.get("n_kv_heads", base.n_kv_heads)
    if n_kv_heads is not None and n_heads % n_kv_heads:
        culprit = "n_kv_heads" if "n_kv_heads" in given else "n_heads"
        raise ArgumentError(
            f"n_kv_heads ({n_kv_heads}) does not divide n_heads ({n_heads}): each key/value "
            "head must serve an equal group of query heads",
            culprit,
        )
    if base.family == "llama" and (d_model // n_heads) % 2:
        culprit = "n_heads" if "n_heads" in given else "d_model"
        raise ArgumentError(
            f"head_dim = d_model / n_heads = {d_model // n_heads} is odd; RoPE rotates "
            "dimensions in pairs, so llama needs an even head_dim",
            culprit,
        )
    return dataclasses.replace(base, **changes), start, origin


def _notes(cfg: ModelConfig, given: set[str], breakdown: dict[str, int]) -> list[str]:
    """Sentences about overrides that cannot change the count, and about the output head."""
    notes = []
    if "max_positions" in given and cfg.family in ("llama", "transformer"):
        how = "RoPE" if cfg.family == "llama" else "fixed sinusoids"
        notes.append(
            f"max_positions changes nothing here: {cfg.family} encodes position with {how}, "
            "which have no parameters."
        )
    if cfg.family == "bert" and not cfg.mlm_head:
        if "tie_embeddings" in given:
            notes.append(
                "tie_embeddings changes nothing here: this BERT has no output (MLM) head to tie."
            )
    elif cfg.tie_embeddings:
        notes.append(
            "The output projection reuses the token embedding matrix (tied), so it adds nothing."
        )
    elif "lm_head" in breakdown:
        notes.append(
            f"The output projection is untied and adds its own {breakdown['lm_head']:,} parameters."
        )
    if cfg.family == "transformer" and "n_layers" in given:
        n_dec = cfg.n_layers if cfg.n_decoder_layers is None else cfg.n_decoder_layers
        notes.append(f"n_layers sets the encoder depth ({cfg.n_layers}); the decoder has {n_dec}.")
    return notes


def _non_embedding(name: str) -> tuple[int, int]:
    """(parameters outside the embedding, d_model) of a preset, counted on the meta device."""
    cfg = PRESETS[name]
    breakdown = parameter_breakdown(build_model(cfg, device="meta"))
    return sum(breakdown.values()) - breakdown["embeddings"], cfg.d_model


def vocabulary_for(paper_total: int, name: str) -> int:
    """The shared vocabulary, to the nearest hundred tokens, that would bring preset `name` to
    `paper_total` parameters."""
    rest, d_model = _non_embedding(name)
    return int(round((paper_total - rest) / d_model, -2))


def paper_note(start: str) -> str | None:
    """Why transformer-base and -big do not land on the paper's 65M and 213M."""
    if start not in PAPER_TOTALS:
        return None
    (other,) = (name for name in PAPER_TOTALS if name != start)
    millions = {name: f"{figure // 1_000_000}M" for name, figure in PAPER_TOTALS.items()}
    return (
        f"**Why not the paper's {millions[start]}?** Vaswani et al. (2017, Table 3) print "
        "rounded totals without saying exactly what they counted. This build shares one "
        f"{PRESETS[start].vocab_size:,}-token embedding between the source, the target and the "
        "output projection (§3.4), and its layers match PyTorch's nn.TransformerEncoderLayer "
        "and nn.TransformerDecoderLayer parameter for parameter. Reaching "
        f"{millions[start]} would take a vocabulary of about "
        f"{vocabulary_for(PAPER_TOTALS[start], start):,} tokens, but reaching {other}'s "
        f"{millions[other]} one of about {vocabulary_for(PAPER_TOTALS[other], other):,}: no one "
        "vocabulary gives both figures, so the gap lies in details the paper leaves out (its "
        "exact vocabulary, what it shared), not in the counting."
    )


def model_params(
    ctx: Context,
    *,
    preset: str = "gpt2-small",
    family: str | None = None,
    d_model: int | None = None,
    n_layers: int | None = None,
    n_heads: int | None = None,
    n_kv_heads: int | None = None,
    d_ff: int | None = None,
    vocab_size: int | None = None,
    max_positions: int | None = None,
    tie_embeddings: bool | None = None,
    bias: bool | None = None,
) -> Result:
    overrides = {
        "d_model": d_model,
        "n_layers": n_layers,
        "n_heads": n_heads,
        "n_kv_heads": n_kv_heads,
        "d_ff": d_ff,
        "vocab_size": vocab_size,
        "max_positions": max_positions,
        "tie_embeddings": tie_embeddings,
        "bias": bias,
    }
    ctx.progress(0.05, "resolving the configuration")
    cfg, start, origin = resolve_config(preset, family, overrides)
    given = {k for k, v in overrides.items() if v is not None}

    ctx.progress(0.15, f"building a {cfg.family} model with {cfg.n_layers} layers")
    # On the meta device every parameter is shape-only metadata: a 70B model builds in a blink
    # and allocates no weights. Counting needs nothing more, so ctx.device is not used here.
    model = build_model(cfg, device="meta")
    ctx.progress(0.8, "counting parameters by component")
    breakdown = parameter_breakdown(model)
    total = sum(breakdown.values())

    order = [c for c in MAIN_COMPONENTS if c in breakdown]
    order += sorted(c for c in breakdown if c not in MAIN_COMPONENTS)
    n_kv = cfg.n_heads if cfg.n_kv_heads is None else cfg.n_kv_heads
    values: dict[str, int | float | bool | str] = {
        "total": total,
        **{c: 0 for c in MAIN_COMPONENTS},
        **{c: breakdown[c] for c in order},
        "head_dim": cfg.head_dim,
        "d_model": cfg.d_model,
        "n_layers": cfg.n_layers,
        "n_heads": cfg.n_heads,
        "n_kv_heads": n_kv,
        "d_ff": cfg.d_ff,
        "vocab_size": cfg.vocab_size,
    }

    def share(n: int) -> float:
        # One decimal for the big components; small ones (norms are ~0.03%) keep three, so
        # that a share is never shown as 0 when it is not.
        percent = 100 * n / total if total else 0.0
        return round(percent, 1) if percent >= 1 else round(percent, 3)

    table = Table(
        title="Where the parameters are",
        columns=("component", "parameters", "share %"),
        rows=(*((c, breakdown[c], share(breakdown[c])) for c in order), ("total", total, 100.0)),
    )
    config_rows = []
    for name in OVERRIDES:
        value = getattr(cfg, name)
        if name == "n_kv_heads":
            if cfg.family != "llama":
                continue
            value = n_kv
        config_rows.append((name, value, origin[name]))
    config_table = Table(
        title=f"Configuration ({cfg.family})",
        columns=("field", "value", "from"),
        rows=tuple(config_rows),
    )

    ctx.progress(0.95, "summarising")
    if family is not None:
        opening = f"Started from the **{family}** family's defaults ({start} sizes)"
        if preset != FAMILY_DEFAULTS[family] and preset != "gpt2-small":
            opening += f"; family takes precedence over preset {preset}"
    else:
        opening = f"Started from the **{start}** preset"
    if given:
        changed = ", ".join(f"{k}={overrides[k]}" for k in OVERRIDES if k in given)
        opening += f", with {changed}"
    if origin["d_ff"] == "derived from d_model":
        rule = (
            "8/3·d_model rounded up to a multiple of 256" if cfg.family == "llama" else "4·d_model"
        )
        opening += f" (d_ff kept at the family's ratio, {rule}: {cfg.d_ff:,})"
    biggest = max(order, key=lambda c: breakdown[c])
    shares = ", ".join(f"{c} {share(breakdown[c])}%" for c in order)
    summary = " ".join(
        [
            opening + ".",
            f"Built on the meta device and counted: **{total:,}** parameters "
            f"({cfg.n_layers} layers, d_model {cfg.d_model}, {cfg.n_heads} heads of "
            f"{cfg.head_dim} dims, d_ff {cfg.d_ff:,}, vocabulary {cfg.vocab_size:,}).",
            f"The largest share is **{biggest}** ({share(breakdown[biggest])}%); in full: {shares}.",
            *_notes(cfg, given, breakdown),
            *([] if given else filter(None, [paper_note(start)])),
        ]
    )
    args = {"preset": preset, "family": family, **overrides}
    return Result(
        "model_params",
        args,
        str(ctx.device),
        values,
        summary,
        table=table,
        extra_tables=(config_table,),
    )
