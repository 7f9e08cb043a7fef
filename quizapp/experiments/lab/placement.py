"""Where the norm and the residual sit: Post-LN against Pre-LN, and an idle layer's pass-through.

Both computations use the reference TransformerBlock and check it against PyTorch's own
nn.TransformerEncoderLayer with the same weights. Everything runs in float64 (float32 on Apple
MPS), so "exactly the same" shows up as 0 or ~1e-15.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import torch
from torch import Tensor, nn
from torch.overrides import TorchFunctionMode

from quizapp.experiments.context import Context
from quizapp.experiments.lab.common import glorot_normal_, heads_for, round_sig, variance
from quizapp.experiments.result import Result, Series, Table
from quizapp.reference import (
    FeedForward,
    LayerNorm,
    MultiHeadAttention,
    TransformerBlock,
    TransformerStack,
    to_torch_encoder,
    to_torch_layer,
)
from quizapp.wording import plural

BATCH, SEQ = 2, 16  # tokens pushed through ln_placement's stacks
POSITIONS = ("post", "pre")


def _silenced(_module: nn.Module, _args: Any, output: Any) -> Any:
    """A forward hook that zeroes a sub-layer's output (attention's, not its weights)."""
    if isinstance(output, tuple):
        return (torch.zeros_like(output[0]), *output[1:])
    return torch.zeros_like(output)


def residual_count(stack: TransformerStack, x: Tensor, other: Tensor) -> int:
    """Sub-layers wrapped in a residual connection, found by silencing each in turn: with its
    output zeroed, a block still tells inputs x and other apart only through a residual."""
    count = 0
    with torch.no_grad():
        for block in stack.blocks:
            for sublayer in (block.attn, block.ffn):
                handle = sublayer.register_forward_hook(_silenced)
                try:
                    count += bool((block(x) - block(other)).abs().max() > 1e-6)
                finally:
                    handle.remove()
    return count


def affine_norm_count(stack: nn.Module) -> int:
    """LayerNorms that carry both a learned scale and a learned shift."""
    return sum(
        isinstance(m, LayerNorm)
        and isinstance(m.weight, nn.Parameter)
        and isinstance(m.bias, nn.Parameter)
        for m in stack.modules()
    )


def _dtype(ctx: Context) -> torch.dtype:
    return torch.float32 if ctx.device.type == "mps" else torch.float64


def _materialise(module: nn.Module, ctx: Context, dtype: torch.dtype) -> nn.Module:
    """Storage for a module built on the meta device, LayerNorms at weight 1 and bias 0
    (the linear layers are left for the caller to fill)."""
    module = module.to_empty(device=ctx.device).to(dtype)
    with torch.no_grad():
        for norm in module.modules():
            if isinstance(norm, LayerNorm):
                norm.weight.fill_(1.0)
                norm.bias.zero_()
    return module.eval()


def _seeded(module: nn.Module, ctx: Context, dtype: torch.dtype) -> nn.Module:
    """_materialise, then Glorot-normal linear weights from the run's seed and zero biases."""
    module = _materialise(module, ctx, dtype)
    glorot_normal_(module, ctx)
    return module


def _same_weights(
    module: nn.Module, source: nn.Module, ctx: Context, dtype: torch.dtype
) -> nn.Module:
    """_materialise `module`, then copy every weight it shares with `source` by name."""
    module = _materialise(module, ctx, dtype)
    module.load_state_dict(source.state_dict(), strict=False)
    return module


# --------------------------------------------------------------------------------------------
# Reading the order of operations off a real forward pass


def _step_labels(model: nn.Module) -> dict[nn.Module, str]:
    """The layers whose calls count as steps, for the reference modules and for PyTorch's."""
    labels: dict[nn.Module, str] = {}
    for module in model.modules():
        if isinstance(module, LayerNorm | nn.LayerNorm):
            labels[module] = "LayerNorm"
        elif isinstance(module, MultiHeadAttention | nn.MultiheadAttention):
            labels[module] = "self-attention"
        elif isinstance(module, FeedForward):
            labels[module] = "feed-forward"
        elif isinstance(module, nn.TransformerEncoderLayer):
            labels[module.linear1] = labels[module.linear2] = "feed-forward"
    return labels


