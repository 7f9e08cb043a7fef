"""Model builders: published parameter counts (on the meta device) and small forward passes."""

from dataclasses import replace

import pytest
import torch

from quizapp.reference import (
    PRESETS,
    BertModel,
    EncoderDecoderTransformer,
    GPT2Model,
    LlamaModel,
    ModelConfig,
    PositionOutOfRange,
    build_model,
    count_parameters,
    parameter_breakdown,
)

# Published totals: GPT-2 (Radford et al. 2019 / the released checkpoints as counted by Hugging
# Face), BERT (Devlin et al. 2019, bert-*-uncased incl. pooler), Llama 2 (Touvron et al. 2023).
PUBLISHED = {
    "gpt2-small": 124_439_808,
    "gpt2-medium": 354_823_168,
    "bert-base": 109_482_240,
    "bert-large": 335_141_888,
    "llama2-7b": 6_738_415_616,
    "llama2-13b": 13_015_864_320,
    # Also the sizes Hugging Face reports for these checkpoints.
    "gpt2-large": 774_030_080,
    "gpt2-xl": 1_557_611_200,
    "llama2-70b": 68_976_648_192,
    # Meta's and Mistral AI's model cards (Hugging Face's exact sizes): grouped-query attention
    # with 8 KV heads, SwiGLU d_ff 14,336 (8B, Mistral) and 28,672 (70B), untied heads.
    "llama3-8b": 8_030_261_248,
    "llama3-70b": 70_553_706_496,
    "mistral-7b": 7_241_732_096,
}


def _assert_all_meta(model: torch.nn.Module) -> None:
    tensors = [*model.parameters(), *model.buffers()]
    assert tensors
    assert all(t.is_meta for t in tensors)


@pytest.mark.parametrize(("name", "expected"), PUBLISHED.items())
def test_preset_matches_published_parameter_count(name: str, expected: int) -> None:
    model = build_model(name, device="meta")
    _assert_all_meta(model)  # shapes only: nothing was allocated
    assert count_parameters(model) == expected
    breakdown = parameter_breakdown(model)
    assert sum(breakdown.values()) == expected
    assert {"embeddings", "attention", "ffn", "norms"} <= breakdown.keys()


def test_transformer_base_is_about_65m() -> None:
    with torch.device("meta"):
        model = build_model("transformer-base")
    _assert_all_meta(model)
    # The paper rounds to 65M; with a 37000-token shared, tied vocabulary it is 63,082,496 here.
    assert 60_000_000 <= count_parameters(model) <= 66_000_000
    # Sinusoidal positions add nothing: the only embedding matrix is the shared vocabulary.
    cfg = PRESETS["transformer-base"]
    assert parameter_breakdown(model)["embeddings"] == cfg.vocab_size * cfg.d_model
    assert 200_000_000 <= count_parameters(build_model("transformer-big", device="meta")) <= 220e6


@pytest.mark.parametrize("name", ["transformer-base", "transformer-big"])
def test_transformer_layers_match_pytorchs_parameter_for_parameter(name: str) -> None:
    cfg = PRESETS[name]
    model = build_model(cfg, device="meta")
    assert isinstance(model, EncoderDecoderTransformer)
    with torch.device("meta"):
        args = (cfg.d_model, cfg.n_heads, cfg.d_ff)
        torch_encoder = torch.nn.TransformerEncoderLayer(*args)
        torch_decoder = torch.nn.TransformerDecoderLayer(*args)
    assert count_parameters(model.encoder[0]) == count_parameters(torch_encoder)
    assert count_parameters(model.decoder[0]) == count_parameters(torch_decoder)
    # Everything else is the one shared embedding (tied to the output projection).
    layers = 6 * (count_parameters(torch_encoder) + count_parameters(torch_decoder))
    assert count_parameters(model) == layers + cfg.vocab_size * cfg.d_model


def test_tied_weights_are_counted_once() -> None:
    cfg = PRESETS["gpt2-small"]
    tied = build_model(cfg, device="meta")
    assert isinstance(tied, GPT2Model)
    assert tied.lm_head.weight is tied.tok_emb.weight
    untied = build_model(replace(cfg, tie_embeddings=False), device="meta")
    extra = count_parameters(untied) - count_parameters(tied)
    assert extra == cfg.vocab_size * cfg.d_model
    assert parameter_breakdown(untied)["lm_head"] == extra
    assert "lm_head" not in parameter_breakdown(tied)


def test_llama_architecture() -> None:
    model = build_model("llama2-7b", device="meta")
    assert isinstance(model, LlamaModel)
    names = [name for name, _ in model.named_parameters()]
    assert not any(name.endswith("bias") for name in names)
    assert not any("pos" in name for name in names)  # RoPE has no parameters
    assert model.lm_head.weight is not model.tok_emb.weight
    ffn = model.blocks[0].ffn
    assert ffn.gate_proj.weight.shape == ffn.up_proj.weight.shape == (11008, 4096)
    # Grouped-query attention in 70B: 8 key/value heads of 128 dims.
    attn_70b = build_model("llama2-70b", device="meta").blocks[0].attn
    assert attn_70b.k_proj.weight.shape == (8 * 128, 8192)


