"""A graded mock exam: the score, by topic, pass or fail, what was missed, and the record kept
of it; and how an exam's times are written. Pure Python: no textual, no torch."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from quizapp.bank.session import Attempt


def format_remaining(seconds: float) -> str:
    """`23:41 left`, `1:02:03 left`; rounded up, so `0:00 left` means the time is up."""
    whole = max(0, math.ceil(seconds - 1e-9))
    return f"{format_duration(whole)} left"


def format_duration(seconds: float) -> str:
    """`m:ss` below an hour, `h:mm:ss` from one hour up (rounded to the second)."""
    whole = max(0, round(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


@dataclass(frozen=True)
class TopicResult:
    topic: str
    correct: int
    questions: int

    @property
    def score(self) -> float:
        return self.correct / self.questions if self.questions else 0.0


@dataclass(frozen=True)
class ExamResult:
    """A graded exam: what the report shows and what ReviewStore.record_exam stores."""

    taken: datetime  # when it was submitted, timezone-aware
    questions: int  # questions scored (a derived key that could not be computed is not)
    correct: int
    passed: bool
    threshold: float  # share of `questions` right needed to pass
    seconds: float  # time used
    seed: int
    duration: float  # time allowed, in seconds
    timed_out: bool
    by_topic: tuple[TopicResult, ...]  # sorted by topic
    attempts: tuple[Attempt, ...]  # every scored question in exam order, unanswered included
    unanswered: tuple[str, ...]  # question ids
    flagged: tuple[str, ...]
    unscored: tuple[str, ...]  # answered, but the computation behind the key failed
    requested: int
    excluded_flashcards: int
    selected: Mapping[str, frozenset[int]] = field(default_factory=dict)  # choice picks by id
    # Each choice question's options in the order shown (bank indices), by id.
    display_orders: Mapping[str, tuple[int, ...]] = field(default_factory=dict)

    @property
    def score(self) -> float:
        return self.correct / self.questions if self.questions else 0.0

    @property
    def missed(self) -> list[Attempt]:
        """Every question not answered right, unanswered ones included, in exam order."""
        return [a for a in self.attempts if not a.grade.correct]

    @property
    def missed_ids(self) -> tuple[str, ...]:
        return tuple(a.question.id for a in self.missed)

    @property
    def detail(self) -> dict[str, Any]:
        """JSON-ready: by-topic scores, the seed, the missed ids, the unanswered count…"""
        return {
            "seed": self.seed,
            "by_topic": {
                t.topic: {"correct": t.correct, "questions": t.questions} for t in self.by_topic
            },
            "missed": list(self.missed_ids),
            "unanswered": len(self.unanswered),
            "unanswered_ids": list(self.unanswered),
            "flagged": list(self.flagged),
            "unscored": list(self.unscored),
            "question_ids": [a.question.id for a in self.attempts],
            # What was answered, by id (quizapp/bank/responses.py); blank ones are left out.
            "responses": {
                a.question.id: dict(a.grade.response)
                for a in self.attempts
                if a.grade.response is not None
            },
            "timed_out": self.timed_out,
            "duration_seconds": self.duration,
            "requested": self.requested,
            "excluded_flashcards": self.excluded_flashcards,
        }

    def record_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for ReviewStore.record_exam."""
        return {
            "taken": self.taken,
            "questions": self.questions,
            "correct": self.correct,
            "passed": self.passed,
            "threshold": self.threshold,
            "seconds": self.seconds,
            "detail": self.detail,
        }
