"""The drill queue: due cards first, then new cards across decks up to the daily limit."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from quizapp.bank.model import (
    Choice,
    ChoiceQuestion,
    Difficulty,
    Flashcard,
    Location,
    Question,
    QuestionType,
)
from quizapp.srs.memory.scheduling import Rating, make_scheduler
from quizapp.srs.store.sqlite.store import ReviewStore
from quizapp.srs.study.queue import DrillQueue, build_drill_queue, start_of_day, tomorrow
from quizapp.srs.times import from_ms, to_ms

SCHEDULER = make_scheduler(fuzz=False)
# Noon of a day, local time, whatever the machine's timezone: "today" is unambiguous.
NOW = start_of_day(datetime(2025, 3, 12, 12, 0, tzinfo=UTC)) + timedelta(hours=12)
TODAY = start_of_day(NOW)


def make_question(qid: str, deck: str) -> Question:
    common = dict(
        id=qid,
        prompt=f"prompt {qid}",
        explanation="because",
        topic=f"topic-{deck}",
        tags=(),
        difficulty=Difficulty.MEDIUM,
        deck_id=deck,
        location=Location(f"{deck}.yaml", 1, 1),
    )
    if sum(map(ord, qid)) % 2:  # both kinds, the same way every run
        return Flashcard(type=QuestionType.FLASHCARD, back="back", **common)
    return ChoiceQuestion(
        type=QuestionType.SINGLE_CHOICE,
        choices=(Choice("a", True, None), Choice("b", False, None)),
        **common,
    )


def bank(decks: dict[str, int]) -> dict[str, Question]:
    """{deck: count} → questions `<deck>-<i>`, in deck order."""
    return {
        f"{deck}-{i}": make_question(f"{deck}-{i}", deck)
        for deck, count in decks.items()
        for i in range(count)
    }


def answer(store: ReviewStore, qid: str, when: datetime, rating: Rating = Rating.Good):
    return store.record_answer(
        question_id=qid,
        deck_id=qid.split("-")[0],
        topic="t",
        rating=rating,
        correct=rating != Rating.Again,
        when=when,
        duration_ms=1000,
        kind="drill",
        scheduler=SCHEDULER,
    )


def set_due(store: ReviewStore, qid: str, due: datetime) -> None:
    store.connection.execute("UPDATE cards SET due_ms = ? WHERE question_id = ?", (to_ms(due), qid))


def ids(questions: list[Question]) -> list[str]:
    return [q.id for q in questions]


@pytest.fixture
def store():
    with ReviewStore.open(":memory:") as opened:
        yield opened


def test_an_empty_history_gives_new_cards_only(store: ReviewStore) -> None:
    queue = build_drill_queue(store, bank({"a": 5}), NOW, new_per_day=3)
    assert isinstance(queue, DrillQueue)
    assert queue.due == []
    assert ids(queue.new) == ["a-0", "a-1", "a-2"]
    assert queue.next_due is None
    assert len(queue) == 3 and queue.questions == queue.new


def test_due_cards_come_first_most_overdue_first(store: ReviewStore) -> None:
    questions = bank({"a": 6})
    last_week = NOW - timedelta(days=7)
    for qid in ("a-0", "a-1", "a-2", "a-3"):
        answer(store, qid, last_week)
    set_due(store, "a-0", NOW - timedelta(hours=1))
    set_due(store, "a-1", NOW - timedelta(days=3))
    set_due(store, "a-2", NOW + timedelta(days=2))  # not due yet
    set_due(store, "a-3", NOW)  # due exactly now
    queue = build_drill_queue(store, questions, NOW, new_per_day=10)
    assert ids(queue.due) == ["a-1", "a-0", "a-3"]
    assert ids(queue.new) == ["a-4", "a-5"]
    assert ids(queue.questions) == ["a-1", "a-0", "a-3", "a-4", "a-5"]
    assert queue.next_due == NOW + timedelta(days=2)


def test_new_cards_are_round_robin_across_decks(store: ReviewStore) -> None:
    questions = bank({"a": 4, "b": 1, "c": 3})
    queue = build_drill_queue(store, questions, NOW, new_per_day=7)
    assert ids(queue.new) == ["a-0", "b-0", "c-0", "a-1", "c-1", "a-2", "c-2"]
    queue = build_drill_queue(store, questions, NOW, new_per_day=4)
    assert ids(queue.new) == ["a-0", "b-0", "c-0", "a-1"]


def test_the_limit_counts_cards_first_reviewed_today(store: ReviewStore) -> None:
    questions = bank({"a": 10, "b": 10})
    answer(store, "a-0", TODAY + timedelta(minutes=5))
    answer(store, "b-0", TODAY + timedelta(hours=1))
    answer(store, "a-1", TODAY - timedelta(minutes=5))  # yesterday: does not count
    queue = build_drill_queue(store, questions, NOW, new_per_day=5)
    assert len(queue.new) == 3
    assert ids(queue.new) == ["a-2", "b-1", "a-3"]
    assert not {"a-0", "b-0", "a-1"} & set(ids(queue.new))


def test_no_new_cards_once_the_limit_is_reached(store: ReviewStore) -> None:
    questions = bank({"a": 10})
    for i in range(4):
        answer(store, f"a-{i}", TODAY + timedelta(minutes=i))
    assert build_drill_queue(store, questions, NOW, new_per_day=4).new == []
    assert build_drill_queue(store, questions, NOW, new_per_day=3).new == []  # over: not negative
    assert build_drill_queue(store, questions, NOW, new_per_day=0).new == []


def test_a_re_reviewed_old_card_does_not_use_todays_allowance(store: ReviewStore) -> None:
    questions = bank({"a": 10})
    answer(store, "a-0", TODAY - timedelta(days=3))
    answer(store, "a-0", TODAY + timedelta(hours=1))
    assert len(build_drill_queue(store, questions, NOW, new_per_day=4).new) == 4


def test_suspended_and_buried_cards_are_left_out(store: ReviewStore) -> None:
    questions = bank({"a": 6})
    for qid in ("a-0", "a-1", "a-2"):
        answer(store, qid, NOW - timedelta(days=7))
        set_due(store, qid, NOW - timedelta(days=1))
    store.set_suspended("a-0")
    store.bury("a-1", tomorrow(NOW))
    store.set_suspended("a-3")  # a new card, suspended
    store.bury("a-4", tomorrow(NOW))  # a new card, buried
    queue = build_drill_queue(store, questions, NOW, new_per_day=10)
    assert ids(queue.due) == ["a-2"]
    assert ids(queue.new) == ["a-5"]
    # Tomorrow the buried cards are back; the suspended ones are not.
    later = tomorrow(NOW) + timedelta(hours=1)
    queue = build_drill_queue(store, questions, later, new_per_day=10)
    assert set(ids(queue.due)) == {"a-1", "a-2"}
    assert ids(queue.new) == ["a-4", "a-5"]
    store.set_suspended("a-0", False)
    assert "a-0" in ids(build_drill_queue(store, questions, later, new_per_day=10).due)


def test_questions_removed_from_the_bank_are_ignored(store: ReviewStore) -> None:
    questions = bank({"a": 3})
    answer(store, "gone-0", NOW - timedelta(days=9))
    set_due(store, "gone-0", NOW - timedelta(days=5))
    answer(store, "gone-1", NOW - timedelta(days=9))
    set_due(store, "gone-1", NOW + timedelta(hours=1))  # would be the next due
    answer(store, "a-0", NOW - timedelta(days=9))
    set_due(store, "a-0", NOW + timedelta(hours=3))
    queue = build_drill_queue(store, questions, NOW, new_per_day=10)
    assert queue.due == []
    assert ids(queue.new) == ["a-1", "a-2"]
    assert queue.next_due == NOW + timedelta(hours=3)


def test_next_due_when_nothing_is_due(store: ReviewStore) -> None:
    questions = bank({"a": 3})
    for i, hours in enumerate((30, 2, 50)):
        answer(store, f"a-{i}", NOW - timedelta(days=1))
        set_due(store, f"a-{i}", NOW + timedelta(hours=hours))
    queue = build_drill_queue(store, questions, NOW, new_per_day=10)
    assert len(queue) == 0
    assert queue.next_due == NOW + timedelta(hours=2)
    store.bury("a-1", NOW + timedelta(days=1))  # a buried card is not "next"
    queue = build_drill_queue(store, questions, NOW, new_per_day=10)
    assert queue.next_due == NOW + timedelta(hours=30)


def test_next_due_is_after_the_queue(store: ReviewStore) -> None:
    questions = bank({"a": 2})
    answer(store, "a-0", NOW - timedelta(days=1))
    set_due(store, "a-0", NOW - timedelta(minutes=1))
    answer(store, "a-1", NOW - timedelta(days=1))
    set_due(store, "a-1", NOW + timedelta(days=4))
    queue = build_drill_queue(store, questions, NOW, new_per_day=10)
    assert ids(queue.due) == ["a-0"]
    assert queue.next_due == NOW + timedelta(days=4)


def test_answering_a_due_card_moves_it_out_of_the_queue(store: ReviewStore) -> None:
    questions = bank({"a": 1})
    answer(store, "a-0", NOW - timedelta(hours=2), Rating.Again)  # due again in minutes
    queue = build_drill_queue(store, questions, NOW, new_per_day=10)
    assert ids(queue.due) == ["a-0"]
    card = answer(store, "a-0", NOW, Rating.Good)
    queue = build_drill_queue(store, questions, NOW, new_per_day=10)
    assert queue.due == []
    assert queue.next_due == from_ms(to_ms(card.due))


def test_the_day_starts_at_local_midnight() -> None:
    moment = datetime(2025, 6, 1, 15, 30, tzinfo=UTC)
    start = start_of_day(moment)
    assert start <= moment < start + timedelta(days=1, hours=1)
    local = start.astimezone()
    assert (local.hour, local.minute, local.second) == (0, 0, 0)
    assert tomorrow(moment) > moment
    assert tomorrow(moment).astimezone().hour == 0


# -- property: any history, the queue is consistent ------------------------------------------

DECKS = {"a": 4, "b": 3, "c": 2}
BANK = bank(DECKS)
IDS = [*sorted(BANK), "gone-0", "gone-1"]  # two with history but no longer in the bank

_event = st.tuples(
    st.sampled_from(IDS),
    st.integers(-20 * 24 * 60, 12 * 60).map(lambda m: NOW + timedelta(minutes=m)),
    st.sampled_from(list(Rating)),
)


@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    events=st.lists(_event, max_size=14),
    suspended=st.sets(st.sampled_from(IDS), max_size=3),
    buried=st.dictionaries(
        st.sampled_from(IDS),
        st.integers(-48, 48).map(lambda h: NOW + timedelta(hours=h)),
        max_size=3,
    ),
    new_per_day=st.integers(0, 12),
)
def test_the_queue_is_consistent_with_any_history(
    events, suspended, buried, new_per_day: int
) -> None:
    with ReviewStore.open(":memory:") as store:
        for qid, when, rating in sorted(events, key=lambda e: e[1]):
            answer(store, qid, when, rating)
        for qid in suspended:
            store.set_suspended(qid)
        for qid, until in buried.items():
            store.bury(qid, until)
        queue = build_drill_queue(store, BANK, NOW, new_per_day=new_per_day)
        dues = dict(store.due_times())

    hidden = set(suspended) | {q for q, until in buried.items() if until > NOW}
    first_review = {}
    for qid, when, _rating in sorted(events, key=lambda e: e[1]):
        first_review.setdefault(qid, when)
    introduced = sum(1 for when in first_review.values() if when >= TODAY)
    allowance = max(0, new_per_day - introduced)
    due_now = {q for q, due in dues.items() if due <= NOW and q in BANK and q not in hidden}

    got = ids(queue.questions)
    assert len(got) == len(set(got)), "no question twice"
    assert len(got) <= len(due_now) + allowance
    assert set(ids(queue.due)) == due_now
    assert [dues[q] for q in ids(queue.due)] == sorted(dues[q] for q in ids(queue.due))
    assert all(q in BANK for q in got)
    assert not set(got) & hidden
    # New means never answered; as many as the allowance and the bank allow.
    assert not set(ids(queue.new)) & set(dues)
    unseen = [q for q in BANK if q not in dues and q not in hidden]
    assert len(queue.new) == min(allowance, len(unseen))
    # Round robin: no deck gets two more new cards than another that still had some.
    per_deck = {d: sum(1 for q in queue.new if q.deck_id == d) for d in DECKS}
    available = {d: sum(1 for q in unseen if BANK[q].deck_id == d) for d in DECKS}
    for d in DECKS:
        for e in DECKS:
            if per_deck[d] > per_deck[e] + 1:
                assert per_deck[e] == available[e]
    # Next due: the earliest future due among cards the queue could show, if any.
    future = [
        due
        for q, due in dues.items()
        if due > NOW and q in BANK and q not in hidden and q not in got
    ]
    expected = from_ms(to_ms(min(future))) if future else None
    assert queue.next_due == expected
