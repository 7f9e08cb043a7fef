"""The drill queue: today's due cards first, then new cards up to the daily limit.

New cards are interleaved across decks (round-robin), so a drill never turns into one topic
at a time. Suspended and buried cards stay out. The day starts at local midnight.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from typing import TYPE_CHECKING

from quizapp.bank.model import Question
from quizapp.srs.store.history import HistoryStore

if TYPE_CHECKING:
    from quizapp.srs.store.pending import PendingView


@dataclass(frozen=True)
class DrillQueue:
    due: list[Question]
    new: list[Question]
    next_due: datetime | None  # the next card to come due after these, for "nothing due" messages

    @property
    def questions(self) -> list[Question]:
        return self.due + self.new

    def __len__(self) -> int:
        return len(self.due) + len(self.new)


def start_of_day(now: datetime) -> datetime:
    local = now.astimezone()  # the student's day, not UTC's
    return datetime.combine(local.date(), time(0), tzinfo=local.tzinfo)


def build_drill_queue(
    store: HistoryStore | PendingView,
    questions: Mapping[str, Question],
    now: datetime,
    *,
    new_per_day: int,
) -> DrillQueue:
    hidden = store.hidden_ids(now)
    due = [questions[q] for q in store.due_ids(now) if q in questions and q not in hidden]
    introduced = store.first_reviewed_since(start_of_day(now))
    allowance = max(0, new_per_day - introduced)
    known = store.known_ids()
    by_deck: dict[str, list[Question]] = {}
    for question in questions.values():
        if question.id not in known and question.id not in hidden:
            by_deck.setdefault(question.deck_id, []).append(question)
    new: list[Question] = []
    lanes = list(by_deck.values())
    depth = 0
    while len(new) < allowance and any(depth < len(lane) for lane in lanes):
        for lane in lanes:
            if depth < len(lane) and len(new) < allowance:
                new.append(lane[depth])
        depth += 1
    in_queue = {q.id for q in due} | {q.id for q in new}
    gone = known - questions.keys()  # history of questions no longer in the bank
    next_due = store.next_due(now, exclude=hidden | in_queue | gone)
    return DrillQueue(due=due, new=new, next_due=next_due)


def tomorrow(now: datetime) -> datetime:
    return start_of_day(now) + timedelta(days=1)
