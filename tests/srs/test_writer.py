"""The history writer: one thread, a FIFO, retries until saved, on real files and real locks."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from quizapp.srs.memory.scheduling import Rating, make_scheduler
from quizapp.srs.store.pending import PendingView
from quizapp.srs.store.sqlite.store import ReviewStore
from quizapp.srs.store.writer import HistoryWriter, WriterClosed, WriterStatus
from quizapp.srs.store.writes import AnswerWrite, ExamWrite, FlagWrite, UndoWrite
from tests.srs.filesystems import Lock

T0 = datetime(2025, 3, 10, 9, 0, tzinfo=UTC)
DEADLINE = 20.0


def answer_write(question_id: str, n: int, rating: Rating = Rating.Good) -> AnswerWrite:
    return AnswerWrite(
        question_id=question_id,
        deck_id="d",
        topic="t",
        rating=rating,
        correct=rating != Rating.Again,
        when=T0 + timedelta(seconds=n),
        duration_ms=n,
        kind="drill",
        scheduler=make_scheduler(fuzz=False),
    )


def rows(path: Path) -> list[tuple[str, int]]:
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT question_id, duration_ms FROM reviews ORDER BY id").fetchall()
    finally:
        db.close()


def wait_until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + DEADLINE
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.01)


class Recorder:
    """on_change, counting calls from the writer's thread."""

    def __init__(self) -> None:
        self.calls = 0
        self.threads: set[str] = set()

    def __call__(self) -> None:
        self.calls += 1
        self.threads.add(threading.current_thread().name)


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "h.db"


@pytest.fixture
def writer(path: Path) -> Iterator[HistoryWriter]:
    writer = HistoryWriter(lambda: ReviewStore.open(path), busy_timeout=0.2, first_retry=0.02)
    writer.start()
    wait_until(lambda: writer.status().state == "open", "the history to open")
    yield writer
    writer.close(5)


def test_writes_are_saved_in_order_off_the_callers_thread(path: Path) -> None:
    recorder = Recorder()
    writer = HistoryWriter(lambda: ReviewStore.open(path), recorder)
    writer.start()
    tickets = [writer.submit(answer_write(f"q{i % 3}", i)) for i in range(12)]
    assert writer.flush(DEADLINE)
    assert rows(path) == [(f"q{i % 3}", i) for i in range(12)]
    assert all(t.saved and t.review_id is not None for t in tickets)
    assert writer.status() == WriterStatus("open", notice=None)
    assert "history writer" in recorder.threads
    assert writer.close(5) == 0
    assert writer.status().state == "closed"
    with pytest.raises(WriterClosed):
        writer.submit(answer_write("late", 99))


def test_a_locked_history_keeps_the_answers_and_saves_them_once_in_order(
    path: Path, writer: HistoryWriter
) -> None:
    writer.submit(answer_write("before", 0))
    assert writer.flush(DEADLINE)
    lock = Lock(path)
    try:
        started = time.monotonic()
        first = writer.submit(answer_write("q1", 1))
        second = writer.submit(answer_write("q2", 2))
        assert time.monotonic() - started < 0.1, "submitting must not wait on the lock"
        wait_until(lambda: (writer.status().last_error or "").endswith("locked"), "the lock")
        status = writer.status()
        assert status.pending == status.pending_answers == 2
        assert status.last_error_name == "SQLITE_BUSY"
        assert first.attempts >= 1 and not first.saved and second.attempts == 0
        assert rows(path) == [("before", 0)]
    finally:
        lock.release()
    assert writer.flush(DEADLINE)
    assert rows(path) == [("before", 0), ("q1", 1), ("q2", 2)]
    assert writer.status().last_error is None and writer.status().pending == 0


def test_a_pending_answer_can_be_cancelled_and_a_saved_one_undone_exactly(
    path: Path, writer: HistoryWriter
) -> None:
    saved = writer.submit(answer_write("q1", 1))
    assert writer.flush(DEADLINE)
    with ReviewStore.open(path) as store:
        card_after_first = store.card("q1")
    again = writer.submit(answer_write("q1", 2, Rating.Again))
    assert writer.flush(DEADLINE)
    lock = Lock(path)
    try:
        pending = writer.submit(answer_write("q2", 3))
        wait_until(lambda: pending.attempts >= 1, "a failed attempt")
        assert writer.withdraw(pending) is None  # waiting (or being tried): just dropped
        wait_until(lambda: pending.cancelled, "the pending answer to be dropped")
        assert not writer.cancel(again)  # saved already: only an undo takes it back
        undo = writer.withdraw(again)
        assert undo is not None and isinstance(undo.write, UndoWrite)
    finally:
        lock.release()
    assert writer.flush(DEADLINE)
    assert undo.outcome == "q1"
    assert rows(path) == [("q1", 1)]
    with ReviewStore.open(path) as store:
        assert store.card("q1") == card_after_first  # exactly as before the undone answer
    assert saved.review_id is not None


class CommitThenFail(ReviewStore):
    """A store whose first answer reaches the disk and still reports an I/O error, as an
    fsync failure after the WAL frame was written would."""

    failed = False

    def record_answer(self, **kwargs):  # type: ignore[override]
        card = super().record_answer(**kwargs)
        if not CommitThenFail.failed:
            CommitThenFail.failed = True
            raise sqlite3.OperationalError("disk I/O error")
        return card


