"""An answer as the scheduler took it: its rating, and the card before and after.

Worked out on the UI thread the moment an answer is graded, exactly as the history's writer
will (the same fuzz, the same card), so the feedback can say "back in 3 days" at once.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from quizapp.srs.memory.scheduling import Card, Rating, Scheduler
    from quizapp.srs.store.writes import Ticket


@dataclass(frozen=True)
class Scheduled:
    """An answer as the scheduler took it: its rating, and the card before and after."""

    question_id: str
    rating: Rating
    kind: str  # drill, quiz or practice
    when: datetime
    duration_ms: int
    scheduler: Scheduler
    before: Card | None  # None: a new card
    after: Card | None  # None: a practice answer to a new card
    ticket: Ticket | None  # None: no history, nothing saved
    saved: bool  # False without a history

    def note(self) -> str:
        """The feedback's line, "Rated Good · back in 3 days", counted from the answer."""
        from quizapp.srs.study.schedule_note import rating_name, schedule_note

        if not self.saved:
            return f"Rated {rating_name(self.rating)} · not saved (no review history)"
        return schedule_note(self.rating, self.kind, self.before, self.after, self.when)

    def choices(self) -> str:
        """Where each grade would send the card, as Anki's answer buttons show it before the
        press: "1 Again 10 min · 2 Hard 2 days · 3 Good 3 days · 4 Easy 9 days". Empty for
        practice (no grade moves the card) and without a history."""
        from quizapp.srs.memory.scheduling import Rating, review
        from quizapp.srs.store.history import PRACTICE
        from quizapp.srs.study.schedule_note import rating_name, span_in_words

        if not self.saved or self.kind == PRACTICE:
            return ""
        spans = []
        for rating in (Rating.Again, Rating.Hard, Rating.Good, Rating.Easy):
            after, _log = review(
                self.scheduler,
                self.before,
                rating,
                self.when,
                self.duration_ms,
                fuzz_key=self.question_id,  # the same fuzz the writer will use
            )
            spans.append(
                f"{int(rating)} {rating_name(rating)} {span_in_words(after.due - self.when)}"
            )
        return " · ".join(spans)


def schedule(scheduled: Scheduled) -> Scheduled:
    """`scheduled` with `after` worked out as the writer will (the same fuzz, the same card)."""
    from quizapp.srs.memory.scheduling import review
    from quizapp.srs.store.history import PRACTICE

    if scheduled.kind == PRACTICE:
        return replace(scheduled, after=scheduled.before)
    after, _log = review(
        scheduled.scheduler,
        scheduled.before,
        scheduled.rating,
        scheduled.when,
        scheduled.duration_ms,
        fuzz_key=scheduled.question_id,
    )
    return replace(scheduled, after=after)
