"""The values of the norm and residual computations (variance and gradients through depth,
LayerNorm, BatchNorm, RMSNorm): computation -> value -> (unit, meaning). See __init__.py."""

from __future__ import annotations

NORMALIZATION: dict[str, dict[str, tuple[str, str]]] = {
    "variance_drift": {
        "plain_final": ("", "activation variance after the last layer of x = f(x)"),
        "residual_final": ("", "activation variance after the last layer of x = x + f(x)"),
        "post_ln_final": ("", "activation variance after the last layer of Post-LN LN(x + f(x))"),
        "pre_ln_final": ("", "activation variance after the last layer of Pre-LN x + f(LN(x))"),
        "residual_doubling_ratio": (
            "ratio",
            "average growth per layer of the residual stack's variance (about 2)",
        ),
        "input_variance": ("", "variance of the tokens fed in"),
        "two_to_the_n_layers": ("", "2 ** n_layers, what doubling every layer would give"),
        "residual_vs_two_to_the_n": ("ratio", "residual_final / 2 ** n_layers"),
        "pre_ln_growth_per_layer": (
            "",
            "variance the Pre-LN stream gains per layer: (pre_ln_final − input) / n_layers",
        ),
        "pre_ln_final_over_depth": ("ratio", "pre_ln_final / (n_layers + 1)"),
        "post_ln_max_deviation": ("", "largest |variance − 1| after any Post-LN layer"),
        "plain_max_deviation": (
            "",
            "largest |variance − input variance| after any layer of the plain stack",
        ),
        "n_layers": ("layers", "depth of each stack"),
    },
    "norm_comparison": {
        "layernorm_mean": (
            "",
            "largest |mean over features| of LayerNorm's output, every token of both batches",
        ),
        "layernorm_variance": (
            "",
            "variance over features of LayerNorm's output, averaged over tokens (about 1)",
        ),
        "layernorm_change": (
            "",
            "largest change in one token's LayerNorm output between two batches (0)",
        ),
        "batchnorm_change": (
            "",
            "largest change in the same token's BatchNorm output between the two batches",
        ),
        "batchnorm_single_token_variance": (
            "",
            "largest per-feature batch variance of a batch of one token (0)",
        ),
        "batchnorm_token_mean": (
            "",
            "|mean over its own features| of the token's BatchNorm output (not 0)",
        ),
        "batchnorm_token_variance": (
            "",
            "variance over its own features of the token's BatchNorm output (not 1)",
        ),
        "batchnorm_single_token_output": (
            "",
            "largest |output| of batch normalisation worked by hand on a batch of one (0)",
        ),
        "batchnorm_single_token_refused": (
            "bool",
            "BatchNorm in training mode refuses a batch of one token",
        ),
        "layernorm_single_token_variance": (
            "",
            "variance over features of LayerNorm's output for the token alone (about 1)",
        ),
        "batchnorm_eval_change": (
            "",
            "the token's BatchNorm change between the two batches in eval mode (running "
            "statistics)",
        ),
        "batchnorm_eval_single_token_change": (
            "",
            "the token's BatchNorm change in eval mode between alone and in a batch",
        ),
        "batchnorm_train_eval_gap": (
            "",
            "largest difference between the token's BatchNorm output in training and eval mode",
        ),
        "batchnorm_padding_change": (
            "",
            "the token's BatchNorm change when the batch is padded with as many zero tokens",
        ),
        "layernorm_padding_change": (
            "",
            "the token's LayerNorm change when the batch is padded with zero tokens (0)",
        ),
        "batchnorm_params": (
            "parameters",
            "BatchNorm's learned scale and shift, counted on the module: 2 × d_model",
        ),
    },
    "gradient_flow": {
        "post_ln_last_ffn_grad": (
            "",
            "gradient norm on the last block's FFN output weight, n_layers Post-LN blocks, "
            "mean of 3 draws",
        ),
        "pre_ln_last_ffn_grad": (
            "",
            "the same for n_layers Pre-LN blocks with a final LayerNorm",
        ),
        "pre_ln_ratio_vs_sqrt": (
            "ratio",
            "pre_ln_depth_ratio / inverse_sqrt_depth_ratio: 1 when the gradient falls as 1/√L",
        ),
        "first_layer_grad_residual": (
            "",
            "gradient norm reaching the first layer of n_layers x + sigmoid(Wx) layers",
        ),
        "first_layer_grad_plain": (
            "",
            "gradient norm reaching the first layer of n_layers sigmoid(Wx) layers, no residual",
        ),
        "baseline_depth": (
            "layers",
            "the shallow stack the depth ratios compare with (2, or 1 when n_layers is 2)",
        ),
        "post_ln_depth_ratio": (
            "ratio",
            "Post-LN last-FFN gradient at n_layers over at baseline_depth",
        ),
        "pre_ln_depth_ratio": (
            "ratio",
            "Pre-LN last-FFN gradient at n_layers over at baseline_depth",
        ),
        "inverse_sqrt_depth_ratio": ("ratio", "√(baseline_depth / n_layers): exact 1/√L"),
        "post_ln_slope": (
            "",
            "fitted exponent p in gradient ∝ depth^p, Post-LN (log-log least squares)",
        ),
        "pre_ln_slope": ("", "fitted exponent p in gradient ∝ depth^p, Pre-LN (about −½)"),
        "first_layer_grad_ratio": (
            "ratio",
            "first_layer_grad_residual / first_layer_grad_plain",
        ),
        "last_layer_grad_plain": ("", "gradient norm at the last layer of the sigmoid(Wx) stack"),
        "last_layer_grad_residual": (
            "",
            "gradient norm at the last layer of the x + sigmoid(Wx) stack",
        ),
        "plain_first_over_last": (
            "ratio",
            "first_layer_grad_plain / last_layer_grad_plain: how much the gradient shrank",
        ),
    },
    "layernorm_vector": {
        "mean": ("", "mean of the numbers given"),
        "biased_variance": ("", "sum of squared deviations / n: what LayerNorm uses"),
        "unbiased_variance": ("", "sum of squared deviations / (n − 1): a bare x.var()"),
        "biased_std": ("", "√biased_variance"),
        "unbiased_std": ("", "√unbiased_variance"),
        "normalized_mean": ("", "mean of LayerNorm's output (about 0)"),
        "normalized_variance": (
            "",
            "biased variance of LayerNorm's output (just under 1, because of eps)",
        ),
        "normalized_variance_if_unbiased": (
            "",
            "the output's variance had it divided by the unbiased std: (n − 1) / n",
        ),
        "torch_max_abs_diff": (
            "",
            "largest difference from F.layer_norm and nn.LayerNorm on the same numbers",
        ),
        "n": ("features", "how many numbers were given"),
        "eps": ("", "the eps added to the variance"),
    },
    "ln_placement": {
        "post_ln_norm_count": ("LayerNorms", "in the Post-LN stack: 2 per block, no final one"),
        "pre_ln_norm_count": ("LayerNorms", "in the Pre-LN stack: 2 per block plus a final one"),
        "post_ln_affine_norm_count": (
            "LayerNorms",
            "Post-LN LayerNorms with a learned scale and shift (all of them)",
        ),
        "pre_ln_affine_norm_count": (
            "LayerNorms",
            "Pre-LN LayerNorms with a learned scale and shift (all of them)",
        ),
        "post_ln_residual_count": (
            "sub-layers",
            "Post-LN sub-layers whose block, with them silenced, still passes its input on",
        ),
        "pre_ln_residual_count": (
            "sub-layers",
            "the same in the Pre-LN stack: a residual around each of the 2 per block",
        ),
        "pre_ln_has_final_norm": ("bool", "a LayerNorm runs after the last Pre-LN block"),
        "post_ln_has_final_norm": ("bool", "a LayerNorm runs after the last Post-LN block"),
        "post_ln_output_is_normalized": (
            "bool",
            "every token of the Post-LN output has mean about 0 and variance about 1",
        ),
        "pre_ln_residual_stream_variance": (
            "",
            "variance of the Pre-LN residual stream after the last block, before the final norm",
        ),
        "post_ln_output_variance": ("", "variance of the Post-LN stack's output"),
        "pre_ln_output_variance": (
            "",
            "variance of the Pre-LN stack's output, after its final norm",
        ),
        "pre_ln_stream_growth_per_layer": (
            "",
            "variance the Pre-LN stream gains per block: (stream − input) / n_layers",
        ),
        "input_variance": ("", "variance of the tokens fed in"),
        "torch_post_ln_norm_count": (
            "LayerNorms",
            "in nn.TransformerEncoder(norm_first=False) converted from the Post-LN stack",
        ),
        "torch_pre_ln_norm_count": (
            "LayerNorms",
            "in nn.TransformerEncoder(norm_first=True) converted from the Pre-LN stack",
        ),
        "post_ln_torch_max_abs_diff": (
            "",
            "largest difference between the Post-LN stack and torch's, same weights",
        ),
        "pre_ln_torch_max_abs_diff": (
            "",
            "largest difference between the Pre-LN stack and torch's, same weights",
        ),
        "post_ln_order_matches_torch": (
            "bool",
            "the order of operations traced in a Post-LN forward pass is torch's",
        ),
        "pre_ln_order_matches_torch": (
            "bool",
            "the order of operations traced in a Pre-LN forward pass is torch's",
        ),
        "n_layers": ("layers", "blocks in each stack"),
    },
    "residual_passthrough": {
        "residual_passthrough_error": (
            "",
            "largest |output − x| of an idle block with a residual and no norm (0)",
        ),
        "pre_ln_passthrough_error": ("", "largest |output − x| of an idle Pre-LN block (0)"),
        "post_ln_passthrough_error": (
            "",
            "largest |output − x| of an idle Post-LN block (not 0: it returns LN(x))",
        ),
        "plain_idle_output_norm": (
            "",
            "norm of an idle block's output without a residual (0: x is lost)",
        ),
        "input_norm": ("", "norm of the input x"),
        "post_ln_vs_layernorm_of_input": (
            "",
            "largest |idle Post-LN output − LayerNorm(x)| (0)",
        ),
        "idle_sublayer_output": (
            "",
            "largest |output| of the zeroed attention and feed-forward sub-layers (0)",
        ),
        "torch_pre_ln_passthrough_error": (
            "",
            "pre_ln_passthrough_error through nn.TransformerEncoderLayer",
        ),
        "torch_post_ln_passthrough_error": (
            "",
            "post_ln_passthrough_error through nn.TransformerEncoderLayer",
        ),
    },
    "rmsnorm": {
        "input_mean": ("", "mean of the shifted input (about offset)"),
        "rmsnorm_output_mean": (
            "",
            "mean over features of RMSNorm's output (unit gain): the shift survives",
        ),
        "layernorm_output_mean": ("", "mean over features of LayerNorm's output (about 0)"),
        "rmsnorm_output_rms": ("", "root mean square of RMSNorm's output (about 1)"),
        "layernorm_output_std": ("", "standard deviation of LayerNorm's output (about 1)"),
        "rmsnorm_shift_change": (
            "",
            "largest change in RMSNorm's output when the shift is removed",
        ),
        "layernorm_shift_change": (
            "",
            "largest change in LayerNorm's output when the shift is removed (about 0)",
        ),
        "rmsnorm_scale_change": (
            "",
            "largest change in RMSNorm's output when the input is multiplied by 10 (about 0)",
        ),
        "layernorm_scale_change": (
            "",
            "largest change in LayerNorm's output when the input is multiplied by 10 (about 0)",
        ),
        "rmsnorm_batch_change": (
            "",
            "largest change in RMSNorm's output for a token normalised alone instead of in its batch",
        ),
        "rmsnorm_params": ("parameters", "RMSNorm's: a gain per feature, d_model"),
        "layernorm_params": (
            "parameters",
            "LayerNorm's: a gain and a bias per feature, 2 × d_model",
        ),
        "torch_rmsnorm_max_abs_diff": (
            "",
            "largest difference from torch.nn.RMSNorm, same weights",
        ),
        "torch_layernorm_max_abs_diff": (
            "",
            "largest difference from torch.nn.LayerNorm, same weights",
        ),
        "matches_torch": ("bool", "both differences are within tolerance"),
        "tolerance": ("", "the largest difference taken as a match: 1e-5"),
    },
}
