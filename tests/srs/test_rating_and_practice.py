"""What the student steers: the rating on the feedback screen, practice that leaves the
schedule alone, and due dates announced exactly as they are saved."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fsrs.scheduler import FUZZ_RANGES

from quizapp.srs.memory.scheduling import (
    Card,
    Rating,
    State,
    fuzzed_interval,
    make_scheduler,
    review,
)
from quizapp.srs.store.history import PRACTICE
from quizapp.srs.store.pending import PendingView
from quizapp.srs.store.sqlite.store import ReviewStore
from quizapp.srs.store.writer import HistoryWriter
from quizapp.srs.store.writes import AnswerWrite, RerateWrite
from tests.srs.filesystems import Lock
from tests.srs.test_writer import wait_until

T0 = datetime(2025, 3, 10, 9, 0, tzinfo=UTC)
FUZZY = make_scheduler()  # fuzz on, as the app has it


def answer(store: ReviewStore, qid: str, when: datetime, rating: Rating, kind: str = "drill"):
    return store.record_answer(
        question_id=qid,
        deck_id="d",
        topic="t",
        rating=rating,
        correct=rating != Rating.Again,
        when=when,
        duration_ms=4000,
        kind=kind,
        scheduler=FUZZY,
    )


def review_rows(path: Path) -> list[tuple[str, str, int]]:
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT question_id, kind, rating FROM reviews ORDER BY id").fetchall()
    finally:
        db.close()


@pytest.fixture
def store(tmp_path: Path):
    with ReviewStore.open(tmp_path / "h.db") as store:
        yield store


# -- the same answer, the same due date ----------------------------------------------------


def matured(days: int) -> Card:
    """A card in review whose next Good lands about `days` days out."""
    card, _ = review(make_scheduler(fuzz=False), None, Rating.Easy, T0, None)
    while (card.due - card.last_review).days < days:
        card, _ = review(make_scheduler(fuzz=False), card, Rating.Good, card.due, None)
    return card


def test_the_fuzz_is_a_function_of_question_time_and_rating() -> None:
    card = matured(20)
    first, _ = review(FUZZY, card, Rating.Good, card.due, 3000, fuzz_key="q1")
    again, _ = review(FUZZY, card, Rating.Good, card.due, 3000, fuzz_key="q1")
    assert first.due == again.due
    # Other questions draw other fuzz: not every one of them lands on the same day.
    others = {
        review(FUZZY, card, Rating.Good, card.due, 3000, fuzz_key=f"q{i}")[0].due for i in range(40)
    }
    assert len(others) > 1


def test_the_fuzz_stays_within_py_fsrs_ranges() -> None:
    import random

    for days in (3, 7, 15, 40, 400):
        delta = 1.0 + sum(
            band["factor"] * max(min(float(days), band["end"]) - band["start"], 0.0)
            for band in FUZZ_RANGES
        )
        low, high = max(2, round(days - delta)), round(days + delta)
        seen = {
            fuzzed_interval(timedelta(days=days), random.Random(seed), 36500).days
            for seed in range(300)
        }
        assert min(seen) >= low and max(seen) <= high
        assert len(seen) > 1  # it does fuzz
    assert fuzzed_interval(timedelta(days=2), random.Random(1), 36500) == timedelta(days=2)


def test_learning_steps_are_not_fuzzed() -> None:
    after, _ = review(FUZZY, None, Rating.Again, T0, 1000, fuzz_key="q")
    assert after.state == State.Learning and after.due == T0 + timedelta(minutes=1)


def test_the_store_saves_the_due_date_review_announces(store: ReviewStore) -> None:
    card = answer(store, "q1", T0, Rating.Easy)
    assert card is not None and card.state == State.Review
    announced, _ = review(FUZZY, card, Rating.Good, card.due, 4000, fuzz_key="q1")
    saved = answer(store, "q1", card.due, Rating.Good)
    assert saved is not None and saved.due == announced.due
    assert store.card("q1").due == announced.due


# -- practice --------------------------------------------------------------------------------


def test_a_practice_answer_is_a_row_and_nothing_else(store: ReviewStore, tmp_path: Path) -> None:
    assert answer(store, "new", T0, Rating.Good, PRACTICE) is None
    assert store.known_ids() == set()  # still new: no card
    assert store.first_reviewed_since(T0 - timedelta(days=1)) == 0
    card = answer(store, "seen", T0, Rating.Easy)
    before = store.card("seen").to_dict()
    answer(store, "seen", T0 + timedelta(minutes=3), Rating.Again, PRACTICE)
    assert store.card("seen").to_dict() == before  # the Easy stands
    assert card is not None and store.due_ids(card.due) == ["seen"]
    assert review_rows(tmp_path / "h.db") == [
        ("new", PRACTICE, 3),
        ("seen", "drill", 4),
        ("seen", PRACTICE, 1),
    ]


def test_undo_of_a_practice_answer_takes_only_its_row(store: ReviewStore, tmp_path: Path) -> None:
    answer(store, "q", T0, Rating.Good)
    card = store.card("q").to_dict()
    answer(store, "q", T0 + timedelta(minutes=1), Rating.Again, PRACTICE)
    assert store.undo_review(store.last_review_id) == "q"
    assert store.card("q").to_dict() == card
    assert review_rows(tmp_path / "h.db") == [("q", "drill", 3)]


def test_a_later_practice_answer_does_not_block_undo(store: ReviewStore) -> None:
    answer(store, "q", T0, Rating.Good)
    scheduled = store.last_review_id
    answer(store, "q", T0 + timedelta(minutes=1), Rating.Again, PRACTICE)
    assert store.undo_review(scheduled) == "q"
    assert store.known_ids() == set()


# -- another rating for the same review ------------------------------------------------------


def test_rerate_changes_the_row_and_the_card_in_place(store: ReviewStore, tmp_path: Path) -> None:
    answer(store, "q", T0, Rating.Easy)
    first = store.last_review_id
    card = store.card("q")
    answer(store, "q", card.due, Rating.Good)
    assert store.rerate_review(store.last_review_id, Rating.Again, FUZZY)
    rows = review_rows(tmp_path / "h.db")
    assert rows == [("q", "drill", 4), ("q", "drill", 1)]  # still two rows, the second re-rated
    expected, _ = review(FUZZY, card, Rating.Again, card.due, 4000, fuzz_key="q")
    assert store.card("q").to_dict() == expected.to_dict()
    assert store.card("q").state == State.Relearning
    # The first review is no longer the latest: changing it would undo the second.
    assert not store.rerate_review(first, Rating.Hard, FUZZY)


def test_rerate_of_a_first_answer_keeps_it_new_today(store: ReviewStore) -> None:
    answer(store, "q", T0, Rating.Again)
    assert store.rerate_review(store.last_review_id, Rating.Easy, FUZZY)
    assert store.card("q").state == State.Review
    assert store.first_reviewed_since(T0) == 1
    assert store.undo_review(store.last_review_id) == "q"  # undo still takes it all back
    assert store.known_ids() == set()


def test_rerate_of_a_practice_answer_changes_only_the_rating(
    store: ReviewStore, tmp_path: Path
) -> None:
    answer(store, "q", T0, Rating.Good, PRACTICE)
    assert store.rerate_review(store.last_review_id, Rating.Hard, FUZZY)
    assert review_rows(tmp_path / "h.db") == [("q", PRACTICE, 2)]
    assert store.known_ids() == set()


# -- the writer: one review row, however the rating changes -----------------------------------


def write(qid: str, rating: Rating, kind: str = "drill", n: int = 0) -> AnswerWrite:
    return AnswerWrite(
        question_id=qid,
        deck_id="d",
        topic="t",
        rating=rating,
        correct=True,
        when=T0 + timedelta(seconds=n),
        duration_ms=1000 + n,
        kind=kind,
        scheduler=FUZZY,
    )


@pytest.fixture
def writer(tmp_path: Path):
    writer = HistoryWriter(
        lambda: ReviewStore.open(tmp_path / "h.db"), busy_timeout=0.2, first_retry=0.02
    )
    writer.start()
    yield writer
    writer.close(5)


def test_a_rating_changed_before_the_write_changes_the_write(tmp_path: Path) -> None:
    writer = HistoryWriter(lambda: ReviewStore.open(tmp_path / "h.db"))
    ticket = writer.submit(write("q", Rating.Easy))  # not started: nothing is tried yet
    assert writer.rerate(ticket, Rating.Hard, FUZZY) is None  # changed where it waits
    assert writer.pending_writes()[0].rating == Rating.Hard  # type: ignore[attr-defined]
    writer.start()
    try:
        assert writer.flush(10)
    finally:
        writer.close(5)
    assert review_rows(tmp_path / "h.db") == [("q", "drill", 2)]


def test_a_rating_changed_after_the_write_rewrites_that_row(
    writer: HistoryWriter, tmp_path: Path
) -> None:
    ticket = writer.submit(write("q", Rating.Easy))
    assert writer.flush(10) and ticket.saved
    rerate = writer.rerate(ticket, Rating.Again, FUZZY)
    assert rerate is not None and isinstance(rerate.write, RerateWrite)
    assert writer.flush(10) and rerate.outcome is True
    assert review_rows(tmp_path / "h.db") == [("q", "drill", 1)]
    undo = writer.withdraw(ticket)  # undo takes back the re-rated row
    assert undo is not None and writer.flush(10)
    assert review_rows(tmp_path / "h.db") == []


def test_a_write_that_failed_once_is_re_rated_by_a_second_write(
    writer: HistoryWriter, tmp_path: Path
) -> None:
    wait_until(lambda: writer.status().state == "open", "the history to open")
    lock = Lock(tmp_path / "h.db")
    try:
        ticket = writer.submit(write("q", Rating.Easy))
        wait_until(lambda: ticket.attempts > 0, "a failed attempt")
        # Its COMMIT may have reached the disk: the retry looks for the row by its rating,
        # so the waiting write keeps it and a RerateWrite follows.
        rerate = writer.rerate(ticket, Rating.Good, FUZZY)
        assert rerate is not None
    finally:
        lock.release()
    assert writer.flush(10)
    assert review_rows(tmp_path / "h.db") == [("q", "drill", 3)]


def test_no_rating_change_for_an_answer_taken_back(writer: HistoryWriter, tmp_path: Path) -> None:
    ticket = writer.submit(write("q", Rating.Easy))
    assert writer.flush(10)
    writer.withdraw(ticket)
    assert writer.flush(10)
    writer.rerate(ticket, Rating.Good, FUZZY)
    assert writer.flush(10)
    assert review_rows(tmp_path / "h.db") == []


# -- what the UI reads while writes wait -----------------------------------------------------


def test_pending_practice_leaves_a_card_new_and_pending_answers_fold_into_the_card(
    store: ReviewStore,
) -> None:
    view = PendingView(store, [write("p", Rating.Good, PRACTICE)])
    assert view.known_ids() == set() and view.card("p") is None
    first, second = write("q", Rating.Again, n=0), write("q", Rating.Good, n=70)
    view = PendingView(store, [first, second])
    card, _ = review(FUZZY, None, Rating.Again, first.when, first.duration_ms, fuzz_key="q")
    card, _ = review(FUZZY, card, Rating.Good, second.when, second.duration_ms, fuzz_key="q")
    assert view.card("q").to_dict() == card.to_dict()
    assert "q" in view.known_ids()


def test_pending_answers_put_questions_on_the_missed_list_and_take_them_off(
    store: ReviewStore,
) -> None:
    answer(store, "saved-miss", T0, Rating.Again, PRACTICE)
    answer(store, "saved-miss-2", T0, Rating.Again, PRACTICE)
    wrong = replace(write("waiting-miss", Rating.Again, PRACTICE, n=5), correct=False)
    fixed = write("saved-miss", Rating.Good, PRACTICE, n=6)  # right now, still waiting
    drilled = write("saved-miss-2", Rating.Again, n=7)  # a drill schedules it
    view = PendingView(store, [wrong, fixed, drilled])
    asked = {"saved-miss", "saved-miss-2", "waiting-miss"}
    assert store.missed_in_practice_ids(asked) == {"saved-miss", "saved-miss-2"}
    assert view.missed_in_practice_ids(asked) == {"waiting-miss"}
    assert view.missed_in_practice_ids({"saved-miss-2"}) == set()  # only the ones asked about


def test_a_pending_rerate_folds_into_the_card(writer: HistoryWriter, tmp_path: Path) -> None:
    ticket = writer.submit(write("q", Rating.Easy))
    assert writer.flush(10)
    with ReviewStore.open_reader(tmp_path / "h.db") as reader:
        view = PendingView(reader, [RerateWrite(ticket, Rating.Again, FUZZY)])
        expected, _ = review(FUZZY, None, Rating.Again, T0, 1000, fuzz_key="q")
        assert view.card("q").to_dict() == expected.to_dict()
        assert json.loads(json.dumps(view.card("q").to_dict()))["state"] == State.Learning
