"""The order a question's options or steps are shown in: seeded per card, never a cue.

Pure Python: no textual, no torch. Used by quiz sessions, the drill, the exam and the exports.

The order is a function of a seed text alone, so the same card shows the same order wherever
that seed is used again: in a session the text is `"<session seed>:<question id>"` (a review,
an undo and re-show, a replay of the session show the card as it was first shown; another
session shows another order); in an export it is the question id, with `--seed N` in front
when given, so that a re-export writes the same file. The options' order is uniform over
every permutation (the file's order included: leaving it out would itself move the key away
from where the author wrote it). An ordering question's steps are never shown in the key's
order, which would grade a non-answer and give the key away.

Only an authoring aid (`--no-shuffle`: a preview in the bank's file order) keeps the options
as written; a question that says `shuffle: false` keeps its own (its author's decision, e.g.
"all of the above" last). Steps are shuffled even then.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass

from quizapp.bank.model import ChoiceQuestion, OrderingQuestion, Question

# Tries at a shuffle that differs from the key's order before the steps are simply reversed:
# for 2 steps half the shuffles are the key, for 3 a sixth, so this almost never runs out.
_TRIES = 20


def card_random(seed_text: str) -> random.Random:
    """A generator fixed by `seed_text` alone: not by the process (hash randomization), the
    platform or the Python version (the first 8 bytes of its SHA-256 as the integer seed)."""
    return random.Random(int.from_bytes(hashlib.sha256(seed_text.encode()).digest()[:8], "big"))


def shuffled_order(seed_text: str, n: int, *, avoid_identity: bool = False) -> tuple[int, ...]:
    """A permutation of range(n) fixed by `seed_text`; with `avoid_identity` never range(n)
    itself (for n > 1)."""
    order = list(range(n))
    rng = card_random(seed_text)
    rng.shuffle(order)
    if not avoid_identity or n < 2:
        return tuple(order)
    for _ in range(_TRIES):
        if order != sorted(order):
            return tuple(order)
        rng.shuffle(order)
    return tuple(reversed(range(n)))


def session_seed_text(session_seed: int | str, question_id: str) -> str:
    """The seed text of one card in one session."""
    return f"{session_seed}:{question_id}"


def export_seed_text(question_id: str, seed: int | None = None) -> str:
    """The seed text of one question in an export: its id, after `--seed N` when given."""
    return question_id if seed is None else f"{seed}:{question_id}"


def display_order(question: Question, seed_text: str, *, shuffle: bool = True) -> tuple[int, ...]:
    """Indices into the file's options or steps, in the order they are shown.

    `shuffle=False` is the authoring aid: options as written. Steps are never in the key's
    order, whatever `shuffle` says. Other question types have no order: ().
    """
    if isinstance(question, OrderingQuestion):
        return shuffled_order(seed_text, len(question.steps), avoid_identity=True)
    if isinstance(question, ChoiceQuestion):
        if shuffle and question.shuffle:
            return shuffled_order(seed_text, len(question.choices))
        return tuple(range(len(question.choices)))
    return ()


@dataclass(frozen=True)
class ExportOrder:
    """How an export orders each question's options: by its id (and `seed`), so the same bank
    exports to the same file; `shuffle=False` (export --no-shuffle) keeps the file's order
    for authoring round trips. Steps shown to a student are never in the key's order."""

    seed: int | None = None
    shuffle: bool = True

    def of(self, question: Question) -> tuple[int, ...]:
        seed_text = export_seed_text(question.id, self.seed)
        return display_order(question, seed_text, shuffle=self.shuffle)

    def of_choices(self, question: Question) -> tuple[int, ...]:
        """The options' order; steps kept as written (JSON and CSV, whose step order IS the
        key, and which a student does not read as a question)."""
        if isinstance(question, OrderingQuestion):
            return tuple(range(len(question.steps)))
        return self.of(question)


# An export's default: shuffled by the question ids alone.
DEFAULT_EXPORT_ORDER = ExportOrder()

__all__ = [
    "DEFAULT_EXPORT_ORDER",
    "ExportOrder",
    "card_random",
    "display_order",
    "export_seed_text",
    "session_seed_text",
    "shuffled_order",
]
