"""TransformerStack against PyTorch's own nn.TransformerEncoder, Post-LN and Pre-LN."""

import pytest
import torch
from torch import nn

from quizapp.reference import (
    LayerNorm,
    TransformerBlock,
    TransformerStack,
    count_parameters,
    to_torch_encoder,
    to_torch_layer,
)

B, S, D, H, D_FF, L = 2, 7, 16, 4, 64, 3
F64 = torch.float64


def _stack(position: str, n_layers: int = L) -> TransformerStack:
    torch.manual_seed(0)
    stack = TransformerStack(D, H, D_FF, n_layers, position).double().eval()  # type: ignore[arg-type]
    with torch.no_grad():
        for name, p in stack.named_parameters():
            if "norm" in name:  # random affine, so a weight/bias mix-up cannot pass
                p.copy_(torch.randn_like(p) * 0.5 + (1.0 if name.endswith("weight") else 0.0))
    return stack


@pytest.mark.parametrize(("position", "norm_first"), [("post", False), ("pre", True)])
def test_stack_computes_what_torch_transformer_encoder_computes(position, norm_first) -> None:
    stack = _stack(position)
    theirs = to_torch_encoder(stack)
    assert all(layer.norm_first is norm_first for layer in theirs.layers)
    x = torch.randn(B, S, D, dtype=F64) * 3 + 1
    for mode in (True, False):  # training mode (no dropout) and eval mode's fused fast path
        theirs.train(mode)
        with torch.no_grad():
            torch.testing.assert_close(stack(x), theirs(x), atol=1e-12, rtol=0)
    assert count_parameters(stack) == count_parameters(theirs)


def test_float32_agrees_to_about_1e_6() -> None:
    stack = _stack("pre").float()
    x = torch.randn(B, S, D)
    with torch.no_grad():
        assert (stack(x) - to_torch_encoder(stack).eval()(x)).abs().max() < 1e-5


@pytest.mark.parametrize("n_layers", [1, 2, 6])
def test_norm_counts_match_torch_two_per_block_plus_pre_ln_final(n_layers: int) -> None:
    post, pre = _stack("post", n_layers), _stack("pre", n_layers)
    count = {s: sum(isinstance(m, LayerNorm) for m in s.modules()) for s in (post, pre)}
    assert count[post] == 2 * n_layers and count[pre] == 2 * n_layers + 1
    for ours in (post, pre):
        theirs = to_torch_encoder(ours)
        assert sum(isinstance(m, nn.LayerNorm) for m in theirs.modules()) == count[ours]
    assert isinstance(post.final_norm, nn.Identity) and isinstance(pre.final_norm, LayerNorm)


def test_post_ln_output_is_normalised_pre_ln_needs_its_final_norm() -> None:
    torch.manual_seed(2)
    x = torch.randn(B, S, D, dtype=F64) * 5 + 2
    post = TransformerStack(D, H, D_FF, L, "post").double()
    pre = TransformerStack(D, H, D_FF, L, "pre").double()
    with torch.no_grad():
        out = post(x)
        torch.testing.assert_close(out.mean(-1), torch.zeros(B, S, dtype=F64), atol=1e-12, rtol=0)
        stream = x
        for block in pre.blocks:
            stream = block(stream)
        # Without the final norm the stream keeps x's scale (variance 25); with it, each token
        # is standardised.
        assert (stream.var(-1, unbiased=False) > 5).all()
        torch.testing.assert_close(
            pre(x).var(-1, unbiased=False), torch.ones(B, S, dtype=F64), atol=1e-4, rtol=0
        )


@pytest.mark.parametrize("position", ["post", "pre"])
def test_one_block_matches_torch_encoder_layer(position: str) -> None:
    torch.manual_seed(1)
    block = TransformerBlock(D, H, D_FF, norm_position=position, activation="relu").double()  # type: ignore[arg-type]
    layer = to_torch_layer(block).eval()
    x = torch.randn(B, S, D, dtype=F64)
    with torch.no_grad():
        torch.testing.assert_close(block(x), layer(x), atol=1e-12, rtol=0)


def test_blocks_torch_cannot_express_are_refused() -> None:
    for options in ({"activation": "swiglu"}, {"bias": False, "activation": "relu"}):
        block = TransformerBlock(D, H, D_FF, **options)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match=r"nn\.TransformerEncoderLayer"):
            to_torch_layer(block)
