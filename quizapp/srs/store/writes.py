"""The writes the history writer queues: each a value that knows how to apply itself to a
store in one transaction, and the ticket that follows one from submission to saved.

Shared by the writer (quizapp/srs/store/writer.py), which applies them in order, and the outbox
(quizapp/srs/store/outbox.py), which keeps them on disk while the class server is out of reach.
Pure Python: the store and the scheduler are annotations only.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from quizapp.srs.memory.scheduling import Rating, Scheduler
    from quizapp.srs.store.history import HistoryStore


@dataclass(eq=False)
class Ticket:
    """One submitted write, and what became of it."""

    write: Write
    submitted: float = field(default_factory=time.monotonic)
    attempts: int = 0  # failed attempts so far
    saved: bool = False
    cancelled: bool = False
    withdrawn: bool = False  # taken back while being written: dropped, or undone once saved
    review_id: int | None = None  # an answer: the row it wrote (undo takes back exactly that)
    outcome: Any = None  # an undo: the question id taken back, or None
    kept: int | None = (
        None  # its place in the outbox (quizapp/srs/store/outbox.py), once kept there
    )
    kept_write: Write | None = None  # the write as kept (a rerating may change it since)


class Write(Protocol):
    def apply(self, store: HistoryStore, ticket: Ticket) -> None:
        """Write, in one transaction. Called again after a failure (ticket.attempts > 0)."""


@dataclass(frozen=True)
class AnswerWrite:
    question_id: str
    deck_id: str
    topic: str
    rating: Rating
    correct: bool
    when: datetime  # when it was given: a write that waits still records the true time
    duration_ms: int | None
    kind: str
    scheduler: Scheduler
    response: Mapping[str, object] | None = None  # what was answered (bank/responses.py)
    # A UUID made when it was given (PostgreSQL only): sent twice, it is stored once.
    answer_id: str | None = None
    # How it came in its session: first, repeat or aided (quizapp/srs/readiness/evidence.py); None:
    # not said (an outbox kept by an older quizapp).
    attempt: str | None = None

    def apply(self, store: HistoryStore, ticket: Ticket) -> None:
        if ticket.attempts and self.answer_id is None:
            # A COMMIT that reported an error may still have reached the disk (an fsync error
            # after the WAL frame was written): look before writing the answer twice.
            found = store.find_review(
                question_id=self.question_id,
                when=self.when,
                kind=self.kind,
                rating=self.rating,
                duration_ms=self.duration_ms,
            )
            if found is not None:
                ticket.review_id = found
                return
        store.record_answer(
            question_id=self.question_id,
            deck_id=self.deck_id,
            topic=self.topic,
            rating=self.rating,
            correct=self.correct,
            when=self.when,
            duration_ms=self.duration_ms,
            kind=self.kind,
            scheduler=self.scheduler,
            response=self.response,
            attempt=self.attempt,
            **({} if self.answer_id is None else {"answer_id": self.answer_id}),
        )
        ticket.review_id = store.last_review_id


@dataclass(frozen=True)
class UndoWrite:
    """Take back the answer `target` wrote (it was saved, or being saved, when undo came)."""

    target: Ticket

    def apply(self, store: HistoryStore, ticket: Ticket) -> None:
        review_id = self.target.review_id
        if review_id is None:
            return
        if ticket.attempts and not store.has_review(review_id):
            ticket.outcome = True  # an earlier attempt did it after all
            return
        ticket.outcome = store.undo_review(review_id)


@dataclass(frozen=True)
class RerateWrite:
    """Give the answer `target` wrote another rating: the same row, rescheduled (see
    ReviewStore.rerate_review). Queued behind its answer, so the answer is saved first."""

    target: Ticket
    rating: Rating
    scheduler: Scheduler

    def apply(self, store: HistoryStore, ticket: Ticket) -> None:
        review_id = self.target.review_id
        if review_id is None:  # the answer was dropped (undone) before it was saved
            return
        ticket.outcome = store.rerate_review(review_id, self.rating, self.scheduler)


FLAG_ACTIONS = ("bury", "unbury", "suspend", "unsuspend")


@dataclass(frozen=True)
class FlagWrite:
    question_id: str
    action: str  # one of FLAG_ACTIONS
    until: datetime | None = None  # bury: hidden until then

    def apply(self, store: HistoryStore, ticket: Ticket) -> None:
        if self.action == "bury":
            assert self.until is not None
            store.bury(self.question_id, self.until)
        elif self.action == "unbury":
            store.unbury(self.question_id)
        else:
            store.set_suspended(self.question_id, self.action == "suspend")


@dataclass(frozen=True)
class ExamWrite:
    record: dict[str, Any]  # ReviewStore.record_exam's keyword arguments

    def apply(self, store: HistoryStore, ticket: Ticket) -> None:
        if ticket.attempts and store.find_exam(self.record["taken"]) is not None:
            return
        store.record_exam(**self.record)
