"""Item-writing checks: cues that let a test-wise student score without knowing the content.

`quizapp lint` calls `check_item_writing` once, on the loaded bank. Every finding is a
warning whose code is explained in quizapp/authoring/messages.py:

- per item: `length-cue` (a key far longer or shorter than the distractors), `all-correct`,
  `absolute-word-false`, `all-none-of-the-above`, `near-duplicate` (on the later of two
  stems, naming the earlier, unless `pairs_with` marks the pair) and `unknown-pair`;
- per deck, at the deck's first question: `key-position`, `length-cue`, `key-count-fixed`,
  `hedge-true`, `rationale-in-key`. The same check also runs across all the decks it
  concerns, unless every one of them was flagged already: a cue spread thin over small decks
  shows only in the total. That finding sits at the bank's first question.

Position and length live in answer_cues.py.

The deck checks count against chance with an exact one-sided test (item_statistics.py) and
stay quiet below a minimum number of items, so a small deck is not flagged for bad luck.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from quizapp.authoring.answer_cues import (
    all_correct,
    far_longer_or_shorter,
    key_longest,
    key_position,
    key_shortest,
)
from quizapp.authoring.stem_similarity import near_duplicates
from quizapp.bank import (
    Bank,
    ChoiceQuestion,
    Deck,
    Diagnostic,
    Location,
    Question,
    QuestionType,
    TrueFalseQuestion,
)
from quizapp.item_statistics import hypergeometric_upper_tail

SIGNIFICANCE = 0.05  # one-sided: flag a cue only when chance would give it less than 1 in 20
MIN_MULTIPLE_CHOICE = 4  # multiple-choice items a deck needs before `key-count-fixed` does
MIN_CUED = 3  # hedged true statements, or keys with a reason, before those tests judge

_ABSOLUTE = re.compile(
    r"\b(always|never|only|all|none|every|everything|nothing|cannot|can['’]t|impossible"
    r"|guaranteed?|guarantees|completely|entirely|totally|absolutely|any|regardless"
    r"|no\s+matter|however\s+(?:long|large|many|much|deep|big|small))\b",
    re.IGNORECASE,
)
_HEDGE = re.compile(
    r"\b(usually|often|typically|generally|sometimes|may|might|can(?!['’]t)|could|tends?"
    r"|likely|probably|roughly|mostly|largely|essentially|in\s+general|in\s+most\s+cases)\b",
    re.IGNORECASE,
)
# An option that argues for itself: a connective, or a clause after a colon, semicolon or dash.
_REASON = re.compile(
    r"\b(?:because|since|so|which is why|that is why|which means|thanks to|due to|hence"
    r"|therefore|thus|as a result|in order to)\b|(?:[:;]| [—–]) *\w+\W+\w",
    re.IGNORECASE,
)
_OTHER_OPTIONS = re.compile(
    r"\b(?:(?:all|none|any|both|neither) of (?:the )?(?:above|below|others|other options"
    r"|options|choices|answers|preceding|previous|following)|all the above)\b",
    re.IGNORECASE,
)
# "Both A and B": capital letters only, so that "both i and j" in a formula is not one.
_BOTH_LETTERS = re.compile(r"\b(?i:both|neither)\s+\(?[A-I]\)?\s+(?i:and|nor)\s+\(?[A-I]\)?(?!\w)")


def check_item_writing(bank: Bank) -> list[Diagnostic]:
    """Every item-writing warning for a loaded bank."""
    decks = [_Sorted.of(deck) for deck in bank.decks if deck.questions]
    found: list[Diagnostic] = []
    for deck in decks:
        for question in deck.choice:
            found += _option_checks(question)
        found += absolute_words_in_false_statements(deck.statements)
    found += _scope_checks(decks)
    everything = [q for deck in bank.decks for q in deck.questions]
    found += near_duplicate_stems(everything)
    found += unknown_pairs(everything)
    return found


@dataclass(frozen=True)
class _Sorted:
    """A deck's questions, sorted once into what each check reads."""

    deck: Deck
    choice: list[ChoiceQuestion]
    single: list[ChoiceQuestion]
    multiple: list[ChoiceQuestion]
    statements: list[TrueFalseQuestion]

    @classmethod
    def of(cls, deck: Deck) -> _Sorted:
        choice = [q for q in deck.questions if isinstance(q, ChoiceQuestion)]
        return cls(
            deck,
            choice,
            [q for q in choice if q.type is QuestionType.SINGLE_CHOICE],
            [q for q in choice if q.type is QuestionType.MULTIPLE_CHOICE],
            [q for q in deck.questions if isinstance(q, TrueFalseQuestion)],
        )


def _warning(location: Location, code: str, message: str) -> Diagnostic:
    return Diagnostic(location.path, location.line, location.column, "warning", code, message)


