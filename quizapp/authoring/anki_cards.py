"""The two sides of an Anki card made from a question, as HTML.

The front lists a choice question's options in a fixed shuffled order, seeded by the question
id and `export --seed N` (unless the question says `shuffle: false`, or `export --no-shuffle`
keeps the file's order), numbered 1, 2, 3...; the back names the correct options by those same
numbers, so "3." on the back is option 3 on the front. An ordering question shows its steps
shuffled on the front (never in the correct order, even with --no-shuffle) and in the correct
order on the back. A numeric key written as `from:` shows the computed value when the export
ran the computation, else names it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from quizapp.authoring.anki_html import inline_html, markdown_to_html
from quizapp.bank.display_order import DEFAULT_EXPORT_ORDER, ExportOrder
from quizapp.bank.fields import MAX_LINTED_VARIANTS
from quizapp.bank.grading import format_number
from quizapp.bank.model import (
    Choice,
    ChoiceQuestion,
    Flashcard,
    NumericQuestion,
    OrderingQuestion,
    Question,
    Scalar,
    TrueFalseQuestion,
)

# A parameterized question becomes one Anki note per variant, up to this many (lint checks as
# many); the rest are named on stderr. A question may have up to fields.MAX_VARIANTS.
MAX_NOTES_PER_QUESTION = MAX_LINTED_VARIANTS
MAX_NAMED_LEFT_OUT = 5  # variants named in the note on stderr; the rest are counted


def anki_variant(question: Question) -> Question:
    """One fixed variant of a parameterized question, chosen by its id (GIFT and Moodle XML
    write one; Anki writes every variant, `anki_variants`)."""
    if not question.vary:
        return question
    from quizapp.bank.variants import pick

    return pick(question, random.Random(question.id))


def anki_variants(question: Question) -> tuple[list[Question], list[dict[str, Scalar]]]:
    """Every variant of a parameterized question up to MAX_NOTES_PER_QUESTION, in vary's
    order, and the assignments of those left out; the question itself when it does not vary."""
    if not question.vary:
        return [question], []
    from quizapp.bank.variants import assignments, instantiate

    every = list(assignments(question))
    kept = every[:MAX_NOTES_PER_QUESTION]
    return [instantiate(question, a) for a in kept], every[MAX_NOTES_PER_QUESTION:]


def variant_id(question: Question) -> str:
    """What names a card: the question's id, and for a variant its values as well
    (`mha-head-dim@d_model=512,n_heads=8`), so each variant's note has its own stable guid."""
    if not question.assignment:
        return question.id
    return question.id + "@" + _values(question.assignment, sep=",")


def _values(assignment: Mapping[str, Scalar], sep: str = ", ") -> str:
    return sep.join(f"{name}={value}" for name, value in assignment.items())


def variants_note(written: Sequence[Question], left_out: Sequence[Mapping[str, Scalar]]) -> str:
    """What an export says of a parameterized question whose variants it did not all write:
    "a parameterized question: 1 of 12 variants written (d_model=512, n_heads=8); left out:
    d_model=512, n_heads=16; ... and 6 more". '' when none is left out."""
    if not left_out:
        return ""
    total = len(written) + len(left_out)
    shown = "; ".join(_values(a) for a in left_out[:MAX_NAMED_LEFT_OUT])
    more = len(left_out) - MAX_NAMED_LEFT_OUT
    which = f" ({_values(written[0].assignment)})" if len(written) == 1 else ""
    return (
        f"a parameterized question: {len(written)} of {total} variants written{which}; "
        f"left out: {shown}" + (f"; and {more} more" if more > 0 else "")
    )


def one_variant(question: Question) -> tuple[Question, str]:
    """The variant GIFT and Moodle XML write (chosen by the id), and the note naming those
    they leave out ('' when the question does not vary)."""
    if not question.vary:
        return question, ""
    from quizapp.bank.variants import assignments

    chosen = anki_variant(question)
    others = [a for a in assignments(question) if a != chosen.assignment]
    return chosen, variants_note([chosen], others)


def choice_order(question: ChoiceQuestion, order: ExportOrder = DEFAULT_EXPORT_ORDER) -> list[int]:
    """The options' indexes in the order the front lists them. Shuffled as the app shuffles
    them (unless the question says not to, or export --no-shuffle): written order would put
    the correct option where the author wrote it on most cards, and Anki would teach the
    position."""
    return list(order.of(question))


def numbered_choices(
    question: ChoiceQuestion, order: ExportOrder = DEFAULT_EXPORT_ORDER
) -> list[tuple[int, Choice]]:
    """(the number the front gives it, the option), in the front's order."""
    return [(n, question.choices[i]) for n, i in enumerate(choice_order(question, order), start=1)]


