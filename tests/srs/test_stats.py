"""Study statistics from a real history file, at fixed moments, in a fixed local time zone."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from quizapp.bank.model import Difficulty, Location, Question, QuestionType
from quizapp.srs.memory.scheduling import Rating, State, make_scheduler
from quizapp.srs.store.sqlite.store import ReviewStore
from quizapp.srs.study.stats import MASTERY_STABILITY_DAYS, compute_stats, streak
from quizapp.srs.times import to_ms

NOW = datetime(2025, 3, 20, 15, 0, tzinfo=UTC)  # a Thursday afternoon
TODAY = date(2025, 3, 20)
CONFIG = Path("/nowhere/config.toml")


@pytest.fixture(autouse=True)
def local_zone() -> Iterator[None]:
    """Local time is UTC unless a test says otherwise (days are local calendar days)."""
    with zone("UTC"):
        yield


class zone:
    """Set the process's local time zone (POSIX TZ) for the block."""

    def __init__(self, tz: str) -> None:
        self.tz = tz

    def __enter__(self) -> None:
        self.before = os.environ.get("TZ")
        os.environ["TZ"] = self.tz
        time.tzset()

    def __exit__(self, *exc: object) -> None:
        if self.before is None:
            os.environ.pop("TZ", None)
        else:
            os.environ["TZ"] = self.before
        time.tzset()


@pytest.fixture
def store(tmp_path: Path) -> Iterator[ReviewStore]:
    with ReviewStore.open(tmp_path / "history.sqlite3") as opened:
        yield opened


def question(qid: str, topic: str = "attention", deck: str = "deck-a") -> Question:
    return Question(
        id=qid,
        type=QuestionType.FLASHCARD,
        prompt=f"prompt {qid}",
        explanation="",
        topic=topic,
        tags=(),
        difficulty=Difficulty.MEDIUM,
        deck_id=deck,
        location=Location("bank.yaml", 1, 1),
    )


def bank(*questions: Question) -> dict[str, Question]:
    return {q.id: q for q in questions}


SCHEDULER = make_scheduler(fuzz=False)


def answer(
    store: ReviewStore,
    qid: str,
    when: datetime,
    rating: Rating = Rating.Good,
    *,
    correct: bool | None = None,
    topic: str = "attention",
    kind: str = "drill",
    duration_ms: int | None = 5000,
) -> None:
    store.record_answer(
        question_id=qid,
        deck_id="deck-a",
        topic=topic,
        rating=rating,
        correct=rating != Rating.Again if correct is None else correct,
        when=when,
        duration_ms=duration_ms,
        kind=kind,
        scheduler=SCHEDULER,
    )


def set_due(store: ReviewStore, qid: str, when: datetime) -> None:
    store.connection.execute(
        "UPDATE cards SET due_ms = ? WHERE question_id = ?", (to_ms(when), qid)
    )


def stats_of(store: ReviewStore, questions: dict[str, Question], now: datetime = NOW, **kw):
    return compute_stats(store, questions, now, config_file=CONFIG, **kw)


def days_ago(n: int, hour: int = 10) -> datetime:
    return datetime(2025, 3, 20, hour, 0, tzinfo=UTC) - timedelta(days=n)


# -- reviews per day ----------------------------------------------------------------------------


def test_an_empty_history_gives_zero_days_and_no_retention(store: ReviewStore) -> None:
    stats = stats_of(store, bank(question("q1")))
    assert len(stats.reviews_per_day) == 30
    assert all(d.reviews == 0 and d.correct == 0 for d in stats.reviews_per_day)
    assert stats.true_retention is None
    assert stats.streak_days == 0
    assert stats.totals.reviews == 0 and stats.totals.accuracy is None
    assert stats.totals.new == 1 and stats.totals.seen == 0
    assert stats.exams == ()