# Texts repeat across a bank's checks (and across a generated bank): read each once.
@functools.lru_cache(maxsize=16384)
def _argues(text: str) -> bool:
    return _REASON.search(text) is not None


@functools.lru_cache(maxsize=16384)
def _absolute_words(text: str) -> str:
    """'"always"' or '"any" and "however long"': the absolute words in a text, or ''."""
    found = dict.fromkeys(" ".join(m.lower().split()) for m in _ABSOLUTE.findall(text))
    return " and ".join(f'"{word}"' for word in found)


@functools.lru_cache(maxsize=16384)
def _hedge_word(text: str) -> str:
    match = _HEDGE.search(text)
    return "" if match is None else " ".join(match.group(0).lower().split())


# -- per item ----------------------------------------------------------------------------------


def _option_checks(question: ChoiceQuestion) -> list[Diagnostic]:
    found = []
    for choice in question.choices:
        match = _refers_to_other_options(choice.text)
        if match is not None:
            shuffled = ", and the app shuffles the options" if question.shuffle else ""
            found.append(
                _warning(
                    choice.location or question.location,
                    "all-none-of-the-above",
                    f'the option "{" ".join(match.group(0).split())}" refers to the other '
                    f"options: it can be answered from partial knowledge{shuffled}",
                )
            )
    if question.type is QuestionType.SINGLE_CHOICE:
        found += far_longer_or_shorter(question)
    return found + all_correct(question)


def _refers_to_other_options(text: str) -> re.Match[str] | None:
    lowered = text.lower()
    if " of " in lowered or "above" in lowered:  # cheap: most options have neither
        match = _OTHER_OPTIONS.search(text)
        if match is not None:
            return match
    if "both" in lowered or "neither" in lowered:
        return _BOTH_LETTERS.search(text)
    return None


def absolute_words_in_false_statements(
    statements: Sequence[TrueFalseQuestion],
) -> list[Diagnostic]:
    """False statements with an absolute word, in a deck whose true ones use fewer of them.

    When true statements are as often absolute as false ones, the word predicts nothing.
    """
    true = [q for q in statements if q.answer]
    false = [q for q in statements if not q.answer]
    absolute_false = [(q, words) for q in false if (words := _absolute_words(q.prompt))]
    absolute_true = sum(bool(_absolute_words(q.prompt)) for q in true)
    true_rate = absolute_true / len(true) if true else 0.0
    if not absolute_false or len(absolute_false) / len(false) <= true_rate:
        return []
    counts = (
        f"{len(absolute_false)} of {len(false)} false statements in this deck use one, "
        f"{absolute_true} of {len(true)} true ones"
    )
    return [
        _warning(
            question.location,
            "absolute-word-false",
            f"the false statement says {words}, and an absolute word alone gives a false "
            f"statement away ({counts})",
        )
        for question, words in absolute_false
    ]


def _paired(questions: Sequence[Question]) -> set[frozenset[str]]:
    """The pairs of ids an author marked as alike on purpose (`pairs_with`, either side)."""
    return {frozenset((q.id, other)) for q in questions for other in q.pairs_with}


def near_duplicate_stems(questions: Sequence[Question]) -> list[Diagnostic]:
    """Stems that nearly repeat an earlier one: exam items among themselves, flashcards among
    themselves (a flashcard restating an exam item is how the two are meant to work). A pair
    marked with `pairs_with` is let be; the stem is still compared with the others."""
    paired = _paired(questions)
    found = []
    for is_flashcard in (False, True):
        pool = [q for q in questions if (q.type is QuestionType.FLASHCARD) == is_flashcard]

        def marked(earlier: int, later: int, pool: list[Question] = pool) -> bool:
            return frozenset((pool[earlier].id, pool[later].id)) in paired

        duplicates = near_duplicates([q.prompt for q in pool], skip=marked if paired else None)
        for later, earlier in sorted(duplicates.items()):
            first, second = pool[earlier], pool[later]
            where = (
                f"line {first.location.line}"
                if first.location.path == second.location.path
                else str(first.location)
            )
            found.append(
                _warning(
                    second.location,
                    "near-duplicate",
                    f"the stem nearly repeats that of '{first.id}' ({where}); merge them, make "
                    f"them ask different things, or mark the pair with pairs_with: [{first.id}]",
                )
            )
    return found


def unknown_pairs(questions: Sequence[Question]) -> list[Diagnostic]:
    """`pairs_with` ids that name no question of the bank (a typo, or a question removed)."""
    ids = {q.id for q in questions}
    found = []
    for question in questions:
        for other in question.pairs_with:
            if other in ids and other != question.id:
                continue
            why = "the question itself" if other == question.id else "no question of this bank"
            found.append(
                _warning(
                    question.field_locations.get("pairs_with", question.location),
                    "unknown-pair",
                    f"pairs_with names '{other}', which is {why}",
                )
            )
    return found


# -- per deck, and across the decks ------------------------------------------------------------


