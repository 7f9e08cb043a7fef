"""From an answer to an FSRS rating, and from a rating to the card's next due date."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quizapp.bank.answers import AGAIN, EASY, GOOD, HARD
from quizapp.bank.grading import Grade
from quizapp.srs.memory.scheduling import (
    DEFAULT_FAST_SECONDS,
    DEFAULT_SLOW_SECONDS,
    Rating,
    RatingPolicy,
    State,
    make_scheduler,
    require_aware,
    review,
)
from quizapp.srs.store.sqlite.store import ReviewStore

RIGHT = Grade(correct=True, expected="x", given="x")
WRONG = Grade(correct=False, expected="x", given="y")
WHEN = datetime(2025, 3, 10, 9, 30, tzinfo=UTC)


def flashcard(rating: int) -> Grade:
    return Grade(correct=rating != AGAIN, expected="back", given="", rating=rating)


# -- the answer → rating mapping ------------------------------------------------------------


@pytest.mark.parametrize("seconds", [0.0, 1.0, DEFAULT_FAST_SECONDS + 1, 30.0, 500.0, 1e6])
def test_a_wrong_answer_is_again_however_long_it_took(seconds: float) -> None:
    assert RatingPolicy().rating_for(WRONG, seconds) == Rating.Again


def test_a_right_answer_is_good_easy_or_hard_by_time() -> None:
    policy = RatingPolicy()
    middle = (DEFAULT_FAST_SECONDS + DEFAULT_SLOW_SECONDS) / 2
    assert policy.rating_for(RIGHT, middle) == Rating.Good
    assert policy.rating_for(RIGHT, DEFAULT_FAST_SECONDS / 2) == Rating.Easy
    assert policy.rating_for(RIGHT, DEFAULT_SLOW_SECONDS * 2) == Rating.Hard


def test_the_thresholds_themselves_rate_good() -> None:
    # "under fast_seconds" is Easy and "over slow_seconds" is Hard: the bounds are Good.
    policy = RatingPolicy(fast_seconds=5.0, slow_seconds=20.0)
    assert policy.rating_for(RIGHT, 5.0) == Rating.Good
    assert policy.rating_for(RIGHT, 20.0) == Rating.Good
    assert policy.rating_for(RIGHT, 4.999) == Rating.Easy
    assert policy.rating_for(RIGHT, 20.001) == Rating.Hard


def test_thresholds_come_from_the_policy() -> None:
    strict = RatingPolicy(fast_seconds=2.0, slow_seconds=4.0)
    lenient = RatingPolicy(fast_seconds=30.0, slow_seconds=300.0)
    assert strict.rating_for(RIGHT, 3.0) == Rating.Good
    assert lenient.rating_for(RIGHT, 3.0) == Rating.Easy
    assert strict.rating_for(RIGHT, 100.0) == Rating.Hard
    assert lenient.rating_for(RIGHT, 100.0) == Rating.Good


@given(
    fast=st.floats(0, 3600),
    extra=st.floats(0, 3600),
    seconds=st.floats(0, 10_000),
    correct=st.booleans(),
)
def test_rating_for_matches_the_rules(
    fast: float, extra: float, seconds: float, correct: bool
) -> None:
    policy = RatingPolicy(fast_seconds=fast, slow_seconds=fast + extra)
    grade = RIGHT if correct else WRONG
    expected = (
        Rating.Again
        if not correct
        else Rating.Easy
        if seconds < policy.fast_seconds
        else Rating.Hard
        if seconds > policy.slow_seconds
        else Rating.Good
    )
    assert policy.rating_for(grade, seconds) == expected


@pytest.mark.parametrize("rating", [AGAIN, HARD, GOOD, EASY])
@pytest.mark.parametrize("seconds", [0.5, 30.0, 1000.0])
def test_a_flashcard_takes_the_students_own_grade(rating: int, seconds: float) -> None:
    # Neither the time taken nor `correct` overrides the student's grade.
    assert RatingPolicy().rating_for(flashcard(rating), seconds) == Rating(rating)
    assert int(RatingPolicy().rating_for(flashcard(rating), seconds)) == rating


# -- timezone-aware datetimes only ----------------------------------------------------------


def test_require_aware_refuses_naive_datetimes() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        require_aware(datetime(2025, 1, 1, 12, 0))


def test_require_aware_converts_to_utc() -> None:
    paris = timezone(timedelta(hours=1))
    moment = datetime(2025, 1, 1, 13, 0, tzinfo=paris)
    converted = require_aware(moment)
    assert converted.utcoffset() == timedelta(0)
    assert converted == moment
    assert converted.hour == 12


def test_review_refuses_a_naive_datetime() -> None:
    with pytest.raises(ValueError):
        review(make_scheduler(fuzz=False), None, Rating.Good, datetime(2025, 1, 1), None)


def test_record_answer_refuses_a_naive_datetime_and_writes_nothing() -> None:
    with ReviewStore.open(":memory:") as store:
        with pytest.raises(ValueError):
            store.record_answer(
                question_id="q1",
                deck_id="d",
                topic="t",
                rating=Rating.Good,
                correct=True,
                when=datetime(2025, 1, 1, 12, 0),
                duration_ms=1000,
                kind="quiz",
                scheduler=make_scheduler(fuzz=False),
            )
        assert store.review_count() == 0
        assert store.card("q1") is None


# -- the scheduler --------------------------------------------------------------------------


@pytest.mark.parametrize("retention", [0.7, 0.8, 0.9, 0.95, 0.99])
def test_make_scheduler_accepts_retention_in_range(retention: float) -> None:
    scheduler = make_scheduler(retention, fuzz=False)
    assert scheduler.desired_retention == retention
    assert scheduler.enable_fuzzing is False


@pytest.mark.parametrize("retention", [0.0, 0.5, 0.6999, 0.9901, 1.0, 1.5, -0.9, float("nan")])
def test_make_scheduler_refuses_retention_out_of_range(retention: float) -> None:
    with pytest.raises(ValueError, match="desired retention"):
        make_scheduler(retention)


def test_fuzz_is_on_by_default() -> None:
    assert make_scheduler().enable_fuzzing is True


def test_a_good_review_of_a_new_card_is_due_in_the_future() -> None:
    card, log = review(make_scheduler(fuzz=False), None, Rating.Good, WHEN, 4000)
    assert card.due > WHEN
    assert card.last_review == WHEN
    assert int(log.rating) == int(Rating.Good)


def test_repeated_goods_push_the_due_date_later_each_time() -> None:
    scheduler = make_scheduler(fuzz=False)
    card, _ = review(scheduler, None, Rating.Good, WHEN, None)
    intervals = [card.due - WHEN]
    for _ in range(6):
        when = card.due  # reviewed exactly when due
        card, _ = review(scheduler, card, Rating.Good, when, None)
        intervals.append(card.due - when)
        assert card.due > when
    assert card.state == State.Review
    # Once in review, each successful recall earns a longer interval than the last.
    review_intervals = intervals[2:]
    assert all(b > a for a, b in pairwise(review_intervals))
    assert intervals[-1] > timedelta(days=7)


def test_again_comes_back_sooner_than_good() -> None:
    scheduler = make_scheduler(fuzz=False)
    card, _ = review(scheduler, None, Rating.Good, WHEN, None)
    for _ in range(3):
        card, _ = review(scheduler, card, Rating.Good, card.due, None)
    when = card.due
    after_good, _ = review(scheduler, card, Rating.Good, when, None)
    after_again, _ = review(scheduler, card, Rating.Again, when, None)
    assert after_again.due < after_good.due


def test_higher_retention_schedules_sooner() -> None:
    def interval(retention: float) -> timedelta:
        scheduler = make_scheduler(retention, fuzz=False)
        card, _ = review(scheduler, None, Rating.Good, WHEN, None)
        for _ in range(4):
            card, _ = review(scheduler, card, Rating.Good, card.due, None)
        return card.due - card.last_review

    assert interval(0.97) < interval(0.9) < interval(0.75)


def test_without_fuzz_the_schedule_is_deterministic() -> None:
    def run() -> list[datetime]:
        scheduler = make_scheduler(fuzz=False)
        card, _ = review(scheduler, None, Rating.Good, WHEN, None)
        dues = [card.due]
        for rating in (Rating.Good, Rating.Easy, Rating.Hard, Rating.Good):
            card, _ = review(scheduler, card, rating, card.due, None)
            dues.append(card.due)
        return dues

    assert run() == run()