class _StepTrace(TorchFunctionMode):
    """Records, in order, each labelled layer that runs and each tensor addition made outside
    them (the residual adds), with the index of the block it happened in (None: outside any).

    The layers' own insides (LayerNorm's arithmetic, attention's matmuls) are not steps.
    """

    def __init__(self, model: nn.Module) -> None:
        super().__init__()
        self.steps: list[tuple[int | None, str]] = []
        self._inside = 0  # > 0 while a labelled layer is running
        self._block: int | None = None
        self._handles: list[Any] = []
        for module, label in _step_labels(model).items():
            self._handles.append(module.register_forward_pre_hook(partial(self._enter, label)))
            self._handles.append(module.register_forward_hook(self._leave))
        blocks = [
            m
            for m in model.modules()
            if isinstance(m, TransformerBlock | nn.TransformerEncoderLayer)
        ]
        for index, block in enumerate(blocks):
            self._handles.append(block.register_forward_pre_hook(partial(self._set_block, index)))
            self._handles.append(block.register_forward_hook(partial(self._set_block, None)))

    def _record(self, label: str) -> None:
        # Two calls of one step in a row (FFN's linear1 then linear2) are one step.
        if not self.steps or self.steps[-1] != (self._block, label):
            self.steps.append((self._block, label))

    def _enter(self, label: str, module: nn.Module, args: object) -> None:
        if self._inside == 0:
            self._record(label)
        self._inside += 1

    def _leave(self, module: nn.Module, args: object, output: object) -> None:
        self._inside -= 1

    def _set_block(self, index: int | None, module: nn.Module, *rest: object) -> None:
        self._block = index

    def __torch_function__(self, func, types, args=(), kwargs=None):  # type: ignore[no-untyped-def]
        if self._inside == 0 and getattr(func, "__name__", "") in ("add", "__add__"):
            self._record("add")
        return func(*args, **(kwargs or {}))

    def __exit__(self, *exc: object) -> None:
        for handle in self._handles:
            handle.remove()
        super().__exit__(*exc)


def trace_steps(model: nn.Module, x: Tensor) -> list[tuple[int | None, str]]:
    """The (block index, step) sequence of one forward pass of `model` on x."""
    # PyTorch's encoder layer runs as one fused kernel in eval mode; training mode (with dropout
    # 0, so the same function) makes it take the step-by-step path that can be observed.
    was_training = model.training
    model.train(isinstance(model, nn.TransformerEncoder | nn.TransformerEncoderLayer))
    try:
        with torch.no_grad(), _StepTrace(model) as trace:
            model(x)
    finally:
        model.train(was_training)
    return trace.steps


def block_steps(steps: list[tuple[int | None, str]], block: int) -> list[str]:
    return [label for index, label in steps if index == block]


# --------------------------------------------------------------------------------------------
# ln_placement: one block and a whole stack, Post-LN against Pre-LN


