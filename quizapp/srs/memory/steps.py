"""Learning steps inside a drill, as Anki takes them.

FSRS puts a card rated Again (and a new card, until it graduates) on short steps: back in
1 minute, then 10 (py-fsrs's defaults; a lapsed card relearns after 10 minutes). Anki asks
such a card again in the same session once it is due, and ends the session only when no
learning card is due within its learn-ahead limit, 20 minutes. `LearningSteps` keeps those
cards for a drill: each waits until its due time, then is asked before anything else; when
nothing else is left, the drill waits for the next one (or asks it early, if the student
says so).

Pure: no UI, no clock of its own (every call takes `now`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from quizapp.bank.model import Question

LEARN_AHEAD = timedelta(minutes=20)


@dataclass
class LearningSteps:
    horizon: timedelta = LEARN_AHEAD
    waiting: list[tuple[datetime, Question]] = field(default_factory=list)  # soonest first

    def keep(self, question: Question, due: datetime, now: datetime) -> bool:
        """After an answer: keep the card for this drill if it is due again within the
        horizon. True when it was kept."""
        self.drop(question.id)
        if due - now > self.horizon:
            return False
        self.waiting.append((due, question))
        self.waiting.sort(key=lambda entry: entry[0])
        return True

    def drop(self, question_id: str) -> None:
        """Forget a card (its answer was taken back, or it was buried or suspended)."""
        self.waiting = [(due, q) for due, q in self.waiting if q.id != question_id]

    def take_due(self, now: datetime) -> Question | None:
        """The card that has waited longest past its due time, if any is due by `now`."""
        if self.waiting and self.waiting[0][0] <= now:
            return self.waiting.pop(0)[1]
        return None

    def take_next(self) -> Question | None:
        """The next card to come due, whenever that is (asked early, at the student's word)."""
        return self.waiting.pop(0)[1] if self.waiting else None

    @property
    def next_due(self) -> datetime | None:
        return self.waiting[0][0] if self.waiting else None

    def __len__(self) -> int:
        return len(self.waiting)


def countdown(wait: timedelta) -> str:
    """`0:45`, `9:59`: minutes and seconds, rounded up (never 0:00 while still waiting)."""
    seconds = max(0, math.ceil(wait.total_seconds()))
    return f"{seconds // 60}:{seconds % 60:02d}"
