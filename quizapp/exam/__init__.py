"""Mock exams: questions sampled by deck weight, a countdown, no feedback until submit.

Pure Python: nothing here imports torch or textual. The TUI side is
quizapp.tui.screens.exam (ExamScreen) and quizapp.tui.screens.exam_report
(ExamReportScreen).
"""

from quizapp.exam.result import ExamResult, TopicResult, format_duration, format_remaining
from quizapp.exam.sampling import (
    DEFAULT_QUESTIONS,
    MINUTES_PER_QUESTION,
    DeckShare,
    ExamPlan,
    apportion,
    exam_questions,
    sample_exam,
)
from quizapp.exam.session import ExamClosed, ExamSession

__all__ = [
    "DEFAULT_QUESTIONS",
    "MINUTES_PER_QUESTION",
    "DeckShare",
    "ExamClosed",
    "ExamPlan",
    "ExamResult",
    "ExamSession",
    "TopicResult",
    "apportion",
    "exam_questions",
    "format_duration",
    "format_remaining",
    "sample_exam",
]
