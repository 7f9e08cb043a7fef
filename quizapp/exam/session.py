"""A mock exam in progress: the questions, the answers so far, the flags, and the clock.
What grading it gives (ExamResult) is in quizapp/exam/result.py.

Pure Python: no textual, no torch. Nothing is graded until `submit`; until then every answer
can be changed. The clock is injected (monotonic seconds) so tests can move time by hand.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from quizapp.bank import responses
from quizapp.bank.answers import (
    Answer,
    ChoiceAnswer,
    NumberFormatError,
    NumericAnswerText,
    OrderingAnswer,
    TrueFalseAnswer,
    parse_number,
)
from quizapp.bank.grading import Grade, MissingKey, grade
from quizapp.bank.model import (
    ChoiceQuestion,
    ComputeSpec,
    Deck,
    Flashcard,
    NumericQuestion,
    OrderingQuestion,
    Question,
    TrueFalseQuestion,
)
from quizapp.bank.session import Attempt
from quizapp.exam.result import ExamResult, TopicResult, format_remaining
from quizapp.exam.sampling import MINUTES_PER_QUESTION, ExamPlan, sample_exam

Clock = Callable[[], float]
NO_ANSWER = "(no answer)"
KEY_UNKNOWN = "unknown: its computation failed"


class ExamClosed(RuntimeError):
    """The exam was submitted, or its time is up: answers can no longer change."""


@dataclass
class ExamSession:
    questions: list[Question]
    duration: float  # seconds allowed
    clock: Clock = time.monotonic
    threshold: float = 0.7
    seed: int = 0
    display_orders: dict[str, tuple[int, ...]] = field(default_factory=dict)
    requested: int | None = None  # N asked for (None: len(questions))
    excluded_flashcards: int = 0
    title: str = "Mock exam"
    index: int = 0
    answers: dict[str, Answer] = field(default_factory=dict)
    flagged: set[str] = field(default_factory=set)
    dwell: dict[str, float] = field(default_factory=dict)  # seconds spent on each question
    started_at: float | None = None
    submitted_at: float | None = None
    timed_out: bool = False
    _shown_at: float | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if not self.questions:
            raise ValueError("an exam needs at least one question")
        if not self.duration > 0:
            raise ValueError("an exam needs some time: minutes must be more than 0")
        if not 0 < self.threshold <= 1:
            raise ValueError(f"the pass threshold must be in (0, 1], not {self.threshold}")
        flashcards = [q.id for q in self.questions if isinstance(q, Flashcard)]
        if flashcards:
            raise ValueError(f"flashcards are self-graded and cannot be in an exam: {flashcards}")
        if self.requested is None:
            self.requested = len(self.questions)

    @classmethod
    def from_plan(
        cls,
        plan: ExamPlan,
        *,
        minutes: float | None = None,
        threshold: float = 0.7,
        clock: Clock = time.monotonic,
        title: str = "Mock exam",
    ) -> ExamSession:
        if minutes is None:
            minutes = MINUTES_PER_QUESTION * len(plan.questions)
        return cls(
            questions=list(plan.questions),
            duration=minutes * 60.0,
            clock=clock,
            threshold=threshold,
            seed=plan.seed,
            display_orders=dict(plan.display_orders),
            requested=plan.requested,
            excluded_flashcards=plan.excluded_flashcards,
            title=title,
        )

    @classmethod
    def create(
        cls,
        decks: Sequence[Deck],
        *,
        questions: int,
        minutes: float | None = None,
        seed: int | None = None,
        threshold: float = 0.7,
        clock: Clock = time.monotonic,
    ) -> ExamSession:
        """Sample an exam from the decks and set it up (the clock starts with `start`)."""
        if minutes is not None and not minutes > 0:
            raise ValueError(f"minutes must be more than 0, not {minutes}")
        plan = sample_exam(decks, questions, seed)
        if not plan.questions:
            raise ValueError("the bank has no questions an exam can ask (flashcards are left out)")
        return cls.from_plan(plan, minutes=minutes, threshold=threshold, clock=clock)

    # -- the clock -----------------------------------------------------------------------------

    def start(self) -> None:
        """Start the clock (once; later calls do nothing)."""
        if self.started_at is None:
            self.started_at = self.clock()
            self._shown_at = self.started_at

    @property
    def started(self) -> bool:
        return self.started_at is not None

    def elapsed(self) -> float:
        if self.started_at is None:
            return 0.0
        end = self.submitted_at if self.submitted_at is not None else self.clock()
        return min(self.duration, max(0.0, end - self.started_at))

    def remaining(self) -> float:
        return max(0.0, self.duration - self.elapsed())

    @property
    def expired(self) -> bool:
        return self.started and self.remaining() <= 0

    def remaining_text(self) -> str:
        return format_remaining(self.remaining())

    # -- where the student is ------------------------------------------------------------------

    @property
    def current(self) -> Question:
        return self.questions[self.index]

    @property
    def submitted(self) -> bool:
        return self.submitted_at is not None

    def go(self, index: int) -> bool:
        """Show question `index` (clamped to the exam). True if that moved anywhere."""
        index = max(0, min(len(self.questions) - 1, index))
        if index == self.index:
            return False
        self._note_dwell()
        self.index = index
        return True

    def next(self) -> bool:
        return self.go(self.index + 1)

    def previous(self) -> bool:
        return self.go(self.index - 1)

    def _note_dwell(self) -> None:
        if self._shown_at is None or self.submitted:
            return
        now = self.clock()
        qid = self.current.id
        self.dwell[qid] = self.dwell.get(qid, 0.0) + max(0.0, now - self._shown_at)
        self._shown_at = now

    # -- answers and flags ---------------------------------------------------------------------

    def _check_open(self) -> None:
        if self.submitted:
            raise ExamClosed("the exam has been submitted")
        if self.expired:
            raise ExamClosed("the time is up")

    def _question(self, question_id: str | None) -> Question:
        if question_id is None:
            return self.current
        for question in self.questions:
            if question.id == question_id:
                return question
        raise KeyError(question_id)

    def set_answer(self, answer: Answer | None, question_id: str | None = None) -> None:
        """Answer (or, with None, clear the answer to) the current or the named question."""
        self._check_open()
        question = self._question(question_id)
        if answer is None:
            self.answers.pop(question.id, None)
            return
        _check_kind(question, answer)
        self.answers[question.id] = answer

    def answer_of(self, question_id: str | None = None) -> Answer | None:
        return self.answers.get(self._question(question_id).id)

    def toggle_flag(self, question_id: str | None = None) -> bool:
        """Flag the question for review, or unflag it. Returns whether it is flagged now."""
        if self.submitted:
            raise ExamClosed("the exam has been submitted")
        qid = self._question(question_id).id
        if qid in self.flagged:
            self.flagged.discard(qid)
            return False
        self.flagged.add(qid)
        return True

    def is_answered(self, question_id: str | None = None) -> bool:
        """Answered with something that can be graded: a numeric answer that is not a number
        is kept, but it is `unreadable`, not answered."""
        question = self._question(question_id)
        answer = self.answers.get(question.id)
        return answer is not None and _readable(question, answer)

    def is_unreadable(self, question_id: str | None = None) -> bool:
        """A numeric answer that is not a number: as typed, it would be graded wrong."""
        question = self._question(question_id)
        answer = self.answers.get(question.id)
        return answer is not None and not _readable(question, answer)

    @property
    def answered(self) -> list[str]:
        """The questions answered with something gradable, in exam order."""
        return [q.id for q in self.questions if self.is_answered(q.id)]

    @property
    def unanswered(self) -> list[str]:
        """The questions with no answer at all (an unreadable one is in `unreadable`)."""
        return [q.id for q in self.questions if q.id not in self.answers]

    @property
    def flagged_ids(self) -> list[str]:
        """The flagged questions in exam order."""
        return [q.id for q in self.questions if q.id in self.flagged]

    @property
    def unreadable(self) -> list[str]:
        """Numeric answers that are not a number, in exam order: they would be graded wrong."""
        return [q.id for q in self.questions if self.is_unreadable(q.id)]

    # -- submitting ----------------------------------------------------------------------------

    def submit(
        self,
        *,
        timed_out: bool = False,
        pending: Mapping[str, Answer | None] | None = None,
    ) -> None:
        """Close the exam: the clock stops and answers are final. Grade with `grade`.

        `pending`: answers still on the screen when the exam closed (by id; None clears).
        They count even when the time is up, as a paper's last line counts at the bell.
        """
        if self.submitted:
            return
        for qid, answer in (pending or {}).items():
            question = self._question(qid)
            if answer is None:
                self.answers.pop(question.id, None)
            else:
                _check_kind(question, answer)
                self.answers[question.id] = answer
        self._note_dwell()
        now = self.clock()
        if self.started_at is not None:
            now = min(now, self.started_at + self.duration)  # never more than the time allowed
        self.submitted_at = now
        self.timed_out = timed_out or (self.started and self.remaining() <= 0)

    def derived_keys(self) -> dict[str, ComputeSpec]:
        """The questions whose key is a value of their computation, by id, with that computation.

        Their computations must run (LabService.run(spec.name, spec.args)) before grading, and
        their `Result.values` be given to `grade` as `derived[question_id]`.
        """
        return {
            q.id: q.compute
            for q in self.questions
            if isinstance(q, NumericQuestion)
            and q.answer.value is None
            and q.answer.from_value is not None
            and q.compute is not None
        }

    def grade(
        self,
        derived: Mapping[str, Mapping[str, object]] | None = None,
        *,
        taken: datetime | None = None,
    ) -> ExamResult:
        """Grade the submitted exam. `derived`: each derived key's computed values, by id.

        Unanswered questions are wrong. An answered question whose derived key is missing
        (its computation failed) is left unscored, as in a quiz session.
        """
        if not self.submitted:
            raise RuntimeError("submit the exam before grading it")
        derived = derived or {}
        attempts: list[Attempt] = []
        unscored: list[str] = []
        selected: dict[str, frozenset[int]] = {}
        for question in self.questions:
            values = derived.get(question.id)
            answer = self.answers.get(question.id)
            seconds = self.dwell.get(question.id, 0.0)
            if answer is None:
                attempts.append(Attempt(question, _unanswered_grade(question, values), seconds))
                continue
            if isinstance(answer, ChoiceAnswer):
                selected[question.id] = answer.selected
            try:
                result = grade(question, answer, values)
            except NumberFormatError:
                assert isinstance(answer, NumericAnswerText)
                expected = _unanswered_grade(question, values).expected
                result = Grade(
                    False,
                    expected,
                    f"{answer.text.strip()} (not a number)",
                    response=responses.encode(question, answer),
                )
            except MissingKey:
                unscored.append(question.id)
                continue
            attempts.append(Attempt(question, result, seconds))
        topics: dict[str, list[int]] = {}
        for attempt in attempts:
            entry = topics.setdefault(attempt.question.topic, [0, 0])
            entry[0] += attempt.grade.correct
            entry[1] += 1
        correct = sum(a.grade.correct for a in attempts)
        scored = len(attempts)
        return ExamResult(
            taken=taken or datetime.now(UTC),
            questions=scored,
            correct=correct,
            passed=bool(scored) and correct / scored >= self.threshold - 1e-12,
            threshold=self.threshold,
            seconds=self.elapsed(),
            seed=self.seed,
            duration=self.duration,
            timed_out=self.timed_out,
            by_topic=tuple(TopicResult(t, c, n) for t, (c, n) in sorted(topics.items())),
            attempts=tuple(attempts),
            unanswered=tuple(self.unanswered),
            flagged=tuple(self.flagged_ids),
            unscored=tuple(unscored),
            requested=self.requested or len(self.questions),
            excluded_flashcards=self.excluded_flashcards,
            selected=selected,
            display_orders=dict(self.display_orders),
        )


def _readable(question: Question, answer: Answer) -> bool:
    if not isinstance(answer, NumericAnswerText) or not isinstance(question, NumericQuestion):
        return True
    try:
        parse_number(answer.text, question.answer.unit)
    except NumberFormatError:
        return False
    return True


def _check_kind(question: Question, answer: Answer) -> None:
    expected = {
        ChoiceQuestion: ChoiceAnswer,
        TrueFalseQuestion: TrueFalseAnswer,
        NumericQuestion: NumericAnswerText,
        OrderingQuestion: OrderingAnswer,
    }
    for kind, answer_type in expected.items():
        if isinstance(question, kind):
            if not isinstance(answer, answer_type):
                raise TypeError(f"{question.id} takes a {answer_type.__name__}")
            return
    raise TypeError(f"an exam cannot answer {type(question).__name__}")


def _unanswered_grade(question: Question, derived: Mapping[str, object] | None) -> Grade:
    """Wrong, with the key written out as grade() writes it."""
    probe: Answer
    if isinstance(question, ChoiceQuestion):
        probe = ChoiceAnswer(frozenset())
    elif isinstance(question, TrueFalseQuestion):
        probe = TrueFalseAnswer(not question.answer)
    elif isinstance(question, OrderingQuestion):
        probe = OrderingAnswer(tuple(range(len(question.steps))))
    elif isinstance(question, NumericQuestion):
        probe = NumericAnswerText("0")
    else:  # pragma: no cover - flashcards never reach an exam
        raise TypeError(type(question).__name__)
    try:
        expected = grade(question, probe, derived).expected
    except MissingKey:
        expected = KEY_UNKNOWN
    return Grade(False, expected, NO_ANSWER)


__all__ = [
    "KEY_UNKNOWN",
    "NO_ANSWER",
    "Clock",
    "ExamClosed",
    "ExamSession",
]
