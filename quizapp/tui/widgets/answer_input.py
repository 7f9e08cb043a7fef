"""The widget a question is answered with, and the Answer a widget's state stands for.

Shared by the quiz and the exam: a ChoiceList for choice and true/false questions, an Input
for numbers, an OrderingList for steps (flashcards get a plain Static). Choice positions are
as displayed; `display_order` maps them back to the file's order, which grading uses.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.binding import BindingType
from textual.widget import Widget
from textual.widgets import Input, Static

from quizapp.bank.answers import (
    Answer,
    ChoiceAnswer,
    NumericAnswerText,
    OrderingAnswer,
    TrueFalseAnswer,
    could_be_unit,
)
from quizapp.bank.model import (
    ChoiceQuestion,
    NumericQuestion,
    OrderingQuestion,
    Question,
    QuestionType,
    TrueFalseQuestion,
)
from quizapp.bank.number_examples import NumberExamples
from quizapp.tui.text.literal import literal
from quizapp.tui.widgets.choice_list import ChoiceList
from quizapp.tui.widgets.field_focus import LEAVE_FIELD, leave_field
from quizapp.tui.widgets.ordered_input import OrderedInput
from quizapp.tui.widgets.ordering_list import OrderingList

FLASHCARD_HINT = "[dim]Think of the answer, then press space to reveal the back.[/]"
# Every character parse_number can read: the rest are never part of an answer.
NUMBER_CHARACTERS = frozenset("0123456789.,_ eE+-^\u202f")
# The number formats, said without a number: for a bank so hostile that every example is a key.
NUMBER_FORMATS_WITHOUT_EXAMPLE = (
    "Type a number: digits, grouped in threes by commas or spaces if you like, or a power b^e"
)


class NumberInput(OrderedInput):
    """An Input for a number (and the question's unit) that leaves some letters to the
    screen's keys.

    `passthrough`: characters (never part of a number) that are not typed but go on to
    the bindings, so a screen's `n`/`p` work while the box has focus. Only while they do
    not continue the `unit` being typed: `n` in `128 dimen` is typed, after `128 ` it is
    the exam's next question. Every other letter is typed (so `u`, `b`, `q` never undo,
    bury or quit from here); Escape leaves the box.
    """

    BINDINGS: ClassVar[list[BindingType]] = [LEAVE_FIELD]

    def __init__(self, *args, passthrough: str = "", unit: str | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.passthrough = frozenset(passthrough) - NUMBER_CHARACTERS
        self.unit = unit

    def _passes_through(self, character: str | None) -> bool:
        if character is None or character not in self.passthrough:
            return False
        if self.unit is None:
            return True
        before = self.value[: self.cursor_position] + character
        word = re.search(r"[^\W\d_]+$", before)
        return word is None or not could_be_unit(word.group(), self.unit)

    def check_consume_key(self, key: str, character: str | None) -> bool:
        if self._passes_through(character):
            return False
        return super().check_consume_key(key, character)

    async def _on_key(self, event: events.Key) -> None:
        if event.is_printable and self._passes_through(event.character):
            # Not typed (Input's own handler is skipped) and not stopped: it bubbles on up
            # to the screen's bindings.
            event.prevent_default()

    def action_leave_field(self) -> None:
        leave_field(self)


def numeric_hint(question: NumericQuestion, enter: str, examples: NumberExamples | None) -> Text:
    """What a number box takes, and how close an answer must be: `enter` says what Enter does.

    A rounded answer is graded against the question's tolerance, so the hint says how strict
    that is. The numbers it shows are `examples`, chosen clear of every key the app knows
    (quizapp/tui/text/number_examples.py): a hint that wrote a key would answer its question.
    None (every candidate is near a key): the hint names the forms without a number.
    """
    answer = question.answer
    unit = f", the unit ({answer.unit}) optional" if answer.unit else ""
    if answer.relative_tolerance:
        closeness = f"within {answer.relative_tolerance:.2%} of the key"
    elif answer.tolerance:
        closeness = f"within ±{answer.tolerance:g} of the key"
    else:
        closeness = ""
    if examples is None:
        formats = NUMBER_FORMATS_WITHOUT_EXAMPLE
        rounded = ""
        worked = ""
    else:
        formats = f"Type a number: {examples.formats()}"
        rounded = f" ({examples.rounded})"
        worked = f" ({examples.rounded} for {examples.with_commas})"
    strictness = (
        f"Marked right {closeness}: a rounded answer{rounded} counts if it is that close."
        if closeness
        else f"Marked exactly: a rounded answer{worked} is wrong here."
    )
    # As literal text: the unit comes from the bank, and a bank's text is never markup.
    return literal(f"{formats}{unit} · {enter}\n{strictness}")


def answer_widget(
    question: Question,
    display_order: Sequence[int],
    answer: Answer | None = None,
    *,
    id: str | None = "answer",
    passthrough: str = "",
) -> Widget:
    """The widget to answer `question` with, showing `answer` when one was given before.

    `passthrough`: letters a number box leaves to the screen's bindings (see NumberInput).
    """
    order = tuple(display_order)
    if isinstance(question, ChoiceQuestion):
        order = order or tuple(range(len(question.choices)))
        widget = ChoiceList(
            [question.choices[i].text for i in order],
            multiple=question.type is QuestionType.MULTIPLE_CHOICE,
            id=id,
        )
        if isinstance(answer, ChoiceAnswer):
            widget.selected = {order.index(i) for i in answer.selected if i in order}
        return widget
    if isinstance(question, TrueFalseQuestion):
        widget = ChoiceList(["True", "False"], multiple=False, id=id)
        if isinstance(answer, TrueFalseAnswer):
            widget.selected = {0 if answer.value else 1}
        return widget
    if isinstance(question, NumericQuestion):
        unit = question.answer.unit
        value = answer.text if isinstance(answer, NumericAnswerText) else ""
        return NumberInput(
            value=value,
            placeholder=f"your answer ({unit})" if unit else "your answer",
            id=id,
            passthrough=passthrough,
            unit=unit,
        )
    if isinstance(question, OrderingQuestion):
        order = order or tuple(range(len(question.steps)))
        if isinstance(answer, OrderingAnswer):
            order = answer.order
        return OrderingList([(i, question.steps[i].text) for i in order], id=id)
    return Static(FLASHCARD_HINT, id=id)


def choice_answer(
    question: Question, display_order: Sequence[int], positions: Iterable[int]
) -> Answer:
    """The answer that picking these displayed positions gives (ChoiceList.Submitted.selected)."""
    picked = frozenset(positions)
    if isinstance(question, TrueFalseQuestion):
        return TrueFalseAnswer(0 in picked)
    if isinstance(question, ChoiceQuestion):
        order = tuple(display_order) or tuple(range(len(question.choices)))
        return ChoiceAnswer(frozenset(order[i] for i in picked))
    raise TypeError(f"{question.id} is not answered by picking options")


def read_answer(
    question: Question, widget: Widget, display_order: Sequence[int], *, initial_counts: bool
) -> Answer | None:
    """The answer the widget's current state stands for; None when nothing is given yet.

    An ordering left as first shown is no answer unless `initial_counts` (the student
    confirmed it, or had answered before).
    """
    if isinstance(widget, ChoiceList):
        return choice_answer(question, display_order, widget.selected) if widget.selected else None
    if isinstance(widget, Input):
        return NumericAnswerText(widget.value) if widget.value.strip() else None
    if isinstance(widget, OrderingList):
        order = widget.order
        shown = tuple(display_order) or tuple(range(len(order)))
        if order == shown and not initial_counts:
            return None
        return OrderingAnswer(order)
    return None


__all__ = [
    "FLASHCARD_HINT",
    "NUMBER_CHARACTERS",
    "NumberInput",
    "answer_widget",
    "choice_answer",
    "numeric_hint",
    "read_answer",
]