def test_an_answer_that_reached_the_disk_despite_an_error_is_not_written_twice(
    path: Path,
) -> None:
    def open_store() -> ReviewStore:
        plain = ReviewStore.open(path)
        return CommitThenFail(plain.connection, plain.path, plain.notice)

    writer = HistoryWriter(open_store, first_retry=0.01)
    writer.start()
    ticket = writer.submit(answer_write("q1", 1))
    writer.submit(answer_write("q2", 2))
    assert writer.flush(DEADLINE)
    writer.close(5)
    assert ticket.attempts == 1
    assert rows(path) == [("q1", 1), ("q2", 2)]


def test_flags_and_exams_are_written_and_pending_ones_read_as_done(
    path: Path, writer: HistoryWriter
) -> None:
    writer.submit(answer_write("seen", 1))
    assert writer.flush(DEADLINE)
    reader = ReviewStore.open_reader(path)
    lock = Lock(path)
    try:
        writer.submit(answer_write("new-one", 2))
        writer.submit(FlagWrite("buried", "bury", T0 + timedelta(days=1)))
        writer.submit(FlagWrite("suspended", "suspend"))
        writer.submit(FlagWrite("suspended", "unsuspend"))
        writer.submit(FlagWrite("kept-out", "suspend"))
        exam = {
            "taken": T0,
            "questions": 3,
            "correct": 2,
            "passed": False,
            "threshold": 0.7,
            "seconds": 60.0,
            "detail": {"seed": 1},
        }
        writer.submit(ExamWrite(exam))
        view = PendingView(reader, writer.pending_writes())
        assert view.known_ids() == {"seen", "new-one"}
        assert view.first_reviewed_since(T0) == 2
        assert "new-one" not in view.due_ids(T0 + timedelta(days=365))
        assert view.hidden_ids(T0) == {"buried", "kept-out"}
        assert view.suspended_ids() == ["kept-out"]
        assert reader.known_ids() == {"seen"}  # the file itself does not have them yet
    finally:
        lock.release()
    assert writer.flush(DEADLINE)
    assert reader.known_ids() == {"seen", "new-one"}
    assert reader.hidden_ids(T0) == {"buried", "kept-out"}
    [stored] = reader.exams()
    assert stored["questions"] == 3 and stored["detail"] == {"seed": 1}
    reader.close()


def test_closing_with_the_lock_still_held_is_bounded_and_says_what_is_left(
    path: Path, writer: HistoryWriter
) -> None:
    lock = Lock(path)
    try:
        writer.submit(answer_write("q1", 1))
        writer.submit(answer_write("q2", 2))
        started = time.monotonic()
        left = writer.close(0.5)
        assert time.monotonic() - started < 0.5 + 0.2 + 1 + 1  # bound, busy timeout, slack
        assert left == 2
        assert "locked" in (writer.last_cause() or "")
    finally:
        lock.release()
    assert rows(path) == []


def test_a_history_that_cannot_be_opened_fails_the_writer_and_is_said(tmp_path: Path) -> None:
    folder = tmp_path / "a folder"
    folder.mkdir()
    recorder = Recorder()
    writer = HistoryWriter(lambda: ReviewStore.open(folder), recorder)
    writer.start()
    wait_until(lambda: writer.status().state == "failed", "the failure")
    assert str(folder) in (writer.status().failure or "")
    assert recorder.calls >= 1
    with pytest.raises(WriterClosed):
        writer.submit(answer_write("q1", 1))
    assert writer.close(1) == 0


def test_answers_given_while_the_history_opens_are_kept(path: Path) -> None:
    opened = threading.Event()

    def slow_open() -> ReviewStore:
        opened.wait(DEADLINE)
        return ReviewStore.open(path)

    writer = HistoryWriter(slow_open)
    writer.start()
    ticket = writer.submit(answer_write("early", 1))
    assert writer.status().state == "opening" and writer.status().pending == 1
    opened.set()
    assert writer.flush(DEADLINE)
    assert ticket.saved and rows(path) == [("early", 1)]
    writer.close(5)


class HeldAnswers(ReviewStore):
    """A store whose record_answer waits for `go`: the answer is in flight meanwhile."""

    started = threading.Event()
    go = threading.Event()

    def record_answer(self, **kwargs):  # type: ignore[override]
        HeldAnswers.started.set()
        HeldAnswers.go.wait(DEADLINE)
        return super().record_answer(**kwargs)


def test_an_answer_withdrawn_while_it_is_being_written_is_undone_once_saved(path: Path) -> None:
    def open_store() -> ReviewStore:
        plain = ReviewStore.open(path)
        return HeldAnswers(plain.connection, plain.path, plain.notice)

    writer = HistoryWriter(open_store)
    writer.start()
    ticket = writer.submit(answer_write("q1", 1))
    assert HeldAnswers.started.wait(DEADLINE)
    assert writer.withdraw(ticket) is None and ticket.withdrawn
    HeldAnswers.go.set()
    assert writer.flush(DEADLINE)
    writer.close(5)
    assert ticket.saved and rows(path) == []
    with ReviewStore.open(path) as store:
        assert store.card("q1") is None