def test_reviews_per_day_cover_the_window_ending_today_with_zero_days(
    store: ReviewStore,
) -> None:
    answer(store, "q1", days_ago(0, hour=9))
    answer(store, "q2", days_ago(0, hour=11), Rating.Again)
    answer(store, "q1", days_ago(3))
    answer(store, "q3", days_ago(29))  # the first day of the window
    answer(store, "q3", days_ago(30), Rating.Again)  # one day before it
    stats = stats_of(store, bank(question("q1"), question("q2"), question("q3")))

    days = stats.reviews_per_day
    assert [d.day for d in days] == [TODAY - timedelta(days=29 - i) for i in range(30)]
    assert (days[-1].reviews, days[-1].correct) == (2, 1)
    assert (days[-4].reviews, days[-4].correct) == (1, 1)
    assert (days[0].reviews, days[0].correct) == (1, 1)
    assert sum(d.reviews for d in days) == 4
    assert [i for i, d in enumerate(days) if d.reviews] == [0, 26, 29]
    # The window leaves out the review from 30 days ago; the all-time totals keep it.
    assert stats.totals.reviews_in_window == 4
    assert stats.totals.reviews == 5
    assert stats.totals.correct == 3
    assert stats.totals.study_days == 4
    assert stats.totals.study_seconds == pytest.approx(25.0)


def test_the_window_length_follows_days(store: ReviewStore) -> None:
    answer(store, "q1", days_ago(8))
    week = stats_of(store, bank(question("q1")), days=7)
    assert len(week.reviews_per_day) == 7
    assert week.reviews_per_day[0].day == TODAY - timedelta(days=6)
    assert week.totals.reviews_in_window == 0
    assert week.totals.reviews == 1


def test_days_are_local_calendar_days(store: ReviewStore) -> None:
    # 03:00 UTC on the 20th is 22:00 on the 19th five hours west of Greenwich.
    late_evening = datetime(2025, 3, 20, 3, 0, tzinfo=UTC)
    answer(store, "q1", late_evening)
    questions = bank(question("q1"))
    with zone("XST+05"):
        local = stats_of(store, questions)
    with zone("UTC"):
        utc = stats_of(store, questions)
    assert local.today == TODAY  # 10:00 local on the 20th
    assert local.reviews_per_day[-2].reviews == 1 and local.reviews_per_day[-1].reviews == 0
    assert utc.reviews_per_day[-1].reviews == 1 and utc.reviews_per_day[-2].reviews == 0
    # Nothing yet today, but yesterday (locally) counts towards the streak.
    assert local.streak_days == 1


def test_a_naive_now_is_refused(store: ReviewStore) -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        compute_stats(store, {}, datetime(2025, 3, 20, 15, 0), config_file=CONFIG)


# -- streak -------------------------------------------------------------------------------------


def test_three_consecutive_days_ending_today_is_a_streak_of_three(store: ReviewStore) -> None:
    for n in (0, 1, 2):
        answer(store, f"q{n}", days_ago(n))
    answer(store, "q9", days_ago(4))  # before the gap on day 3: not part of the streak
    assert stats_of(store, {}).streak_days == 3


def test_the_streak_runs_to_yesterday_when_nothing_is_done_yet_today(
    store: ReviewStore,
) -> None:
    answer(store, "q1", days_ago(1))
    answer(store, "q2", days_ago(2))
    assert stats_of(store, {}).streak_days == 2


def test_a_missed_day_breaks_the_streak(store: ReviewStore) -> None:
    answer(store, "q1", days_ago(0))
    answer(store, "q2", days_ago(2))
    answer(store, "q3", days_ago(3))
    assert stats_of(store, {}).streak_days == 1
    # Two days without a review: no streak at all, however long the one before it.
    assert stats_of(store, {}, now=NOW + timedelta(days=2)).streak_days == 0


@pytest.mark.parametrize(
    ("offsets", "expected"),
    [
        ((), 0),
        ((0,), 1),
        ((1,), 1),
        ((2,), 0),
        ((0, 1, 2, 3, 4), 5),
        ((1, 2, 3), 3),
        ((0, 1, 3, 4), 2),
        ((0, 2, 3, 4), 1),
    ],
)
def test_streak_counts_back_from_today_or_yesterday(
    offsets: tuple[int, ...], expected: int
) -> None:
    assert streak({TODAY - timedelta(days=n) for n in offsets}, TODAY) == expected


# -- true retention -----------------------------------------------------------------------------


