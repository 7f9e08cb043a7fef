"""The home screen's figures: due and new cards per deck, what a drill may add today, what is
put away, and when these figures next change by themselves.

- **Due**: cards due now, suspended and buried ones left out (what a drill asks first).
- **New**: questions never scheduled, suspended and buried ones left out. A drill takes new
  cards only up to `new_cards_per_day` a day (counted from local midnight, every card whose
  first scheduled answer is today, a quiz's included when quizzes reschedule): `new_today`
  says how many it may still take, so the home screen can say why the drill offers fewer.
- **missed**: questions whose latest answer was wrong in a quiz that is practice. Practice
  leaves their cards alone, so no drill would ask them; the home screen offers them instead,
  until each is answered right (or answered in a drill, which schedules it).
- **next_change**: the next moment a count moves with no answer given: a card falls due, or
  local midnight (burials end, the daily allowance of new cards starts again).

Pure, like the drill queue it mirrors (quizapp/srs/study/queue.py): reads a `PendingView` or a store.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from quizapp.bank.model import Deck
from quizapp.srs.study.queue import start_of_day, tomorrow

if TYPE_CHECKING:
    from quizapp.srs.store.pending import PendingView


@dataclass(frozen=True)
class HomeCounts:
    decks: Mapping[str, tuple[int, int]]  # deck id: (due now, new)
    new_per_day: int
    started_today: int  # cards first scheduled today
    suspended: int  # bank questions suspended
    buried: int  # bank questions buried until tomorrow
    next_change: datetime
    # Bank questions whose latest answer was wrong in practice, hidden ones left out, in bank
    # order: a quiz leaves their cards alone, so the home screen offers them (key m).
    missed: tuple[str, ...] = ()

    @property
    def new_today(self) -> int:
        """How many new cards a drill may still take today."""
        return max(0, self.new_per_day - self.started_today)

    @property
    def due(self) -> int:
        return sum(due for due, _ in self.decks.values())

    @property
    def new(self) -> int:
        return sum(new for _, new in self.decks.values())

    def drill_new(self, deck_ids: Iterable[str] = ()) -> int:
        """New cards a drill on these decks (all, if none) would take now."""
        wanted = set(deck_ids)
        unseen = sum(new for deck, (_, new) in self.decks.items() if not wanted or deck in wanted)
        return min(unseen, self.new_today)


def home_counts(
    view: PendingView, decks: Sequence[Deck], now: datetime, *, new_per_day: int
) -> HomeCounts:
    hidden = view.hidden_ids(now)
    suspended = set(view.suspended_ids())
    due = set(view.due_ids(now)) - hidden
    known = view.known_ids()
    per_deck: dict[str, tuple[int, int]] = {}
    bank: set[str] = set()
    for deck in decks:
        in_deck = {q.id for q in deck.questions}
        bank |= in_deck
        ids = in_deck - hidden
        per_deck[deck.id] = (len(ids & due), len(ids - known))
    gone = known - bank
    wrong = view.missed_in_practice_ids(bank - hidden)
    # In bank order, a question in two decks once.
    missed = tuple(dict.fromkeys(q.id for deck in decks for q in deck.questions if q.id in wrong))
    next_due = view.next_due(now, exclude=hidden | gone)
    midnight = tomorrow(now)
    return HomeCounts(
        decks=per_deck,
        new_per_day=new_per_day,
        started_today=view.first_reviewed_since(start_of_day(now)),
        suspended=len(suspended & bank),
        buried=len((hidden - suspended) & bank),
        next_change=min(next_due, midnight) if next_due is not None else midnight,
        missed=missed,
    )