def ln_placement(ctx: Context, *, n_layers: int, d_model: int) -> Result:
    dtype = _dtype(ctx)
    n_heads = heads_for(d_model)
    ctx.progress(0.05, f"building a {n_layers}-block Post-LN stack and a Pre-LN one")
    with torch.device("meta"):
        built = {p: TransformerStack(d_model, n_heads, 4 * d_model, n_layers, p) for p in POSITIONS}
    stacks = {"post": _seeded(built["post"], ctx, dtype)}
    # The same weights in both, so the only difference is where the norms sit.
    stacks["pre"] = _same_weights(built["pre"], stacks["post"], ctx, dtype)
    x = ctx.randn(BATCH, SEQ, d_model, dtype=dtype)

    with torch.no_grad():
        ctx.progress(0.2, "pushing tokens through both stacks, layer by layer")
        curves: dict[str, list[float]] = {}
        outputs: dict[str, Tensor] = {}
        for position, stack in stacks.items():
            h = x
            curves[position] = [variance(h)]
            for block in stack.blocks:
                h = block(h)
                curves[position].append(variance(h))
            outputs[position] = stack.final_norm(h)

        ctx.progress(0.5, "the same stacks as torch.nn.TransformerEncoder")
        theirs = {p: to_torch_encoder(stack).eval() for p, stack in stacks.items()}
        torch_diff = {p: float((theirs[p](x) - outputs[p]).abs().max()) for p in POSITIONS}

    ctx.progress(0.7, "tracing the order of operations")
    traces = {p: trace_steps(stacks[p], x) for p in POSITIONS}
    torch_traces = {p: trace_steps(theirs[p], x) for p in POSITIONS}
    norm_counts = {p: sum(isinstance(m, LayerNorm) for m in stacks[p].modules()) for p in POSITIONS}
    torch_norm_counts = {
        p: sum(isinstance(m, nn.LayerNorm) for m in theirs[p].modules()) for p in POSITIONS
    }
    final = {p: [label for index, label in traces[p] if index is None] for p in POSITIONS}
    other = ctx.randn(BATCH, SEQ, d_model, dtype=dtype)  # a second input, for residual_count
    residuals = {p: residual_count(stacks[p], x, other) for p in POSITIONS}

    out = outputs["post"]
    token_mean = out.mean(dim=-1).abs().max()
    token_var = out.var(dim=-1, unbiased=False)
    normalized = bool(token_mean < 1e-6 and (token_var - 1).abs().max() < 1e-3)
    stream = curves["pre"][-1]
    values: dict[str, float | int | bool | str] = {
        "n_layers": n_layers,
        "post_ln_norm_count": norm_counts["post"],
        "pre_ln_norm_count": norm_counts["pre"],
        "post_ln_affine_norm_count": affine_norm_count(stacks["post"]),
        "pre_ln_affine_norm_count": affine_norm_count(stacks["pre"]),
        "post_ln_residual_count": residuals["post"],
        "pre_ln_residual_count": residuals["pre"],
        "torch_post_ln_norm_count": torch_norm_counts["post"],
        "torch_pre_ln_norm_count": torch_norm_counts["pre"],
        "post_ln_has_final_norm": final["post"] == ["LayerNorm"],
        "pre_ln_has_final_norm": final["pre"] == ["LayerNorm"],
        "post_ln_output_is_normalized": normalized,
        "post_ln_output_variance": variance(out),
        "pre_ln_output_variance": variance(outputs["pre"]),
        "pre_ln_residual_stream_variance": stream,
        "pre_ln_stream_growth_per_layer": (stream - curves["pre"][0]) / n_layers,
        "input_variance": curves["pre"][0],
        "post_ln_torch_max_abs_diff": torch_diff["post"],
        "pre_ln_torch_max_abs_diff": torch_diff["pre"],
        "post_ln_order_matches_torch": traces["post"] == torch_traces["post"],
        "pre_ln_order_matches_torch": traces["pre"] == torch_traces["pre"],
    }

    one_block = {p: block_steps(traces[p], 0) for p in POSITIONS}
    torch_block = {p: block_steps(torch_traces[p], 0) for p in POSITIONS}
    n_steps = max(len(steps) for steps in (*one_block.values(), *torch_block.values()))

    def step(steps: list[str], i: int) -> str:
        return steps[i] if i < len(steps) else ""

    block_table = Table(
        title="One block, step by step, read off a forward pass",
        columns=("step", "Post-LN", "torch norm_first=False", "Pre-LN", "torch norm_first=True"),
        rows=tuple(
            (
                i + 1,
                step(one_block["post"], i),
                step(torch_block["post"], i),
                step(one_block["pre"], i),
                step(torch_block["pre"], i),
            )
            for i in range(n_steps)
        ),
    )
    same_blocks = {
        p: all(block_steps(traces[p], b) == one_block[p] for b in range(n_layers))
        for p in POSITIONS
    }

    def blocks_cell(p: str) -> str:
        pattern = " → ".join(one_block[p])
        return f"({pattern}) × {n_layers}" if same_blocks[p] else "blocks differ"

    stack_table = Table(
        title=f"The whole stack of {plural(n_layers, 'block')}",
        columns=("", "Post-LN", "Pre-LN"),
        rows=(
            ("blocks", blocks_cell("post"), blocks_cell("pre")),
            (
                "after the last block",
                " → ".join(final["post"]) or "nothing (the last block ends in LayerNorm)",
                " → ".join(final["pre"]) or "nothing",
            ),
            ("LayerNorms", norm_counts["post"], norm_counts["pre"]),
            ("LayerNorms in nn.TransformerEncoder", *torch_norm_counts.values()),
            ("output variance", round_sig(variance(out)), round_sig(variance(outputs["pre"]))),
            (
                "residual stream variance before any final norm",
                round_sig(curves["post"][-1]),
                round_sig(stream),
            ),
            ("max |ours − torch|", torch_diff["post"], torch_diff["pre"]),
        ),
    )
    series = Series(
        x_label="block",
        x=tuple(float(i) for i in range(n_layers + 1)),
        lines={
            "Post-LN: block output": tuple(curves["post"]),
            "Pre-LN: residual stream": tuple(curves["pre"]),
        },
        y_label="activation variance",
    )
    ctx.progress(1.0, "done")
    return Result(
        "ln_placement",
        {"n_layers": n_layers, "d_model": d_model},
        str(ctx.device),
        values,
        _placement_summary(n_layers, d_model, values, one_block),
        table=block_table,
        series=series,
        extra_tables=(stack_table,),
    )


