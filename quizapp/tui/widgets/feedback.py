"""What the student sees after answering: the verdict, the rating the scheduler took and
when the card comes back, the key, the whys and the explanation."""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Label

from quizapp.bank.answers import RATING_NAMES
from quizapp.bank.grading import Grade
from quizapp.bank.model import (
    ChoiceQuestion,
    Flashcard,
    NumericQuestion,
    OrderingQuestion,
    Question,
    QuestionType,
    TrueFalseQuestion,
)
from quizapp.tui.widgets.bank_markdown import BankMarkdown


def shown_numbers(question: ChoiceQuestion, order: Sequence[int]) -> dict[int, int]:
    """Each option's number as the student saw it (1-based), by its index in the bank.
    `order` is the options' display order (bank indices); empty: the bank's own order."""
    positions = order if sorted(order) == list(range(len(question.choices))) else ()
    return {
        index: number for number, index in enumerate(positions or range(len(question.choices)), 1)
    }


def numbered_options(
    question: ChoiceQuestion, indices: frozenset[int], order: Sequence[int]
) -> str:
    """Options, numbered and ordered as the student saw them."""
    numbers = shown_numbers(question, order)
    shown = sorted(indices, key=numbers.__getitem__)
    return "; ".join(f"{numbers[i]}. {question.choices[i].text}" for i in shown) or "(nothing)"


def option_mark(question: ChoiceQuestion, index: int, selected: frozenset[int]) -> str:
    """How the student's response stands against one option. A multiple-choice question marks
    all four ways: picked and right, picked and wrong, missed, rightly left out."""
    picked, correct = index in selected, question.choices[index].correct
    multiple = question.type is QuestionType.MULTIPLE_CHOICE
    if picked:
        return "✓ your pick, correct" if correct else "✗ your pick, wrong"
    if correct:
        return "✗ missed: correct, not picked" if multiple else "the correct answer"
    return "✓ rightly left out"


def whys(
    question: Question,
    grade: Grade,
    selected: frozenset[int] | None = frozenset(),
    order: Sequence[int] = (),
) -> list[str]:
    """The `why` lines that matter for this answer. A single-choice question: those of the
    option picked and the correct one. A multiple-choice one: every option, each marked, so a
    missed option cannot pass for a picked one. Numbered and ordered as the student saw them."""
    lines: list[str] = []
    if isinstance(question, ChoiceQuestion) and selected is None:
        # Neither the picks nor the order shown are known here (a review from the summary):
        # the key's whys, unmarked and unnumbered.
        for index in sorted(question.correct_indices):
            choice = question.choices[index]
            if choice.why:
                lines.append(f"- **{choice.text}** (correct): {choice.why}")
    elif isinstance(question, ChoiceQuestion):
        numbers = shown_numbers(question, order)
        every = question.type is QuestionType.MULTIPLE_CHOICE
        for index in sorted(range(len(question.choices)), key=numbers.__getitem__):
            choice = question.choices[index]
            if not every and (index not in selected | question.correct_indices or not choice.why):
                continue
            tag = option_mark(question, index, selected)
            line = f"- {numbers[index]}. **{choice.text}** ({tag})"
            lines.append(line + (f": {choice.why}" if choice.why else ""))
    elif isinstance(question, TrueFalseQuestion):
        for value, why in ((True, question.why_true), (False, question.why_false)):
            if why:
                tag = "correct" if value == question.answer else "the trap"
                lines.append(f"- **{value}** ({tag}): {why}")
    elif isinstance(question, NumericQuestion):
        if grade.trap:
            lines.append(f"- **{grade.given}** is a known trap: {grade.trap}")
    elif isinstance(question, OrderingQuestion):
        lines.extend(
            f"{i}. **{s.text}**" + (f": {s.why}" if s.why else "")
            for i, s in enumerate(question.steps, 1)
        )
    return lines


class Feedback(Vertical):
    DEFAULT_CSS = """
    Feedback { height: auto; padding: 0 1; border: round $primary; margin: 1 0; }
    Feedback > #verdict { text-style: bold; padding: 0 1; width: 100%; }
    Feedback > #verdict.-right { background: $success 35%; }
    Feedback > #verdict.-wrong { background: $error 35%; }
    Feedback > #rating-line { padding: 0 1; color: $text-muted; width: 100%; }
    Feedback > #rating-choices { padding: 0 1; color: $text-muted; width: 100%; }
    Feedback > Markdown { margin: 0; padding: 0 1; }
    """

    def __init__(
        self,
        question: Question,
        grade: Grade,
        selected: frozenset[int] | None = None,
        *,
        order: Sequence[int] = (),
        schedule: str | None = None,
        choices: str = "",
    ) -> None:
        super().__init__(id="feedback")
        self.question = question
        self.grade = grade
        self.selected = selected  # the options picked (bank indices); None: not known here
        self.order = tuple(order)  # a choice question's options as shown (bank indices)
        self.schedule = schedule  # "Rated Good · back in 3 days"; None: not scheduled
        self.choices = choices  # "1 Again 10 min · 2 Hard 2 days · …"; "": nothing to choose

    def show_schedule(self, schedule: str) -> None:
        """Another rating was chosen (1–4): say what it does."""
        self.schedule = schedule
        rating_line = self.query_one("#rating-line", Label)
        rating_line.update(schedule)
        rating_line.display = bool(schedule)

    def compose(self) -> ComposeResult:
        grade, question = self.grade, self.question
        if isinstance(question, Flashcard):
            verdict = f"You graded it {RATING_NAMES.get(grade.rating or 0, '?')}"
        else:
            verdict = "✓ Correct" if grade.correct else "✗ Not quite"
        label = Label(verdict, id="verdict")
        label.add_class("-right" if grade.correct else "-wrong")
        yield label
        # Our own words and numbers, no bank text: plain, not markup, all the same.
        rating_line = Label(self.schedule or "", id="rating-line", markup=False)
        rating_line.display = bool(self.schedule)
        yield rating_line
        choices = Label(self.choices, id="rating-choices", markup=False)
        choices.display = bool(self.choices)
        yield choices
        parts: list[str] = []
        if isinstance(question, Flashcard):
            parts.append(f"**Back:**\n\n{question.back}")
        else:
            given, expected = grade.given, grade.expected
            if isinstance(question, ChoiceQuestion) and self.selected is not None:
                given = numbered_options(question, self.selected, self.order)
                expected = numbered_options(question, question.correct_indices, self.order)
            if not grade.correct:
                parts.append(f"**Your answer:** {given}")
            parts.append(f"**Correct answer:** {expected}")
        why_lines = whys(question, grade, self.selected, self.order)
        if why_lines:
            parts.append("\n".join(why_lines))
        parts.append("### Explanation\n\n" + question.explanation)
        yield BankMarkdown("\n\n".join(parts), id="feedback-text")
