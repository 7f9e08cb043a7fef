"""Find question stems that nearly repeat an earlier one, fast enough for 10,000 questions.

Stems are compared as word sequences: case and punctuation are dropped, numbers are kept
whole ("0.5", "1,024"), so "512 / 8" and "512 / 4" differ. Two stems are near-duplicates
when difflib's ratio over their words is at least `THRESHOLD`.

Comparing every pair would be quadratic, so candidates come from a prefix filter: a ratio of
0.9 needs the two word multisets to share at least 0.9 / 1.1 of the smaller's words, and two
such multisets must share one of each other's rarest few words. Each stem looks only at the
earlier stems that share one of its rarest words (at most `CANDIDATES_PER_WORD` per word,
the most recent first), and checks them with cheap bounds before difflib.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import chain

THRESHOLD = 0.9
# Dice >= THRESHOLD (an upper bound of the ratio) means the shared words are at least this
# fraction of the larger multiset: 2s / (a + b) >= t with s <= min(a, b).
_MIN_SHARE = THRESHOLD / (2 - THRESHOLD)
# A bound on the work per stem when many earlier stems share a word (a generated bank); real
# near-duplicates share rarer words than that, and are found first.
CANDIDATES_PER_WORD = 32
MAX_WORDS = 150  # a stem is rarely over 60 words

_WORD = re.compile(r"\d+(?:[.,]\d+)*|\w+")


def words(text: str) -> tuple[str, ...]:
    """A stem as the words it is compared by: lowercase, punctuation gone, numbers whole.

    Only the first `MAX_WORDS` count, which bounds the work on a hostile bank.
    """
    return tuple(_WORD.findall(text.casefold())[:MAX_WORDS])


def _tokens(sequence: tuple[str, ...]) -> frozenset[str]:
    """The words as a multiset: a repeated word's later copies become "word#2", "word#3"..."""
    tokens = frozenset(sequence)
    if len(tokens) == len(sequence):
        return tokens
    seen: Counter[str] = Counter()
    numbered = []
    for word in sequence:
        seen[word] += 1
        numbered.append(word if seen[word] == 1 else f"{word}#{seen[word]}")
    return frozenset(numbered)


@dataclass(frozen=True)
class _Stem:
    index: int
    words: tuple[str, ...]
    tokens: frozenset[str]


# word -> size of the stem -> position of the word in that stem's prefix -> the stems, oldest
# first. A stem only looks at sizes and positions that could still reach the threshold.
Postings = dict[str, dict[int, list[list[_Stem]]]]


def near_duplicates(
    stems: Sequence[str], skip: Callable[[int, int], bool] | None = None
) -> dict[int, int]:
    """{later index: earlier index} for each stem that nearly repeats an earlier one.

    `skip(earlier, later)` is true for a pair not to report (one marked as alike on purpose):
    the later stem is then matched against the other earlier ones."""
    prepared = []
    for index, stem in enumerate(stems):
        sequence = words(stem)
        prepared.append(_Stem(index, sequence, _tokens(sequence)))
    frequency = Counter(chain.from_iterable(stem.tokens for stem in prepared))

    # Rarest first (ties broken by the word itself, so every stem uses the same order).
    rank = {token: i for i, token in enumerate(sorted(frequency, key=lambda t: (frequency[t], t)))}
    found: dict[int, int] = {}
    exact: dict[tuple[str, ...], int] = {}
    postings: Postings = {}
    for stem in prepared:
        size = len(stem.tokens)
        if size == 0:
            continue
        earlier = exact.setdefault(stem.words, stem.index)
        if earlier != stem.index and not (skip and skip(earlier, stem.index)):
            found[stem.index] = earlier
            continue
        ordered = sorted(stem.tokens, key=rank.__getitem__)
        prefix = ordered[: size - math.ceil(_MIN_SHARE * size - 1e-9) + 1]
        match = _first_match(stem, prefix, postings, skip)
        if match is not None:
            found[stem.index] = match
        for position, token in enumerate(prefix):
            by_position = postings.setdefault(token, {}).setdefault(size, [])
            by_position.extend([] for _ in range(position + 1 - len(by_position)))
            by_position[position].append(stem)
    return found


def _first_match(
    stem: _Stem,
    prefix: list[str],
    postings: Postings,
    skip: Callable[[int, int], bool] | None = None,
) -> int | None:
    size = len(stem.tokens)
    # Sizes that could share enough words: min(size, other) >= _MIN_SHARE * max(size, other).
    sizes = range(math.ceil(_MIN_SHARE * size - 1e-9), math.floor(size / _MIN_SHARE + 1e-9) + 1)
    checked: set[int] = set()
    for position, token in enumerate(prefix):
        by_size = postings.get(token)
        if not by_size:
            continue
        for other_size in sizes:
            by_position = by_size.get(other_size)
            if not by_position:
                continue
            # Met first at these positions, the two share no rarer word, so they share at
            # most what remains from here in either; they need `needed` words.
            needed = THRESHOLD * (size + other_size) / 2
            if size - position < needed:
                continue
            last = min(len(by_position) - 1, math.floor(other_size - needed + 1e-9))
            for group in by_position[: last + 1]:
                for other in reversed(group[-CANDIDATES_PER_WORD:]):
                    if other.index in checked:
                        continue
                    checked.add(other.index)
                    if len(stem.tokens & other.tokens) < needed:
                        continue
                    if skip is not None and skip(other.index, stem.index):
                        continue
                    if similarity(other.words, stem.words) >= THRESHOLD:
                        return other.index
    return None


def similarity(a: Sequence[str], b: Sequence[str]) -> float:
    """2 × (longest common subsequence) / (total length): 1.0 for equal sequences.

    A common beginning and end are matched first (they are part of some longest common
    subsequence), so near-duplicates leave only a few words for the quadratic part.
    """
    if not a and not b:
        return 1.0
    shortest = min(len(a), len(b))
    head = 0
    while head < shortest and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < shortest - head and a[len(a) - 1 - tail] == b[len(b) - 1 - tail]:
        tail += 1
    common = head + tail + _lcs_length(a[head : len(a) - tail], b[head : len(b) - tail])
    return 2 * common / (len(a) + len(b))


def _lcs_length(a: Sequence[str], b: Sequence[str]) -> int:
    if not a or not b:
        return 0
    previous = [0] * (len(b) + 1)
    for x in a:
        current = [0]
        for j, y in enumerate(b):
            current.append(previous[j] + 1 if x == y else max(previous[j + 1], current[j]))
        previous = current
    return previous[-1]