def _placement_summary(
    n_layers: int,
    d_model: int,
    v: dict[str, float | int | bool | str],
    one_block: dict[str, list[str]],
) -> str:
    L = n_layers
    post, pre = " → ".join(one_block["post"]), " → ".join(one_block["pre"])
    agree = v["post_ln_order_matches_torch"] and v["pre_ln_order_matches_torch"]
    lines = [
        f"Two stacks of {plural(L, 'reference block')} (width {d_model}, the same weights), "
        "fed the same tokens; each block is self-attention then a feed-forward network, each "
        "wrapped in a residual add and a LayerNorm. The order below is read off a real forward "
        "pass"
        + (", and PyTorch's `nn.TransformerEncoderLayer` runs the same steps." if agree else "."),
        f"- **Post-LN** (original Transformer, BERT): x → {post}. The norm sits *on* the "
        f"residual path, after each add, so every block's output is normalised (variance "
        f"{v['post_ln_output_variance']:.4g}) and the stack needs no final LayerNorm: "
        f"{v['post_ln_norm_count']} LayerNorms for {plural(L, 'block')}.",
        f"- **Pre-LN** (GPT-2, Llama): x → {pre}. The norm sits *beside* the residual path, on "
        f"each sub-layer's input; the stream itself is only ever added to, and its variance "
        f"grows from {v['input_variance']:.3g} to {v['pre_ln_residual_stream_variance']:.3g} "
        f"over {plural(L, 'block')}. So Pre-LN stacks end with a **final LayerNorm**: "
        f"{v['pre_ln_norm_count']} = 2 × {L} + 1 LayerNorms, and the output variance is "
        f"{v['pre_ln_output_variance']:.4g}.",
        f"- Against `nn.TransformerEncoder` with the same weights (norm_first=False / True): "
        f"largest difference {v['post_ln_torch_max_abs_diff']:.1e} / "
        f"{v['pre_ln_torch_max_abs_diff']:.1e}; LayerNorms {v['torch_post_ln_norm_count']} / "
        f"{v['torch_pre_ln_norm_count']}.",
    ]
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------
# residual_passthrough: a layer that has learned to do nothing


def _make_idle(block: TransformerBlock) -> None:
    """Zero the output projections of attention and the FFN: both sub-layers now output 0,
    which is what a layer an optimiser has no use for can learn."""
    with torch.no_grad():
        for layer in (block.attn.out_proj, block.ffn.down_proj):
            layer.weight.zero_()
            if layer.bias is not None:
                layer.bias.zero_()


VARIANTS = {
    # name: (label, formula, what it reduces to with f ≡ 0, TransformerBlock options)
    "residual": ("residual, no norm", "x + f(x)", "x", {"norm": None}),
    "pre_ln": ("Pre-LN", "x + f(LN(x))", "x", {"norm_position": "pre"}),
    "post_ln": ("Post-LN", "LN(x + f(x))", "LN(x)", {"norm_position": "post"}),
    "plain": ("no residual", "f(x)", "0", {"norm": None, "residual": False}),
}