def _choice_front(question: ChoiceQuestion, order: ExportOrder) -> str:
    numbered = numbered_choices(question, order)
    options = "".join(f"<li>{inline_html(c.text)}</li>" for _, c in numbered)
    hint = (
        "<p><em>Select all that apply.</em></p>" if question.type.value == "multiple_choice" else ""
    )
    return f'{hint}<ol class="options">{options}</ol>'


def card_front(question: Question, order: ExportOrder = DEFAULT_EXPORT_ORDER) -> str:
    front = markdown_to_html(question.prompt)
    if isinstance(question, ChoiceQuestion):
        front += _choice_front(question, order)
    elif isinstance(question, TrueFalseQuestion):
        front += "<p><em>True or false?</em></p>"
    elif isinstance(question, NumericQuestion) and question.answer.unit:
        front += f"<p><em>Answer in {inline_html(question.answer.unit)}.</em></p>"
    elif isinstance(question, OrderingQuestion):
        shown = order.of(question)  # never the key's order, even with --no-shuffle
        steps = "".join(f"<li>{inline_html(question.steps[i].text)}</li>" for i in shown)
        front += f'<p><em>Put these in order:</em></p><ul class="steps">{steps}</ul>'
    return front


def _why(text: str | None) -> str:
    return f'<div class="why">{markdown_to_html(text)}</div>' if text else ""


def _numeric_key(question: NumericQuestion, derived: Mapping[str, object] | None) -> str:
    a = question.answer
    value: object = a.value
    if value is None and derived is not None:
        value = derived.get(a.from_value or "")
    if isinstance(value, int | float) and not isinstance(value, bool):
        key = format_number(value)
        if a.unit:
            key += f" {a.unit}"
        if a.tolerance:
            key += f" (± {format_number(a.tolerance)})"
        elif a.relative_tolerance:
            key += f" (within {a.relative_tolerance * 100:g}%)"
        return inline_html(key)
    compute = question.compute
    where = compute.name if compute is not None else "its computation"
    return inline_html(f"`{a.from_value}` as computed by `{where}`")


def _choice_back(question: ChoiceQuestion, order: ExportOrder) -> list[str]:
    """The correct options, then the others that have a why, each under its front number."""
    numbered = numbered_choices(question, order)
    label = "Correct" if len(question.correct_indices) == 1 else "Correct (all of)"
    right = "".join(
        f'<li value="{n}"><span class="correct">{inline_html(c.text)}</span>{_why(c.why)}</li>'
        for n, c in numbered
        if c.correct
    )
    parts = [f'<p><strong>{label}:</strong></p><ol class="options">{right}</ol>']
    wrong = "".join(
        f'<li value="{n}">{inline_html(c.text)}{_why(c.why)}</li>'
        for n, c in numbered
        if not c.correct and c.why
    )
    if wrong:
        parts.append(f'<p><strong>The others:</strong></p><ol class="options">{wrong}</ol>')
    return parts


def card_back(
    question: Question,
    derived: Mapping[str, object] | None = None,
    order: ExportOrder = DEFAULT_EXPORT_ORDER,
) -> str:
    parts: list[str] = []
    if isinstance(question, ChoiceQuestion):
        parts.extend(_choice_back(question, order))
    elif isinstance(question, TrueFalseQuestion):
        answer = "True" if question.answer else "False"
        parts.append(f'<p class="correct">{answer}</p>')
        parts.append(_why(question.why_true if question.answer else question.why_false))
    elif isinstance(question, NumericQuestion):
        parts.append(f'<p class="correct">{_numeric_key(question, derived)}</p>')
        if question.traps:
            traps = "".join(
                f"<li>{inline_html(format_number(t.value))}: {inline_html(t.why)}</li>"
                for t in question.traps
            )
            parts.append(f"<p><strong>Common wrong answers:</strong></p><ul>{traps}</ul>")
    elif isinstance(question, OrderingQuestion):
        steps = "".join(f"<li>{inline_html(s.text)}{_why(s.why)}</li>" for s in question.steps)
        parts.append(f'<ol class="steps correct-order">{steps}</ol>')
    elif isinstance(question, Flashcard):
        parts.append(markdown_to_html(question.back))
    parts.append("<hr>" + markdown_to_html(question.explanation))
    if question.source:
        parts.append(f'<div class="source">{inline_html(question.source)}</div>')
    return "".join(p for p in parts if p)


__all__ = [
    "MAX_NOTES_PER_QUESTION",
    "anki_variant",
    "anki_variants",
    "card_back",
    "card_front",
    "choice_order",
    "numbered_choices",
    "one_variant",
    "variant_id",
    "variants_note",
]
