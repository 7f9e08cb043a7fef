"""A stack of transformer blocks, and the same stack as PyTorch's own nn.TransformerEncoder.

Where the norm sits decides what the stack needs at its end:

    Post-LN (Vaswani, BERT):  x -> [Norm(x + Attn(x)) -> Norm(x + FFN(x))] × L
        Every block already ends in a norm, so the output is normalised as it leaves.
    Pre-LN (GPT-2, Llama):    x -> [x + Attn(Norm(x)) -> x + FFN(Norm(x))] × L -> Norm
        The residual stream itself is never normalised inside the blocks (it grows with
        depth), so one final norm is added after the last block.

`to_torch_encoder` copies a stack's weights into nn.TransformerEncoder (norm_first=False for
Post-LN, True for Pre-LN), which is how the tests prove the two compute the same thing.
"""

import torch
from torch import Tensor, nn

from quizapp.reference.blocks import NormPosition, TransformerBlock
from quizapp.reference.normalization import LayerNorm


class TransformerStack(nn.Module):
    """n_layers LayerNorm blocks (ReLU FFN, as in Vaswani et al.), plus a final LayerNorm
    when the norm comes first in each block."""

    def __init__(
        self,
        d_model: int,
        n_heads: int,
        d_ff: int,
        n_layers: int,
        norm_position: NormPosition = "pre",
        norm_eps: float = 1e-5,
    ) -> None:
        super().__init__()
        self.norm_position = norm_position
        self.blocks = nn.ModuleList(
            TransformerBlock(
                d_model,
                n_heads,
                d_ff,
                norm_position=norm_position,
                activation="relu",
                norm_eps=norm_eps,
            )
            for _ in range(n_layers)
        )
        # Identity for Post-LN: adding a norm there would normalise an already normalised output.
        self.final_norm = LayerNorm(d_model, norm_eps) if norm_position == "pre" else nn.Identity()

    def forward(self, x: Tensor) -> Tensor:
        """x: [batch, seq, d_model] -> [batch, seq, d_model]."""
        for block in self.blocks:
            x = block(x)
        return self.final_norm(x)


def _torch_layer(block: TransformerBlock) -> nn.TransformerEncoderLayer:
    """An empty nn.TransformerEncoderLayer of the same shape, on the meta device."""
    with torch.device("meta"):
        return nn.TransformerEncoderLayer(
            block.attn.d_model,
            block.attn.n_heads,
            block.ffn.up_proj.out_features,
            dropout=0.0,
            activation="relu",
            layer_norm_eps=block.attn_norm.eps,
            batch_first=True,
            norm_first=block.norm_position == "pre",
        )


def _copy_block(block: TransformerBlock, layer: nn.TransformerEncoderLayer) -> None:
    attn, theirs = block.attn, layer.self_attn
    if attn.q_proj.bias is None or block.ffn.activation != "relu":
        raise ValueError(
            "only a block with biases and a ReLU FFN maps onto nn.TransformerEncoderLayer"
        )
    with torch.no_grad():
        # PyTorch packs Q, K and V into one [3·d_model, d_model] matrix, in that order.
        theirs.in_proj_weight.copy_(
            torch.cat([attn.q_proj.weight, attn.k_proj.weight, attn.v_proj.weight])
        )
        theirs.in_proj_bias.copy_(torch.cat([attn.q_proj.bias, attn.k_proj.bias, attn.v_proj.bias]))
        pairs = (
            (theirs.out_proj, attn.out_proj),
            (layer.linear1, block.ffn.up_proj),
            (layer.linear2, block.ffn.down_proj),
            (layer.norm1, block.attn_norm),  # norm1 belongs to the attention sub-layer
            (layer.norm2, block.ffn_norm),
        )
        for target, source in pairs:
            target.weight.copy_(source.weight)
            target.bias.copy_(source.bias)


def to_torch_layer(block: TransformerBlock) -> nn.TransformerEncoderLayer:
    """nn.TransformerEncoderLayer (norm_first = Pre-LN) with this block's weights.

    Dropout is 0, so in any mode the two compute the same function of x.
    """
    weight = block.attn.q_proj.weight
    layer = _torch_layer(block).to_empty(device=weight.device).to(weight.dtype)
    _copy_block(block, layer)
    return layer


def to_torch_encoder(stack: TransformerStack) -> nn.TransformerEncoder:
    """nn.TransformerEncoder with this stack's weights, on its device and in its dtype."""
    first = stack.blocks[0]
    assert isinstance(first, TransformerBlock)
    weight = first.attn.q_proj.weight
    with torch.device("meta"):  # shapes first; the weights are copied in below
        final = None
        if isinstance(stack.final_norm, LayerNorm):
            final = nn.LayerNorm(first.attn.d_model, eps=stack.final_norm.eps)
        encoder = nn.TransformerEncoder(
            _torch_layer(first), len(stack.blocks), norm=final, enable_nested_tensor=False
        )
    encoder = encoder.to_empty(device=weight.device).to(weight.dtype)
    for block, theirs in zip(stack.blocks, encoder.layers, strict=True):
        _copy_block(block, theirs)
    if final is not None:
        with torch.no_grad():
            encoder.norm.weight.copy_(stack.final_norm.weight)
            encoder.norm.bias.copy_(stack.final_norm.bias)
    return encoder
