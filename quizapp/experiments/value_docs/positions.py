"""The values of the position computations (order-blindness, RoPE, learned and sinusoidal
tables, RoPE scaling, ALiBi): computation -> value -> (unit, meaning). See __init__.py."""

from __future__ import annotations

POSITIONS: dict[str, dict[str, tuple[str, str]]] = {
    "permutation_demo": {
        "equivariance_error": (
            "",
            "largest change in a word's output when it moves to its place in swapped, chosen "
            "positions and mask (0: order-blind)",
        ),
        "pooled_difference": (
            "",
            "largest difference between the two sentences' outputs averaged over their words, "
            "with the chosen mask",
        ),
        "causal_equivariance_error": ("", "equivariance_error with a causal mask"),
        "causal_pooled_difference": ("", "pooled_difference with a causal mask"),
        "distinguishable": (
            "bool",
            "pooled_difference is above tolerance: the layer tells the two sentences apart",
        ),
        "unmasked_equivariance_error": ("", "equivariance_error with no mask"),
        "unmasked_pooled_difference": ("", "pooled_difference with no mask"),
        "n_words": ("words", "words in the sentence"),
        "tolerance": (
            "",
            "below this a difference is rounding: 1e-9 in float64, 1e-3 in float32",
        ),
    },
    "rope_relative": {
        "max_offset_deviation": (
            "",
            "spread of q·k at the offset, key at 0, 5, 17, 100 and 1000 (about 0: the score "
            "depends on the offset only)",
        ),
        "absolute_positions_differ": (
            "bool",
            "the rotated queries themselves differ across those positions (above tolerance)",
        ),
        "other_offset_difference": ("", "|q·k at offset + 1 − q·k at offset|, key at 0"),
        "sinusoidal_offset_error": (
            "",
            "largest error of one fixed matrix turning sinusoidal PE[pos] into PE[pos + offset], "
            "positions 0 to 1024",
        ),
        "score_at_offset": ("", "q·k after RoPE, key at 0 and query at offset"),
        "unrotated_score": ("", "q·k of the same vectors with no rotation"),
        "other_offset": ("positions", "the second offset compared: offset + 1"),
        "score_at_other_offset": ("", "q·k after RoPE, key at 0 and query at offset + 1"),
        "other_offset_deviation": ("", "spread of q·k at offset + 1 across the key positions"),
        "layer_shift_change": (
            "",
            "largest change in a RoPE attention layer's output when every token moves 100 "
            "positions (about 0: V is not rotated)",
        ),
        "rotated_values_shift_change": (
            "",
            "the same change when the layer rotates V as well as Q and K",
        ),
        "rotated_query_spread": (
            "",
            "largest difference between the rotated queries at the five positions",
        ),
        "tolerance": ("", "below this a difference is rounding (scaled by |q|·|k|)"),
    },
    "positional_extrapolation": {
        "sinusoidal_defined": ("bool", "the sinusoidal formula gives a finite vector at position"),
        "sinusoidal_norm": ("", "norm of the sinusoidal vector at position"),
        "learned_defined": ("bool", "the learned table has a row for position"),
        "learned_message": (
            "text",
            "the error the learned table raises for position (empty when it has a row)",
        ),
        "sinusoidal_norm_expected": ("", "√(d_model / 2), the sinusoidal norm at any position"),
        "learned_last_position": ("positions", "the table's last row: max_positions − 1"),
        "reference_table_error": (
            "",
            "largest difference between the sinusoidal module and the reference table",
        ),
        "sinusoidal_params": ("parameters", "the sinusoidal encoding's (a formula: 0)"),
        "learned_params": ("parameters", "the learned table's: max_positions × d_model"),
        "rope_params": ("parameters", "a RotaryEmbedding's, one d_model wide (fixed angles: 0)"),
        "causal_mask_params": (
            "parameters",
            "a causal decoder block's less the same block without the mask (a pattern: 0)",
        ),
        "learned_rows": ("rows", "rows in the learned table: max_positions"),
        "d_model": ("dimensions", "width of each position vector"),
    },
    "learned_table_coverage": {
        "tokens_past_table": ("tokens", "positions of the input whose lookup found no row"),
        "tokens_with_row": ("tokens", "positions of the input whose lookup found a row"),
        "first_missing_position": ("positions", "the first position without a row (−1 if none)"),
        "table_params": ("parameters", "the learned table's: max_positions × d_model"),
    },
    "rope_scaling": {
        "frequency_max_before": ("radians per token", "the fastest pair's frequency, unscaled"),
        "frequency_max_after": ("radians per token", "the fastest pair's frequency, scaled"),
        "frequency_min_before": ("radians per token", "the slowest pair's frequency, unscaled"),
        "frequency_min_after": ("radians per token", "the slowest pair's frequency, scaled"),
        "longest_wavelength_before": (
            "tokens",
            "tokens per full turn of the slowest pair, unscaled",
        ),
        "longest_wavelength_after": ("tokens", "tokens per full turn of the slowest pair, scaled"),
        "pairs_unchanged": ("pairs", "pairs whose frequency scaling leaves alone"),
        "pairs_slowed_by_factor": ("pairs", "pairs slowed by exactly factor"),
        "pairs_blended": ("pairs", "pairs slowed by something in between (llama3's blend)"),
        "effective_context": ("tokens", "factor × original_max_position_embeddings"),
        "unseen_pairs_before": (
            "pairs",
            "pairs turned at distance position to an angle never reached in training, unscaled",
        ),
        "unseen_pairs_after": (
            "pairs",
            "pairs turned at distance position to an angle never reached in training, scaled",
        ),
        "score_drift_before": (
            "",
            "largest change in q·k at distance position when both tokens move elsewhere, unscaled",
        ),
        "score_drift_after": (
            "",
            "largest change in q·k at distance position when both tokens move elsewhere, scaled",
        ),
        "n_pairs": ("pairs", "rotated pairs of dimensions: head_dim / 2"),
    },
    "alibi": {
        "slope_first": ("", "slope m of the first head (the steepest)"),
        "slope_last": ("", "slope m of the last head (the gentlest)"),
        "slope_ratio": ("ratio", "second head's slope / first head's (the first's with one head)"),
        "slopes": ("text", "every head's slope, comma-separated"),
        "bias_at_distance_first_head": (
            "logit",
            "what the first head adds to the score of a key distance tokens back: −m × distance",
        ),
        "bias_at_distance_last_head": (
            "logit",
            "what the last head adds to the score of a key distance tokens back",
        ),
        "depends_only_on_distance": (
            "bool",
            "every diagonal of the seq_len × seq_len bias matrix is constant",
        ),
        "weight_on_first_token_first_head": (
            "attention weight",
            "the last query's weight on token 0 in the first head, content scores equal",
        ),
        "weight_on_first_token_last_head": (
            "attention weight",
            "the last query's weight on token 0 in the last head, content scores equal",
        ),
        "is_power_of_two": ("bool", "n_heads is a power of two (one geometric sequence of slopes)"),
    },
}
