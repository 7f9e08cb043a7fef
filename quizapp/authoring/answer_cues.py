"""Where the key sits and how long it is: cues a student can use without reading the stem.

Called by item_writing.py, which reports each finding per deck (at the deck's first question)
and across the decks it concerns:

- `key-position`: the key sits at one position more often than chance. For each position p,
  the count of questions whose key is at p is held to an exact one-sided Poisson-binomial
  test: a question with n options and k keys has its key at p with chance k/n (0 when it has
  no option p). The smallest tail is multiplied by the number of positions tested
  (Bonferroni), so testing five positions does not find a cue five times as easily. A
  true/false statement's "position" is its answer (true or false, chance 1/2 each): the app
  always offers them in that order.
- `length-cue`: single-choice keys that are the strictly longest option, or the strictly
  shortest, more often than chance (1/n each, exact test); per question, a key far longer or
  far shorter than every distractor.
- `all-correct`: a multiple-choice question whose options are all correct ("tick everything"
  wins it).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from quizapp.bank import (
    ChoiceQuestion,
    Diagnostic,
    Location,
    Question,
    QuestionType,
    TrueFalseQuestion,
)
from quizapp.item_statistics import poisson_binomial_upper_tail

SIGNIFICANCE = 0.05  # one-sided: flag a cue only when chance would give it less than 1 in 20
MIN_POSITION_ITEMS = 8  # questions of one kind a scope needs before `key-position` judges it
MIN_LENGTH_ITEMS = 5  # single-choice questions a scope needs before `length-cue` judges it
FAR = 1.5  # per question: the key against the longest (shortest) distractor ...
FAR_BY = 10  # ... and by at least this many characters ("RoPE" vs "ALiBi" is fine)
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def cue_warning(location: Location, code: str, message: str) -> Diagnostic:
    return Diagnostic(location.path, location.line, location.column, "warning", code, message)


@functools.lru_cache(maxsize=16384)
def text_length(text: str) -> int:
    """Characters as a reader sees them: runs of white space count as one."""
    return len(" ".join(text.split()))


def about(expected: float) -> str:
    return f"{expected:.0f}" if expected >= 3 else f"{expected:.1f}"


# -- key-position ------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Placement:
    """One question's keys: at which positions, among how many options."""

    keys: frozenset[int]
    options: int


def _placements(items: Sequence[Question]) -> list[_Placement]:
    found = []
    for question in items:
        if isinstance(question, ChoiceQuestion):
            found.append(_Placement(question.correct_indices, len(question.choices)))
        elif isinstance(question, TrueFalseQuestion):
            found.append(_Placement(frozenset({0 if question.answer else 1}), 2))
    return found


def _position_name(position: int, statements: bool) -> str:
    if statements:
        return '"true"' if position == 0 else '"false"'
    ordinal = ORDINALS[position] if position < len(ORDINALS) else f"#{position + 1}"
    return f"the {ordinal} option"


def key_position(items: Sequence[Question], where: Location, scope: str) -> Diagnostic | None:
    """Keys at one position more often than chance (exact test, Bonferroni over positions)."""
    if len(items) < MIN_POSITION_ITEMS:
        return None
    placements = _placements(items)
    widest = max(p.options for p in placements)
    tests = []
    for position in range(widest):
        chances = [len(p.keys) / p.options for p in placements if position < p.options]
        observed = sum(position in p.keys for p in placements)
        tests.append((poisson_binomial_upper_tail(chances, observed), position, observed, chances))
    tail, position, observed, chances = min(tests)
    adjusted = min(1.0, tail * len(tests))
    if adjusted >= SIGNIFICANCE:
        return None
    statements = items[0].type is QuestionType.TRUE_FALSE
    kind = {
        QuestionType.SINGLE_CHOICE: "single-choice questions",
        QuestionType.MULTIPLE_CHOICE: "multiple-choice questions",
        QuestionType.TRUE_FALSE: "true/false statements",
    }[items[0].type]
    where_key = "the answer is" if statements else "a key is"
    return cue_warning(
        where,
        "key-position",
        f"{scope}: {where_key} {_position_name(position, statements)} in {observed} of "
        f"{len(items)} {kind} (chance: about {about(sum(chances))}; exact binomial test, "
        f"p = {adjusted:.2g} after Bonferroni over {len(tests)} positions)",
    )


# -- length-cue --------------------------------------------------------------------------------


def _strictly(pick: Callable[[list[int]], int], name: str) -> Callable[..., Diagnostic | None]:
    def check(items: Sequence[Question], where: Location, scope: str) -> Diagnostic | None:
        if len(items) < MIN_LENGTH_ITEMS:
            return None
        chances, observed = [], 0
        for question in items:
            assert isinstance(question, ChoiceQuestion)
            lengths = [text_length(c.text) for c in question.choices]
            extreme = pick(lengths)
            if lengths.count(extreme) > 1:
                continue  # no option is strictly the one: length cues nothing here
            chances.append(1 / len(lengths))
            observed += question.choices[lengths.index(extreme)].correct
        if poisson_binomial_upper_tail(chances, observed) >= SIGNIFICANCE:
            return None
        return cue_warning(
            where,
            "length-cue",
            f"{scope}: the key is the {name} option in {observed} of {len(items)} "
            f"single-choice items (chance: about {about(sum(chances))}; exact binomial test)",
        )

    check.__name__ = f"key_{name}"
    check.__doc__ = f"Single-choice keys are the strictly {name} option more often than chance."
    return check


key_longest = _strictly(max, "longest")
key_shortest = _strictly(min, "shortest")


def far_longer_or_shorter(question: ChoiceQuestion) -> list[Diagnostic]:
    """A single-choice key far longer than the longest distractor, or far shorter than the
    shortest: its length alone marks it."""
    key = next(c for c in question.choices if c.correct)
    length = text_length(key.text)
    others = [text_length(c.text) for c in question.choices if c is not key]
    longest, shortest = max(others), min(others)
    if length >= FAR * longest and length - longest >= FAR_BY:
        relation = f"{length / longest:.1f}× the longest distractor ({longest})"
    elif FAR * length <= shortest and shortest - length >= FAR_BY:
        relation = (
            f"{shortest / max(length, 1):.1f}× shorter than the shortest distractor ({shortest})"
        )
    else:
        return []
    return [
        cue_warning(
            key.location or question.location,
            "length-cue",
            f"the key is {length} characters, {relation}: its length gives it away",
        )
    ]


# -- all-correct -------------------------------------------------------------------------------


def all_correct(question: ChoiceQuestion) -> list[Diagnostic]:
    """A multiple-choice question whose every option is a key."""
    if question.type is not QuestionType.MULTIPLE_CHOICE:
        return []
    if len(question.correct_indices) < len(question.choices):
        return []
    return [
        cue_warning(
            question.location,
            "all-correct",
            f"all {len(question.choices)} options are correct: ticking everything scores "
            "without knowing any of them",
        )
    ]
