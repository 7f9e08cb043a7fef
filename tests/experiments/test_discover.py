"""Finding a computation by what it computes (quizapp/experiments/discover.py): the search
behind `quizapp compute --search` and behind the suggestions for an unknown name."""

from __future__ import annotations

import pytest

from quizapp.experiments.discover import (
    MAX_SEARCH_LENGTH,
    MAX_SEARCH_WORDS,
    MAX_WORD_LENGTH,
    matches,
    search,
    stem,
    suggest_by_meaning,
)
from quizapp.experiments.registry import COMPUTATIONS, get_spec
from quizapp.experiments.spec import ArgumentError


def names(text: str) -> list[str]:
    return [match.spec.name for match in search(text, COMPUTATIONS)]


@pytest.mark.parametrize(
    ("words", "first"),
    [
        ("attention cost", "head_parallelism"),
        ("kv cache bytes", "kv_cache"),
        ("memory", "kv_cache"),
        ("flops", "head_parallelism"),
        ("batchnorm", "norm_comparison"),
        ("gradient depth", "gradient_flow"),
        ("position past training length", "positional_extrapolation"),
        ("scaled rope", "rope_scaling"),
        ("grouped query", "gqa"),
        ("slope", "alibi"),
        ("sliding window receptive field", "sliding_window"),
        ("unbiased variance", "layernorm_vector"),
        ("token without a row", "learned_table_coverage"),
    ],
)
def test_the_computation_that_computes_it_comes_first(words: str, first: str) -> None:
    assert names(words)[0] == first


def test_more_words_matched_ranks_higher_and_matching_values_are_named() -> None:
    found = search("attention cost", COMPUTATIONS)
    top = found[0]
    assert top.spec.name == "head_parallelism" and len(top.matched) == 2
    assert all(len(m.matched) <= 2 for m in found)
    assert "attention_flops_1_head" in top.values  # a value matching both words is shown
    partial = [m for m in found if len(m.matched) == 1]
    assert partial and found.index(partial[0]) > 0


def test_words_match_by_root_not_by_any_prefix() -> None:
    assert stem("normalisation") == stem("normalized") == stem("norms") == "norm"
    assert stem("heads") == "head" and stem("entries") == "entry"
    assert matches("param", stem("parameters"))
    assert not matches("batchnorm", "batch")  # kv_cache's "batch" is no BatchNorm
    assert "kv_cache" not in names("batchnorm")
    assert names("normalise")[:1] == names("normalization")[:1]


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "--search needs a word"),
        ("   ", "--search needs a word"),
        ("the of a", "--search needs a word"),
        ("x" * (MAX_WORD_LENGTH + 1), f"at most {MAX_WORD_LENGTH}"),
        ("w " * (MAX_SEARCH_WORDS + 1), f"at most {MAX_SEARCH_WORDS} are allowed"),
        ("y" * (MAX_SEARCH_LENGTH + 1), f"at most {MAX_SEARCH_LENGTH} are allowed"),
        ("zebra quokka", "no computation mentions 'zebra' or 'quokka'"),
    ],
)
def test_bad_or_fruitless_searches_raise_naming_the_argument(text: str, fragment: str) -> None:
    with pytest.raises(ArgumentError) as raised:
        search(text, COMPUTATIONS)
    assert fragment in str(raised.value) and raised.value.argument == "search"
    assert "\n" not in str(raised.value)


def test_an_unknown_name_is_suggested_by_spelling_and_by_meaning() -> None:
    assert suggest_by_meaning("attention_cost", COMPUTATIONS) == ["head_parallelism"]
    with pytest.raises(ArgumentError) as raised:
        get_spec("attention_cost")
    message = str(raised.value)
    assert "'attention_heads' (by spelling)" in message
    assert "'head_parallelism' (by what it computes)" in message


def test_a_misspelling_gets_one_suggestion_when_meaning_agrees() -> None:
    with pytest.raises(ArgumentError, match=r"did you mean 'head_parallelism'\?$"):
        get_spec("head_paralelism")
    with pytest.raises(ArgumentError, match=r"did you mean 'kv_cache' \(by what it computes\)"):
        get_spec("kv_size")
    with pytest.raises(ArgumentError, match=r"'nope' \(see 'quizapp compute --list'"):
        get_spec("nope")
    assert suggest_by_meaning("x" * 500, COMPUTATIONS) == []  # never raises
