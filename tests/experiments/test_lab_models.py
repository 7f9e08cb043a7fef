"""model_params: published totals, family/size combinations, overrides, and argument errors."""

from __future__ import annotations

import json
import math

import pytest
import torch

from quizapp.experiments.context import Context
from quizapp.experiments.lab import models
from quizapp.experiments.registry import MODEL_PRESETS, REGISTRY
from quizapp.experiments.runner import run
from quizapp.experiments.spec import ArgumentError
from quizapp.reference import PRESETS

# Published totals: GPT-2 small (the released checkpoint), Llama 2 7B (Touvron et al. 2023),
# bert-base-uncased including its pooler (Devlin et al. 2019).
PUBLISHED = {
    "gpt2-small": 124_439_808,
    "llama2-7b": 6_738_415_616,
    "bert-base": 109_482_240,
    # Llama 3 8B and Mistral 7B v0.1: the model cards' exact sizes (grouped-query attention).
    "llama3-8b": 8_030_261_248,
    "mistral-7b": 7_241_732_096,
}


def count(**args: object) -> dict[str, object]:
    return run("model_params", args, device="cpu").values


def direct(**args: object) -> dict[str, object]:
    return models.model_params(Context(device=torch.device("cpu")), **args).values


def test_registry_lists_every_reference_preset() -> None:
    assert tuple(PRESETS) == MODEL_PRESETS


@pytest.mark.parametrize(("preset", "expected"), PUBLISHED.items())
def test_published_totals(preset: str, expected: int) -> None:
    for values in (count(preset=preset), direct(preset=preset)):
        assert values["total"] == expected
        components = [k for k in ("embeddings", "attention", "ffn", "norms") if k in values]
        extras = [k for k in ("lm_head", "pooler", "mlm_head") if k in values]
        assert len(components) == 4
        assert sum(values[k] for k in components + extras) == expected


def test_default_is_gpt2_small_and_tables_add_up() -> None:
    result = run("model_params")
    assert result.values["total"] == PUBLISHED["gpt2-small"]
    assert result.values["head_dim"] == 768 // 12 == 64
    assert result.table is not None
    rows = {row[0]: row for row in result.table.rows}
    assert rows["total"][1] == PUBLISHED["gpt2-small"]
    assert sum(row[1] for name, row in rows.items() if name != "total") == rows["total"][1]
    assert sum(row[2] for name, row in rows.items() if name != "total") == pytest.approx(
        100, abs=0.3
    )
    assert "124,439,808" in result.summary
    json.dumps(result.as_json())


@pytest.mark.parametrize(("family", "preset"), models.FAMILY_DEFAULTS.items())
def test_family_alone_starts_from_its_default_sizes(family: str, preset: str) -> None:
    values = count(family=family)
    assert values["total"] == count(preset=preset)["total"]
    assert preset in run("model_params", {"family": family}).summary


