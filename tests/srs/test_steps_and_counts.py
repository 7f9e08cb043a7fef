"""A drill's learning steps, the home screen's figures and the feedback's scheduling line."""

from __future__ import annotations

from datetime import timedelta

import pytest

from quizapp.srs.memory.scheduling import Rating, make_scheduler, review
from quizapp.srs.memory.steps import LEARN_AHEAD, LearningSteps, countdown
from quizapp.srs.store.history import PRACTICE
from quizapp.srs.store.pending import PendingView
from quizapp.srs.store.sqlite.store import ReviewStore
from quizapp.srs.store.writes import AnswerWrite, FlagWrite
from quizapp.srs.study.counts import home_counts
from quizapp.srs.study.queue import build_drill_queue, tomorrow
from quizapp.srs.study.schedule_note import schedule_note, span_in_words
from tests.srs.test_queue import NOW, answer, bank, make_question, set_due

# -- learning steps ----------------------------------------------------------------------------


def test_a_card_due_within_the_horizon_is_kept_and_comes_back_when_due() -> None:
    steps = LearningSteps()
    a, b, c = (make_question(q, "d") for q in ("a", "b", "c"))
    assert steps.keep(a, NOW + timedelta(minutes=10), NOW)
    assert steps.keep(b, NOW + timedelta(minutes=1), NOW)
    assert not steps.keep(c, NOW + LEARN_AHEAD + timedelta(seconds=1), NOW)  # for another day
    assert len(steps) == 2 and steps.next_due == NOW + timedelta(minutes=1)
    assert steps.take_due(NOW) is None  # nothing due yet
    assert steps.take_due(NOW + timedelta(minutes=1)) is b  # the soonest first
    assert steps.take_due(NOW + timedelta(minutes=5)) is None
    assert steps.take_next() is a  # early, at the student's word
    assert steps.take_next() is None and steps.next_due is None


def test_answering_a_card_again_replaces_its_step_and_drop_forgets_it() -> None:
    steps = LearningSteps()
    a = make_question("a", "d")
    steps.keep(a, NOW + timedelta(minutes=1), NOW)
    steps.keep(a, NOW + timedelta(minutes=10), NOW)
    assert len(steps) == 1 and steps.next_due == NOW + timedelta(minutes=10)
    assert not steps.keep(a, NOW + timedelta(days=1), NOW)  # graduated: gone
    assert len(steps) == 0
    steps.keep(a, NOW + timedelta(minutes=1), NOW)
    steps.drop("a")
    assert len(steps) == 0


def test_fsrs_steps_fall_within_the_drill() -> None:
    """py-fsrs's learning and relearning steps are what the drill asks again."""
    scheduler = make_scheduler()
    new, _ = review(scheduler, None, Rating.Again, NOW, 1000)
    assert new.due - NOW <= LEARN_AHEAD
    second, _ = review(scheduler, new, Rating.Good, new.due, 1000)
    assert second.due - new.due <= LEARN_AHEAD  # the 10-minute step
    graduated, _ = review(scheduler, second, Rating.Good, second.due, 1000)
    assert graduated.due - second.due > LEARN_AHEAD


@pytest.mark.parametrize(
    ("seconds", "shown"), [(0, "0:00"), (0.2, "0:01"), (45, "0:45"), (599.5, "10:00"), (-3, "0:00")]
)
def test_countdown(seconds: float, shown: str) -> None:
    assert countdown(timedelta(seconds=seconds)) == shown


# -- the feedback's line -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("span", "words"),
    [
        (timedelta(seconds=20), "1 min"),
        (timedelta(minutes=10), "10 min"),
        (timedelta(hours=5), "5 h"),
        (timedelta(days=1), "1 day"),
        (timedelta(days=3), "3 days"),
        (timedelta(days=61), "2 months"),
        (timedelta(days=500), "1.4 years"),
    ],
)
def test_span_in_words(span: timedelta, words: str) -> None:
    assert span_in_words(span) == words