def _beyond_chance(total: int, cued: int, in_group: int, cued_in_group: int) -> bool:
    """Are the cued items (hedged, reasoned) in the group (true statements, keys) too many to
    be chance? One-sided Fisher's exact test, and at least MIN_CUED of them."""
    if cued_in_group < MIN_CUED:
        return False
    return hypergeometric_upper_tail(total, cued, in_group, cued_in_group) < SIGNIFICANCE


def key_count_fixed(items: Sequence[Question], where: Location, scope: str) -> Diagnostic | None:
    """Multiple-choice items whose number of keys never varies, or never is one. (Never all
    of them is no cue: `all-correct` asks for exactly that.)"""
    if len(items) < MIN_MULTIPLE_CHOICE:
        return None
    counts = []
    for question in items:
        assert isinstance(question, ChoiceQuestion)
        counts.append((len(question.correct_indices), len(question.choices)))
    keys = [correct for correct, _ in counts]
    if len(set(keys)) == 1:
        plural = "" if keys[0] == 1 else "s"
        pattern = f"all {len(items)} multiple-choice items have exactly {keys[0]} key{plural}"
    else:
        if 1 in keys:
            return None
        pattern = (
            f"the {len(items)} multiple-choice items have {min(keys)} to {max(keys)} keys, "
            "never one"
        )
    return _warning(where, "key-count-fixed", f"{scope}: {pattern}, so the count itself is a clue")


def hedged_statements_true(
    items: Sequence[Question], where: Location, scope: str
) -> Diagnostic | None:
    """Hedged true/false statements are true more often than the rest (Fisher's exact test)."""
    hedged: dict[str, list[bool]] = {}
    plain: list[bool] = []
    for question in items:
        assert isinstance(question, TrueFalseQuestion)
        word = _hedge_word(question.prompt)
        (hedged.setdefault(word, []) if word else plain).append(question.answer)
    hedged_answers = [answer for answers in hedged.values() for answer in answers]
    hedged_true = sum(hedged_answers)
    all_true = hedged_true + sum(plain)
    if not _beyond_chance(len(items), all_true, len(hedged_answers), hedged_true):
        return None
    words = ", ".join(f'"{word}"' for word in sorted(hedged)[:3]) + (
        ", ..." if len(hedged) > 3 else ""
    )
    return _warning(
        where,
        "hedge-true",
        f"{scope}: {hedged_true} of {len(hedged_answers)} hedged true/false statements "
        f"({words}) are true, against {sum(plain)} of {len(plain)} plain ones",
    )


def rationale_in_key(items: Sequence[Question], where: Location, scope: str) -> Diagnostic | None:
    """Single-choice keys argue for themselves ("…: because …") more often than distractors
    do (Fisher's exact test)."""
    keys = distractors = reasoned_keys = reasoned_distractors = 0
    for question in items:
        assert isinstance(question, ChoiceQuestion)
        for choice in question.choices:
            argues = _argues(choice.text)
            if choice.correct:
                keys += 1
                reasoned_keys += argues
            else:
                distractors += 1
                reasoned_distractors += argues
    options, reasoned = keys + distractors, reasoned_keys + reasoned_distractors
    if not _beyond_chance(options, reasoned, keys, reasoned_keys):
        return None
    return _warning(
        where,
        "rationale-in-key",
        f'{scope}: {reasoned_keys} of {keys} keys argue for themselves ("because", "so", a '
        f"clause after a colon or dash), against {reasoned_distractors} of {distractors} "
        "distractors",
    )


# Each takes the questions it reads, where to report and how to name the scope.
ScopeCheck = Callable[[Sequence[Question], Location, str], Diagnostic | None]
_SCOPE_CHECKS: tuple[tuple[Callable[[_Sorted], Sequence[Question]], ScopeCheck], ...] = (
    (lambda deck: deck.single, key_position),
    (lambda deck: deck.multiple, key_position),
    (lambda deck: deck.statements, key_position),
    (lambda deck: deck.single, key_longest),
    (lambda deck: deck.single, key_shortest),
    (lambda deck: deck.multiple, key_count_fixed),
    (lambda deck: deck.statements, hedged_statements_true),
    (lambda deck: deck.single, rationale_in_key),
)


def _scope_checks(decks: Sequence[_Sorted]) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    for select, check in _SCOPE_CHECKS:
        concerned = [(deck, items) for deck in decks if (items := select(deck))]
        in_decks = [
            check(items, deck.deck.questions[0].location, f"deck '{deck.deck.id}'")
            for deck, items in concerned
        ]
        found += [d for d in in_decks if d is not None]
        if len(concerned) > 1 and not all(in_decks):
            everything = [q for _, items in concerned for q in items]
            where = concerned[0][0].deck.questions[0].location
            across = check(everything, where, f"across {len(concerned)} decks")
            found += [across] if across is not None else []
    return found
