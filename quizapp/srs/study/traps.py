"""The student's traps: the wrong choices, wrong truth values and numeric traps they picked,
from the responses the history keeps (quizapp/bank/responses.py), and the trap drill's set.

- `your_traps`: every known wrong answer the student gave, most often first, with the bank's
  why, how many times and when last. Drills, quizzes, practice and mock exams all count.
- `trap_question_ids`: the questions whose traps the student fell for and has not yet answered
  right on two separate local days since the latest fall. Falling for one again puts the
  question back.

Pure: reads the store (`responses()`, `reviews()`, `exams()`) and the bank, writes nothing.
A question no longer in the bank, or a response that no longer fits it, is left out.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, Protocol

from quizapp.bank.model import Question
from quizapp.bank.responses import FallenTrap, fallen_traps, variant
from quizapp.bank.variants import instantiate
from quizapp.srs.memory.scheduling import require_aware

# Right answers on this many separate local days (after the latest fall) clear a trap.
DAYS_TO_CLEAR = 2


class _History(Protocol):
    def responses(self) -> Iterator[Any]: ...
    def reviews(self) -> Iterator[Any]: ...
    def exams(self) -> list[dict[str, object]]: ...


@dataclass(frozen=True)
class TrapCount:
    question_id: str
    prompt: str
    answer: str  # the wrong answer picked, as the bank writes it
    why: str | None  # the bank's why for it
    times: int
    last: datetime

    def as_json(self) -> dict[str, object]:
        return {
            "question_id": self.question_id,
            "prompt": self.prompt,
            "answer": self.answer,
            "why": self.why,
            "times": self.times,
            "last": self.last.isoformat(),
        }


@dataclass(frozen=True)
class GivenAnswer:
    """One answer: to which question, when, whether right, and what (None: not kept)."""

    question_id: str
    when: datetime
    correct: bool
    response: Mapping[str, object] | None


def exam_answers(exams: list[dict[str, object]]) -> Iterator[GivenAnswer]:
    """The mock exams' answers: right or wrong from the exam's missed list, the responses
    from its detail (kept from schema step 3 on)."""
    for exam in exams:
        detail = exam.get("detail")
        taken = exam.get("taken")
        if not isinstance(detail, dict) or not isinstance(taken, str):
            continue
        try:
            when = require_aware(datetime.fromisoformat(taken))
        except ValueError:
            continue
        ids = detail.get("question_ids")
        missed = detail.get("missed")
        kept = detail.get("responses")
        kept = kept if isinstance(kept, dict) else {}
        missed_ids = set(missed) if isinstance(missed, list) else set()
        for qid in ids if isinstance(ids, list) else []:
            if isinstance(qid, str):
                response = kept.get(qid)
                yield GivenAnswer(
                    qid,
                    when,
                    qid not in missed_ids,
                    response if isinstance(response, dict) else None,
                )


def _answers(store: _History) -> list[GivenAnswer]:
    """Every answer, oldest first: reviews (with their responses) and mock exam questions."""
    kept = {(r.question_id, r.reviewed_at): r.response for r in store.responses()}
    given = [
        GivenAnswer(
            r.question_id, r.reviewed_at, r.correct, kept.get((r.question_id, r.reviewed_at))
        )
        for r in store.reviews()
    ]
    given.extend(exam_answers(store.exams()))
    given.sort(key=lambda g: g.when)
    return given


def _as_shown(question: Question, response: Mapping[str, object]) -> Question:
    """The question as the student saw it: a varied question with the stored variant's values
    written in, when every one is still among the bank's values."""
    assignment = variant(response)
    allowed = question.vary
    if (
        allowed
        and set(assignment) == set(allowed)
        and all(assignment[name] in values for name, values in allowed.items())
    ):
        return instantiate(question, assignment)
    return question


def _fallen(question: Question, response: Mapping[str, object]) -> list[FallenTrap]:
    return fallen_traps(_as_shown(question, response), response)


def your_traps(store: _History, bank_questions: Mapping[str, Question]) -> list[TrapCount]:
    """Each trap the student fell for, most often first (then most recent first)."""
    tally: dict[tuple[str, str], TrapCount] = {}
    for given in _answers(store):
        question = bank_questions.get(given.question_id)
        if question is None or given.response is None or given.correct:
            continue
        shown = _as_shown(question, given.response)
        for trap in fallen_traps(shown, given.response):
            key = (trap.question_id, trap.key)
            before = tally.get(key)
            tally[key] = TrapCount(
                question_id=trap.question_id,
                prompt=shown.prompt,
                answer=trap.answer,
                why=trap.why,
                times=1 + (before.times if before else 0),
                last=given.when,
            )
    return sorted(tally.values(), key=lambda t: (-t.times, -t.last.timestamp(), t.question_id))


def trap_question_ids(store: _History, bank_questions: Mapping[str, Question]) -> list[str]:
    """The trap drill's questions, the most recently fallen-for first: a trap fallen for,
    and not answered right on `DAYS_TO_CLEAR` separate local days since."""
    latest_fall: dict[str, datetime] = {}
    right_days: dict[str, set[date]] = {}
    for given in _answers(store):
        question = bank_questions.get(given.question_id)
        if question is None:
            continue
        if not given.correct and given.response is not None and _fallen(question, given.response):
            latest_fall[given.question_id] = given.when
            right_days[given.question_id] = set()  # counting starts again
        elif given.correct and given.question_id in latest_fall:
            right_days[given.question_id].add(given.when.astimezone().date())
    open_ids = [qid for qid, days in right_days.items() if len(days) < DAYS_TO_CLEAR]
    return sorted(open_ids, key=lambda qid: latest_fall[qid], reverse=True)


__all__ = ["DAYS_TO_CLEAR", "TrapCount", "trap_question_ids", "your_traps"]
