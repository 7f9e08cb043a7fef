"""The class's PostgreSQL server goes away mid-session: answers are kept on this machine (the
outbox, quizapp/srs/store/outbox.py) and sent, in order and exactly once, when it is back, on a real
server stopped with `pg_ctl stop -m immediate` and started again on the same port."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

psycopg = pytest.importorskip("psycopg")

from quizapp.srs.memory.scheduling import Rating, make_scheduler  # noqa: E402
from quizapp.srs.store.history import PostgresLocation  # noqa: E402
from quizapp.srs.store.open_history import open_writer  # noqa: E402
from quizapp.srs.store.outbox import Outbox, kept_writes, outbox_path  # noqa: E402
from quizapp.srs.store.postgres.schema import CURRENT_CARDS, EFFECTIVE_REVIEWS  # noqa: E402
from quizapp.srs.store.writer import HistoryWriter  # noqa: E402
from quizapp.srs.store.writes import AnswerWrite  # noqa: E402

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
DEADLINE = 30.0
SCHEDULER = make_scheduler(desired_retention=0.85)  # fuzzed: the same inputs, the same card


def answer(question_id: str, n: int, rating: Rating = Rating.Good) -> AnswerWrite:
    return AnswerWrite(
        question_id=question_id,
        deck_id="deck",
        topic="attention",
        rating=rating,
        correct=rating != Rating.Again,
        when=T0 + timedelta(minutes=n),
        duration_ms=1000 + n,
        kind="drill",
        scheduler=SCHEDULER,
    )


# q1 answered three times: its card shows whether the answers were applied in order, once each.
SESSION = [
    answer("q1", 0, Rating.Again),
    answer("q2", 1),
    answer("q1", 15, Rating.Good),
    dataclasses.replace(answer("q3", 16, Rating.Hard), response={"chosen": [2]}),
    answer("q1", 40, Rating.Easy),
    answer("q2", 41, Rating.Again),
]


def wait_until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + DEADLINE
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.01)


def reviews(url: str, student: str) -> list[tuple[str, int]]:
    with psycopg.connect(url, autocommit=True) as db:
        return db.execute(
            "SELECT question_id, duration_ms"
            f" FROM {EFFECTIVE_REVIEWS} AS reviews WHERE student = %s ORDER BY id",
            (student,),
        ).fetchall()


def cards(url: str, student: str) -> dict[str, str]:
    with psycopg.connect(url, autocommit=True) as db:
        rows = db.execute(
            f"SELECT question_id, card_json FROM {CURRENT_CARDS} AS cards WHERE student = %s",
            (student,),
        ).fetchall()
    return dict(rows)


def answered_online(url: str, writes: list[AnswerWrite]) -> dict[str, str]:
    """The cards as the same answers give them, sent straight to a server that stays up."""
    with open_writer(PostgresLocation(url, "online")) as store:
        for write in writes:
            record(store, write)
    return cards(url, "online")


def record(store, write: AnswerWrite, **extra: object) -> None:
    """`write` straight to the store, as one call."""
    store.record_answer(
        question_id=write.question_id,
        deck_id=write.deck_id,
        topic=write.topic,
        rating=write.rating,
        correct=write.correct,
        when=write.when,
        duration_ms=write.duration_ms,
        kind=write.kind,
        scheduler=write.scheduler,
        **extra,
    )


def expected_rows(writes: list[AnswerWrite]) -> list[tuple[str, int | None]]:
    return [(w.question_id, w.duration_ms) for w in writes]


@pytest.fixture
def location(stoppable_pg_url: str) -> PostgresLocation:
    return PostgresLocation(stoppable_pg_url, "ada")


@pytest.fixture
def start_writer(
    location: PostgresLocation, tmp_path: Path
) -> Iterator[Callable[..., HistoryWriter]]:
    writers: list[HistoryWriter] = []

    def start(open_store: Callable[[], object] | None = None) -> HistoryWriter:
        writer = HistoryWriter(
            open_store or (lambda: open_writer(location)),  # type: ignore[arg-type,return-value]
            first_retry=0.01,
            longest_retry=0.1,
            outbox_path=outbox_path(location, tmp_path / "outbox"),
        )
        writer.start()
        writers.append(writer)
        return writer

    yield start
    for writer in writers:
        writer.close(1.0)


def kept_in(location: PostgresLocation, folder: Path) -> list[str]:
    """What every process keeps in the outbox, looked at without taking anything over."""
    writes = kept_writes(outbox_path(location, folder))
    return [write.question_id for write in writes]  # type: ignore[attr-defined]


def test_answers_given_while_the_server_is_down_arrive_once_in_order(
    stoppable_postgres, location: PostgresLocation, start_writer, tmp_path: Path
) -> None:
    writer = start_writer()
    for write in SESSION[:2]:
        writer.submit(write)
    wait_until(lambda: writer.status().state == "open" and not writer.status().pending, "online")
    assert writer.status().kept == 0
    assert not Outbox.exists(outbox_path(location, tmp_path / "outbox"))  # none while online

    stoppable_postgres.stop_immediately()
    for write in SESSION[2:5]:
        writer.submit(write)
    wait_until(lambda: writer.status().kept == 3, "the answers kept on this machine")
    status = writer.status()
    assert status.pending_answers == 3 and status.last_error is not None
    assert kept_in(location, tmp_path / "outbox") == ["q1", "q3", "q1"]

    stoppable_postgres.start()
    writer.submit(SESSION[5])  # given once the server is back: after the kept ones
    wait_until(lambda: not writer.status().pending, "everything sent")
    # Kept too: once the server has failed, every write is kept before it is tried.
    assert writer.status().sent_from_outbox == 4
    assert kept_in(location, tmp_path / "outbox") == []
    assert reviews(location.url, "ada") == expected_rows(SESSION)
    assert cards(location.url, "ada") == answered_online(location.url, SESSION)
    with psycopg.connect(location.url, autocommit=True) as db:
        kept_response = db.execute(
            "SELECT response FROM reviews WHERE student = 'ada' AND question_id = 'q3'"
        ).fetchone()
    assert kept_response == ({"chosen": [2]},)  # what was answered travels with it


class AcknowledgmentLost:
    """A store whose first answer commits, then fails as if the reply never came back."""

    def __init__(self, store) -> None:
        self.store = store
        self.lost = 0

    def record_answer(self, **kwargs):
        card = self.store.record_answer(**kwargs)
        if not self.lost:
            self.lost += 1
            raise psycopg.OperationalError("server closed the connection unexpectedly")
        return card

    def __getattr__(self, name: str):
        return getattr(self.store, name)


def test_an_answer_whose_acknowledgment_was_lost_is_stored_once(
    location: PostgresLocation, start_writer
) -> None:
    flaky: list[AcknowledgmentLost] = []

    def open_flaky() -> AcknowledgmentLost:
        flaky.append(AcknowledgmentLost(open_writer(location)))
        return flaky[-1]

    writer = start_writer(open_flaky)
    for write in SESSION[:3]:
        writer.submit(write)
    wait_until(lambda: writer.status().state == "open" and not writer.status().pending, "saved")
    assert flaky[0].lost == 1  # the first commit's acknowledgment was lost, and it was sent again
    assert reviews(location.url, "ada") == expected_rows(SESSION[:3])
    assert cards(location.url, "ada") == answered_online(location.url, SESSION[:3])


def test_the_same_answer_id_twice_is_one_review_and_one_step_of_its_card(
    location: PostgresLocation,
) -> None:
    write = SESSION[0]
    with open_writer(location) as store:
        review_ids = []
        for _ in range(2):
            record(store, write, answer_id="0b7c1e0e-3a53-4f43-9f0e-5d1c2b1a0a01")
            review_ids.append(store.last_review_id)
        assert review_ids[0] is not None and review_ids[1] == review_ids[0]
    assert reviews(location.url, "ada") == expected_rows([write])
    assert cards(location.url, "ada") == answered_online(location.url, [write])


def test_answers_kept_when_the_app_quits_during_the_outage_are_sent_at_the_next_start(
    stoppable_postgres, location: PostgresLocation, start_writer, tmp_path: Path
) -> None:
    first = start_writer()
    first.submit(SESSION[0])
    wait_until(lambda: first.status().state == "open" and not first.status().pending, "online")
    stoppable_postgres.stop_immediately()
    tickets = [first.submit(write) for write in SESSION[1:4]]
    first.withdraw(tickets[-1])  # undone during the outage: never sent
    wait_until(lambda: first.status().kept == 2, "two answers kept")
    assert first.close(0.2) == 2  # quitting: the server is still away
    assert kept_in(location, tmp_path / "outbox") == ["q2", "q1"]
    writes = kept_writes(outbox_path(location, tmp_path / "outbox"))

    stoppable_postgres.start()
    second = start_writer()
    second.submit(SESSION[4])  # a new session's first answer goes after the kept ones
    wait_until(lambda: second.status().state == "open" and not second.status().pending, "sent")
    assert kept_in(location, tmp_path / "outbox") == []
    sent = [SESSION[0], SESSION[1], SESSION[2], SESSION[4]]
    assert reviews(location.url, "ada") == expected_rows(sent)
    online = answered_online(location.url, sent)
    assert cards(location.url, "ada") == online

    # Sent, but the app died before the outbox forgot them: the next start sends them again,
    # and the server keeps one of each.
    kept = Outbox(outbox_path(location, tmp_path / "outbox"))
    for write in writes:
        kept.add(write)
    kept.close()  # a file still holding writes stays, for the next start to take over
    third = start_writer()
    wait_until(lambda: third.status().state == "open" and not third.status().pending, "resent")
    assert third.status().sent_from_outbox == 2
    assert reviews(location.url, "ada") == expected_rows(sent)
    assert cards(location.url, "ada") == online


def test_an_undo_and_a_new_rating_given_during_the_outage_survive_a_restart(
    stoppable_postgres, location: PostgresLocation, start_writer
) -> None:
    first = start_writer()
    online = first.submit(SESSION[0])
    wait_until(lambda: first.status().state == "open" and not first.status().pending, "online")
    stoppable_postgres.stop_immediately()
    first.withdraw(online)  # saved before the outage: an undo of it waits
    first.submit(SESSION[1])  # the head that fails
    waiting = first.submit(SESSION[3])  # untried behind it: rerated where it waits
    wait_until(lambda: first.status().kept == 3, "the undo and two answers kept")
    first.rerate(waiting, Rating.Easy, SCHEDULER)
    assert first.close(0.2) == 3

    stoppable_postgres.start()
    second = start_writer()
    wait_until(lambda: second.status().state == "open" and not second.status().pending, "sent")
    with psycopg.connect(location.url, autocommit=True) as db:
        stored = db.execute(
            "SELECT question_id, rating"
            f" FROM {EFFECTIVE_REVIEWS} AS reviews WHERE student = 'ada' ORDER BY id"
        ).fetchall()
    assert stored == [("q2", int(Rating.Good)), ("q3", int(Rating.Easy))]
    assert set(cards(location.url, "ada")) == {"q2", "q3"}  # q1's card went with its answer


def test_a_damaged_outbox_is_left_as_it_is_and_said(
    location: PostgresLocation, start_writer, tmp_path: Path
) -> None:
    path = outbox_path(location, tmp_path / "outbox")
    path.parent.mkdir(parents=True)
    damaged = b"SQLite format 3\x00" + b"\xff" * 4080
    path.write_bytes(damaged)
    writer = start_writer()
    writer.submit(SESSION[0])
    wait_until(lambda: writer.status().state == "open" and not writer.status().pending, "saved")
    assert str(path) in (writer.status().outbox_error or "")
    assert path.read_bytes() == damaged  # never replaced: what it holds may still be recovered
    assert reviews(location.url, "ada") == expected_rows(SESSION[:1])