def test_the_note_says_the_rating_and_when_the_card_comes_back() -> None:
    scheduler = make_scheduler(fuzz=False)
    after, _ = review(scheduler, None, Rating.Again, NOW, 1000)
    assert schedule_note(Rating.Again, "drill", None, after, NOW) == (
        "Rated Again · back in 1 min, in this drill"
    )
    assert schedule_note(Rating.Again, "quiz", None, after, NOW) == "Rated Again · back in 1 min"
    easy, _ = review(scheduler, None, Rating.Easy, NOW, 1000)
    days = (easy.due - NOW).days
    assert schedule_note(Rating.Easy, "drill", None, easy, NOW) == (
        f"Rated Easy · back in {days} days"
    )
    assert schedule_note(Rating.Good, PRACTICE, None, None, NOW) == (
        "Rated Good · practice, schedule unchanged (still new)"
    )
    assert schedule_note(Rating.Hard, PRACTICE, easy, easy, NOW) == (
        f"Rated Hard · practice, schedule unchanged (due in {days} days)"
    )
    assert "(due now)" in schedule_note(Rating.Hard, PRACTICE, easy, easy, easy.due)


# -- the home screen's figures -----------------------------------------------------------------


@pytest.fixture
def store():
    with ReviewStore.open(":memory:") as opened:
        yield opened


class Deck:
    def __init__(self, deck_id: str, questions: list) -> None:
        self.id = deck_id
        self.questions = tuple(questions)


def decks_of(questions: dict) -> list[Deck]:
    by_deck: dict[str, list] = {}
    for question in questions.values():
        by_deck.setdefault(question.deck_id, []).append(question)
    return [Deck(deck, qs) for deck, qs in by_deck.items()]


def test_the_counts_agree_with_the_drill_and_say_why_it_takes_fewer_new(
    store: ReviewStore,
) -> None:
    questions = bank({"a": 6, "b": 4})
    for qid in ("a-0", "a-1", "b-0"):
        answer(store, qid, NOW - timedelta(hours=2))  # started today
    set_due(store, "a-0", NOW - timedelta(minutes=5))
    set_due(store, "a-1", NOW + timedelta(days=2))
    set_due(store, "b-0", NOW + timedelta(minutes=30))
    store.bury("a-2", tomorrow(NOW))
    store.set_suspended("b-1")
    view = PendingView(store, [])
    counts = home_counts(view, decks_of(questions), NOW, new_per_day=5)  # type: ignore[arg-type]
    assert dict(counts.decks) == {"a": (1, 3), "b": (0, 2)}  # due, unseen: hidden ones left out
    assert counts.started_today == 3 and counts.new_today == 2
    assert (counts.suspended, counts.buried) == (1, 1)
    queue = build_drill_queue(view, questions, NOW, new_per_day=5)
    assert counts.due == len(queue.due) and counts.drill_new() == len(queue.new) == 2
    deck_a = build_drill_queue(
        view, {q: v for q, v in questions.items() if v.deck_id == "a"}, NOW, new_per_day=5
    )
    assert counts.drill_new(["a"]) == len(deck_a.new)
    assert counts.next_change == NOW + timedelta(minutes=30)  # b-0 falls due


def test_counts_see_pending_writes_but_not_practice(store: ReviewStore) -> None:
    questions = bank({"a": 3})
    scheduler = make_scheduler()

    def write(qid: str, kind: str) -> AnswerWrite:
        return AnswerWrite(qid, "a", "t", Rating.Good, True, NOW, 1000, kind, scheduler)

    view = PendingView(
        store, [write("a-0", PRACTICE), write("a-1", "drill"), FlagWrite("a-2", "suspend")]
    )
    counts = home_counts(view, decks_of(questions), NOW, new_per_day=20)  # type: ignore[arg-type]
    assert dict(counts.decks) == {"a": (0, 1)}  # a-0 still new; a-1 started; a-2 put away
    assert counts.started_today == 1 and counts.suspended == 1


def test_with_nothing_to_fall_due_the_counts_change_next_at_midnight(store: ReviewStore) -> None:
    counts = home_counts(PendingView(store, []), [], NOW, new_per_day=20)
    assert counts.next_change == tomorrow(NOW)
