"""Sessions: selection, length, shuffling, display orders and scoring by topic."""

from __future__ import annotations

from quizapp.bank import OrderingQuestion, load_file
from quizapp.bank.grading import Grade
from quizapp.bank.session import AIDED, FIRST, REPEAT, QuizSession, SessionOptions, select
from tests.conftest import CORPUS


def questions():
    deck, _ = load_file(CORPUS / "good" / "every_type.yaml")
    return list(deck.questions)


def test_select_by_deck_and_tag() -> None:
    qs = questions()
    assert select(qs) == qs
    assert select(qs, deck_ids=["nope"]) == []
    assert {q.id for q in select(qs, tags=["arithmetic"])} == {
        "t-numeric",
        "t-numeric-derived",
        "t-numeric-short",
    }


def test_length_and_seeded_shuffle_repeat() -> None:
    qs = questions()
    a = QuizSession.start(qs, SessionOptions(length=3, shuffle=True, seed=7))
    b = QuizSession.start(qs, SessionOptions(length=3, shuffle=True, seed=7))
    assert [q.id for q in a.questions] == [q.id for q in b.questions]
    assert len(a.questions) == 3
    unshuffled = QuizSession.start(qs, SessionOptions(shuffle=False))
    assert [q.id for q in unshuffled.questions] == [q.id for q in qs]


def test_ordering_questions_are_never_shown_solved() -> None:
    for seed in range(30):
        session = QuizSession.start(questions(), SessionOptions(shuffle=False, seed=seed))
        for q in session.questions:
            if isinstance(q, OrderingQuestion):
                assert session.display_orders[q.id] != tuple(range(len(q.steps)))


def test_choice_order_respects_shuffle_false() -> None:
    session = QuizSession.start(questions(), SessionOptions(shuffle=True, seed=3))
    assert session.display_orders["t-single"] == (0, 1)  # the question says shuffle: false


def test_scoring_by_topic_and_missed() -> None:
    session = QuizSession.start(questions(), SessionOptions(shuffle=False))
    outcomes = [True, False, True, True, False, True, True, True]
    for ok in outcomes:
        session.record(Grade(ok, "k", "g"), 1.0)
    assert session.finished and session.score == sum(outcomes)
    by_topic = {s.topic: (s.correct, s.answered) for s in session.by_topic()}
    assert by_topic["other-topic"] == (0, 1)  # t-multi overrides the deck topic
    assert sum(a for _, a in by_topic.values()) == len(outcomes)
    assert [a.question.id for a in session.missed] == ["t-multi", "t-numeric-derived"]


def test_undo_takes_back_the_latest_action_answer_or_skip() -> None:
    session = QuizSession.start(questions(), SessionOptions(shuffle=False))
    first, second = session.questions[0], session.questions[1]
    session.record(Grade(True, "k", "g"), 1.0)
    session.skip()
    assert session.current is session.questions[2] and session.score == 1
    assert session.last_action == "skip"
    assert session.undo() is second  # the skip goes first…
    assert session.current is second and session.skipped == [] and session.score == 1
    assert session.undo() is first  # …then the answer
    assert session.current is first and session.attempts == []
    session.record(Grade(False, "k", "g"), 1.0)
    assert session.current is second and session.index == 1
    assert QuizSession.start([], SessionOptions()).undo() is None


def test_options_are_shuffled_whatever_the_question_order() -> None:
    """The Shuffle switch (and a drill's queue) orders the questions only."""
    qs = questions()
    orders = set()
    for seed in range(20):
        session = QuizSession.start(qs, SessionOptions(shuffle=False, seed=seed))
        assert [q.id for q in session.questions] == [q.id for q in qs]
        orders.add(session.display_orders["t-multi"])
    assert len(orders) > 1  # t-multi's three options come in more than one order


def test_a_fixed_seed_gives_the_same_option_orders_and_two_sessions_differ() -> None:
    qs = questions()
    first = QuizSession.start(qs, SessionOptions(seed=11))
    again = QuizSession.start(list(reversed(qs)), SessionOptions(seed=11, shuffle=False))
    # Per card: the same seed shows each card the same way, whatever else the session holds.
    assert first.display_orders == again.display_orders
    orders = {QuizSession.start(qs).display_orders["t-multi"] for _ in range(30)}
    assert len(orders) > 1  # unseeded sessions each draw their own seed


def test_a_card_asked_again_in_the_session_shows_the_order_it_first_showed() -> None:
    for seed in range(10):
        session = QuizSession.start(questions(), SessionOptions(seed=seed))
        multi = next(q for q in session.questions if q.id == "t-multi")
        shown = session.display_orders[multi.id]
        del session.display_orders[multi.id]  # as if never shown: drawn again from the seed
        session.ask_next(multi)
        assert session.display_orders[multi.id] == shown


def test_no_shuffle_the_authoring_aid_keeps_the_options_as_written_but_not_the_steps() -> None:
    for seed in range(10):
        session = QuizSession.start(
            questions(), SessionOptions(shuffle=False, shuffle_options=False, seed=seed)
        )
        for q in session.questions:
            order = session.display_orders[q.id]
            if isinstance(q, OrderingQuestion):
                assert order != tuple(range(len(q.steps)))
            else:
                assert order == tuple(range(len(order)))


def test_a_question_asked_again_counts_and_goes_with_the_answer_that_brought_it() -> None:
    session = QuizSession.start(questions(), SessionOptions(shuffle=False))
    total = session.total
    first, second = session.questions[0], session.questions[1]
    session.record(Grade(False, "k", "g"), 1.0)  # first: wrong, to come back
    session.record(Grade(True, "k", "g"), 1.0)  # second
    session.ask_next(first)  # its learning step is due: asked before the rest
    assert session.current is first and session.total == total + 1
    order = session.display_orders[first.id]
    session.undo()  # the second answer: second is current, the repeat still to come
    assert session.current is second and session.questions[session.index + 1] is first
    session.undo()  # the first answer: its repeat goes with it
    assert session.current is first and session.total == total
    assert [q.id for q in session.questions].count(first.id) == 1
    assert session.display_orders[first.id] == order


def test_the_total_leaves_out_skipped_questions() -> None:
    session = QuizSession.start(questions(), SessionOptions(shuffle=False))
    total = session.total
    session.skip()  # buried
    assert session.total == total - 1 and session.index == 1
    session.undo()
    assert session.total == total


def test_each_answer_says_how_it_came_first_repeat_or_aided() -> None:
    session = QuizSession.start(questions(), SessionOptions(shuffle=False))
    first, second = session.questions[0], session.questions[1]
    assert session.attempt(first) == FIRST
    session.record(Grade(False, "k", "g"), 1.0)
    session.ask_next(first)  # a learning step brings it back after an answer that stood
    assert session.attempt(first) == REPEAT
    session.record(Grade(True, "k", "g"), 1.0)
    assert session.attempt(second) == FIRST
    assert session.undo() is first  # its feedback was shown, then the answer taken back
    assert session.attempt(first) == AIDED
    assert session.attempt(second) == FIRST
