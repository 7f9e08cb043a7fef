"""What the app says, and how it keeps drilling, while the class's PostgreSQL server is away.

The writer (quizapp/srs/store/writer.py) keeps what cannot be sent in the outbox on this machine
(quizapp/srs/store/outbox.py); `HistoryService` (quizapp/tui/components/history_writes.py) uses these:

- `kept_line` for the status bar: "2 answers not saved to the class store — kept on this
  machine, 2 waiting; retrying (…)";
- `Outage.sent` once they have reached the server, `Outage.away` once when a read fails;
- `LastKnownCards`: the cards as the app last knew them (read when the history opened, then
  each answer's card as scheduled here), for scheduling while the server cannot be read. A drill
  in progress goes on with its queue; the feedback's "back in 3 days" comes from these cards, and
  the server, once back, schedules the same answers from its own cards, in the same order.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from quizapp.wording import plural

if TYPE_CHECKING:
    from quizapp.srs.memory.scheduling import Card
    from quizapp.srs.store.writer import WriterStatus

CLASS_STORE = "the class store"


def waiting(pending: int, answers: int) -> str:
    """ "2 answers", or "3 changes" when burying, suspending or an exam is among them."""
    return plural(pending, "answer" if pending == answers else "change")


def _what(status: WriterStatus) -> str:
    return waiting(status.pending, status.pending_answers)


def kept_line(status: WriterStatus) -> str | None:
    """The status bar's line while writes are kept on this machine, or cannot be; None when
    neither."""
    if not status.kept:
        if not status.outbox_error:
            return None
        why = f" — retrying ({status.last_error})" if status.last_error else ""
        return (
            f"{_what(status)} not saved to {CLASS_STORE} yet{why}; they cannot be kept on this "
            f"machine: {status.outbox_error}"
        )
    why = f"; retrying ({status.last_error})" if status.last_error else "; sending…"
    trouble = (
        f" — and the outbox cannot be written: {status.outbox_error}" if status.outbox_error else ""
    )
    return (
        f"{_what(status)} not saved to {CLASS_STORE} — kept on this machine, "
        f"{status.kept} waiting{why}{trouble}"
    )


def away_note(why: str, outbox_error: str | None = None) -> str:
    """`outbox_error`: why the outbox cannot be used (then nothing is kept on this machine)."""
    away = f"{CLASS_STORE.capitalize()} cannot be reached ({why})."
    if outbox_error:
        return (
            f"{away} Answers given meanwhile cannot be kept on this machine ({outbox_error}): "
            "the app retries them while it runs, and what is unsaved when it quits is lost."
        )
    return f"{away} Answers given meanwhile are kept on this machine and sent when it is back."


def sent_note(answers: int) -> str:
    """Once everything kept has been sent: `answers` of them were answers."""
    what = plural(answers, "answer") if answers else "The changes"
    return f"{what} kept on this machine reached {CLASS_STORE}."


def quit_note(status: WriterStatus) -> str:
    """For the quit confirmation and the exit: what stays in the outbox."""
    return (
        f"{_what(status)} not saved to {CLASS_STORE} yet; kept on this machine and sent the "
        "next time quizapp starts with this server, database and student."
    )


class LastKnownCards:
    """Each card as this app last knew it: read when the history opened, then as answered."""

    def __init__(self) -> None:
        self._read: dict[str, str] = {}  # question id: card JSON, as read at opening
        self._answered: dict[str, Card | None] = {}

    def remember_rows(self, rows: list[tuple[str, str, int, int]]) -> None:
        """`HistoryStore.card_rows()`: parsed only when a card is needed."""
        self._read = {question_id: card_json for question_id, card_json, _state, _due in rows}

    def answered(self, question_id: str, card: Card | None) -> None:
        self._answered[question_id] = card

    def forget(self, question_id: str) -> None:
        """An answer taken back: back to the card as read."""
        self._answered.pop(question_id, None)

    def card(self, question_id: str) -> Card | None:
        if question_id in self._answered:
            return self._answered[question_id]
        found = self._read.get(question_id)
        if found is None:
            return None
        from quizapp.srs.memory.scheduling import Card

        return Card.from_dict(json.loads(found))


class Outage:
    """What the student has been told about the class store being away, and the cards as
    last known, for one history."""

    def __init__(self) -> None:
        self.cards = LastKnownCards()
        self._sent_reported = 0
        self._told_away = False

    @staticmethod
    def server_away(status: WriterStatus) -> bool:
        """Writes fail, or are kept on this machine."""
        return bool(status.kept) or (status.pending > 0 and status.last_error is not None)

    def sent(self, status: WriterStatus) -> str | None:
        """The note once everything kept has reached the server (once), else None."""
        if not status.pending and status.last_error is None:
            self._told_away = False  # the outage is over: a new one is said again
        if status.kept or status.sent_from_outbox == self._sent_reported:
            return None
        answers = status.sent_from_outbox - self._sent_reported
        self._sent_reported = status.sent_from_outbox
        return sent_note(answers)

    def away(self, why: str, outbox_error: str | None = None) -> str | None:
        """The note when the server cannot be read: once an outage, else None."""
        if self._told_away:
            return None
        self._told_away = True
        return away_note(why, outbox_error)


def reconnect(reader: object) -> bool:
    """A PostgreSQL reader whose connection the server cut (it restarted): connect again.
    False when it was not cut, or connecting fails too."""
    from quizapp.srs.store.sqlite.history_file import HistoryError

    if not getattr(getattr(reader, "connection", None), "closed", False):
        return False
    try:
        reader.reopen()  # type: ignore[attr-defined]
    except HistoryError:
        return False
    return True