def residual_passthrough(ctx: Context, *, d_model: int, n_tokens: int) -> Result:
    dtype = _dtype(ctx)
    n_heads = heads_for(d_model)
    ctx.progress(0.1, "building idle blocks")
    with torch.device("meta"):
        built = {
            name: TransformerBlock(d_model, n_heads, 4 * d_model, activation="relu", **options)
            for name, (_, _, _, options) in VARIANTS.items()
        }
    source = _seeded(built["post_ln"], ctx, dtype)  # in place: built["post_ln"] is source now
    # One set of weights for all four (norm-free blocks simply have no norm weights).
    blocks = {
        name: block if block is source else _same_weights(block, source, ctx, dtype)
        for name, block in built.items()
    }
    for block in blocks.values():
        _make_idle(block)  # type: ignore[arg-type]
    # Tokens at an offset and scale of their own, so that normalising them visibly moves them.
    x = ctx.randn(1, n_tokens, d_model, dtype=dtype) * 2 + 1

    with torch.no_grad():
        ctx.progress(0.4, "a forward pass through each")
        outputs = {name: block(x) for name, block in blocks.items()}
        sublayer = blocks["residual"]
        idle_output = max(
            float(sublayer.attn(x)[0].abs().max()), float(sublayer.ffn(x).abs().max())
        )
        layernorm_of_x = LayerNorm(d_model).to(device=ctx.device, dtype=dtype)(x)
        ctx.progress(0.7, "the same idle blocks as torch.nn.TransformerEncoderLayer")
        torch_outputs = {
            name: to_torch_layer(blocks[name]).eval()(x) for name in ("pre_ln", "post_ln")
        }

    def error(out: Tensor) -> float:
        return float((out - x).abs().max())

    values: dict[str, float | int | bool | str] = {
        "residual_passthrough_error": error(outputs["residual"]),
        "pre_ln_passthrough_error": error(outputs["pre_ln"]),
        "post_ln_passthrough_error": error(outputs["post_ln"]),
        "post_ln_vs_layernorm_of_input": float((outputs["post_ln"] - layernorm_of_x).abs().max()),
        "plain_idle_output_norm": float(outputs["plain"].norm()),
        "input_norm": float(x.norm()),
        "idle_sublayer_output": idle_output,
        "torch_pre_ln_passthrough_error": error(torch_outputs["pre_ln"]),
        "torch_post_ln_passthrough_error": error(torch_outputs["post_ln"]),
    }
    rows = [
        (label, formula, reduced, error(outputs[name]), float(outputs[name].norm()))
        for name, (label, formula, reduced, _) in VARIANTS.items()
    ]
    rows += [
        (f"torch, norm_first={p == 'pre'}", formula, reduced, error(torch_outputs[name]),
         float(torch_outputs[name].norm()))
        for p, name, formula, reduced in (  # nn.TransformerEncoderLayer
            ("pre", "pre_ln", "x + f(LN(x))", "x"),
            ("post", "post_ln", "LN(x + f(x))", "LN(x)"),
        )
    ]  # fmt: skip
    table = Table(
        title=f"An idle block (f ≡ 0) on {plural(n_tokens, 'token')} of width {d_model}; ‖x‖ = "
        f"{values['input_norm']:.4g}",
        columns=("block", "computes", "with f ≡ 0", "max |out − x|", "‖out‖"),
        rows=tuple(rows),
    )
    ctx.progress(1.0, "done")
    return Result(
        "residual_passthrough",
        {"d_model": d_model, "n_tokens": n_tokens},
        str(ctx.device),
        values,
        _passthrough_summary(values),
        table=table,
    )


def _passthrough_summary(v: dict[str, float | int | bool | str]) -> str:
    exact = v["residual_passthrough_error"] == 0 and v["pre_ln_passthrough_error"] == 0
    lines = [
        "A reference block whose attention and feed-forward output projections are zero, so "
        f"each sub-layer f outputs exactly 0 (largest output {v['idle_sublayer_output']:g}): a "
        "layer that has learned to do nothing.",
        f"- **With a residual** the block returns its input: max |block(x) − x| is "
        f"{v['residual_passthrough_error']:g} for x + f(x) and {v['pre_ln_passthrough_error']:g} "
        "for Pre-LN's x + f(LN(x))"
        + (
            " — exactly. The token passes through untouched, so an idle layer does no harm."
            if exact
            else "."
        ),
        f"- **Post-LN** returns LN(x + 0) = LN(x), which is not x: it differs by up to "
        f"**{v['post_ln_passthrough_error']:.4g}** (and from LN(x) by only "
        f"{v['post_ln_vs_layernorm_of_input']:.1e}). Even an idle Post-LN layer re-normalises "
        "the stream; it passes x through only if x was already normalised.",
        f"- **Without a residual** the idle layer outputs f(x) = 0: norm "
        f"{v['plain_idle_output_norm']:g} against the input's {v['input_norm']:.4g}. The input "
        "is lost, and everything after this layer sees nothing.",
        f"- `nn.TransformerEncoderLayer` with the same idle weights: max |out − x| = "
        f"{v['torch_pre_ln_passthrough_error']:g} (norm_first=True), "
        f"{v['torch_post_ln_passthrough_error']:.4g} (norm_first=False).",
    ]
    return "\n".join(lines)
