"""The values of the attention computations (heads, parameters, FLOPs, the KV cache, GQA and
sliding windows): computation -> value -> (unit, meaning). See value_docs/__init__.py."""

from __future__ import annotations

ATTENTION: dict[str, dict[str, tuple[str, str]]] = {
    "mha_params": {
        "params_single_head": (
            "parameters",
            "attention with one head as wide as d_model: Q, K, V and output projections",
        ),
        "params_multi_head": (
            "parameters",
            "attention with n_heads heads of d_model / n_heads each (the same count)",
        ),
        "head_dim": ("dimensions", "width of one head: d_model / n_heads"),
        "torch_nn_multihead": (
            "parameters",
            "PyTorch's nn.MultiheadAttention at the same width and head count",
        ),
        "params_separate_heads": (
            "parameters",
            "n_heads separate modules, each its own Q, K and V (d_model to head_dim), plus W_o",
        ),
        "params_per_head_qkv": (
            "parameters",
            "one head's Q, K and V: 3 × d_model × head_dim, plus 3 × head_dim with bias",
        ),
    },
    "head_split": {
        "head_dim": ("dimensions", "width of one head: d_model / n_heads"),
        "params_multi_head": ("parameters", "the attention block (no biases) at n_heads heads"),
        "params_single_head": ("parameters", "the same block at one head"),
        "params_constant": (
            "bool",
            "the block has the same count at every head count tried (powers of two and n_heads)",
        ),
        "chance_cosine": (
            "",
            "mean |cos| of per-head slices of unrelated random vectors: how alike an unrelated "
            "query and key look",
        ),
        "split_roundtrip_exact": (
            "bool",
            "splitting an activation into heads and concatenating the heads gives it back exactly",
        ),
        "max_heads_wide_enough": (
            "heads",
            "the most heads tried whose head_dim is more than 8 dimensions (0 if none)",
        ),
        "keys_attended_per_head": (
            "tokens",
            "fewest keys any head's last query weighs, of 256 causal tokens (256: every head reads all)",
        ),
    },
    "model_params": {
        "total": ("parameters", "the whole model, a tied weight counted once"),
        "embeddings": ("parameters", "token embeddings and any learned position table"),
        "attention": ("parameters", "every attention layer together"),
        "ffn": ("parameters", "every feed-forward layer together"),
        "norms": ("parameters", "every normalisation layer together (LayerNorm or RMSNorm)"),
        "head_dim": ("dimensions", "width of one head in the model built: d_model / n_heads"),
        "d_model": ("dimensions", "model width built (the argument, or the preset's)"),
        "n_layers": ("layers", "layers built (the argument, or the preset's)"),
        "n_heads": ("heads", "attention heads per layer built"),
        "n_kv_heads": ("heads", "key/value heads per layer built (n_heads without GQA)"),
        "d_ff": ("dimensions", "feed-forward width built"),
        "vocab_size": ("tokens", "vocabulary size built"),
    },
    "attention_heads": {
        "coreference_weight": (
            "attention weight",
            "weight head 1 puts on 'animal' from 'it' (0 to 1)",
        ),
        "adjacency_weight": (
            "attention weight",
            "mean weight head 2 puts on each token's neighbour",
        ),
        "coreference_target": ("text", "the token 'it' attends to most in head 1"),
        "coreference_runner_up": (
            "attention weight",
            "second-largest weight in the row of 'it', head 1",
        ),
        "coreference_idle_max": (
            "attention weight",
            "largest weight head 1 gives from any token other than 'it'",
        ),
        "adjacency_min_weight": ("attention weight", "least weight head 2 puts on a neighbour"),
        "adjacency_rows_peaking_at_neighbour": (
            "rows",
            "query tokens whose head-2 row peaks at their neighbour (of 10)",
        ),
        "it_animate_before": ("", "the 'animate' feature of 'it' before attention (about 0)"),
        "it_animate_after": ("", "the 'animate' feature of 'it' after attention"),
    },
    "head_parallelism": {
        "params_constant": (
            "bool",
            "attention has the same parameter count at every head count measured (1 to 64)",
        ),
        "total_flops_constant": (
            "bool",
            "QKᵀ plus AV cost the same FLOPs at every head count measured",
        ),
        "head_dim_at_8": ("dimensions", "width of one head at 8 heads: d_model / 8"),
        "max_heads": (
            "heads",
            "the most heads measured (a power of two up to 64 dividing d_model)",
        ),
        "params_1_head": ("parameters", "attention (no biases) at 1 head"),
        "params_8_heads": ("parameters", "attention (no biases) at 8 heads"),
        "projection_flops_constant": (
            "bool",
            "the Q, K, V and output projections cost the same FLOPs at every head count",
        ),
        "torch_params_agree": (
            "bool",
            "nn.MultiheadAttention has the same parameter count at every head count",
        ),
        "attention_flops_1_head": (
            "FLOPs",
            "QKᵀ plus AV over one sequence of seq_len tokens at 1 head",
        ),
        "attention_flops_8_heads": (
            "FLOPs",
            "QKᵀ plus AV over one sequence at 8 heads, all heads together",
        ),
        "attention_flops_per_head_at_8": ("FLOPs", "QKᵀ plus AV of one head of 8"),
        "qk_flops_per_head_at_8": ("FLOPs", "QKᵀ of one head of 8"),
        "av_flops_per_head_at_8": ("FLOPs", "AV (weights times values) of one head of 8"),
        "projection_flops": (
            "FLOPs",
            "the Q, K, V and output projections over one sequence, at 8 heads",
        ),
        "flop_formula_agrees": (
            "bool",
            "the FLOPs counted equal 2 × 2 × seq_len² × d_model at every head count",
        ),
        "matmul_calls_per_forward": (
            "calls",
            "batched matmuls per forward pass at 8 heads (2: one QKᵀ, one AV, for all heads)",
        ),
        "matmul_calls_constant": (
            "bool",
            "the number of batched matmuls is the same at every head count",
        ),
    },
    "kv_cache": {
        "kv_cache_bytes": (
            "bytes",
            "the whole cache, counted from meta buffers: 2 × n_layers × n_kv_heads × head_dim "
            "× seq_len × batch × dtype_bytes",
        ),
        "kv_cache_gib": ("GiB", "kv_cache_bytes / 2 ** 30, to 6 significant figures"),
        "bytes_per_token": ("bytes", "K and V one token leaves across all layers"),
        "bytes_per_token_per_layer": ("bytes", "K and V one token leaves in one layer"),
        "mha_equivalent_bytes": (
            "bytes",
            "the cache with one KV head per query head (plain multi-head attention)",
        ),
        "mqa_bytes": ("bytes", "the cache with a single KV head (multi-query attention)"),
        "gqa_saving": ("ratio", "mha_equivalent_bytes / kv_cache_bytes"),
        "rolling_buffer_bytes": (
            "bytes",
            "the cache keeping only the preset's sliding window (kv_cache_bytes if none)",
        ),
        "formula_agrees": ("bool", "the bytes counted equal the formula"),
        "score_flops_per_token": (
            "FLOPs",
            "one new token's QKᵀ against seq_len cached keys, all layers (counted by FlopCounterMode)",
        ),
        "mha_score_flops_per_token": (
            "FLOPs",
            "the same with one key/value head per query head (multi-head attention)",
        ),
        "layer_kv_bytes_per_token": (
            "bytes",
            "K and V one layer of the model outputs per token, read by hooks on a forward pass",
        ),
        "layer_kv_bytes_per_token_vocab_doubled": (
            "bytes",
            "the same, measured on the model with twice the vocabulary",
        ),
        "layer_kv_bytes_per_token_d_ff_doubled": (
            "bytes",
            "the same, measured on the model with twice the feed-forward width d_ff",
        ),
        "dtype_bytes": ("bytes", "size of one number in dtype"),
        "n_layers": ("layers", "layers cached (the argument, or the preset's)"),
        "n_heads": ("heads", "query heads (the argument, or the preset's)"),
        "n_kv_heads": ("heads", "key/value heads cached (the argument, or the preset's)"),
        "head_dim": ("dimensions", "width of one head (the argument, or the preset's)"),
    },
    "gqa": {
        "params_mha": ("parameters", "one attention layer (no biases) with n_heads KV heads"),
        "params_gqa": ("parameters", "one attention layer (no biases) with n_kv_heads KV heads"),
        "params_mqa": ("parameters", "one attention layer (no biases) with 1 KV head"),
        "params_saved_gqa": ("parameters", "params_mha − params_gqa"),
        "kv_bytes_per_token_mha": ("bytes", "K and V one token leaves in one MHA layer"),
        "kv_bytes_per_token_gqa": ("bytes", "K and V one token leaves in one GQA layer"),
        "kv_bytes_per_token_mqa": ("bytes", "K and V one token leaves in one MQA layer"),
        "kv_cache_bytes_mha": ("bytes", "one MHA layer's cache for seq_len tokens"),
        "kv_cache_bytes_gqa": ("bytes", "one GQA layer's cache for seq_len tokens"),
        "kv_cache_bytes_mqa": ("bytes", "one MQA layer's cache for seq_len tokens"),
        "kv_saving_gqa": ("ratio", "MHA's cache / GQA's (n_heads / n_kv_heads)"),
        "kv_saving_mqa": ("ratio", "MHA's cache / MQA's (n_heads)"),
        "group_size": ("heads", "query heads sharing one KV head: n_heads / n_kv_heads"),
        "sdpa_max_abs_diff": (
            "",
            "largest difference from torch's SDPA with enable_gqa (float32, 16 tokens)",
        ),
        "repeat_kv_max_abs_diff": ("", "largest difference from SDPA on K and V repeated by hand"),
        "matches_sdpa": ("bool", "both differences are within tolerance"),
        "tolerance": ("", "the largest difference taken as a match: 1e-4"),
    },
    "sliding_window": {
        "receptive_field": (
            "positions",
            "how far back n_layers layers reach, Mistral's count: n_layers × window",
        ),
        "exact_reach": (
            "positions",
            "how far back information travels, walking the mask layer by layer: "
            "n_layers × (window − 1)",
        ),
        "keys_per_query": ("tokens", "keys the last of seq_len queries attends to"),
        "cache_saving": ("ratio", "seq_len / keys_per_query: how much smaller a rolling cache is"),
        "score_entries_window": (
            "pairs",
            "query-key pairs scored over seq_len tokens with the window",
        ),
        "score_entries_full": ("pairs", "query-key pairs scored with plain causal attention"),
        "attention_saving": ("ratio", "score_entries_full / score_entries_window"),
        "mask_matches_definition": (
            "bool",
            "the mask equals 0 ≤ i − j < window cell by cell on 64 positions",
        ),
    },
}
