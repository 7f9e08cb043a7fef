"""Writing the review history off the UI thread, without ever losing an answer.

A `HistoryWriter` owns one background thread. The thread opens the history (so inspecting it,
any moving aside and the migration never run on the UI thread either), keeps that connection
to itself, and works through a FIFO of pending writes one at a time, in order. A write that
fails (another program holds the lock, the disk is full, an I/O error) stays at the head of
the queue and is tried again, with backoff, until it is saved; nothing behind it overtakes it.

Whoever submits learns what is going on through `on_change`, called from whichever thread made
the change; `status()` then says how many writes wait and why the last attempt failed.
Pure Python, no Textual: the TUI adapts it in quizapp/tui/components/history_writes.py.
"""

from __future__ import annotations

import contextlib
import dataclasses
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from quizapp.srs.store.writes import AnswerWrite, RerateWrite, Ticket, UndoWrite, Write

if TYPE_CHECKING:
    # Annotations only: the app imports this module before its first frame, and the store,
    # the scheduler (fsrs) and SQLite load in the writer's thread, after it.
    from quizapp.srs.memory.scheduling import Rating, Scheduler
    from quizapp.srs.store.history import HistoryStore
    from quizapp.srs.store.outbox import Outbox

BUSY_TIMEOUT_S = 1.0  # short: a lock shows up in the status within a second, then we retry
FIRST_RETRY_S = 0.1
LONGEST_RETRY_S = 2.0
REOPEN_AFTER = 3  # failures in a row (other than a lock) before the connection is replaced


class WriterClosed(RuntimeError):
    """A write was submitted to a writer that failed to open or has been closed."""


@dataclass(frozen=True)
class WriterStatus:
    state: str  # "new", "opening", "open", "failed" (could not be opened) or "closed"
    pending: int = 0  # writes not saved yet, including the one being tried
    pending_answers: int = 0
    last_error: str | None = None  # why the latest attempt failed; None once one succeeds
    last_error_name: str | None = None  # SQLite's name for it, e.g. SQLITE_BUSY
    waiting_since: float | None = None  # time.monotonic() the oldest pending write came in
    failure: str | None = None  # why the history could not be opened
    notice: str | None = None  # ReviewStore.notice: a file moved aside on opening
    kept: int = 0  # pending writes kept in the outbox on this machine (PostgreSQL only)
    sent_from_outbox: int = 0  # answers sent after being kept there, since the writer started
    outbox_error: str | None = None  # why the outbox could not be written, if it could not


