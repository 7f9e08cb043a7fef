"""`quizapp export --format moodle-xml`: the bank as Moodle's question XML.

What Moodle's importer (question/format/xml/format.php) reads, written for each deck:

- a `<question type="category">` first: `$course$/top/<deck title>` (a `/` in the title is
  written `//`, as Moodle escapes it), the deck id in its `<idnumber>`, the description in
  `<info>`;
- then each question with the header every type needs (`name`, `questiontext`,
  `generalfeedback`, `defaultgrade`, `penalty`, `hidden`, `idnumber`) and its type's fields.
  The id is the `name` and the `idnumber`; the tags go in `<tags>`; every text is the bank's
  Markdown, written with `format="markdown"` (Moodle renders Markdown itself), so nothing is
  lost converting it to HTML and `quizapp import` reads it back as it was.

    single_choice    multichoice, <single>true</single>: the right option 100, the others 0
    multiple_choice  multichoice, <single>false</single>: each of the k right options 100/k,
                     each of the w wrong ones -100/w, so ticking every box scores 0 (Moodle
                     needs the positive fractions to sum to 100; quizapp itself scores a
                     multi-select all or nothing, which Moodle cannot express)
    true_false       truefalse: why_true and why_false as the two answers' feedback
    numeric          numerical: the key at 100 with its tolerance, each trap an answer at 0
                     with its why as feedback, the unit as a unit of multiplier 1. A relative
                     tolerance becomes the absolute one it allows at the key (a note says so)
    ordering         ordering (Moodle's own type): the steps in the key's order, each step's
                     why as its feedback, graded all or nothing
    flashcard        not written: Moodle has no type that shows a back (reported with its id)

Options are listed in the export order (shuffled by the question id and `--seed`, as every
export does) and `<shuffleanswers>` is set, so Moodle shuffles them again per attempt; a
question that says `shuffle: false` keeps its order in both.

A live computation cannot run in Moodle. A key written `from:` a computation is computed here
(as the Anki export does) and written as a number; a question with a `compute:` gets a last
paragraph in its general feedback naming the computation and its arguments. A key whose
computation did not run is not written (reported). A parameterized question (`vary:`) is
written as one fixed variant, chosen by its id, and a note names the variants left out (as
GIFT does; Anki writes every variant as a note of its own).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from quizapp.authoring.anki_cards import one_variant, variant_id
from quizapp.bank.display_order import DEFAULT_EXPORT_ORDER, ExportOrder
from quizapp.bank.model import (
    ChoiceQuestion,
    ComputeSpec,
    Deck,
    NumericQuestion,
    OrderingQuestion,
    Question,
    TrueFalseQuestion,
)

TEXT_FORMAT = "markdown"
# The paragraph that ends a computed question's general feedback; the importer keeps it as
# part of the explanation (the imported question has no live computation).
COMPUTED_PREFIX = "Computed by quizapp at export:"
_DEFAULT_PENALTY = "0.3333333"


@dataclass
class MoodleExport:
    """The document, and what it could not carry."""

    text: str
    written: list[str] = field(default_factory=list)
    left_out: list[tuple[str, str]] = field(default_factory=list)  # (question id, why)
    notes: list[tuple[str, str]] = field(default_factory=list)  # (question id, what changed)


def fraction_text(value: float) -> str:
    """A fraction as Moodle's grade list spells it: 33.33333, 50, -25."""
    text = f"{value:.5f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def number_text(value: float) -> str:
    if isinstance(value, int) or (float(value).is_integer() and abs(value) < 2**53):
        return str(int(value))
    return repr(float(value))


def category_path(title: str) -> str:
    return "$course$/top/" + title.replace("/", "//")


def computation_line(compute: ComputeSpec, key: str | None = None) -> str:
    args = ", ".join(f"{name}={value}" for name, value in compute.args.items())
    line = f"{COMPUTED_PREFIX} `{compute.name}({args})`"
    if key is not None:
        line += f"; the key is its `{key}`"
    return line + "."


