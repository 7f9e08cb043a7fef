"""What the app says about answers still being saved: the status bar, the quit question and
leaving a session (quizapp/tui/components/history_writes.py knows what is waiting)."""

from __future__ import annotations

from quizapp.srs.store.writer import WriterStatus
from quizapp.tui.components.class_store import quit_note, waiting
from quizapp.wording import plural


def waiting_line(status: WriterStatus) -> str:
    """The status bar while writes wait: being saved, or retrying after an error."""
    what = waiting(status.pending, status.pending_answers)
    verb = "is" if status.pending == 1 else "are"
    if status.last_error is None:
        return f"{what} {verb} being saved…"
    return f"{what} not saved yet — retrying ({status.last_error})"


def unsaved_at_quit(status: WriterStatus, flush_seconds: float) -> str:
    """For the quit confirmation, while writes wait to be retried here."""
    what = waiting(status.pending, status.pending_answers)
    why = f" ({status.last_error})" if status.last_error else ""
    return (
        f"{what} not saved yet{why}.\nQuitting tries once more for up to "
        f"{flush_seconds:g} s; what is still unsaved then is lost."
    )


def session_answers(answers: int, status: WriterStatus | None) -> str:
    """Where a session's `answers` stand as it ends; `status` None: there is no history."""
    given = f"{plural(answers, 'answer')} given in this session"
    if status is None:
        return f"{given}; none are saved: this app runs without a review history."
    if not status.pending:
        return f"{given}, all saved."
    if status.kept:
        return f"{given}.\n{quit_note(status)}"
    what = waiting(status.pending, status.pending_answers)
    return f"{given}.\n{what} not saved yet: the app keeps trying while it runs."