class HistoryWriter:
    def __init__(
        self,
        open_store: Callable[[], HistoryStore],
        on_change: Callable[[], None] = lambda: None,
        *,
        busy_timeout: float = BUSY_TIMEOUT_S,
        first_retry: float = FIRST_RETRY_S,
        longest_retry: float = LONGEST_RETRY_S,
        outbox_path: Path | None = None,
    ) -> None:
        """`outbox_path`: a PostgreSQL history's outbox (quizapp/srs/store/outbox.py), where what
        waits is kept while the server cannot be reached; None for SQLite."""
        self._open_store = open_store
        self._on_change = on_change
        self._busy_timeout = busy_timeout
        self._first_retry = first_retry
        self._longest_retry = longest_retry
        self._lock = threading.Condition()
        self._queue: deque[Ticket] = deque()
        self._in_flight: Ticket | None = None
        self._state = "new"
        self._last_error: BaseException | None = None
        self._failure: str | None = None
        self._notice: str | None = None
        self._closing = False  # no new writes; save what waits, then stop
        self._abandon = False  # stop now, whatever waits
        self._hurry = 0  # flushes and closes waiting: retry without backing off
        self._outbox_path = outbox_path
        self._outbox: Outbox | None = None  # opened at the first failure, or to send what waits
        self._forget: list[int] = []  # outbox places of writes dropped since
        self._sent_from_outbox = 0
        self._outbox_error: str | None = None
        self._outbox_unusable = False  # found damaged at opening: writes wait in memory only
        self._thread = threading.Thread(target=self._run, name="history writer", daemon=True)

    # -- the caller's side -------------------------------------------------------------------

    def start(self) -> None:
        with self._lock:
            self._state = "opening"
        self._thread.start()

    def submit(self, write: Write) -> Ticket:
        with self._lock:
            if self._closing or self._state in ("failed", "closed"):
                raise WriterClosed(f"the history writer is {self._state}")
            if (
                self._outbox_path is not None
                and isinstance(write, AnswerWrite)
                and write.answer_id is None
            ):
                import uuid

                write = dataclasses.replace(write, answer_id=str(uuid.uuid4()))
            ticket = Ticket(write)
            self._queue.append(ticket)
            self._lock.notify_all()
        self._on_change()
        return ticket

    def cancel(self, ticket: Ticket) -> bool:
        """Drop a write that has not been tried yet (or failed and waits for its retry).
        False when it is saved, being written right now, or already gone."""
        with self._lock:
            if ticket is self._in_flight or ticket not in self._queue:
                return False
            self._queue.remove(ticket)
            self._dropped(ticket)
        self._on_change()
        return True

    def withdraw(self, ticket: Ticket) -> Ticket | None:
        """Make sure an answer leaves no trace: dropped if it waits, dropped or undone right
        after the attempt in progress, or undone by an UndoWrite if it is saved. Returns that
        UndoWrite's ticket in the last case."""
        with self._lock:
            if ticket.cancelled or ticket.withdrawn:
                return None
            if ticket is self._in_flight:
                ticket.withdrawn = True  # _work settles it when the attempt ends
                return None
            if ticket in self._queue:
                self._queue.remove(ticket)
                self._dropped(ticket)
                undo = None
            else:
                if self._closing or self._state in ("failed", "closed"):
                    raise WriterClosed(f"the history writer is {self._state}")
                undo = Ticket(UndoWrite(ticket))
                self._queue.append(undo)
                self._lock.notify_all()
        self._on_change()
        return undo

    def rerate(self, ticket: Ticket, rating: Rating, scheduler: Scheduler) -> Ticket | None:
        """Change the rating of an answer, leaving one review row for it. An answer not tried
        yet is changed where it waits; otherwise a RerateWrite follows it (returned). None
        when the answer was taken back."""
        with self._lock:
            if ticket.cancelled or ticket.withdrawn:
                return None
            untried = ticket in self._queue and ticket is not self._in_flight
            if untried and not ticket.attempts:
                # Never after a failed attempt: that COMMIT may have reached the disk, and the
                # retry looks for the row by its rating.
                ticket.write = dataclasses.replace(ticket.write, rating=rating)  # type: ignore[type-var]
                rerate = None
            else:
                if self._closing or self._state in ("failed", "closed"):
                    raise WriterClosed(f"the history writer is {self._state}")
                rerate = Ticket(RerateWrite(ticket, rating, scheduler))
                self._queue.append(rerate)
                self._lock.notify_all()
        self._on_change()
        return rerate

    def _dropped(self, ticket: Ticket) -> None:
        """Under the lock: `ticket` leaves the queue unsaved, and the outbox with it."""
        ticket.cancelled = True
        if ticket.kept is not None:
            self._forget.append(ticket.kept)

    def status(self) -> WriterStatus:
        with self._lock:
            error = self._last_error
            return WriterStatus(
                state=self._state,
                pending=len(self._queue),
                pending_answers=sum(isinstance(t.write, AnswerWrite) for t in self._queue),
                # One line: a PostgreSQL server's messages span several.
                last_error=None if error is None else " ".join(str(error).split()),
                last_error_name=getattr(error, "sqlite_errorname", None),
                waiting_since=self._queue[0].submitted if self._queue else None,
                failure=self._failure,
                notice=self._notice,
                kept=sum(t.kept is not None for t in self._queue),
                sent_from_outbox=self._sent_from_outbox,
                outbox_error=self._outbox_error,
            )

    def last_cause(self) -> str | None:
        """The latest failure in one line, with SQLite's error name."""
        from quizapp.srs.store.sqlite.history_file import cause

        with self._lock:
            return None if self._last_error is None else cause(self._last_error)

    def pending_writes(self) -> list[Write]:
        with self._lock:
            return [ticket.write for ticket in self._queue]

    def flush(self, timeout: float) -> bool:
        """Retry at once and wait up to `timeout` s for every pending write to be saved."""
        deadline = time.monotonic() + timeout
        with self._lock:
            self._hurry += 1
            self._lock.notify_all()
            try:
                while self._queue and self._state in ("opening", "open"):
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        break
                    self._lock.wait(remaining)
                return not self._queue
            finally:
                self._hurry -= 1

    def close(self, timeout: float) -> int:
        """Take no more writes, try to save what waits for up to `timeout` s, then stop.
        Returns how many writes were left unsaved."""
        with self._lock:
            self._closing = True
            self._hurry += 1
            self._lock.notify_all()
        if self._thread.is_alive():
            self._thread.join(timeout)
        with self._lock:
            self._abandon = True
            self._lock.notify_all()
        if self._thread.is_alive():
            # An attempt in progress may still succeed: give it its busy timeout to say so.
            self._thread.join(self._busy_timeout + 1)
        with self._lock:
            self._hurry -= 1
            return len(self._queue)

    # -- the writer's thread -----------------------------------------------------------------

    def _run(self) -> None:
        from quizapp.srs.store.sqlite.history_file import cause

        try:
            store = self._open_store()
            self._prepare(store)
        except Exception as exc:  # a HistoryError, mostly: the file stays as it was
            with self._lock:
                self._state, self._failure = "failed", cause(exc)
                self._lock.notify_all()
            self._on_change()
            return
        self._send_kept()
        with self._lock:
            self._state, self._notice = "open", store.notice
        self._on_change()
        try:
            self._work(store)
        finally:
            with contextlib.suppress(Exception):
                store.close()
            if self._outbox is not None:
                self._outbox.close()
            with self._lock:
                self._state = "closed"
                self._lock.notify_all()
            self._on_change()

    def _prepare(self, store: HistoryStore) -> None:
        # The store's own busy timeout is long; ours surfaces a lock in the status quickly.
        store.set_lock_timeout(self._busy_timeout)

    def _work(self, store: HistoryStore) -> None:
        from quizapp.srs.store.sqlite.history_file import is_busy

        delay = self._first_retry
        failures = 0
        while True:
            with self._lock:
                while not self._queue and not self._closing:
                    self._lock.wait()
                if self._abandon or not self._queue:
                    abandoned = bool(self._queue)
                    break
                ticket = self._in_flight = self._queue[0]
            if self._outbox is not None:
                self._keep_waiting()
            error: Exception | None = None
            try:
                ticket.write.apply(store, ticket)
            except Exception as exc:  # never lose the write: keep it and try again
                error = exc
            if error is None and ticket.kept is not None and self._outbox is not None:
                # Before it leaves the queue: no longer waiting means no longer kept.
                with contextlib.suppress(Exception):  # left: sent again, and stored once
                    self._outbox.remove(ticket.kept)
            with self._lock:
                self._in_flight = None
                if error is None:
                    self._queue.popleft()
                    ticket.saved = True
                    if ticket.kept is not None and isinstance(ticket.write, AnswerWrite):
                        self._sent_from_outbox += 1
                    self._last_error = None
                    delay, failures = self._first_retry, 0
                    if ticket.withdrawn:  # taken back while it was being written
                        self._queue.appendleft(Ticket(UndoWrite(ticket)))
                elif ticket.withdrawn:
                    self._queue.popleft()
                    self._dropped(ticket)
                    self._last_error = error
                else:
                    ticket.attempts += 1
                    self._last_error = error
                    failures += 1
                self._lock.notify_all()
            if self._outbox_path is not None and error is not None:
                self._keep_waiting()  # the server is away: what waits is kept on this machine
            self._on_change()
            if error is None:
                continue
            if (failures % REOPEN_AFTER == 0 or _connection_lost(store)) and not is_busy(error):
                with contextlib.suppress(Exception):  # still failing: the next attempt says why
                    store.reopen()
                    self._prepare(store)
            with self._lock:
                if not self._abandon:
                    self._lock.wait(self._first_retry if self._hurry else delay)
            delay = min(delay * 2, self._longest_retry)
        if abandoned and self._outbox_path is not None:
            self._keep_waiting()  # quitting with writes unsaved: sent at the next start

    # -- the outbox (PostgreSQL) ---------------------------------------------------------------

    def _send_kept(self) -> None:
        """At opening: what an earlier run kept in the outbox goes first, in its order."""
        from quizapp.srs.store.outbox import Outbox

        path = self._outbox_path
        if path is None or not Outbox.exists(path):
            return
        try:
            self._outbox = Outbox(path)
            kept = self._outbox.entries()
        except Exception as exc:  # unreadable: left as it is on the disk, and not used
            self._outbox_error = f"{path} cannot be read: {exc}"
            self._outbox_unusable = True
            if self._outbox is not None:
                self._outbox.close()
                self._outbox = None
            return
        # Tried before: a retry looks before writing again (and answers carry their id).
        tickets = [Ticket(write, attempts=1, kept=seq, kept_write=write) for seq, write in kept]
        with self._lock:
            self._queue.extendleft(reversed(tickets))

    def _keep_waiting(self) -> None:
        """Make the outbox hold exactly the writes that wait, in order: drop what was saved
        or taken back, add what came in, rewrite what was rerated while waiting."""
        from quizapp.srs.store.outbox import Outbox

        if self._outbox_unusable:
            return
        try:
            if self._outbox is None:
                assert self._outbox_path is not None
                self._outbox = Outbox(self._outbox_path)
            outbox = self._outbox
            with self._lock:
                forget, self._forget = self._forget, []
                changed = [(t, t.write) for t in self._queue if t.kept_write is not t.write]
            for seq in forget:
                outbox.remove(seq)
            for ticket, write in changed:
                if ticket.kept is not None:
                    outbox.replace(ticket.kept, write)
                    ticket.kept_write = write
                    continue
                seq = outbox.add(write)
                if seq is None:
                    continue
                with self._lock:
                    ticket.kept, ticket.kept_write = seq, write
                    gone = ticket.cancelled or ticket.saved
                if gone:  # dropped or saved while it was being kept
                    outbox.remove(seq)
            self._outbox_error = None
        except Exception as exc:  # the writes still wait in memory; tried again next time
            self._outbox_error = f"{self._outbox_path}: {exc}"


def _connection_lost(store: HistoryStore) -> bool:
    """A PostgreSQL connection the server dropped: reconnect at once, not after a few tries."""
    return bool(getattr(getattr(store, "connection", None), "closed", False))
