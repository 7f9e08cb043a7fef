"""The attention computations: head costs, head widths, and the two specialist heads."""

from __future__ import annotations

import json

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from quizapp.experiments.context import Context
from quizapp.experiments.lab import attention
from quizapp.experiments.result import Result
from quizapp.experiments.runner import run
from quizapp.experiments.spec import ArgumentError


def cpu() -> Context:
    return Context(device=torch.device("cpu"))


def both(name: str, **args: object) -> list[Result]:
    """The same computation through the runner and called directly."""
    spec_args = dict(args)
    direct = getattr(attention, name)(cpu(), **args)
    return [run(name, spec_args, device="cpu"), direct]


# --- mha_params ---------------------------------------------------------------------------


def test_mha_params_lesson_numbers() -> None:
    # The lesson's arithmetic: 4 projections of 512 × 512 = 4 · 262,144 = 1,048,576.
    for result in both("mha_params", d_model=512, n_heads=8, bias=False):
        v = result.values
        assert v["head_dim"] == 512 // 8 == 64
        assert v["params_single_head"] == v["params_multi_head"] == 1_048_576
        assert v["torch_nn_multihead"] == v["params_separate_heads"] == 1_048_576
        assert v["params_per_head_qkv"] * 8 == 3 * 512 * 512
        assert "1,048,576" in result.summary
        json.dumps(result.as_json())


@settings(max_examples=40, deadline=None)
@given(n_heads=st.integers(1, 32), head_dim=st.integers(1, 48), bias=st.booleans())
def test_mha_params_counts_agree_for_any_split(n_heads: int, head_dim: int, bias: bool) -> None:
    d = n_heads * head_dim
    v = attention.mha_params(cpu(), d_model=d, n_heads=n_heads, bias=bias).values
    expected = 4 * d * d + (4 * d if bias else 0)  # Q, K, V, O: d × d each (+ d biases)
    assert v["params_single_head"] == v["params_multi_head"] == expected
    assert v["torch_nn_multihead"] == v["params_separate_heads"] == expected
    assert v["head_dim"] == head_dim


def test_mha_params_refuses_an_uneven_split() -> None:
    with pytest.raises(ArgumentError) as caught:
        run("mha_params", {"d_model": 10, "n_heads": 3})
    assert caught.value.argument == "n_heads"
    with pytest.raises(ArgumentError) as caught:
        attention.mha_params(cpu(), d_model=10, n_heads=3, bias=False)
    assert caught.value.argument == "n_heads"


# --- head_split ---------------------------------------------------------------------------


def test_head_split_lesson_numbers() -> None:
    for result in both("head_split", d_model=4096, n_heads=32):
        assert result.values["head_dim"] == 4096 // 32 == 128
        assert result.values["params_multi_head"] == 4 * 4096 * 4096
        assert result.values["split_roundtrip_exact"] is True
    assert run("head_split", {"d_model": 512, "n_heads": 16}).values["head_dim"] == 32


@pytest.mark.parametrize(("d_model", "n_heads"), [(4096, 32), (512, 4), (64, 64)])
def test_every_head_weighs_every_token_whatever_its_width(d_model: int, n_heads: int) -> None:
    """Width is not reach: each head's last query gives weight to all the earlier tokens."""
    reached = run("head_split", {"d_model": d_model, "n_heads": n_heads}).values
    assert reached["keys_attended_per_head"] == attention.REACH_TOKENS > d_model // n_heads


def _rows(result: Result) -> list[dict[str, object]]:
    assert result.table is not None
    return [dict(zip(result.table.columns, row, strict=True)) for row in result.table.rows]


@settings(max_examples=40, deadline=None)
@given(n_heads=st.integers(1, 64), head_dim=st.integers(1, 96))
def test_head_split_table_keeps_params_constant(n_heads: int, head_dim: int) -> None:
    d = n_heads * head_dim
    result = attention.head_split(cpu(), d_model=d, n_heads=n_heads)
    rows = _rows(result)
    heads = [r["heads"] for r in rows]
    assert n_heads in heads and 1 in heads
    assert heads == sorted(set(heads))
    for r in rows:
        assert r["head_dim"] * r["heads"] == d
        assert r["attention params"] == result.values["params_multi_head"] == 4 * d * d
        assert r["Q/K/V params per head"] * r["heads"] == 3 * d * d
        assert ("too narrow" in r["note"]) == (r["head_dim"] <= 8)
        assert ("chosen" in r["note"]) == (r["heads"] == n_heads)
    assert result.values["params_constant"] is True


def test_head_split_narrow_heads_confuse_unrelated_vectors() -> None:
    # Measured, not stored: random unrelated vectors look more alike the narrower the head.
    rows = _rows(run("head_split", {"d_model": 4096, "n_heads": 32}))
    by_width = {r["head_dim"]: r["typical |cos| of unrelated vectors"] for r in rows}
    assert by_width[2] > by_width[8] > by_width[128] > 0
    assert by_width[2] > 0.5 > 0.1 > by_width[128]  # 2/π ≈ 0.64 versus √(2/(128π)) ≈ 0.07
    assert run("head_split", {}).values["max_heads_wide_enough"] == 256  # 4096/256 = 16 > 8


# --- attention_heads ----------------------------------------------------------------------


def test_attention_heads_specialists_are_the_row_maxima() -> None:
    tokens, _, _, weights = attention._specialist_heads(cpu())
    assert weights.shape == (2, len(tokens), len(tokens))
    torch.testing.assert_close(weights.sum(-1), torch.ones(2, len(tokens)))
    it, animal = tokens.index("it"), tokens.index("animal")

    for result in both("attention_heads"):
        v = result.values
        # Head 1: the row of "it" peaks at "animal", and that peak is the reported weight.
        assert int(weights[0, it].argmax()) == animal
        assert v["coreference_weight"] == pytest.approx(float(weights[0, it].max()), abs=1e-4)
        assert v["coreference_target"] == "animal"
        assert v["coreference_weight"] > 0.5 > v["coreference_runner_up"]
        # Head 2: every row peaks at its neighbour (the previous token; for the first, the next).
        peaks = []
        for i in range(len(tokens)):
            neighbour = i - 1 if i > 0 else 1
            assert int(weights[1, i].argmax()) == neighbour, tokens[i]
            peaks.append(float(weights[1, i].max()))
        assert v["adjacency_weight"] == pytest.approx(sum(peaks) / len(peaks), abs=1e-4)
        assert v["adjacency_min_weight"] == pytest.approx(min(peaks), abs=1e-4)
        assert v["adjacency_weight"] > 0.5
        assert v["adjacency_rows_peaking_at_neighbour"] == len(tokens)
        # The coreference head moved the animal's "animate" feature into "it".
        assert v["it_animate_after"] > 0.5 > v["it_animate_before"]


def test_attention_heads_maps_are_tables_of_the_real_weights() -> None:
    result = run("attention_heads", device="cpu")
    tokens, _, _, weights = attention._specialist_heads(cpu())
    assert len(result.extra_tables) == 2
    for head, table in enumerate(result.extra_tables):
        assert len(table.columns) == len(tokens) + 1
        assert len(set(table.columns)) == len(table.columns)  # "the" twice, labelled apart
        for i, row in enumerate(table.rows):
            assert row[1:] == tuple(round(float(w), 2) for w in weights[head, i])
    it_row = next(r for r in result.extra_tables[0].rows if r[0] == "it")
    assert max(it_row[1:]) == round(result.values["coreference_weight"], 2)
    assert result.table is not None
    assert "animal" in result.summary and "it" in result.summary
    json.dumps(result.as_json())
