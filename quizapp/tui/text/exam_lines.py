"""What the mock exam's lines say, from the exam's state (quizapp/tui/screens/exam.py shows them):
the question list, the position line, a question's topic line and the "Submit?" detail."""

from __future__ import annotations

from rich.text import Text

from quizapp.bank.answers import NumberFormatError, parse_number
from quizapp.bank.model import NumericQuestion, Question, QuestionType
from quizapp.bank.number_examples import NumberExamples
from quizapp.exam.result import format_duration
from quizapp.exam.session import ExamSession
from quizapp.tui.widgets.answer_input import numeric_hint
from quizapp.wording import plural

EXAM_ENTER = "Enter keep it and go on"
EXAM_HINTS = {
    QuestionType.SINGLE_CHOICE: f"1–9 pick · {EXAM_ENTER}",
    QuestionType.MULTIPLE_CHOICE: f"Select all that apply: 1–9 toggle · {EXAM_ENTER}",
    QuestionType.TRUE_FALSE: f"1 True · 2 False · {EXAM_ENTER}",
    QuestionType.ORDERING: f"↑/↓ choose a step · shift+↑/↓ or [ ] move it · {EXAM_ENTER}",
}
NAV_HINT = "n/→ next · p/← previous · f flag · g go to · ctrl+s submit"


def subtitle(exam: ExamSession) -> str:
    minutes = format_duration(exam.duration)
    return f"{exam.title}: {plural(len(exam.questions), 'question')} in {minutes}"


def nav_line(exam: ExamSession, index: int) -> Text:
    """One question in the list: its number, answered or not, flagged or not, its topic."""
    question = exam.questions[index]
    answered = exam.is_answered(question.id)
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append(f"{index + 1:>{len(str(len(exam.questions)))}} ")
    if exam.is_unreadable(question.id):
        # Kept, but not a number: it would be marked wrong, so it does not count as answered.
        text.append("✗", style="bold red")
    else:
        text.append("●" if answered else "○", style="green" if answered else "dim")
    text.append("⚑" if question.id in exam.flagged else " ", style="bold yellow")
    text.append(" ")
    text.append(question.topic, style="" if answered else "dim")
    return text


def position_line(exam: ExamSession, width: int) -> str:
    """Where the student is and what is answered; shorter when `width` columns cannot hold it."""
    counts = [f"{len(exam.answered)} answered"]
    if exam.unreadable:  # kept, but not counted as answered: see the ✗ in the list
        counts.append(f"{len(exam.unreadable)} not a number")
    counts.append(f"{len(exam.flagged)} flagged")
    where = f"Question {exam.index + 1} of {len(exam.questions)}"
    text = " · ".join([where, *counts])
    if width and len(text) > width:  # a narrow terminal
        text = " · ".join([f"Q {exam.index + 1}/{len(exam.questions)}", *counts])
    return text


def meta_line(exam: ExamSession, question: Question) -> str:
    kind = question.type.value.replace("_", " ")
    flag = "⚑ flagged for review · " if question.id in exam.flagged else ""
    return f"{flag}{question.topic} · {question.difficulty.value} · {kind}"


def submit_detail(exam: ExamSession) -> str:
    """What "Submit the exam?" says: what is left undone, and the time left."""
    unanswered, flagged, unreadable = exam.unanswered, exam.flagged_ids, exam.unreadable
    numbers = ", ".join(str(question_number(exam, q)) for q in flagged)
    lines = [
        f"{len(unanswered)} unanswered (marked wrong)",
        f"{len(flagged)} flagged for review" + (f": {numbers}" if flagged else ""),
    ]
    if unreadable:
        lines.append(f"{plural(len(unreadable), 'numeric answer')} not a number (marked wrong)")
    lines.append(f"{exam.remaining_text()}; answers cannot change after.")
    return "\n".join(lines)


def question_number(exam: ExamSession, question_id: str) -> int:
    return next(i for i, q in enumerate(exam.questions, 1) if q.id == question_id)


def key_hint(question: Question, examples: NumberExamples | None) -> str | Text:
    """The keys that answer this question (a number box's hint shows safe example numbers)."""
    if isinstance(question, NumericQuestion):
        return numeric_hint(question, EXAM_ENTER, examples)
    return EXAM_HINTS.get(question.type, "")


def typed_number_problem(
    question: Question, text: str, examples: NumberExamples | None
) -> str | None:
    """Why the number typed so far would be marked wrong; None when it reads as a number."""
    unit = question.answer.unit if isinstance(question, NumericQuestion) else None
    try:
        if text.strip():
            parse_number(text, unit)
    except NumberFormatError as exc:
        reason = exc.explained(examples.whole if examples else None)
        return f"{reason}: as typed, this answer would be marked wrong"
    return None