def test_bert_mlm_head_is_optional_and_tied() -> None:
    cfg = PRESETS["bert-base"]
    with_head = build_model(replace(cfg, mlm_head=True), device="meta")
    assert isinstance(with_head, BertModel)
    assert with_head.mlm_head is not None
    assert with_head.mlm_head.decoder.weight is with_head.tok_emb.weight
    extra = count_parameters(with_head) - PUBLISHED["bert-base"]
    d, vocab = cfg.d_model, cfg.vocab_size
    assert extra == (d * d + d) + 2 * d + vocab  # dense, LayerNorm, decoder bias only
    assert parameter_breakdown(with_head)["mlm_head"] == extra


def test_bert_without_bias_has_no_linear_bias_anywhere() -> None:
    cfg = replace(PRESETS["bert-base"], bias=False, mlm_head=True)
    model = build_model(cfg, device="meta")
    linears = [m for m in model.modules() if isinstance(m, torch.nn.Linear)]
    assert len(linears) == 12 * 6 + 1 + 2  # per block Q, K, V, O, up, down; pooler; MLM head
    assert all(layer.bias is None for layer in linears)
    d = cfg.d_model
    # The MLM head keeps only its dense weight and its LayerNorm (the decoder is tied).
    assert parameter_breakdown(model)["mlm_head"] == d * d + 2 * d


def test_config_validation() -> None:
    with pytest.raises(ValueError, match="family"):
        ModelConfig("gpt3", 10, 8, 1, 2, 16)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="divisible"):
        ModelConfig("gpt2", 10, 10, 1, 3, 16)
    with pytest.raises(KeyError, match="unknown preset"):
        build_model("gpt5")


# --- small forward passes -------------------------------------------------------------------

TINY = {"vocab_size": 50, "d_model": 16, "n_layers": 2, "n_heads": 4, "d_ff": 32}


def _tiny(family: str, **overrides: object) -> torch.nn.Module:
    torch.manual_seed(0)
    cfg = replace(PRESETS[family], **TINY, **overrides)
    return build_model(cfg).double().eval()


def _ids(seq: int = 8) -> torch.Tensor:
    return torch.randint(
        0, TINY["vocab_size"], (2, seq), generator=torch.Generator().manual_seed(1)
    )


def _changed_last(ids: torch.Tensor) -> torch.Tensor:
    changed = ids.clone()
    changed[:, -1] = (changed[:, -1] + 1) % TINY["vocab_size"]
    return changed


@pytest.mark.parametrize("family", ["gpt2-small", "llama2-7b"])
def test_decoder_only_models_are_causal(family: str) -> None:
    model = _tiny(family, n_kv_heads=2) if family.startswith("llama") else _tiny(family)
    ids = _ids()
    logits = model(ids)
    assert logits.shape == (2, 8, TINY["vocab_size"])
    later = model(_changed_last(ids))
    torch.testing.assert_close(later[:, :-1], logits[:, :-1], atol=1e-12, rtol=0)
    assert not torch.allclose(later[:, -1], logits[:, -1])


def test_gpt2_context_longer_than_position_table_fails_clearly() -> None:
    model = _tiny("gpt2-small", max_positions=8)
    model(_ids(8))
    with pytest.raises(PositionOutOfRange, match="position 8"):
        model(_ids(9))


def test_llama_logits_depend_only_on_relative_positions() -> None:
    model = _tiny("llama2-7b")
    ids = _ids()
    shifted = model(ids, positions=torch.arange(8) + 1000)
    torch.testing.assert_close(shifted, model(ids), atol=1e-9, rtol=0)


def test_bert_is_bidirectional_and_respects_padding() -> None:
    model = _tiny("bert-base", mlm_head=True)
    ids = _ids()
    out = model(ids)
    assert out.hidden.shape == (2, 8, 16)
    assert out.pooled.shape == (2, 16)
    assert out.mlm_logits is not None and out.mlm_logits.shape == (2, 8, TINY["vocab_size"])
    # Every position sees the last token.
    assert not torch.allclose(model(_changed_last(ids)).hidden[:, 0], out.hidden[:, 0])
    # ... unless it is padding.
    pad = torch.zeros(2, 8, dtype=torch.bool)
    pad[:, -1] = True
    masked = model(ids, key_padding_mask=pad).hidden
    masked_changed = model(_changed_last(ids), key_padding_mask=pad).hidden
    torch.testing.assert_close(masked_changed[:, :-1], masked[:, :-1], atol=1e-12, rtol=0)
    # Segment embeddings matter.
    assert not torch.allclose(model(ids, token_type_ids=torch.ones_like(ids)).hidden, out.hidden)


def test_encoder_decoder_shapes_causality_and_source_padding() -> None:
    model = _tiny("transformer-base")
    assert isinstance(model, EncoderDecoderTransformer)
    src, tgt = _ids(7), _ids(5)
    logits = model(src, tgt)
    assert logits.shape == (2, 5, TINY["vocab_size"])
    later = model(src, _changed_last(tgt))
    torch.testing.assert_close(later[:, :-1], logits[:, :-1], atol=1e-12, rtol=0)
    # Every target position reads the whole source ...
    assert not torch.allclose(model(_changed_last(src), tgt)[:, 0], logits[:, 0])
    # ... except source padding.
    pad = torch.zeros(2, 7, dtype=torch.bool)
    pad[:, -1] = True
    masked = model(src, tgt, src_padding_mask=pad)
    masked_changed = model(_changed_last(src), tgt, src_padding_mask=pad)
    torch.testing.assert_close(masked_changed, masked, atol=1e-12, rtol=0)