def test_true_retention_counts_only_answers_given_in_the_review_state(
    store: ReviewStore,
) -> None:
    t0 = days_ago(20)
    # q1 and q2 go straight to Review (Easy on a new card); q3 goes to Learning (Again).
    answer(store, "q1", t0, Rating.Easy)
    answer(store, "q2", t0, Rating.Easy)
    answer(store, "q3", t0, Rating.Again)
    # In Review: one right, one wrong. In Learning: right, which must not count.
    answer(store, "q1", days_ago(5), Rating.Good)
    answer(store, "q2", days_ago(5), Rating.Again)
    answer(store, "q3", days_ago(5), Rating.Good)
    rows = list(store.reviews())
    assert [r.state_before for r in rows[3:]] == [State.Review, State.Review, State.Learning]

    stats = stats_of(store, bank(question("q1"), question("q2"), question("q3")))
    assert stats.totals.review_state_answers == 2
    assert stats.totals.review_state_correct == 1
    assert stats.true_retention == pytest.approx(0.5)
    # Accuracy, by contrast, counts every answer: 4 right of 6.
    assert stats.totals.accuracy == pytest.approx(4 / 6)


def test_true_retention_is_none_without_review_state_answers(store: ReviewStore) -> None:
    answer(store, "q1", days_ago(1), Rating.Again)
    answer(store, "q1", days_ago(1, hour=11), Rating.Good)  # a learning step, not a review
    stats = stats_of(store, bank(question("q1")))
    assert stats.true_retention is None
    assert stats.as_json()["true_retention"] is None


# -- due forecast -------------------------------------------------------------------------------


def test_the_forecast_puts_overdue_cards_on_day_zero(store: ReviewStore) -> None:
    questions = bank(*(question(f"q{n}") for n in range(7)))
    for qid in questions:
        answer(store, qid, days_ago(40))
    set_due(store, "q0", NOW - timedelta(days=9))  # long overdue
    set_due(store, "q1", NOW - timedelta(minutes=5))  # just due
    set_due(store, "q2", datetime(2025, 3, 20, 23, 0, tzinfo=UTC))  # later today
    set_due(store, "q3", datetime(2025, 3, 21, 0, 30, tzinfo=UTC))  # tomorrow
    set_due(store, "q4", datetime(2025, 4, 18, 12, 0, tzinfo=UTC))  # day 29, the last shown
    set_due(store, "q5", datetime(2025, 4, 19, 12, 0, tzinfo=UTC))  # day 30: beyond the forecast
    set_due(store, "q6", datetime(2025, 3, 25, 8, 0, tzinfo=UTC))
    stats = stats_of(store, questions)

    forecast = stats.due_forecast
    assert len(forecast) == 30
    assert forecast[0].day == TODAY and forecast[-1].day == date(2025, 4, 18)
    assert forecast[0].due == 3
    assert forecast[1].due == 1
    assert forecast[5].due == 1
    assert forecast[29].due == 1
    assert sum(d.due for d in forecast) == 6
    assert stats.totals.due_now == 2  # due by 15:00; the 23:00 card is due today, not yet


def test_the_forecast_leaves_out_suspended_cards_and_questions_gone_from_the_bank(
    store: ReviewStore,
) -> None:
    for qid in ("kept", "suspended", "removed", "buried"):
        answer(store, qid, days_ago(40))
        set_due(store, qid, NOW - timedelta(days=1))
    store.set_suspended("suspended")
    store.bury("buried", datetime(2025, 3, 21, 4, 0, tzinfo=UTC))
    stats = stats_of(store, bank(question("kept"), question("suspended"), question("buried")))
    assert stats.due_forecast[0].due == 1  # "kept"
    assert stats.due_forecast[1].due == 1  # "buried", back tomorrow
    assert sum(d.due for d in stats.due_forecast) == 2
    assert stats.totals.suspended == 1
    assert stats.totals.due_now == 1


# -- topics and mastery -------------------------------------------------------------------------


