"""What the student sees after answering: the verdict, the rating the scheduler took and
when the card comes back, the key, the whys and the explanation."""

from __future__ import annotations

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
    TrueFalseQuestion,
)
from quizapp.tui.widgets.bank_markdown import BankMarkdown


def whys(question: Question, grade: Grade, selected: frozenset[int] = frozenset()) -> list[str]:
    """The `why` lines that matter for this answer: of each option chosen and each correct one."""
    lines: list[str] = []
    if isinstance(question, ChoiceQuestion):
        shown = sorted(selected | question.correct_indices)
        for index in shown:
            choice = question.choices[index]
            if not choice.why:
                continue
            if choice.correct and index in selected:
                tag = "✓ your pick, correct"
            elif choice.correct:
                tag = "✓ correct"
            else:
                tag = "✗ your pick"
            lines.append(f"- **{choice.text}** ({tag}): {choice.why}")
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
    Feedback > Markdown { margin: 0; padding: 0 1; }
    """

    def __init__(
        self,
        question: Question,
        grade: Grade,
        selected: frozenset[int] = frozenset(),
        *,
        schedule: str | None = None,
    ) -> None:
        super().__init__(id="feedback")
        self.question = question
        self.grade = grade
        self.selected = selected
        self.schedule = schedule  # "Rated Good · back in 3 days"; None: not scheduled

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
        parts: list[str] = []
        if isinstance(question, Flashcard):
            parts.append(f"**Back:**\n\n{question.back}")
        else:
            if not grade.correct:
                parts.append(f"**Your answer:** {grade.given}")
            parts.append(f"**Correct answer:** {grade.expected}")
        why_lines = whys(question, grade, self.selected)
        if why_lines:
            parts.append("\n".join(why_lines))
        parts.append("### Explanation\n\n" + question.explanation)
        yield BankMarkdown("\n\n".join(parts), id="feedback-text")
