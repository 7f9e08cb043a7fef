"""Finding a computation by what it computes: `quizapp compute --search WORDS`, and the
suggestions an unknown computation name gets. Pure Python (no torch), like the registry.

A computation is scored on the words of its name and title (weight 3), its description
(weight 2), and its values' names, units and meanings (weight 1). A search word matches a word
of the text with the same root, or whose root it begins ("param" finds "parameters",
"normalise" finds "normalisation" and "normalized"). Computations matching more of the search words come
first, then the higher score, then the registry's order. A few words also find what they
are counted in (SYNONYMS: "cost" finds FLOPs and bytes).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from typing import NamedTuple

from quizapp.experiments.spec import ArgumentError, ComputationSpec
from quizapp.experiments.value_docs import VALUE_DOCS

MAX_SEARCH_LENGTH = 200  # characters
MAX_SEARCH_WORDS = 12
MAX_WORD_LENGTH = 40
SHOWN_VALUES = 3  # matching values named per result

STOPWORDS = frozenset(
    re.findall(r"\w+", "a an and are as at be by do does for from how in is it its of on or per")
    + re.findall(r"\w+", "the to vs versus what when which with")
)
# A search word also finds these roots: what an instructor asks for in words ("cost",
# "memory") is counted by the computations in units (FLOPs, bytes).
SYNONYMS = {
    "cost": ("flop", "byte"),
    "compute": ("flop",),
    "memory": ("byte", "cach"),
    "size": ("byte", "param"),
}
_WORD = re.compile(r"[a-z0-9]+")
_NAME = 3
_DESCRIPTION = 2
_VALUE = 1


class Match(NamedTuple):
    spec: ComputationSpec
    matched: tuple[str, ...]  # the search words it matched, in the search's order
    score: int
    values: tuple[str, ...]  # its values whose name or meaning matched, at most SHOWN_VALUES


_SUFFIXES = ("isation", "ization", "ising", "izing", "ised", "ized", "ise", "ize", "ation")
_SUFFIXES += ("ing", "ed", "al", "ly", "er", "e")


def stem(word: str) -> str:
    """A word's root, for matching: heads -> head, entries -> entry, normalisation, normalised,
    normalize and norms -> norm, cached -> cach. Roots keep at least 4 letters."""
    if len(word) > 4 and word.endswith("ies"):
        word = word[:-3] + "y"
    elif len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    stripped = True
    while stripped:
        stripped = False
        for suffix in _SUFFIXES:
            if word.endswith(suffix) and len(word) - len(suffix) >= 4:
                word, stripped = word[: -len(suffix)], True
                break
    return word


def words(text: str) -> list[str]:
    """The roots of a text's words, snake_case names split into their words, and a norm's
    name (LayerNorm, BatchNorm, RMSNorm) also read as "norm"."""
    found = []
    for word in _WORD.findall(text.lower().replace("_", " ")):
        found.append(stem(word))
        if word.endswith("norm") and word != "norm":
            found.append("norm")
    return found


def matches(query: str, word: str) -> bool:
    """One search root against one root of a text: the same, or (4 letters or more) its start,
    so "param" finds "parameters" but "batchnorm" does not find "batch"."""
    return query == word or (len(query) >= 4 and word.startswith(query))


def search_words(text: str) -> list[str]:
    """The words to search for, stemmed, without repeats or stopwords. Raises ArgumentError."""
    if len(text) > MAX_SEARCH_LENGTH:
        raise ArgumentError(
            f"--search is {len(text)} characters long; at most {MAX_SEARCH_LENGTH} are allowed",
            "search",
        )
    found = _WORD.findall(text.lower().replace("_", " "))
    if len(found) > MAX_SEARCH_WORDS:
        raise ArgumentError(
            f"--search has {len(found)} words; at most {MAX_SEARCH_WORDS} are allowed", "search"
        )
    long = next((word for word in found if len(word) > MAX_WORD_LENGTH), None)
    if long is not None:
        raise ArgumentError(
            f"--search: a word of {len(long)} letters is too long (at most {MAX_WORD_LENGTH})",
            "search",
        )
    kept: list[str] = []
    for word in found:
        if word not in STOPWORDS and len(word) > 1 and stem(word) not in kept:
            kept.append(stem(word))
    if not kept:
        shown = " ".join(text.split())[:40]
        raise ArgumentError(
            f"--search needs a word to look for (letters or digits), not {shown!r}"
            if shown
            else "--search needs a word to look for, e.g. --search 'kv cache bytes'",
            "search",
        )
    return kept


def _index(spec: ComputationSpec) -> tuple[list[tuple[int, list[str]]], dict[str, list[str]]]:
    """(weighted word lists of the computation's own text, {value: its words})."""
    own = [
        (_NAME, words(spec.name) + words(spec.title)),
        (_DESCRIPTION, words(spec.description)),
    ]
    documented = VALUE_DOCS.get(spec.name, {})
    values = {
        value: words(value) + words(" ".join(documented.get(value, ("", ""))))
        for value in spec.values
    }
    return own, values


def _found(word: str, text: Sequence[str]) -> bool:
    """The search word, or one of its near-synonyms, among the roots of a text."""
    return any(matches(w, t) for w in (word, *SYNONYMS.get(word, ())) for t in text)


def rank(query: Sequence[str], computations: Sequence[ComputationSpec]) -> list[Match]:
    """Every computation matching at least one of the (stemmed) query words, best first."""
    found: list[tuple[int, Match]] = []
    for order, spec in enumerate(computations):
        own, values = _index(spec)
        matched: list[str] = []
        score = 0
        hit_count = dict.fromkeys(values, 0)
        for word in query:
            weight = max((w for w, text in own if _found(word, text)), default=0)
            for value, text in values.items():
                if _found(word, text):
                    hit_count[value] += 1
                    weight = max(weight, _VALUE)
            if weight:
                matched.append(word)
                score += weight
        if matched:
            # The values matching the most words first; then in the registry's order.
            hits = sorted((v for v in values if hit_count[v]), key=lambda v: -hit_count[v])
            shown = tuple(hits[:SHOWN_VALUES])
            found.append((order, Match(spec, tuple(matched), score, shown)))
    found.sort(key=lambda item: (-len(item[1].matched), -item[1].score, item[0]))
    return [match for _, match in found]


def search(text: str, computations: Sequence[ComputationSpec]) -> list[Match]:
    """`quizapp compute --search TEXT`: the matches, best first. Raises ArgumentError on bad
    input and when nothing matches."""
    query = search_words(text)
    found = rank(query, computations)
    if not found:
        raise ArgumentError(
            f"--search: no computation mentions {' or '.join(repr(w) for w in query)} "
            "(quizapp compute --list lists them all)",
            "search",
        )
    return found


def _best(name: str, computations: Sequence[ComputationSpec]) -> list[Match]:
    """The matches for a name read as words that match as many of them as the best does (one
    word of two, matched by half the registry, is no suggestion). Never raises."""
    try:
        found = rank(search_words(name), computations)
    except ArgumentError:
        return []
    return [m for m in found if found and len(m.matched) == len(found[0].matched)]


def suggest_by_meaning(
    name: str, computations: Sequence[ComputationSpec], most: int = 2
) -> list[str]:
    """Computations an unknown name may have meant, read as words (attention_cost ->
    head_parallelism): the best match, and any as good. Never raises."""
    best = _best(name, computations)
    return [m.spec.name for m in best if m.score == best[0].score][:most]


def unknown_name_hint(name: str, computations: Sequence[ComputationSpec]) -> str:
    """What `unknown computation NAME` adds: close by spelling (attention_heads for
    attention_cost), and by what the name's words say it computes (head_parallelism: the same
    search as `quizapp compute --search`)."""
    spelled = difflib.get_close_matches(name, [spec.name for spec in computations], n=1)
    meant = suggest_by_meaning(name, computations)
    if spelled and (not meant or spelled[0] in {m.spec.name for m in _best(name, computations)}):
        return f"; did you mean {spelled[0]!r}?"  # spelling and meaning agree
    if spelled:
        return (
            f"; did you mean {spelled[0]!r} (by spelling) or "
            f"{' or '.join(map(repr, meant))} (by what it computes)?"
        )
    if meant:
        return f"; did you mean {' or '.join(map(repr, meant))} (by what it computes)?"
    return " (see 'quizapp compute --list', or --search WORDS)"