def test_mastery_needs_the_review_state_and_three_weeks_of_stability(
    store: ReviewStore,
) -> None:
    questions = bank(
        question("strong", "attention"),
        question("young", "attention"),
        question("fresh", "attention"),
        question("never", "attention"),
        question("norm", "normalization"),
    )
    answer(store, "strong", days_ago(60), Rating.Easy)
    first_due = store.card("strong").due
    answer(store, "strong", first_due, Rating.Easy)
    answer(store, "young", days_ago(3), Rating.Easy)  # Review, but stability under 21 days
    answer(store, "fresh", days_ago(1), Rating.Good)  # Learning
    strong, young = store.card("strong"), store.card("young")
    assert strong.state == State.Review and strong.stability >= MASTERY_STABILITY_DAYS
    assert young.state == State.Review and young.stability < MASTERY_STABILITY_DAYS

    stats = stats_of(store, questions)
    topics = {t.topic: t for t in stats.topics}
    assert topics["attention"].questions == 4
    assert topics["attention"].mastered == 1
    assert topics["attention"].mastery == pytest.approx(0.25)
    assert topics["normalization"].mastered == 0
    assert topics["normalization"].mastery == 0.0
    assert stats.totals.mastered == 1
    assert stats.totals.seen == 3 and stats.totals.new == 2


def test_a_stable_card_out_of_the_review_state_is_not_mastered(store: ReviewStore) -> None:
    answer(store, "q1", days_ago(60), Rating.Easy)
    answer(store, "q1", store.card("q1").due, Rating.Easy)
    assert stats_of(store, bank(question("q1"))).totals.mastered == 1
    # A lapse puts a card into Relearning; whatever its stability, it is not mastered then.
    store.connection.execute(
        "UPDATE cards SET state = ? WHERE question_id = 'q1'", (int(State.Relearning),)
    )
    assert store.card("q1").stability >= MASTERY_STABILITY_DAYS
    assert stats_of(store, bank(question("q1"))).totals.mastered == 0


def test_accuracy_per_topic_over_all_reviews(store: ReviewStore) -> None:
    questions = bank(
        question("a1", "attention"), question("a2", "attention"), question("n1", "norms")
    )
    answer(store, "a1", days_ago(50), Rating.Good, topic="attention")  # outside the window too
    answer(store, "a1", days_ago(2), Rating.Again, topic="attention")
    answer(store, "a2", days_ago(1), Rating.Good, topic="attention", kind="exam")
    answer(store, "a2", days_ago(0), Rating.Good, topic="attention", kind="quiz")
    # Recorded under an old topic name: counts under the question's topic now.
    answer(store, "n1", days_ago(1), Rating.Again, topic="layernorm")
    # A question since removed from the bank keeps the topic it was answered under.
    answer(store, "gone", days_ago(1), Rating.Good, topic="retired")
    stats = stats_of(store, questions)

    topics = {t.topic: t for t in stats.topics}
    assert [t.topic for t in stats.topics] == ["attention", "norms", "retired"]
    assert (topics["attention"].answered, topics["attention"].correct) == (4, 3)
    assert topics["attention"].accuracy == pytest.approx(0.75)
    assert (topics["norms"].answered, topics["norms"].correct) == (1, 0)
    assert topics["norms"].accuracy == 0.0
    assert topics["retired"].questions == 0 and topics["retired"].mastery is None
    assert topics["retired"].accuracy == 1.0


def test_a_topic_never_answered_has_no_accuracy(store: ReviewStore) -> None:
    stats = stats_of(store, bank(question("q1", "positional")))
    (topic,) = stats.topics
    assert (topic.topic, topic.answered, topic.accuracy, topic.mastery) == (
        "positional",
        0,
        None,
        0.0,
    )


# -- exams --------------------------------------------------------------------------------------


def test_exams_are_listed_oldest_first_with_their_scores(store: ReviewStore) -> None:
    store.record_exam(
        taken=days_ago(1),
        questions=20,
        correct=16,
        passed=True,
        threshold=0.7,
        seconds=900.5,
        detail={"by_topic": {"attention": [8, 10]}},
    )
    store.record_exam(
        taken=days_ago(9),
        questions=10,
        correct=5,
        passed=False,
        threshold=0.7,
        seconds=300.0,
        detail={},
    )
    stats = stats_of(store, {})
    assert [e.correct for e in stats.exams] == [5, 16]
    assert stats.exams[1].score == pytest.approx(0.8)
    assert stats.exams[1].passed and not stats.exams[0].passed
    assert stats.exams[1].taken == days_ago(1)
    assert stats.exams[1].detail == {"by_topic": {"attention": [8, 10]}}
    assert (stats.totals.exams, stats.totals.exams_passed) == (2, 1)


