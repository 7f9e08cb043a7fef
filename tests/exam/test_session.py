"""ExamSession: navigation, flags, changing answers, the injected clock, grading and the result."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime

import pytest

from quizapp.bank import Flashcard, load_file
from quizapp.bank.answers import ChoiceAnswer, NumericAnswerText, OrderingAnswer, TrueFalseAnswer
from quizapp.exam.result import format_duration, format_remaining
from quizapp.exam.session import KEY_UNKNOWN, NO_ANSWER, ExamClosed, ExamSession
from tests.conftest import CORPUS, REPO


class FakeClock:
    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def exam_questions():
    deck, _ = load_file(CORPUS / "good" / "every_type.yaml")
    return [q for q in deck.questions if not isinstance(q, Flashcard)]


def make_exam(clock: FakeClock, minutes: float = 10, **kwargs) -> ExamSession:
    exam = ExamSession(
        questions=exam_questions(), duration=minutes * 60, clock=clock, seed=5, **kwargs
    )
    exam.start()
    return exam


RIGHT = {
    "t-single": ChoiceAnswer(frozenset({0})),
    "t-multi": ChoiceAnswer(frozenset({0, 1})),
    "t-tf": TrueFalseAnswer(False),
    "t-numeric": NumericAnswerText("1,048,576"),
    "t-numeric-derived": NumericAnswerText("1048576"),
    "t-numeric-short": NumericAnswerText("0.25"),
    "t-order": OrderingAnswer((0, 1, 2)),
}
DERIVED = {"t-numeric-derived": {"params_multi_head": 1_048_576}}


# -- the clock -----------------------------------------------------------------------------------


def test_remaining_time_is_formatted_and_rounds_up() -> None:
    assert format_remaining(23 * 60 + 41) == "23:41 left"
    assert format_remaining(23 * 60 + 40.2) == "23:41 left"
    assert format_remaining(0.4) == "0:01 left"
    assert format_remaining(0) == "0:00 left"
    assert format_remaining(-5) == "0:00 left"
    assert format_remaining(3723) == "1:02:03 left"
    assert format_duration(59.6) == "1:00"
    assert format_duration(3600) == "1:00:00"


def test_the_clock_runs_from_start_and_the_time_runs_out() -> None:
    clock = FakeClock()
    exam = ExamSession(questions=exam_questions(), duration=600, clock=clock)
    clock.advance(100)
    assert exam.remaining() == 600 and not exam.expired  # not started yet
    exam.start()
    clock.advance(19)
    assert exam.remaining() == pytest.approx(581)
    assert exam.remaining_text() == "9:41 left"
    exam.start()  # a second start does not reset the clock
    clock.advance(581)
    assert exam.expired and exam.remaining() == 0
    assert exam.remaining_text() == "0:00 left"
    with pytest.raises(ExamClosed, match="time is up"):
        exam.set_answer(RIGHT["t-single"])


def test_submitting_stops_the_clock_and_never_counts_more_than_the_time_allowed() -> None:
    clock = FakeClock()
    exam = make_exam(clock, minutes=1)
    clock.advance(30)
    exam.submit()
    clock.advance(100)
    assert exam.elapsed() == 30 and not exam.timed_out
    late = make_exam(clock, minutes=1)
    clock.advance(75)  # the screen noticed a little late
    late.submit(timed_out=True)
    assert late.elapsed() == 60 and late.timed_out


# -- navigating, flagging, answering -------------------------------------------------------------


def test_navigation_moves_within_the_exam() -> None:
    exam = make_exam(FakeClock())
    assert exam.index == 0 and exam.current.id == "t-single"
    assert not exam.previous()  # already at the first
    assert exam.next() and exam.current.id == "t-multi"
    assert exam.go(99) and exam.index == len(exam.questions) - 1
    assert not exam.next()
    assert exam.go(2) and exam.current.id == "t-tf"
    assert exam.previous() and exam.index == 1


def test_flags_toggle_and_list_in_exam_order() -> None:
    exam = make_exam(FakeClock())
    exam.go(3)
    assert exam.toggle_flag() is True
    assert exam.toggle_flag("t-single") is True
    assert exam.flagged_ids == ["t-single", "t-numeric"]
    assert exam.toggle_flag() is False
    assert exam.flagged_ids == ["t-single"]


def test_answers_can_change_and_be_cleared_until_submit() -> None:
    exam = make_exam(FakeClock())
    exam.set_answer(ChoiceAnswer(frozenset({1})))
    assert exam.answer_of("t-single") == ChoiceAnswer(frozenset({1}))
    exam.next()
    exam.previous()
    exam.set_answer(RIGHT["t-single"])  # changed my mind
    assert exam.answer_of() == RIGHT["t-single"]
    exam.set_answer(TrueFalseAnswer(True), "t-tf")
    exam.set_answer(None, "t-tf")
    assert not exam.is_answered("t-tf")
    assert "t-tf" in exam.unanswered and "t-single" not in exam.unanswered
    with pytest.raises(TypeError):
        exam.set_answer(TrueFalseAnswer(True), "t-single")
    exam.submit()
    with pytest.raises(ExamClosed, match="submitted"):
        exam.set_answer(ChoiceAnswer(frozenset({1})))
    with pytest.raises(ExamClosed):
        exam.toggle_flag()


def test_unreadable_numbers_are_noticed() -> None:
    exam = make_exam(FakeClock())
    exam.set_answer(NumericAnswerText("12,34"), "t-numeric")
    exam.set_answer(NumericAnswerText("0.25"), "t-numeric-short")
    assert exam.unreadable == ["t-numeric"]
    # Kept (the student may fix it), but not counted as answered until it reads as a number.
    assert exam.is_unreadable("t-numeric") and not exam.is_answered("t-numeric")
    assert exam.answered == ["t-numeric-short"]
    assert "t-numeric" not in exam.unanswered  # it is not blank either: the submit says so
    exam.set_answer(NumericAnswerText("1 048 576 parameters"), "t-numeric")  # the unit is fine
    assert exam.unreadable == [] and exam.is_answered("t-numeric")


def test_time_spent_on_each_question_is_kept() -> None:
    clock = FakeClock()
    exam = make_exam(clock)
    clock.advance(10)
    exam.next()
    clock.advance(5)
    exam.previous()
    clock.advance(3)
    exam.submit()
    result = exam.grade(DERIVED)
    seconds = {a.question.id: a.seconds for a in result.attempts}
    assert seconds["t-single"] == 13 and seconds["t-multi"] == 5


# -- grading -------------------------------------------------------------------------------------


def test_grading_before_submit_is_refused() -> None:
    with pytest.raises(RuntimeError):
        make_exam(FakeClock()).grade()


def test_all_right_passes_with_the_score_by_topic() -> None:
    clock = FakeClock()
    exam = make_exam(clock)
    for qid, answer in RIGHT.items():
        exam.set_answer(answer, qid)
    clock.advance(125)
    exam.submit()
    taken = datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC)
    result = exam.grade(DERIVED, taken=taken)
    assert (result.correct, result.questions) == (7, 7)
    assert result.passed and result.score == 1.0 and result.missed == []
    assert {t.topic: (t.correct, t.questions) for t in result.by_topic} == {
        "other-topic": (1, 1),
        "testing": (6, 6),
    }
    record = result.record_kwargs()
    assert record["taken"] == taken and record["seconds"] == 125 and record["threshold"] == 0.7
    assert record["detail"]["seed"] == 5
    assert record["detail"]["by_topic"]["testing"] == {"correct": 6, "questions": 6}
    assert record["detail"]["unanswered"] == 0 and record["detail"]["missed"] == []


def test_unanswered_questions_are_wrong_and_show_the_key() -> None:
    exam = make_exam(FakeClock())
    exam.set_answer(RIGHT["t-single"], "t-single")
    exam.set_answer(RIGHT["t-tf"], "t-tf")
    exam.toggle_flag("t-tf")
    exam.submit()
    result = exam.grade(DERIVED)
    assert result.correct == 2 and result.questions == 7
    assert not result.passed
    assert set(result.unanswered) == set(RIGHT) - {"t-single", "t-tf"}
    missed = {a.question.id: a.grade for a in result.missed}
    assert missed["t-numeric"].given == NO_ANSWER
    assert missed["t-numeric"].expected == "1,048,576 parameters"
    assert missed["t-numeric-derived"].expected == "1,048,576"
    assert missed["t-order"].expected == "First → Then → Last"
    detail = result.detail
    assert detail["unanswered"] == 5 and detail["flagged"] == ["t-tf"]
    assert set(detail["missed"]) == set(result.unanswered)


def test_the_pass_threshold_is_a_share_of_the_questions() -> None:
    def result_with(right: int, threshold: float):
        exam = make_exam(FakeClock(), threshold=threshold)
        for qid in list(RIGHT)[:right]:
            exam.set_answer(RIGHT[qid], qid)
        exam.submit()
        return exam.grade(DERIVED)

    assert result_with(5, 0.7).passed is True  # 5/7 = 71%
    assert result_with(4, 0.7).passed is False  # 57%
    assert result_with(4, 4 / 7).passed is True  # exactly at the threshold
    with pytest.raises(ValueError):
        make_exam(FakeClock(), threshold=0)


def test_a_failed_derived_key_leaves_an_answered_question_unscored() -> None:
    exam = make_exam(FakeClock())
    for qid, answer in RIGHT.items():
        exam.set_answer(answer, qid)
    exam.submit()
    result = exam.grade({})  # the computation failed: no values
    assert result.unscored == ("t-numeric-derived",)
    assert (result.correct, result.questions) == (6, 6)
    unanswered = make_exam(FakeClock())
    unanswered.submit()
    missed = {a.question.id: a.grade for a in unanswered.grade({}).missed}
    assert missed["t-numeric-derived"].expected == KEY_UNKNOWN  # still wrong: nothing given


def test_wrong_and_unreadable_answers_are_missed_with_what_was_given() -> None:
    exam = make_exam(FakeClock())
    exam.set_answer(NumericAnswerText("131072"), "t-numeric")
    exam.set_answer(NumericAnswerText("12,34"), "t-numeric-short")
    exam.set_answer(ChoiceAnswer(frozenset({0, 2})), "t-multi")
    exam.submit()
    result = exam.grade(DERIVED)
    grades = {a.question.id: a.grade for a in result.attempts}
    assert grades["t-numeric"].trap == "Divided by the head count."
    assert grades["t-numeric-short"].given == "12,34 (not a number)"
    assert not grades["t-numeric-short"].correct
    assert result.selected["t-multi"] == frozenset({0, 2})
    # The exam's record keeps what was answered (bank order); blank questions are left out.
    assert result.detail["responses"] == {
        "t-numeric": {"value": 131072.0, "text": "131072", "trap": 0},
        "t-numeric-short": {"value": None, "text": "12,34", "trap": None},
        "t-multi": {"chosen": [0, 2]},
    }


def test_answers_on_screen_at_the_bell_count_even_after_the_time_is_up() -> None:
    clock = FakeClock()
    exam = make_exam(clock, minutes=1)
    clock.advance(61)
    assert exam.expired
    exam.submit(timed_out=True, pending={"t-single": RIGHT["t-single"]})
    result = exam.grade(DERIVED)
    assert result.timed_out and result.correct == 1 and result.seconds == 60


def test_derived_keys_name_their_computations() -> None:
    exam = make_exam(FakeClock())
    keys = exam.derived_keys()
    assert list(keys) == ["t-numeric-derived"]
    assert keys["t-numeric-derived"].name == "mha_params"


def test_an_exam_refuses_flashcards_no_questions_and_no_time() -> None:
    deck, _ = load_file(CORPUS / "good" / "every_type.yaml")
    with pytest.raises(ValueError, match="self-graded"):
        ExamSession(questions=list(deck.questions), duration=60)
    with pytest.raises(ValueError):
        ExamSession(questions=[], duration=60)
    with pytest.raises(ValueError):
        ExamSession(questions=exam_questions(), duration=0)


def test_create_samples_from_decks_with_a_default_time() -> None:
    deck, _ = load_file(CORPUS / "good" / "every_type.yaml")
    exam = ExamSession.create([deck], questions=4, seed=9, clock=FakeClock())
    again = ExamSession.create([deck], questions=4, seed=9, clock=FakeClock())
    assert [q.id for q in exam.questions] == [q.id for q in again.questions]
    assert len(exam.questions) == 4 and exam.duration == 4 * 1.5 * 60
    assert exam.excluded_flashcards == 1 and exam.seed == 9
    assert ExamSession.create([deck], questions=40, minutes=5, seed=1).requested == 40
    with pytest.raises(ValueError):
        ExamSession.create([deck], questions=4, minutes=0)


def test_the_exam_package_imports_neither_torch_nor_textual() -> None:
    code = (
        "import sys, quizapp.exam\n"
        "print(','.join(sorted(m for m in sys.modules if m.split('.')[0] in {'torch', 'textual'})))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=REPO
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ""