def _sub(parent: ET.Element, tag: str, text: str | None = None, **attrs: str) -> ET.Element:
    element = ET.SubElement(parent, tag, attrs)
    if text is not None:
        element.text = text
    return element


def _text_field(parent: ET.Element, tag: str, text: str, **attrs: str) -> ET.Element:
    element = _sub(parent, tag, format=TEXT_FORMAT, **attrs)
    _sub(element, "text", text)
    return element


def _answer(parent: ET.Element, fraction: str, text: str, feedback: str | None) -> ET.Element:
    answer = _text_field(parent, "answer", text, fraction=fraction)
    _text_field(answer, "feedback", feedback or "")
    return answer


def _combined_feedback(element: ET.Element) -> None:
    for tag in ("correctfeedback", "partiallycorrectfeedback", "incorrectfeedback"):
        _text_field(element, tag, "")
    _sub(element, "shownumcorrect")


class _NotWritten(Exception):
    """The question cannot be written in Moodle XML; the message says why."""


def _header(quiz: ET.Element, question: Question, qtype: str, explanation: str) -> ET.Element:
    element = _sub(quiz, "question", type=qtype)
    _sub(_sub(element, "name"), "text", question.id)
    _text_field(element, "questiontext", question.prompt)
    _text_field(element, "generalfeedback", explanation)
    _sub(element, "defaultgrade", "1")
    _sub(element, "penalty", _DEFAULT_PENALTY)
    _sub(element, "hidden", "0")
    _sub(element, "idnumber", question.id)
    return element


def _tags(element: ET.Element, question: Question) -> None:
    if question.tags:
        tags = _sub(element, "tags")
        for tag in question.tags:
            _sub(_sub(tags, "tag"), "text", tag)


def _choice(quiz: ET.Element, q: ChoiceQuestion, explanation: str, order: ExportOrder) -> None:
    element = _header(quiz, q, "multichoice", explanation)
    single = q.type.value == "single_choice"
    _sub(element, "single", "true" if single else "false")
    _sub(element, "shuffleanswers", "true" if q.shuffle else "false")
    _sub(element, "answernumbering", "abc")
    _sub(element, "showstandardinstruction", "0")
    _combined_feedback(element)
    right = sum(c.correct for c in q.choices)
    wrong = len(q.choices) - right
    for index in order.of_choices(q):
        choice = q.choices[index]
        if single:
            fraction = "100" if choice.correct else "0"
        else:
            fraction = fraction_text(100 / right if choice.correct else -100 / wrong)
        _answer(element, fraction, choice.text, choice.why)
    _tags(element, q)


def _true_false(quiz: ET.Element, q: TrueFalseQuestion, explanation: str) -> None:
    element = _header(quiz, q, "truefalse", explanation)
    for value, why in ((True, q.why_true), (False, q.why_false)):
        answer = _sub(element, "answer", fraction="100" if value == q.answer else "0")
        answer.set("format", "moodle_auto_format")
        _sub(answer, "text", "true" if value else "false")
        _text_field(answer, "feedback", why or "")
    _tags(element, q)


