"""The history as it will be once the pending writes are saved: what the UI reads.

While answers wait for a lock or for disk space, the file does not have them yet; counts and
the drill queue must not offer those cards again as new or due. `PendingView` reads the store
and lays the writer's queue over it: a card with an answer pending is known and not due, and
pending buries and suspends (and their undoing) hide or show cards, in order. A practice
answer changes no card, only the list of questions missed in practice.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

from quizapp.srs.memory.scheduling import Card, review
from quizapp.srs.store.history import PRACTICE, HistoryStore
from quizapp.srs.store.writes import AnswerWrite, FlagWrite, RerateWrite, Write


class PendingView:
    def __init__(self, store: HistoryStore, pending: Sequence[Write]) -> None:
        self.store = store
        self.pending = list(pending)
        self.answers = [w for w in pending if isinstance(w, AnswerWrite) and w.kind != PRACTICE]
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

    def buried_ids(self, now: datetime) -> set[str]:
        buried = self.store.buried_ids(now)
        for flag in self.flags:
            if flag.action == "bury" and flag.until is not None and flag.until > now:
                buried.add(flag.question_id)
            elif flag.action == "unbury":
                buried.discard(flag.question_id)
        return buried

    def hidden_ids(self, now: datetime) -> set[str]:
        return set(self.suspended_ids()) | self.buried_ids(now)

    def card(self, question_id: str) -> Card | None:
        """The card as it will be once what waits is saved (None: never scheduled)."""
        card = self.store.card(question_id)
        for write in self.pending:
            answer, rating, before = write, None, card
            if isinstance(write, RerateWrite):
                # Its answer is saved with the first rating: schedule it again from before it.
                target = write.target.review_id
                found = None if target is None else self.store.review_card_before(target)
                if found is None or found[0] != question_id:
                    continue
                answer, rating, before = write.target.write, write.rating, found[1]
            if (
                isinstance(answer, AnswerWrite)
                and answer.question_id == question_id
                and answer.kind != PRACTICE
            ):
                card, _ = review(
                    answer.scheduler,
                    before,
                    rating or answer.rating,
                    answer.when,
                    answer.duration_ms,
                    fuzz_key=question_id,
                )
        return card

    def due_ids(self, now: datetime) -> list[str]:
        return [q for q in self.store.due_ids(now) if q not in self.answered]

    def known_ids(self) -> set[str]:
        return self.store.known_ids() | self.answered

    def missed_in_practice_ids(self, question_ids: Iterable[str]) -> set[str]:
        """The store's missed list, with the waiting answers laid over it in order: a wrong
        practice answer puts its question on it, any other answer takes it off."""
        wanted = set(question_ids)
        missed = self.store.missed_in_practice_ids(wanted)
        for write in self.pending:
            if isinstance(write, AnswerWrite) and write.question_id in wanted:
                if write.kind == PRACTICE and not write.correct:
                    missed.add(write.question_id)
                else:
                    missed.discard(write.question_id)
        return missed

    def first_reviewed_since(self, since: datetime) -> int:
        known = self.store.known_ids()
        new = {
            w.question_id for w in self.answers if w.question_id not in known and w.when >= since
        }
        return self.store.first_reviewed_since(since) + len(new)

    def next_due(self, after: datetime, exclude: set[str] = frozenset()) -> datetime | None:
        return self.store.next_due(after, exclude=set(exclude) | self.answered)
