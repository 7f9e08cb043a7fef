"""Near-duplicate stems: the word normalization, the similarity, and the fast search."""

from __future__ import annotations

import functools
import random

from quizapp.authoring.stem_similarity import THRESHOLD, near_duplicates, similarity, words


def test_words_drop_case_and_punctuation_but_keep_numbers_whole() -> None:
    assert words("With d_model = 4,096 and 0.5 **dropout**, what's `QKᵀ`?") == (
        "with",
        "d_model",
        "4,096",
        "and",
        "0.5",
        "dropout",
        "what",
        "s",
        "qkᵀ",
    )


def lcs_ratio(a: tuple[str, ...], b: tuple[str, ...]) -> float:
    @functools.cache
    def lcs(i: int, j: int) -> int:
        if i == len(a) or j == len(b):
            return 0
        return lcs(i + 1, j + 1) + 1 if a[i] == b[j] else max(lcs(i + 1, j), lcs(i, j + 1))

    return 1.0 if not a and not b else 2 * lcs(0, 0) / (len(a) + len(b))


def test_similarity_is_the_longest_common_subsequence_ratio() -> None:
    rng = random.Random(3)
    for _ in range(500):
        a = tuple(rng.choice("abcd") for _ in range(rng.randint(0, 9)))
        b = tuple(rng.choice("abcd") for _ in range(rng.randint(0, 9)))
        assert similarity(a, b) == lcs_ratio(a, b), (a, b)


def test_one_word_changed_in_a_long_stem_is_a_near_duplicate() -> None:
    stems = [
        "Which formula is Post-LN, the placement used by the original Transformer?",
        "How many parameters does one attention head have?",
        "Which formula is Pre-LN, the placement used by the original Transformer?",
    ]
    assert near_duplicates(stems) == {2: 0}


def test_case_punctuation_and_spacing_do_not_hide_a_repeat() -> None:
    stems = ["Where does RoPE act?", "where  does *RoPE* act"]
    assert near_duplicates(stems) == {1: 0}


def test_numbers_are_kept_so_different_arithmetic_is_not_a_repeat() -> None:
    stems = ["What is 512 / 8?", "What is 512 / 4?", "What is 512 / 8 ?"]
    assert near_duplicates(stems) == {2: 0}


def test_a_shared_template_with_a_different_subject_is_not_a_repeat() -> None:
    stems = ["Select every true statement about RoPE.", "Select every true statement about Pre-LN."]
    assert near_duplicates(stems) == {}


def test_the_fast_search_finds_what_comparing_every_pair_finds() -> None:
    rng = random.Random(11)
    vocabulary = [f"w{i}" for i in range(30)]
    bases = [[rng.choice(vocabulary) for _ in range(rng.randint(8, 20))] for _ in range(25)]
    stems = []
    for _ in range(300):
        stem = list(rng.choice(bases))
        for _ in range(rng.choice((0, 1, 1, 2, 4))):  # a few edits away from a base
            at = rng.randrange(len(stem))
            if rng.random() < 0.5:
                stem[at] = rng.choice(vocabulary)
            else:
                stem.insert(at, rng.choice(vocabulary))
        stems.append(" ".join(stem))
    found = near_duplicates(stems)
    parsed = [words(s) for s in stems]
    expected = {
        later
        for later in range(len(stems))
        if any(similarity(parsed[e], parsed[later]) >= THRESHOLD for e in range(later))
    }
    assert set(found) == expected
    assert expected  # the generated stems do contain near-duplicates
    for later, earlier in found.items():
        assert earlier < later
        assert similarity(parsed[earlier], parsed[later]) >= THRESHOLD