def _numeric(
    quiz: ET.Element,
    q: NumericQuestion,
    explanation: str,
    derived: Mapping[str, object] | None,
    notes: list[str],
) -> None:
    a = q.answer
    value: object = a.value
    if value is None:
        value = (derived or {}).get(a.from_value or "")
        if not isinstance(value, int | float) or isinstance(value, bool):
            where = q.compute.name if q.compute else "its computation"
            raise _NotWritten(
                f"its key `{a.from_value}` is computed by `{where}`, which did not run "
                "(the export runs it unless --no-eval is given)"
            )
    assert isinstance(value, int | float)
    tolerance = a.tolerance or 0
    if a.relative_tolerance:
        tolerance = abs(value) * a.relative_tolerance
        notes.append(
            f"the relative tolerance {a.relative_tolerance * 100:g}% is written as "
            f"± {number_text(tolerance)} (Moodle's numerical tolerance is absolute)"
        )
    element = _header(quiz, q, "numerical", explanation)
    answer = _sub(element, "answer", fraction="100", format="moodle_auto_format")
    _sub(answer, "text", number_text(value))
    _text_field(answer, "feedback", "")
    _sub(answer, "tolerance", number_text(tolerance))
    for trap in q.traps:
        answer = _sub(element, "answer", fraction="0", format="moodle_auto_format")
        _sub(answer, "text", number_text(trap.value))
        _text_field(answer, "feedback", trap.why)
        _sub(answer, "tolerance", "0")
    if a.unit:
        unit = _sub(_sub(element, "units"), "unit")
        _sub(unit, "multiplier", "1")
        _sub(unit, "unit_name", a.unit)
    _sub(element, "unitgradingtype", "0")
    _sub(element, "unitpenalty", "0.1000000")
    _sub(element, "showunits", "0" if a.unit else "3")  # an optional unit, or none
    _sub(element, "unitsleft", "0")
    _tags(element, q)


def _ordering(quiz: ET.Element, q: OrderingQuestion, explanation: str) -> None:
    element = _header(quiz, q, "ordering", explanation)
    _sub(element, "layouttype", "VERTICAL")
    _sub(element, "selecttype", "ALL")
    _sub(element, "selectcount", "0")
    _sub(element, "gradingtype", "ALL_OR_NOTHING")
    _sub(element, "showgrading", "SHOW")
    _sub(element, "numberingstyle", "none")
    _combined_feedback(element)
    for position, step in enumerate(q.steps, start=1):
        _answer(element, str(position), step.text, step.why)
    _tags(element, q)


def _explanation(question: Question) -> str:
    if question.compute is None:
        return question.explanation
    key = None
    if isinstance(question, NumericQuestion) and question.answer.from_value:
        key = question.answer.from_value
    return f"{question.explanation.rstrip()}\n\n{computation_line(question.compute, key)}"


def export_moodle_xml(
    decks: Sequence[Deck],
    *,
    derived: Mapping[str, Mapping[str, object]] | None = None,
    order: ExportOrder = DEFAULT_EXPORT_ORDER,
) -> MoodleExport:
    """The decks as one Moodle XML document. `derived` holds the computed values of `from:`
    keys by question id (quizapp.authoring.anki_package.derived_values)."""
    quiz = ET.Element("quiz")
    result = MoodleExport(text="")
    for deck in decks:
        category = _sub(quiz, "question", type="category")
        _sub(_sub(category, "category"), "text", category_path(deck.title))
        _text_field(category, "info", deck.description or "")
        _sub(category, "idnumber", deck.id)
        for original in deck.questions:
            question, left_out = one_variant(original)
            notes = [left_out] if left_out else []
            explanation = _explanation(question)
            try:
                if isinstance(question, ChoiceQuestion):
                    _choice(quiz, question, explanation, order)
                elif isinstance(question, TrueFalseQuestion):
                    _true_false(quiz, question, explanation)
                elif isinstance(question, NumericQuestion):
                    _numeric(
                        quiz,
                        question,
                        explanation,
                        (derived or {}).get(variant_id(question)),
                        notes,
                    )
                elif isinstance(question, OrderingQuestion):
                    _ordering(quiz, question, explanation)
                else:
                    raise _NotWritten(
                        f"a {question.type.value}: Moodle has no question type that shows "
                        "a card's back"
                    )
            except _NotWritten as exc:
                result.left_out.append((question.id, str(exc)))
                continue
            result.written.append(question.id)
            result.notes.extend((question.id, note) for note in notes)
    ET.indent(quiz, space="  ")
    body = ET.tostring(quiz, encoding="unicode")
    result.text = '<?xml version="1.0" encoding="UTF-8"?>\n' + body + "\n"
    return result


__all__ = [
    "COMPUTED_PREFIX",
    "MoodleExport",
    "category_path",
    "computation_line",
    "export_moodle_xml",
    "fraction_text",
]