# -- JSON -------------------------------------------------------------------------------------


def test_seen_counts_every_mode_and_scheduled_only_what_has_a_card(store: ReviewStore) -> None:
    answer(store, "drilled", days_ago(3))
    answer(store, "practised", days_ago(2), kind="practice")
    answer(store, "removed-from-bank", days_ago(2), kind="practice")
    store.record_exam(
        taken=days_ago(1),
        questions=2,
        correct=1,
        passed=False,
        threshold=0.7,
        seconds=60.0,
        detail={"responses": {"examined": {"choice": 1}}, "question_ids": ["examined", "blank"]},
    )
    questions = bank(*(question(q) for q in ("drilled", "practised", "examined", "blank", "never")))
    totals = stats_of(store, questions).totals
    assert (totals.seen, totals.scheduled, totals.new) == (3, 1, 4)
    assert totals.practice == 2 and totals.reviews == 3


def test_the_json_has_the_documented_keys_and_plain_types(store: ReviewStore) -> None:
    answer(store, "q1", days_ago(20), Rating.Easy)
    answer(store, "q1", days_ago(0), Rating.Good)
    store.record_exam(
        taken=days_ago(2),
        questions=4,
        correct=3,
        passed=True,
        threshold=0.7,
        seconds=60.0,
        detail={"seed": 7},
    )
    assert store.card("q1").stability >= MASTERY_STABILITY_DAYS  # so q1 counts as mastered
    data = stats_of(store, bank(question("q1"), question("q2", "norms"))).as_json()
    # Round-trips through JSON unchanged: nothing but JSON types inside.
    assert json.loads(json.dumps(data)) == data
    assert list(data) == [
        "generated_at",
        "today",
        "window_days",
        "forecast_days",
        "db_path",
        "config_path",
        "totals",
        "reviews_per_day",
        "true_retention",
        "topics",
        "due_forecast",
        "streak_days",
        "mastery_stability_days",
        "exams",
        "fitted_parameters",
        "traps",
    ]
    assert data["fitted_parameters"] is None  # no fit: py-fsrs's default parameters
    assert data["traps"] == []  # nothing answered wrongly with its response kept
    assert data["generated_at"] == "2025-03-20T15:00:00+00:00"
    assert data["today"] == "2025-03-20"
    assert data["db_path"].endswith("history.sqlite3")
    assert data["config_path"] == str(CONFIG)
    assert set(data["totals"]) == {
        "reviews",
        "correct",
        "accuracy",
        "reviews_in_window",
        "correct_in_window",
        "review_state_answers",
        "review_state_correct",
        "study_days",
        "study_seconds",
        "questions",
        "seen",
        "scheduled",
        "new",
        "mastered",
        "suspended",
        "due_now",
        "due_today",
        "practice_reviews",
        "exams",
        "exams_passed",
    }
    assert data["reviews_per_day"][-1] == {"date": "2025-03-20", "reviews": 1, "correct": 1}
    assert data["reviews_per_day"][0]["date"] == "2025-02-19"
    assert data["true_retention"] == 1.0
    assert data["topics"][0] == {
        "topic": "attention",
        "answered": 2,
        "correct": 2,
        "accuracy": 1.0,
        "questions": 1,
        "mastered": 1,
        "mastery": 1.0,
    }
    assert data["topics"][1]["accuracy"] is None
    assert set(data["due_forecast"][0]) == {"date", "due"}
    assert data["streak_days"] == 1
    (exam,) = data["exams"]
    assert exam["score"] == 0.75 and exam["detail"] == {"seed": 7}
    assert exam["taken"].startswith("2025-03-18T10:00:00")


# -- `quizapp stats` (quizapp.cli.stats.run_stats) ----------------------------------------------


