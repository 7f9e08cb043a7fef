"""The KV cache's size, from buffers built on the meta device, against the model cards' shapes."""

import pytest
import torch

from quizapp.reference import PRESETS, KVCache, dtype_bytes, kv_cache_bytes


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("llama2-7b", 2_147_483_648),  # 32 layers × 32 KV heads × 128: 2 GiB at 4,096 tokens
        ("llama2-70b", 1_342_177_280),  # 80 layers × 8 KV heads × 128
        ("llama3-8b", 536_870_912),  # 32 layers × 8 KV heads × 128
    ],
)
def test_presets_at_4096_tokens_in_float16(name: str, expected: int) -> None:
    cfg = PRESETS[name]
    n_kv = cfg.n_kv_heads or cfg.n_heads
    cache = KVCache(cfg.n_layers, n_kv, cfg.head_dim, 4096, batch=1, dtype=torch.float16)
    cache = cache.to("meta")
    built = KVCache(cfg.n_layers, n_kv, cfg.head_dim, 4096, dtype=torch.float16)
    assert cache.nbytes() == built.nbytes() == expected
    assert kv_cache_bytes(cfg.n_layers, n_kv, cfg.head_dim, 4096, 1, "float16") == expected


def test_meta_cache_allocates_nothing() -> None:
    with torch.device("meta"):
        cache = KVCache(80, 8, 128, 131072, batch=32, dtype=torch.bfloat16)
    assert all(b.is_meta for b in cache.buffers())
    assert cache.nbytes() == 2 * 80 * 8 * 128 * 131072 * 32 * 2


def test_bytes_scale_with_dtype_batch_and_kv_heads() -> None:
    base = kv_cache_bytes(32, 32, 128, 1000, 1, "float16")
    assert kv_cache_bytes(32, 32, 128, 1000, 1, "float32") == 2 * base
    assert kv_cache_bytes(32, 32, 128, 1000, 1, "int8") == base // 2
    assert kv_cache_bytes(32, 32, 128, 1000, 4, "float16") == 4 * base
    assert kv_cache_bytes(32, 8, 128, 1000, 1, "float16") == base // 4  # GQA, 4 heads a group
    assert kv_cache_bytes(32, 1, 128, 1000, 1, "float16") == base // 32  # MQA
    assert [dtype_bytes(d) for d in ("float32", "bfloat16", "float8_e4m3fn")] == [4, 2, 1]


def test_update_writes_and_returns_the_prefix() -> None:
    cache = KVCache(2, 2, 4, 10, dtype=torch.float32)
    k = torch.ones(1, 2, 3, 4)
    keys, values = cache.update(1, 0, k, 2 * k)
    assert keys.shape == (1, 2, 3, 4) and torch.equal(values, 2 * k)
    keys, _ = cache.update(1, 3, 3 * torch.ones(1, 2, 1, 4), torch.zeros(1, 2, 1, 4))
    assert keys.shape == (1, 2, 4, 4) and keys[0, 0, 3, 0] == 3 and keys[0, 0, 0, 0] == 1
    assert cache.k0.abs().sum() == 0  # the other layer untouched
