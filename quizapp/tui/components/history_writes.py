# Over 500 lines: the one door to the history writer's thread; reads, writes, status share it.
"""The app's review history: written off the UI thread, read with pending writes laid over.

`HistoryService` is the thin layer between the app and quizapp/srs/store/writer.py:

- the `HistoryWriter`'s thread opens the history and writes every answer, bury, suspend and
  exam result, in order, retrying what cannot be written yet (a lock, a full disk);
- the UI thread reads through its own read-only connection (`reader`, the app's `history`),
  seen through `PendingView` so due and new counts already count what is still waiting;
- undo of an answer still waiting takes it out of the queue; undo of a saved one removes
  exactly the row it wrote (`Ticket.review_id`);
- an answer's rating (chosen by the app from the grade and the time taken) can be changed on
  the feedback screen: the waiting write is changed, or the saved row rescheduled in place,
  so an answer stays one review row;
- the `HistoryStatus` bars show "2 answers not saved yet — retrying (database is locked)"
  while anything waits, and the quit confirmation says how many.

A history that cannot be opened is reported (in a notification, and on stderr when the app
ends, with exit status 1) and the app runs without saving.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from quizapp.srs.store.history import PostgresLocation
from quizapp.srs.store.writer import HistoryWriter, WriterClosed, WriterStatus
from quizapp.srs.store.writes import AnswerWrite, ExamWrite, FlagWrite, Ticket
from quizapp.tui.components.class_store import Outage, kept_line, quit_note, reconnect, waiting
from quizapp.tui.components.scheduled import Scheduled, schedule
from quizapp.tui.text.history_lines import session_answers, unsaved_at_quit, waiting_line

if TYPE_CHECKING:
    from textual.app import App

    from quizapp.bank import Bank, Question
    from quizapp.bank.grading import Grade
    from quizapp.exam.result import ExamResult
    from quizapp.srs.config import Settings
    from quizapp.srs.memory.scheduling import Rating, Scheduler
    from quizapp.srs.store.history import HistoryLocation, HistoryStore, StudentToAsk
    from quizapp.srs.store.pending import PendingView
    from quizapp.srs.study.counts import HomeCounts

_T = TypeVar("_T")

QUIET_SECONDS = 1.0  # a write that takes longer than this shows in the status bar
QUIT_FLUSH_SECONDS = 3.0  # quitting with writes pending tries this long more
UNMOUNT_FLUSH_SECONDS = 2.0


class HistoryService:
    def __init__(
        self,
        app: App[None],
        path: HistoryLocation | StudentToAsk | None,
        *,
        use_fitted: bool = True,
    ) -> None:
        self.app = app
        # A SQLite file or a student's PostgreSQL history; StudentToAsk: asked for at start.
        self.path = path
        # FSRS parameters fitted by `quizapp optimize`, read once the history is open; None:
        # py-fsrs's defaults (and always, with --default-parameters: use_fitted False).
        self.use_fitted = use_fitted
        self.parameters: tuple[float, ...] | None = None
        self.reader: HistoryStore | None = None
        self.writer: HistoryWriter | None = None
        self.failure: str | None = None  # why the history could not be opened
        self.unsaved_at_exit = 0
        self._status = WriterStatus("new")
        self._answers: list[Ticket] = []  # this app's answers, newest last, for undo
        self._undos: list[Ticket] = []
        self._hides: dict[tuple[str, str], Ticket] = {}  # (action, question id): latest
        self._when_open: list[Callable[[], None]] = []
        self._when_failed: list[Callable[[], None]] = []
        self._recheck_timer_set = False
        self._asking_student = False
        self._outage = Outage()  # a PostgreSQL server away: what was said, the cards known
        self._closing = False

    # -- opening and closing ------------------------------------------------------------------

    def start(self) -> None:
        """Open the history in the writer's thread; the first frame does not wait for it.
        Once: a later call (or one after a write started it) does nothing."""
        if self.path is None or self.writer is not None or self._asking_student:
            return
        if not isinstance(self.path, Path | PostgresLocation):
            self._ask_student(self.path)
            return
        path = self.path

        def open_store() -> HistoryStore:
            # In the writer's thread: the store's imports (fsrs, SQLite or psycopg) stay off
            # the UI's.
            from quizapp.srs.store.open_history import open_writer

            return open_writer(path)

        outbox = None
        if isinstance(path, PostgresLocation):
            from quizapp.srs.store.outbox import outbox_path

            outbox = outbox_path(path)
        self.writer = HistoryWriter(open_store, self._from_writer, outbox_path=outbox)
        self.writer.start()

    def _ask_student(self, where: StudentToAsk) -> None:
        """A shared history with no student given: ask (quizapp/tui/screens/student.py), then
        open it as theirs. Escape: the app runs, and nothing is saved."""
        from quizapp.tui.screens.student import StudentScreen

        self._asking_student = True

        def answered(student: str | None) -> None:
            self._asking_student = False
            if student is None:
                self._failed(f"no student id given for {where}")
                return
            self.path = where.named(student)
            self.start()

        self.app.push_screen(StudentScreen(str(where)), answered)

    def missing(self, needing: str) -> str:
        """`needing` ("Drills need") the review history, and why there is none to read now:
        it could not be opened, it is still opening, or this run has none (a preview)."""
        if self.failure is not None:
            why = "which could not be opened"
        elif self.path is None:
            why = "and this app runs without one"
        else:
            why = "which is still opening: try again"
        return f"{needing} the review history, {why}."

    def when_open(self, then: Callable[[], None], otherwise: Callable[[], None]) -> None:
        """Run `then` once the history is open, or `otherwise` if it cannot be (or there is
        no history to open)."""
        if self.reader is not None:
            then()
        elif self.failure is not None or (self.writer is None and not self._asking_student):
            otherwise()
        else:
            self._when_open.append(then)
            self._when_failed.append(otherwise)

    async def close(self, timeout: float = QUIT_FLUSH_SECONDS) -> int:
        """Try to save what waits (up to `timeout` s, off the UI thread), then stop the writer.
        Returns how many writes were left unsaved."""
        self._close_reader()
        if self.writer is not None:
            self.unsaved_at_exit = await asyncio.to_thread(self.writer.close, timeout)
        return self.unsaved_at_exit

    def close_now(self) -> None:
        """On unmount: the app is going anyway; one last bounded try."""
        self._close_reader()
        if self.writer is not None and self.writer.status().state not in ("closed", "failed"):
            self.unsaved_at_exit = self.writer.close(UNMOUNT_FLUSH_SECONDS)

    def _close_reader(self) -> None:
        self._closing = True
        # First: the writer's connection, closing last, checkpoints and removes the -wal (a
        # read-only connection closing last cannot).
        if self.reader is not None:
            self.reader.close()
            self.reader = None

    def exit_notes(self) -> list[str]:
        """What the app told the user about the file, said again once the terminal is back:
        a history moved aside is reported every time, with where it went."""
        return [self._status.notice] if self._status.notice else []

    def exit_problems(self) -> list[str]:
        """One line per thing that went wrong; the command then exits with status 1."""
        lines = []
        if self.failure is not None:
            lines.append(
                f"the review history could not be opened: {self.failure}; nothing was saved"
            )
        if self.unsaved_at_exit and self.writer is not None:
            if self.writer.status().kept:
                return [*lines, quit_note(self.writer.status())]
            last = self.writer.last_cause() or "unknown error"
            left = self.writer.pending_writes()
            what = waiting(len(left), sum(isinstance(w, AnswerWrite) for w in left))
            lines.append(f"{what} could not be saved to {self.path}: {last}")
        return lines

    # -- status --------------------------------------------------------------------------------

    @property
    def pending(self) -> int:
        return self._status.pending

    def _from_writer(self) -> None:
        # Any thread: call_later only posts a message, which is thread-safe.
        self.app.call_later(self._refresh)

    def _refresh(self) -> None:
        """On the UI thread: catch up with the writer's state."""
        if self.writer is None:
            return
        before, status = self._status, self.writer.status()
        self._status = status
        if status.state == "open" and self.reader is None and self.failure is None:
            if not self._closing:  # the reader goes first when closing: not opened again
                self._opened(status)
        elif status.state == "failed" and self.failure is None:
            self._failed(status.failure or "unknown error")
        self._report_undos()
        sent = self._outage.sent(status)
        if sent is not None:
            self.app.notify(sent, title="Review history", timeout=8, markup=False)
        if status.outbox_error and status.outbox_error != before.outbox_error:
            self._error(f"The outbox on this machine: {status.outbox_error}", timeout=20)
        self._show_status()
        if status.pending != before.pending and self.reader is not None:
            # An answer queued or saved: the due and new counts move at once.
            self.app.refresh_home()  # type: ignore[attr-defined]

    def _opened(self, status: WriterStatus) -> None:
        from quizapp.srs.store.open_history import open_reader
        from quizapp.srs.store.sqlite.history_file import HistoryError

        assert isinstance(self.path, Path | PostgresLocation)
        try:
            self.reader = open_reader(self.path)
        except HistoryError as exc:
            self._failed(str(exc))
            return
        self.reload_parameters()
        reader = self.reader
        rows = self.read(reader.card_rows, "the cards") if self._outbox_in_use() else None
        self._outage.cards.remember_rows(rows or [])
        if status.notice:
            # Every time a file is moved aside, the user is told where it went.
            self.app.notify(
                status.notice, title="Review history", severity="warning", timeout=20, markup=False
            )
        self.app.refresh_home()  # type: ignore[attr-defined]
        callbacks, self._when_open, self._when_failed = self._when_open, [], []
        for then in callbacks:
            then()

    def reload_parameters(self) -> None:
        """Read which FSRS parameters drills schedule with (after opening, and after a fit)."""
        if not self.use_fitted or self.reader is None:
            return
        from quizapp.srs.store.fits import active_parameters

        reader = self.reader
        self.parameters = self.read(lambda: active_parameters(reader), "the fitted parameters")

    def scheduler(self, settings: Settings) -> Scheduler:
        """The scheduler an answer is scheduled with: the settings' desired retention, and
        the fitted parameters in use (or py-fsrs's defaults)."""
        from quizapp.srs.memory.scheduling import make_scheduler

        return make_scheduler(settings.desired_retention, parameters=self.parameters)

    def _failed(self, reason: str) -> None:
        self.failure = reason
        self._error(f"{reason}. Answers will not be saved.", timeout=20)
        callbacks, self._when_open, self._when_failed = self._when_failed, [], []
        for otherwise in callbacks:
            otherwise()

    def _outbox_in_use(self) -> bool:
        return isinstance(self.path, PostgresLocation)

    def _server_away(self) -> bool:
        """A PostgreSQL history whose writes fail or are kept on this machine."""
        if not self._outbox_in_use() or self.writer is None:
            return False
        return self._outage.server_away(self.writer.status())

    def status_line(self) -> str:
        """What the status bar says: empty while nothing has waited long or failed."""
        status = self._status
        if not status.pending:
            return ""
        kept = kept_line(status)
        if kept is not None:
            return kept
        waited = time.monotonic() - (status.waiting_since or time.monotonic())
        if status.last_error is None and waited < QUIET_SECONDS:
            if not self._recheck_timer_set:
                self._recheck_timer_set = True
                self.app.set_timer(QUIET_SECONDS, self._recheck)
            return ""
        return waiting_line(status)

    def _recheck(self) -> None:
        self._recheck_timer_set = False
        self._refresh()

    def _show_status(self) -> None:
        from quizapp.tui.widgets.history_status import HistoryStatus

        line = self.status_line()
        for screen in self.app.screen_stack:
            for bar in screen.query(HistoryStatus):
                bar.show(line)

    def quit_warning(self) -> str:
        """For the quit confirmation: what is still unsaved, or empty."""
        status = self._status
        if not status.pending:
            return ""
        return quit_note(status) if status.kept else unsaved_at_quit(status, QUIT_FLUSH_SECONDS)

    def leave_note(self, answers: int) -> str:
        """For leaving a session: where its `answers` stand, saved or still waiting."""
        if self.failure is not None or (self.writer is None and not self._asking_student):
            return session_answers(answers, None)
        status = self.writer.status() if self.writer is not None else self._status  # as of now
        return session_answers(answers, status)

    # -- reads ---------------------------------------------------------------------------------

    def view(self) -> PendingView | None:
        """The history as it will be once what waits is saved; None without a history."""
        if self.reader is None:
            return None
        from quizapp.srs.store.pending import PendingView

        pending = self.writer.pending_writes() if self.writer is not None else []
        return PendingView(self.reader, pending)

    def read(self, reading: Callable[[], _T], what: str) -> _T | None:
        """Run a read of the history on the UI thread; an error (an I/O error, damage found
        on the way) is a notification, not a crash, and the result is None."""
        from quizapp.srs.store.history import read_errors
        from quizapp.srs.store.sqlite.history_file import cause

        try:
            return reading()
        except read_errors() as exc:
            if self._server_away():
                return None  # the status bar says so already; drills go on from what we know
            if self._outbox_in_use():
                if reconnect(self.reader):
                    return self.read(reading, what)
                outbox_error = self.writer.status().outbox_error if self.writer else None
                away = self._outage.away(cause(exc), outbox_error)
                if away is not None:
                    self.app.notify(
                        away, title="Review history", severity="warning", timeout=10, markup=False
                    )
                return None
            self._error(f"Reading {what} from {self.path} failed: {cause(exc)}", timeout=10)
            return None

    def _error(self, message: str, timeout: float) -> None:
        # Literal text: paths and SQLite's messages may hold brackets.
        self.app.notify(
            message, title="Review history", severity="error", timeout=timeout, markup=False
        )

    def home_counts(self, bank: Bank, settings: Settings) -> HomeCounts | None:
        """The home screen's figures (quizapp/srs/study/counts.py); None without a history."""
        view = self.view()
        if view is None:
            return None
        from quizapp.srs.memory.scheduling import utc_now
        from quizapp.srs.study.counts import home_counts

        return self.read(
            lambda: home_counts(
                view, bank.decks, utc_now(), new_per_day=settings.new_cards_per_day
            ),
            "the due and new counts",
        )

    def data_version(self) -> int | None:
        """SQLite's count of commits by other connections (our writer's, another app's) to the
        file, as the UI's reader sees it: cheap to ask every few seconds."""
        if self.reader is None:
            return None
        from quizapp.srs.store.history import read_errors

        try:
            return self.reader.change_marker()
        except read_errors():
            return None  # asked every few seconds: the next real read reports any trouble

    # -- writes --------------------------------------------------------------------------------

    def _submit(self, write: AnswerWrite | FlagWrite | ExamWrite) -> Ticket | None:
        # The app starts the writer once its first frame is out; a write that comes sooner
        # starts it rather than go unsaved.
        self.start()
        if self.writer is None or self.failure is not None:
            return None
        try:
            ticket = self.writer.submit(write)
        except WriterClosed:  # quitting: the writer takes nothing more
            return None
        self._refresh()
        return ticket

    def record_answer(
        self,
        question: Question,
        grade: Grade,
        seconds: float,
        kind: str,
        settings: Settings,
        attempt: str | None = None,
    ) -> Scheduled:
        """Queue the answer (with the time it was given and how it came in its session,
        `attempt`) and return at once, with what the scheduler makes of it."""
        from quizapp.srs.memory.scheduling import RatingPolicy, utc_now

        policy = RatingPolicy(settings.fast_seconds, settings.slow_seconds)
        view = self.view()
        read = None if view is None else self.read(lambda: (view.card(question.id),), "the card")
        before = read[0] if read is not None else self._outage.cards.card(question.id)
        scheduled = schedule(
            Scheduled(
                question_id=question.id,
                rating=policy.rating_for(grade, seconds),
                kind=kind,
                when=utc_now(),
                duration_ms=int(seconds * 1000),
                scheduler=self.scheduler(settings),
                before=before,
                after=None,
                ticket=None,
                saved=False,
            )
        )
        ticket = self._submit(
            AnswerWrite(
                question_id=question.id,
                deck_id=question.deck_id,
                topic=question.topic,
                rating=scheduled.rating,
                correct=grade.correct,
                when=scheduled.when,
                duration_ms=scheduled.duration_ms,
                kind=kind,
                scheduler=scheduled.scheduler,
                response=grade.response,
                attempt=attempt,
            )
        )
        if ticket is not None:
            self._answers.append(ticket)
        self._outage.cards.answered(question.id, scheduled.after)
        return replace(scheduled, ticket=ticket, saved=ticket is not None)

    def rerate(self, scheduled: Scheduled, rating: Rating) -> Scheduled:
        """The student's own rating instead of the app's: the same review, rescheduled."""
        ticket = scheduled.ticket
        if ticket is not None and self.writer is not None and rating != scheduled.rating:
            try:
                self.writer.rerate(ticket, rating, scheduled.scheduler)
            except WriterClosed:
                return scheduled
            self._refresh()
        rescheduled = schedule(replace(scheduled, rating=rating))
        self._outage.cards.answered(scheduled.question_id, rescheduled.after)
        return rescheduled

    def undo_answer(self) -> bool:
        """Take this app's latest answer back. False if there was none to take back."""
        if self.writer is None or self.failure is not None:
            return True  # nothing stored: the session's own undo is the whole story
        if not self._answers:
            return False
        ticket = self._answers.pop()
        self._outage.cards.forget(ticket.write.question_id)  # type: ignore[attr-defined]
        try:
            undo = self.writer.withdraw(ticket)
        except WriterClosed:
            return False
        if undo is not None:
            self._undos.append(undo)  # to say so if the history had nothing to take back
        self._refresh()
        return True

    def _report_undos(self) -> None:
        for undo in [u for u in self._undos if u.saved]:
            self._undos.remove(undo)
            if undo.outcome is None:
                self.app.notify(
                    "The history had no answer to take back.", severity="warning", timeout=4
                )

    def flag(self, question_id: str, action: str, until: object = None) -> None:
        """Bury, unbury, suspend or unsuspend. Undoing a bury or suspend that is still waiting
        just drops it."""
        undoes = {"unbury": "bury", "unsuspend": "suspend"}.get(action)
        if undoes is not None and self.writer is not None:
            waiting = self._hides.pop((undoes, question_id), None)
            if waiting is not None and self.writer.cancel(waiting):
                self._refresh()
                return
        ticket = self._submit(FlagWrite(question_id, action, until))  # type: ignore[arg-type]
        if ticket is not None and undoes is None:
            self._hides[(action, question_id)] = ticket

    def record_exam(self, result: ExamResult) -> bool:
        """Queue an exam result. False when there is no history to save it in."""
        return self._submit(ExamWrite(result.record_kwargs())) is not None

    def suspended_ids(self) -> list[str]:
        view = self.view()
        return [] if view is None else self.read(view.suspended_ids, "suspended cards") or []

    def buried_ids(self) -> list[str]:
        from quizapp.srs.memory.scheduling import utc_now

        view = self.view()
        if view is None:
            return []
        return sorted(self.read(lambda: view.buried_ids(utc_now()), "buried cards") or [])
