"""The KV cache: what a decoder keeps per token so it never recomputes past keys and values.

Generating token t needs the keys and values of tokens 0..t-1 in every layer. Keeping them costs,
per token,

    2 (K and V) × n_layers × n_kv_heads × head_dim × bytes per number

so the cache grows with the sequence and the batch, and grouped-query attention (Ainslie et al.
2023, "GQA", §1: "memory bandwidth overhead from loading keys and values") divides it by
n_heads / n_kv_heads; multi-query attention (Shazeer 2019, §3) by n_heads.
"""

import torch
from torch import Tensor, nn

DTYPES: dict[str, torch.dtype] = {
    "float32": torch.float32,
    "float16": torch.float16,
    "bfloat16": torch.bfloat16,
    "float8_e4m3fn": torch.float8_e4m3fn,
    "int8": torch.int8,
}


def dtype_bytes(dtype: torch.dtype | str) -> int:
    """Bytes per number, read from torch (float16: 2)."""
    dtype = DTYPES[dtype] if isinstance(dtype, str) else dtype
    return torch.empty((), dtype=dtype, device="meta").element_size()


class KVCache(nn.Module):
    """Preallocated per-layer key and value buffers, each [batch, kv_heads, max_seq, head_dim].

    Build it on the meta device to size a 70B model's cache without allocating it.
    """

    def __init__(
        self,
        n_layers: int,
        n_kv_heads: int,
        head_dim: int,
        max_seq: int,
        batch: int = 1,
        dtype: torch.dtype = torch.float16,
    ) -> None:
        super().__init__()
        shape = (batch, n_kv_heads, max_seq, head_dim)
        for layer in range(n_layers):
            self.register_buffer(f"k{layer}", torch.zeros(shape, dtype=dtype), persistent=False)
            self.register_buffer(f"v{layer}", torch.zeros(shape, dtype=dtype), persistent=False)
        self.n_layers = n_layers

    def update(self, layer: int, start: int, k: Tensor, v: Tensor) -> tuple[Tensor, Tensor]:
        """Write k, v [batch, kv_heads, new, head_dim] at positions start..start+new-1 and return
        the keys and values of positions 0..start+new-1 for this layer."""
        end = start + k.shape[-2]
        cache_k, cache_v = getattr(self, f"k{layer}"), getattr(self, f"v{layer}")
        cache_k[:, :, start:end] = k
        cache_v[:, :, start:end] = v
        return cache_k[:, :, :end], cache_v[:, :, :end]

    def nbytes(self) -> int:
        """Bytes the buffers hold (numel × element size; works on meta tensors)."""
        return sum(b.numel() * b.element_size() for b in self.buffers())


def kv_cache_bytes(
    n_layers: int,
    n_kv_heads: int,
    head_dim: int,
    seq_len: int,
    batch: int = 1,
    dtype: torch.dtype | str = torch.float16,
) -> int:
    """2 × n_layers × n_kv_heads × head_dim × seq_len × batch × bytes per number."""
    return 2 * n_layers * n_kv_heads * head_dim * seq_len * batch * dtype_bytes(dtype)
