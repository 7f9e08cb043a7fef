"""Feed-forward layers and blocks compute the formulas they claim."""

import pytest
import torch
import torch.nn.functional as F

from quizapp.reference import DecoderBlock, FeedForward, TransformerBlock

B, S, D, H, D_FF = 2, 6, 16, 4, 32
F64 = torch.float64
TOL = {"atol": 1e-10, "rtol": 0.0}


def _block(**kwargs: object) -> TransformerBlock:
    torch.manual_seed(0)
    block = TransformerBlock(D, H, D_FF, **kwargs).double()  # type: ignore[arg-type]
    with torch.no_grad():
        for name, p in block.named_parameters():
            if "norm" in name:  # random affine so the tests cannot pass by weight=1, bias=0
                p.copy_(torch.randn_like(p) * 0.5 + (1.0 if name.endswith("weight") else 0.0))
    return block


def _attn(block: TransformerBlock, h: torch.Tensor) -> torch.Tensor:
    return block.attn(h, causal=block.causal)[0]


def test_post_ln_block_is_norm_of_residual_sum() -> None:
    block = _block(norm_position="post")
    x = torch.randn(B, S, D, dtype=F64)
    h = block.attn_norm(x + _attn(block, x))
    expected = block.ffn_norm(h + block.ffn(h))
    torch.testing.assert_close(block(x), expected, **TOL)


def test_pre_ln_block_adds_sublayer_of_normed_input() -> None:
    block = _block(norm_position="pre")
    x = torch.randn(B, S, D, dtype=F64)
    h = x + _attn(block, block.attn_norm(x))
    expected = h + block.ffn(block.ffn_norm(h))
    torch.testing.assert_close(block(x), expected, **TOL)


def test_post_ln_output_is_normalised_pre_ln_residual_stream_is_not() -> None:
    x = torch.randn(B, S, D, dtype=F64) * 10 + 50  # a large, offset residual stream
    post = _block(norm_position="post", norm_eps=1e-12)
    norm = post.ffn_norm
    # Undo the final affine: what is left must be exactly standardised per token.
    raw = (post(x) - norm.bias) / norm.weight
    torch.testing.assert_close(raw.mean(-1), torch.zeros(B, S, dtype=F64), **TOL)
    var = raw.var(-1, unbiased=False)
    torch.testing.assert_close(var, torch.ones(B, S, dtype=F64), atol=1e-5, rtol=0)

    pre = _block(norm_position="pre")
    out = pre(x)
    # Pre-LN only adds to x: the stream keeps x's scale and offset instead of being reset.
    assert (out.var(-1, unbiased=False) > 20).all()
    assert (out.mean(-1) > 25).all()


def test_rmsnorm_pre_block() -> None:
    block = _block(
        norm_position="pre", norm="rmsnorm", activation="swiglu", bias=False, norm_eps=1e-12
    )
    assert not any(name.endswith("bias") for name, _ in block.named_parameters())
    x = torch.randn(B, S, D, dtype=F64)
    normed = block.attn_norm(x)
    rms = (normed / block.attn_norm.weight).pow(2).mean(-1).sqrt()
    torch.testing.assert_close(rms, torch.ones(B, S, dtype=F64), atol=1e-9, rtol=0)


def test_residual_without_norm_and_plain_stack() -> None:
    x = torch.randn(B, S, D, dtype=F64)
    residual_only = _block(norm=None, residual=True)
    assert not any("norm" in name for name, _ in residual_only.named_parameters())
    h = x + _attn(residual_only, x)
    torch.testing.assert_close(residual_only(x), h + residual_only.ffn(h), **TOL)

    plain = _block(norm=None, residual=False)
    torch.testing.assert_close(plain(x), plain.ffn(_attn(plain, x)), **TOL)


@pytest.mark.parametrize("causal", [True, False])
def test_causal_block_ignores_future_tokens(causal: bool) -> None:
    block = _block(causal=causal)
    x = torch.randn(B, S, D, dtype=F64)
    changed = x.clone()
    # Perturb only the last token (randomly: a constant shift would vanish in the LayerNorm).
    changed[:, -1] += torch.randn(B, D, dtype=F64)
    same = torch.allclose(block(x)[:, :-1], block(changed)[:, :-1], atol=1e-12)
    assert same == causal


def test_block_rejects_unknown_options() -> None:
    with pytest.raises(ValueError, match="norm_position"):
        TransformerBlock(D, H, D_FF, norm_position="middle")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="activation"):
        FeedForward(D, D_FF, activation="tanh")  # type: ignore[arg-type]


def test_swiglu_feed_forward() -> None:
    torch.manual_seed(0)
    ffn = FeedForward(D, D_FF, activation="swiglu", bias=False).double()
    assert [n for n, _ in ffn.named_parameters()] == [
        "gate_proj.weight",
        "up_proj.weight",
        "down_proj.weight",
    ]
    x = torch.randn(B, S, D, dtype=F64)
    gate, up, down = ffn.gate_proj.weight, ffn.up_proj.weight, ffn.down_proj.weight
    expected = ((x @ gate.T) * torch.sigmoid(x @ gate.T) * (x @ up.T)) @ down.T
    torch.testing.assert_close(ffn(x), expected, **TOL)


@pytest.mark.parametrize(
    ("activation", "fn"),
    [
        ("relu", torch.relu),
        ("gelu", lambda t: 0.5 * t * (1 + torch.erf(t / 2**0.5))),
        ("gelu_tanh", lambda t: F.gelu(t, approximate="tanh")),
    ],
)
def test_plain_feed_forward(activation: str, fn: object) -> None:
    torch.manual_seed(0)
    ffn = FeedForward(D, D_FF, activation=activation).double()  # type: ignore[arg-type]
    x = torch.randn(B, S, D, dtype=F64)
    expected = ffn.down_proj(fn(ffn.up_proj(x)))  # type: ignore[operator]
    torch.testing.assert_close(ffn(x), expected, **TOL)


def test_decoder_block_is_causal_and_reads_unpadded_memory_only() -> None:
    torch.manual_seed(0)
    block = DecoderBlock(D, H, D_FF).double()
    x = torch.randn(B, S, D, dtype=F64)
    memory = torch.randn(B, 5, D, dtype=F64)
    pad = torch.zeros(B, 5, dtype=torch.bool)
    pad[:, -2:] = True
    out = block(x, memory, memory_padding_mask=pad)
    assert out.shape == (B, S, D)

    future = x.clone()
    future[:, -1] += torch.randn(B, D, dtype=F64)
    torch.testing.assert_close(block(future, memory, memory_padding_mask=pad)[:, :-1], out[:, :-1])

    padded_changed = memory.clone()
    padded_changed[:, -2:] += 3.0
    torch.testing.assert_close(block(x, padded_changed, memory_padding_mask=pad), out, **TOL)
    visible_changed = memory.clone()
    visible_changed[:, 0] += 3.0
    assert not torch.allclose(block(x, visible_changed, memory_padding_mask=pad), out)
