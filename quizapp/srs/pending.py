"""The history as it will be once the pending writes are saved: what the UI reads.

While answers wait for a lock or for disk space, the file does not have them yet; counts and
the drill queue must not offer those cards again as new or due. `PendingView` reads the store
and lays the writer's queue over it: a card with an answer pending is known and not due, and
pending buries and suspends (and their undoing) hide or show cards, in order.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from quizapp.srs.store import ReviewStore
from quizapp.srs.writer import AnswerWrite, FlagWrite, Write


class PendingView:
    def __init__(self, store: ReviewStore, pending: Sequence[Write]) -> None:
        self.store = store
        self.answers = [w for w in pending if isinstance(w, AnswerWrite)]
        self.flags = [w for w in pending if isinstance(w, FlagWrite)]
        self.answered = {w.question_id for w in self.answers}

    def suspended_ids(self) -> list[str]:
        suspended = set(self.store.suspended_ids())
        for flag in self.flags:
            if flag.action == "suspend":
                suspended.add(flag.question_id)
            elif flag.action == "unsuspend":
                suspended.discard(flag.question_id)
        return sorted(suspended)

    def hidden_ids(self, now: datetime) -> set[str]:
        suspended = set(self.suspended_ids())
        buried = self.store.buried_ids(now)
        for flag in self.flags:
            if flag.action == "bury" and flag.until is not None and flag.until > now:
                buried.add(flag.question_id)
            elif flag.action == "unbury":
                buried.discard(flag.question_id)
        return suspended | buried

    def due_ids(self, now: datetime) -> list[str]:
        return [q for q in self.store.due_ids(now) if q not in self.answered]

    def known_ids(self) -> set[str]:
        return self.store.known_ids() | self.answered

    def first_reviewed_since(self, since: datetime) -> int:
        known = self.store.known_ids()
        new = {
            w.question_id for w in self.answers if w.question_id not in known and w.when >= since
        }
        return self.store.first_reviewed_since(since) + len(new)

    def next_due(self, after: datetime, exclude: set[str] = frozenset()) -> datetime | None:
        return self.store.next_due(after, exclude=set(exclude) | self.answered)