def test_run_stats_json_reads_the_history_file(tmp_path: Path, capsys) -> None:
    from quizapp.cli.stats import run_stats

    path = tmp_path / "history.sqlite3"
    with ReviewStore.open(path) as opened:
        answer(opened, "q1", days_ago(0))
        answer(opened, "q1", days_ago(1), Rating.Again)
    assert run_stats(path, bank(question("q1")), True, NOW) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["db_path"] == str(path)
    assert data["totals"]["reviews"] == 2
    assert data["streak_days"] == 2
    assert data["reviews_per_day"][-1] == {"date": "2025-03-20", "reviews": 1, "correct": 1}


def test_run_stats_on_a_missing_history_prints_zeros_and_creates_nothing(
    tmp_path: Path, capsys
) -> None:
    from quizapp.cli.stats import run_stats

    path = tmp_path / "not-yet" / "history.sqlite3"
    assert run_stats(path, bank(question("q1", "attention")), False, NOW) == 0
    out = capsys.readouterr().out
    assert not path.exists() and not path.parent.exists()
    assert "0 days" in out and "n/a" in out
    assert "attention" in out
    assert "No exams taken yet." in out
    assert str(path) in out.replace("\n", "")


def test_run_stats_human_output_shows_the_numbers(tmp_path: Path, capsys) -> None:
    from quizapp.cli.stats import run_stats

    path = tmp_path / "history.sqlite3"
    with ReviewStore.open(path) as opened:
        for n in (0, 1, 2):
            answer(opened, "q1", days_ago(n), Rating.Good)
        opened.record_exam(
            taken=days_ago(1),
            questions=10,
            correct=9,
            passed=True,
            threshold=0.7,
            seconds=600.0,
            detail={},
        )
    assert run_stats(path, bank(question("q1", "attention")), False, NOW) == 0
    out = capsys.readouterr().out
    assert "3 days" in out  # the streak
    assert "3 all time" in out
    assert "9/10 (90%)" in out and "passed" in out
    assert "attention" in out and "100%" in out


def test_run_stats_refuses_a_window_under_one_day(tmp_path: Path, capsys) -> None:
    from quizapp.cli.stats import run_stats

    assert run_stats(tmp_path / "h.sqlite3", {}, True, NOW, days=0) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "at least 1" in err


def test_sparkline_scales_to_the_peak() -> None:
    from quizapp.cli.stats import sparkline

    assert sparkline([0, 0, 0]) == "▁▁▁"
    assert sparkline([0, 1, 4, 8]) == "▁▂▅█"  # any review at all shows above the floor
    assert sparkline([]) == ""


# -- practice, and the two due figures ----------------------------------------------------------


def test_practice_answers_count_as_study_but_not_as_retention(store: ReviewStore) -> None:
    answer(store, "q1", days_ago(10), Rating.Easy)  # into review
    answer(store, "q1", days_ago(1), Rating.Good)  # a review the schedule asked for: right
    answer(store, "q1", days_ago(1, hour=11), Rating.Again, kind="practice")  # practice: wrong
    stats = stats_of(store, bank(question("q1")))
    assert stats.totals.reviews == 3 and stats.totals.practice == 1
    assert stats.true_retention == 1.0  # the practice slip is not a lapse of the schedule
    assert stats.as_json()["totals"]["practice_reviews"] == 1


def test_due_now_and_due_today_are_both_said_and_agree(store: ReviewStore) -> None:
    for qid in ("q1", "q2", "q3"):
        answer(store, qid, days_ago(5))
    set_due(store, "q1", NOW - timedelta(days=2))  # overdue
    set_due(store, "q2", NOW + timedelta(hours=3))  # later today (15:00 + 3 h, UTC)
    set_due(store, "q3", NOW + timedelta(days=3))
    stats = stats_of(store, bank(question("q1"), question("q2"), question("q3")))
    assert stats.totals.due_now == 1
    assert stats.due_today == stats.due_forecast[0].due == 2
    assert stats.due_summary() == "1 now, 2 by the end of today"
    assert stats.as_json()["totals"]["due_today"] == 2
