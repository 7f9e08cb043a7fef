r"""`quizapp export --format gift`: a bank as Moodle GIFT, the text format Moodle imports.

What is written, deck by deck (Moodle's own GIFT writer, question/format/gift/format.php,
writes the same shapes, and quizapp's GIFT reader reads them back):

    $CATEGORY: $course$/top/attention          one category per deck, named by the deck id

    // [id:heads-base] [tag:attention]        Moodle (3.6 and later) reads [id:] as the
    ::heads-base::[markdown]How many ...{      question's idnumber and [tag:] as its tags
        =8#Right: 512 / 64 \= 8.                single choice: = the right option, ~ the others
        ~4#Half of them.                        #: the option's why (per-answer feedback)
        ####The base model ...                  ####: the explanation (general feedback)
    }

- multiple choice: each right option `~%W%` with W = 100 / (right options), so the weights
  sum to 100 as Moodle requires and each is one of Moodle's grade fractions; each wrong
  option `~%-100%`, so picking it gets no credit, as quizapp scores it (all or nothing);
- true/false: `{TRUE#shown to a wrong answer#shown to a right one####explanation}`;
- numeric: `{#=%100%KEY:TOLERANCE ... =%0%TRAP#why ####explanation}`: a relative tolerance is
  written as the absolute one it allows at the key (noted), a unit is not carried (noted);
- texts are Markdown (`[markdown]`), one line each: GIFT's special characters `~ = # { } :`
  and `\` are escaped with `\`, line breaks written `\n`;
- a computed question (`compute:`) keeps its key and explanation as text, and the explanation
  ends with a line naming the computation and its arguments (computation_note); a key written
  as `from:` is the value the computation gives (the export runs it), and a question whose
  computation did not run (`--no-eval`, a failure) is left out and reported;
- a parameterized question (`vary:`) is one fixed variant, chosen by its id, and a note names
  the variants left out (Anki writes every variant as a note of its own);
- options are shuffled like every export (`ExportOrder`); GIFT has no "keep this order".

Ordering questions and flashcards have no GIFT type: they are left out and reported by id.
GIFT does not carry the difficulty, topic, source or pairs_with, nor the compute spec itself.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from numbers import Real

from quizapp.authoring.anki_cards import one_variant, variant_id
from quizapp.authoring.computation_note import computation_line
from quizapp.authoring.export import format_csv_number
from quizapp.bank.display_order import DEFAULT_EXPORT_ORDER, ExportOrder
from quizapp.bank.model import (
    ChoiceQuestion,
    Deck,
    Flashcard,
    NumericQuestion,
    OrderingQuestion,
    Question,
    TrueFalseQuestion,
)

_SPECIAL = str.maketrans({c: "\\" + c for c in "\\~=#{}:"} | {"\n": "\\n", "\r": ""})
# A text starting with `[word]` would be read as a format name, an option starting with `%N%`
# as a weight: such a text says its format outright, which nothing else may then follow.
_AMBIGUOUS_START = re.compile(r"^(?:\[[^\]]*\]|%)")
# Moodle's grade fractions for 1 to 10 right options (question_bank::fraction_options_full).
_SHARE = {n: f"{100 / n:.5f}".rstrip("0").rstrip(".") for n in range(1, 11)}


@dataclass(frozen=True)
class Dropped:
    """A question, or a part of one, the GIFT file does not hold."""

    question_id: str
    reason: str

    def format(self, kind: str) -> str:
        return f"{self.question_id}: {kind}: {self.reason}"


@dataclass
class GiftExport:
    text: str
    written: list[str] = field(default_factory=list)  # the ids, in file order
    left_out: list[Dropped] = field(default_factory=list)  # questions not written
    notes: list[Dropped] = field(default_factory=list)  # parts of written questions lost


def escape_gift(text: str) -> str:
    """A text as GIFT writes it: special characters escaped, on one line."""
    return text.strip().translate(_SPECIAL)


def gift_text(text: str) -> str:
    """An option's or a feedback's text: escaped, and in `[markdown]` outright when its start
    would otherwise be read as a format name or a weight."""
    escaped = escape_gift(text)
    return "[markdown]" + escaped if _AMBIGUOUS_START.match(escaped) else escaped


def _number(value: Real) -> str:
    return format_csv_number(value if isinstance(value, int) else float(value))


class _LeftOut(Exception):
    """The question cannot be written; the message says why."""


def export_gift(
    decks: Sequence[Deck],
    order: ExportOrder = DEFAULT_EXPORT_ORDER,
    derived: Mapping[str, Mapping[str, object]] | None = None,
) -> GiftExport:
    """The decks as one GIFT file. `derived` holds, by question id, the values a question's
    computation gave (quizapp.authoring.anki_package.derived_values); a `from:` key missing
    from it leaves its question out."""
    derived = derived or {}
    result = GiftExport(text="")
    chunks = ["// Exported by quizapp (quizapp export --format gift)."]
    for deck in decks:
        written_here: list[str] = []
        for original in deck.questions:
            question, left_out = one_variant(original)
            notes = [left_out] if left_out else []
            try:
                values = derived.get(variant_id(question))
                written_here.append(_question(question, order, values, notes))
            except _LeftOut as why:
                result.left_out.append(Dropped(question.id, str(why)))
                continue
            result.written.append(question.id)
            result.notes.extend(Dropped(question.id, note) for note in notes)
        if written_here:
            chunks.append(
                f"// Deck: {' '.join(deck.title.split())}\n$CATEGORY: $course$/top/{deck.id}"
            )
            chunks.extend(written_here)
    result.text = "\n\n".join(chunks) + "\n"
    return result


def _question(
    question: Question, order: ExportOrder, values: Mapping[str, object] | None, notes: list[str]
) -> str:
    comments = " ".join([f"[id:{question.id}]", *(f"[tag:{tag}]" for tag in question.tags)])
    head = f"// {comments}\n::{escape_gift(question.id)}::[markdown]{escape_gift(question.prompt)}"
    explanation = question.explanation.strip()
    if question.compute is not None:
        explanation += "\n\n" + computation_line(question.compute)
    feedback = "####" + gift_text(explanation)
    if isinstance(question, ChoiceQuestion):
        lines = _choices(question, order, notes)
    elif isinstance(question, TrueFalseQuestion):
        right, wrong = (question.why_true, question.why_false)
        if not question.answer:
            right, wrong = wrong, right
        answer = "TRUE" if question.answer else "FALSE"
        if wrong or right:
            answer += f"#{gift_text(wrong or '')}"
        if right:
            answer += f"#{gift_text(right)}"
        return f"{head}{{{answer}{feedback}}}"
    elif isinstance(question, NumericQuestion):
        lines = _numeric(question, values, notes)
        return head + "{#\n" + "".join(f"\t{line}\n" for line in [*lines, feedback]) + "}"
    elif isinstance(question, OrderingQuestion):
        raise _LeftOut("an ordering question: GIFT has no ordering type (Moodle XML has one)")
    elif isinstance(question, Flashcard):
        raise _LeftOut("a flashcard: GIFT has no question type without an answer to check")
    else:
        raise _LeftOut(f"a {question.type.value} question: GIFT has no such type")
    return head + "{\n" + "".join(f"\t{line}\n" for line in [*lines, feedback]) + "}"


def _choices(question: ChoiceQuestion, order: ExportOrder, notes: list[str]) -> list[str]:
    single = question.type.value == "single_choice"
    right = len(question.correct_indices)
    if not question.shuffle:
        notes.append("shuffle: false is not carried: Moodle shuffles as the quiz says")
    lines = []
    for index in order.of_choices(question):
        choice = question.choices[index]
        if single:
            mark = "=" if choice.correct else "~"
        else:
            mark = f"~%{_SHARE[right]}%" if choice.correct else "~%-100%"
        why = f"#{gift_text(choice.why)}" if choice.why else ""
        lines.append(f"{mark}{gift_text(choice.text)}{why}")
    return lines


def _numeric(
    question: NumericQuestion, values: Mapping[str, object] | None, notes: list[str]
) -> list[str]:
    answer = question.answer
    key: object = answer.value
    if key is None:
        key = (values or {}).get(answer.from_value or "")
        if not isinstance(key, Real) or isinstance(key, bool):
            name = question.compute.name if question.compute else "its computation"
            raise _LeftOut(
                f"its key is computed (`{answer.from_value}` from `{name}`) and the "
                "computation did not run (--no-eval, or it failed): GIFT needs the number"
            )
    assert isinstance(key, Real)
    tolerance: Real = answer.tolerance or 0
    if answer.relative_tolerance is not None:
        tolerance = abs(float(key)) * answer.relative_tolerance
        notes.append(
            f"the relative tolerance {answer.relative_tolerance:g} is written as the absolute "
            f"{_number(tolerance)} it allows at the key"
        )
    if answer.unit:
        notes.append(f"the unit '{answer.unit}' is left out: a GIFT number has none")
    lines = [f"=%100%{_number(key)}:{_number(tolerance)}"]
    lines.extend(f"=%0%{_number(t.value)}#{gift_text(t.why)}" for t in question.traps)
    return lines


__all__ = ["Dropped", "GiftExport", "export_gift", "gift_text"]