def _llama_formula(d: int, layers: int, heads: int, kv_heads: int, vocab: int = 32000) -> int:
    """Llama written out by hand: untied embeddings and head, no biases, RMSNorm (one vector)."""
    d_ff = 256 * math.ceil((8 * d // 3) / 256)
    kv_width = d // heads * kv_heads
    attention = 2 * d * d + 2 * d * kv_width  # Q and O full width; K and V only kv_heads wide
    ffn = 3 * d * d_ff  # gate, up, down
    return 2 * vocab * d + layers * (attention + ffn + 2 * d) + d


def _gpt2_formula(d: int, layers: int, vocab: int = 50257, positions: int = 1024) -> int:
    """GPT-2 by hand: tied head, biases everywhere, LayerNorm (weight and bias), d_ff = 4d."""
    attention = 4 * d * d + 4 * d
    ffn = 2 * d * 4 * d + 4 * d + d
    return vocab * d + positions * d + layers * (attention + ffn + 2 * 2 * d) + 2 * d


def _bert_formula(
    d: int, layers: int, vocab: int = 30522, positions: int = 512, bias: bool = True
) -> int:
    """BERT by hand: token, position and 2 segment tables + LayerNorm, Post-LN blocks, pooler.
    Without biases every linear layer loses its own (the pooler's too); LayerNorms keep theirs."""
    linear_bias = int(bias)
    attention = 4 * d * d + linear_bias * 4 * d  # Q, K, V, O
    ffn = 8 * d * d + linear_bias * (4 * d + d)  # up to 4d, down to d
    block = attention + ffn + 2 * 2 * d
    pooler = d * d + linear_bias * d
    return (vocab + positions + 2) * d + 2 * d + layers * block + pooler


def test_family_and_size_match_independent_formulas() -> None:
    llama = count(family="llama", d_model=1024, n_layers=4, n_heads=8)
    assert llama["total"] == _llama_formula(1024, 4, 8, 8)
    assert llama["d_ff"] == 2816  # 8/3 · 1024 = 2730.7, up to a multiple of 256
    gqa = count(family="llama", d_model=1024, n_layers=4, n_heads=8, n_kv_heads=2)
    assert gqa["total"] == _llama_formula(1024, 4, 8, 2)
    assert count(family="gpt2", d_model=256, n_layers=3, n_heads=4)["total"] == _gpt2_formula(
        256, 3
    )
    assert count(family="bert", d_model=128, n_layers=2, n_heads=2)["total"] == _bert_formula(
        128, 2
    )
    # The formulas also reproduce the published presets, so they are checks, not copies.
    assert _llama_formula(4096, 32, 32, 32) == PUBLISHED["llama2-7b"]
    assert _gpt2_formula(768, 12) == PUBLISHED["gpt2-small"]
    assert _bert_formula(768, 12) == PUBLISHED["bert-base"]


def test_bias_false_removes_every_linear_bias_from_bert_the_pooler_included() -> None:
    without = count(preset="bert-base", bias=False)
    # bert-base-uncased's 109,482,240 less each linear layer's bias: 9·768 per layer (Q, K, V,
    # O, the FFN's 3,072 up and 768 down) and the pooler's 768. The LayerNorms keep theirs.
    assert PUBLISHED["bert-base"] - without["total"] == 12 * 9 * 768 + 768
    assert without["total"] == _bert_formula(768, 12, bias=False) == 109_398_528
    assert without["pooler"] == 768 * 768
    assert count(family="bert", d_model=128, n_layers=2, n_heads=2, bias=False)[
        "total"
    ] == _bert_formula(128, 2, bias=False)


@pytest.mark.parametrize("preset", models.PAPER_TOTALS)
def test_transformer_presets_say_why_they_miss_the_papers_figures(preset: str) -> None:
    paper = models.PAPER_TOTALS[preset]
    result = run("model_params", {"preset": preset})
    total = result.values["total"]
    assert abs(total - paper) > 0.5e6, "the count really is off the paper's rounded figure"
    notes = REGISTRY["model_params"].notes
    assert f"{total:,}" in notes and f"{paper // 1_000_000}M" in notes  # the docs say it too
    assert f"Why not the paper's {paper // 1_000_000}M?" in result.summary
    # The vocabulary the summary names does bring this model to the paper's figure...
    needed = models.vocabulary_for(paper, preset)
    assert f"about {needed:,} tokens" in result.summary and f"{needed:,}" in notes
    assert abs(count(preset=preset, vocab_size=needed)["total"] - paper) < 0.5e6
    # ...and the other preset's does not: no one vocabulary gives both figures.
    (other,) = (name for name in models.PAPER_TOTALS if name != preset)
    other_needed = models.vocabulary_for(models.PAPER_TOTALS[other], other)
    assert abs(count(preset=preset, vocab_size=other_needed)["total"] - paper) > 0.5e6
    # A resized model is not the paper's: the note is left out.
    assert "Why not" not in run("model_params", {"preset": preset, "n_layers": 2}).summary


def test_llama_d_ff_rule_reproduces_the_published_widths() -> None:
    for name in ("llama2-7b", "llama2-13b"):
        cfg = PRESETS[name]
        assert models.default_d_ff("llama", cfg.d_model) == cfg.d_ff
    assert models.default_d_ff("gpt2", 768) == 4 * 768


def test_overrides_move_the_count_the_expected_way() -> None:
    base = count(preset="llama2-7b")
    assert count(preset="llama2-7b", n_layers=33)["total"] > base["total"]
    assert count(preset="llama2-7b", n_layers=31)["total"] < base["total"]
    assert count(preset="llama2-7b", n_kv_heads=8)["attention"] < base["attention"]
    assert count(preset="llama2-7b", bias=True)["total"] > base["total"]
    tied = count(preset="llama2-7b", tie_embeddings=True)
    assert base["total"] - tied["total"] == 32000 * 4096  # the untied head is gone
    assert "lm_head" not in tied
    assert count(preset="llama2-7b", vocab_size=64000)["embeddings"] == 2 * base["embeddings"]
    # RoPE has no parameters: a longer context costs llama nothing, GPT-2 a table row per position.
    assert count(preset="llama2-7b", max_positions=8192)["total"] == base["total"]
    gpt2 = count(preset="gpt2-small")["total"]
    assert count(preset="gpt2-small", max_positions=2048)["total"] - gpt2 == 1024 * 768
    wider = count(preset="gpt2-small", d_model=1024, n_heads=16)
    assert wider["d_ff"] == 4 * 1024 and wider["total"] > gpt2
    assert count(preset="gpt2-small", d_ff=1024)["ffn"] < count(preset="gpt2-small")["ffn"]


@pytest.mark.parametrize(
    ("args", "culprit"),
    [
        ({"d_model": 1000}, "d_model"),  # 1000 / 12 heads
        ({"d_model": 1000, "n_heads": 12}, "n_heads"),
        ({"n_heads": 7}, "n_heads"),  # 768 / 7
        ({"family": "llama", "n_kv_heads": 3}, "n_kv_heads"),  # 32 / 3
        ({"family": "llama", "n_kv_heads": 64}, "n_kv_heads"),
        ({"preset": "llama2-70b", "n_heads": 4}, "n_heads"),  # its 8 kv heads do not divide 4
        ({"preset": "gpt2-small", "n_kv_heads": 4}, "n_kv_heads"),  # no GQA in GPT-2
        ({"family": "llama", "d_model": 96, "n_heads": 32}, "n_heads"),  # head_dim 3: odd for RoPE
    ],
)
def test_bad_combinations_name_the_argument(args: dict[str, object], culprit: str) -> None:
    with pytest.raises(ArgumentError) as caught:
        run("model_params", args)
    assert caught.value.argument == culprit
    assert culprit in str(caught.value)
    with pytest.raises(ArgumentError) as caught:
        direct(**args)
    assert caught.value.argument == culprit


def test_summary_reports_derived_and_inert_settings() -> None:
    llama = run("model_params", {"family": "llama", "d_model": 1024, "n_heads": 8}).summary
    assert "llama2-7b" in llama and "2,816" in llama
    assert "changes nothing" in run("model_params", {"family": "llama", "max_positions": 9}).summary
    assert "changes nothing" not in run("model_params", {"max_positions": 9}).summary
