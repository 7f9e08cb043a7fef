"""Mock exams driven by keys through Pilot, with a fake clock: take one, run out of time, leave.

The exam runs over the corpus's every-type deck (flashcards left out), in file order, with
fixed display orders so the keys that answer each question are known.
"""

from __future__ import annotations

import threading
from dataclasses import replace

from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Label, OptionList

from quizapp.bank import Flashcard, load_bank
from quizapp.exam.result import ExamResult
from quizapp.exam.session import ExamSession
from quizapp.tui.app import AppOptions, QuizApp
from quizapp.tui.components.lab_service import LabService
from quizapp.tui.screens.exam import ExamScreen
from quizapp.tui.screens.exam_report import ExamReportScreen, ExamReviewScreen
from quizapp.tui.screens.home import HomeScreen
from quizapp.tui.widgets.lab_panel import LabPanel
from quizapp.tui.widgets.ordering_list import OrderingList
from tests.conftest import CORPUS
from tests.exam.test_session import FakeClock
from tests.tui.test_sessions import SIZE, drive, text_of, wait_for

ORDERS = {"t-single": (0, 1), "t-multi": (0, 1, 2), "t-order": (2, 0, 1)}


def make_app(**options: object) -> QuizApp:
    bank = load_bank([CORPUS / "good"])
    return QuizApp(bank, AppOptions(device="cpu", shuffle=False, **options))  # type: ignore[arg-type]


def make_exam(app: QuizApp, clock: FakeClock, *, minutes: float = 10, derived: bool = True):
    questions = [
        q
        for q in app.bank.questions.values()
        if not isinstance(q, Flashcard) and (derived or q.id != "t-numeric-derived")
    ]
    return ExamSession(
        questions=questions,
        duration=minutes * 60,
        clock=clock,
        seed=11,
        display_orders=dict(ORDERS),
        excluded_flashcards=1,
    )


async def open_exam(pilot: Pilot, exam: ExamSession, results: list[ExamResult]) -> ExamScreen:
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
    screen = ExamScreen(exam, app.lab, on_submit=results.append, tick=0.05)  # type: ignore[attr-defined]
    app.push_screen(screen)
    await wait_for(pilot, lambda: app.screen is screen and screen.query("#answer"))
    await pilot.pause()
    return screen


async def at(pilot: Pilot, screen: ExamScreen, qid: str) -> None:
    await wait_for(
        pilot,
        lambda: (
            screen.question.id == qid
            and screen._showing == qid
            and screen.focused is not None
            and screen.focused.id == "answer"
        ),
    )


def label(screen, selector: str) -> str:
    return text_of(screen.query_one(selector, Label))


def test_taking_an_exam_by_keys_answers_flags_goes_back_and_submits() -> None:
    app = make_app()
    clock = FakeClock()
    exam = make_exam(app, clock)
    results: list[ExamResult] = []

    async def scenario(pilot: Pilot) -> None:
        screen = await open_exam(pilot, exam, results)
        assert label(screen, "#exam-timer") == "10:00 left"
        assert label(screen, "#exam-position").startswith("Question 1 of 7 · 0 answered")
        await at(pilot, screen, "t-single")
        await pilot.press("1", "n")  # picked, not submitted: moving on keeps it
        await at(pilot, screen, "t-multi")
        assert exam.answer_of("t-single") is not None
        await pilot.press("1", "2", "enter")  # Enter keeps it and goes on
        await at(pilot, screen, "t-tf")
        await pilot.press("f", "right")  # flagged, left unanswered for now
        await at(pilot, screen, "t-numeric")
        await pilot.press(*"131072", "enter")  # the trap
        await at(pilot, screen, "t-numeric-derived")
        await pilot.press(*"1048576", "enter")
        await at(pilot, screen, "t-numeric-short")
        await pilot.press(*"0.25", "p")  # a number box leaves n, p, f and g to the exam
        await at(pilot, screen, "t-numeric-derived")
        await pilot.press("p")
        await at(pilot, screen, "t-numeric")
        box = screen.query_one("#answer", Input)
        assert box.value == "131072"  # the answer given before is still there
        box.value = ""
        await pilot.press(*"1,048,576", "enter")  # changed: now right
        await at(pilot, screen, "t-numeric-derived")
        assert screen.query_one("#answer", Input).value == "1048576"

        clock.advance(95)
        await wait_for(pilot, lambda: label(screen, "#exam-timer") == "8:25 left")

        # The navigator: g, up twice from question 5 to question 3, Enter.
        await pilot.press("escape", "g")
        nav = screen.query_one("#exam-nav", OptionList)
        assert nav.has_focus and nav.highlighted == 4
        await pilot.press("up", "up", "enter")
        await at(pilot, screen, "t-tf")
        assert "flagged" in label(screen, "#question-meta")
        await pilot.press("2")  # False: right
        assert label(screen, "#exam-position").endswith("1 flagged")

        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "Confirm")
        detail = " ".join(text_of(w) for w in app.screen.query(Label))
        assert "1 unanswered" in detail and "1 flagged for review: 3" in detail
        assert not results  # no feedback, nothing recorded before submit
        await pilot.press("y")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, ExamReportScreen) and app.screen.is_mounted,
            timeout=60,
        )
        report = app.screen
        assert label(report, "#exam-score") == "Score: 6 of 7 (86%)"
        assert label(report, "#exam-verdict") == "PASS: 70% needed to pass"
        facts = label(report, "#exam-facts")
        assert "Time used 1:35 of 10:00" in facts and "1 unanswered" in facts
        assert "seed 11" in facts
        assert "Flashcards are self-graded" in text_of(report.query_one("#exam-notes"))
        table = report.query_one("#exam-by-topic", DataTable)
        assert table.row_count == 2
        assert len(results) == 1
        result = results[0]
        assert (result.correct, result.questions, result.passed) == (6, 7, True)
        assert result.missed_ids == ("t-order",) and result.flagged == ("t-tf",)
        assert result.seconds == 95 and not result.timed_out
        assert result.taken.tzinfo is not None
        exam_number = {a.question.id: i + 1 for i, a in enumerate(result.attempts)}

        # Every question, as Moodle's review lists them: the missed one first, then the right
        # ones in exam order, each with its mark, its number in the exam and its flag.
        rows = report.query_one("#exam-questions", OptionList)
        assert rows.option_count == 7
        prompts = [str(rows.get_option_at_index(i).prompt) for i in range(7)]
        assert prompts[0] == f"✗ 0/1 Q{exam_number['t-order']} (no answer) Order these."  # no id
        assert all(row.startswith("✓ 1/1 ") for row in prompts[1:])
        numbers = [int(row.split()[2][1:]) for row in prompts[1:]]
        assert numbers == sorted(numbers)
        assert [row for row in prompts if "⚑" in row] == [
            next(row for row in prompts if f" Q{exam_number['t-tf']} " in row)
        ]

        await pilot.press("enter")  # the missed question: its explanation and its lab
        await wait_for(
            pilot, lambda: isinstance(app.screen, ExamReviewScreen) and app.screen.is_mounted
        )
        assert "First, then, last." in app.screen.query_one("#feedback-text").source
        assert app.screen.query_one(LabPanel)
        marks = [label(app.screen, "#review-mark")]
        # n steps through the whole review without going back to the list.
        for _ in range(6):
            shown = app.screen
            await pilot.press("n")
            await wait_for(
                pilot,
                lambda s=shown: (
                    isinstance(app.screen, ExamReviewScreen)
                    and app.screen is not s
                    and app.screen.is_mounted
                ),
            )
            marks.append(label(app.screen, "#review-mark"))
        assert marks[0] == f"Question {exam_number['t-order']} of 7 · ✗ Not answered: mark 0 of 1"
        assert all("✓ Right: mark 1 of 1" in mark for mark in marks[1:])
        assert [m for m in marks if "⚑ You flagged it" in m] == [
            f"Question {exam_number['t-tf']} of 7 · ✓ Right: mark 1 of 1 · ⚑ You flagged it"
        ]
        await pilot.press("p")
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, ExamReviewScreen)
                and app.screen.is_mounted
                and label(app.screen, "#review-mark") == marks[-2]
            ),
        )
        await pilot.press("escape")  # back to the list, one level
        await wait_for(pilot, lambda: app.screen is report)

    drive(app, scenario)


def test_when_the_clock_runs_out_the_exam_submits_itself() -> None:
    app = make_app(warm_up=False)
    clock = FakeClock()
    exam = make_exam(app, clock, minutes=1, derived=False)
    results: list[ExamResult] = []

    async def scenario(pilot: Pilot) -> None:
        screen = await open_exam(pilot, exam, results)
        await at(pilot, screen, "t-single")
        clock.advance(19)
        await wait_for(pilot, lambda: label(screen, "#exam-timer") == "0:41 left")
        clock.advance(35)  # under ten seconds: the timer warns
        await wait_for(pilot, lambda: screen.query_one("#exam-timer").has_class("-low"))
        await pilot.press("1")  # picked on screen, never confirmed
        await pilot.press("ctrl+s")  # the confirmation is still open when the time is up
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "Confirm")
        clock.advance(10)
        # Switched to is not yet composed: wait until the report's widgets are there.
        await wait_for(
            pilot, lambda: isinstance(app.screen, ExamReportScreen) and app.screen.is_mounted
        )
        report = app.screen
        assert label(report, "#exam-score") == "Score: 1 of 6 (17%)"
        assert label(report, "#exam-verdict") == "FAIL: 70% needed to pass"
        assert "(time ran out)" in label(report, "#exam-facts")
        assert "Time used 1:00 of 1:00" in label(report, "#exam-facts")
        rows = report.query_one("#exam-questions", OptionList)
        assert rows.option_count == 6
        prompts = [str(rows.get_option_at_index(i).prompt) for i in range(6)]
        assert [row[:6] for row in prompts] == ["✗ 0/1 "] * 5 + ["✓ 1/1 "]
        assert len(results) == 1 and results[0].timed_out and results[0].correct == 1
        assert len(results[0].unanswered) == 5
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)

    drive(app, scenario)


def test_orderings_count_once_moved_or_confirmed_and_leaving_records_nothing() -> None:
    app = make_app(warm_up=False)
    clock = FakeClock()
    exam = make_exam(app, clock, derived=False)
    results: list[ExamResult] = []

    async def scenario(pilot: Pilot) -> None:
        screen = await open_exam(pilot, exam, results)
        await at(pilot, screen, "t-single")
        await pilot.press("g", "end", "enter")
        await at(pilot, screen, "t-order")
        await pilot.press("p")
        await at(pilot, screen, "t-numeric-short")
        assert not exam.is_answered("t-order")  # looked at, untouched: no answer
        await pilot.press("escape", "n")
        await at(pilot, screen, "t-order")
        ordering = screen.query_one(OrderingList)
        assert ordering.order == (2, 0, 1)
        await pilot.press("shift+down", "shift+down")  # "Last" carried to the end: solved
        await wait_for(pilot, lambda: exam.is_answered("t-order"))
        await pilot.press("p", "n")
        await at(pilot, screen, "t-order")
        assert screen.query_one(OrderingList).order == (0, 1, 2)
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "Confirm")
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        assert not results and not exam.submitted

    drive(app, scenario, size=SIZE)


def test_grading_runs_the_computations_and_a_failed_key_leaves_its_question_unscored(
    monkeypatch,
) -> None:
    release = threading.Event()
    runs: list[str] = []

    def failing_run(self, name, args, **kwargs):
        runs.append(name)
        release.wait(20)
        raise RuntimeError("the lab caught fire")

    monkeypatch.setattr(LabService, "run", failing_run)
    app = make_app(warm_up=False)
    clock = FakeClock()
    exam = make_exam(app, clock)
    results: list[ExamResult] = []

    async def scenario(pilot: Pilot) -> None:
        screen = await open_exam(pilot, exam, results)
        await pilot.press("g")
        await pilot.press("down", "down", "down", "down", "enter")
        await at(pilot, screen, "t-numeric-derived")
        await pilot.press(*"1048576", "ctrl+s")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "Confirm")
        await pilot.press("y")
        await wait_for(pilot, lambda: bool(screen.query("#exam-grading")))
        assert text_of(screen.query_one("#exam-grading")).startswith("Grading…")
        assert label(screen, "#exam-timer") == "submitted"
        release.set()
        await wait_for(
            pilot, lambda: isinstance(app.screen, ExamReportScreen) and app.screen.is_mounted
        )
        report = app.screen
        assert label(report, "#exam-score") == "Score: 0 of 6 (0%)"
        notes = text_of(report.query_one("#exam-notes"))
        assert "Not scored (1)" in notes and "t-numeric-derived" in notes
        assert results[0].unscored == ("t-numeric-derived",)
        await pilot.pause()

    drive(app, scenario)
    assert runs == ["mha_params"]


def test_a_numeric_answer_that_is_not_a_number_does_not_count_as_answered() -> None:
    app = make_app(warm_up=False)
    exam = make_exam(app, FakeClock())
    results: list[ExamResult] = []

    async def scenario(pilot: Pilot) -> None:
        screen = await open_exam(pilot, exam, results)
        await pilot.press("g", "down", "down", "down", "enter")
        await at(pilot, screen, "t-numeric")
        await pilot.press(*"1 2 8")
        await wait_for(pilot, lambda: "not a number" in label(screen, "#exam-position"))
        position = label(screen, "#exam-position")
        assert "0 answered" in position and "1 not a number" in position
        hint = screen.query_one("#key-hint", Label)
        assert hint.has_class("-error") and "groups of three digits" in text_of(hint)
        nav = screen.query_one("#exam-nav", OptionList)
        assert "✗" in str(nav.get_option_at_index(3).prompt)
        assert exam.unreadable == ["t-numeric"] and not exam.is_answered("t-numeric")

        # The unit may follow the number, and its letters are typed even where the exam
        # takes them (n, p, f, g): `128 params` stays in the box, and counts.
        screen.query_one("#answer", Input).value = ""
        await pilot.press(*"1048576 params")
        await wait_for(pilot, lambda: "1 answered" in label(screen, "#exam-position"))
        assert screen.query_one("#answer", Input).value == "1048576 params"
        assert screen.question.id == "t-numeric"  # the p did not go back a question
        assert not hint.has_class("-error") and exam.unreadable == []
        assert "●" in str(nav.get_option_at_index(3).prompt)

        # After a complete number and a space, n is the exam's again.
        screen.query_one("#answer", Input).value = "1048576 "
        screen.query_one("#answer", Input).cursor_position = 8
        await pilot.press("n")
        await at(pilot, screen, "t-numeric-derived")

    drive(app, scenario, size=(80, 12))


def test_a_click_on_the_question_text_leaves_the_keys_with_the_answer() -> None:
    app = make_app()
    exam = make_exam(app, FakeClock())
    results: list[ExamResult] = []

    async def scenario(pilot: Pilot) -> None:
        screen = await open_exam(pilot, exam, results)
        await at(pilot, screen, "t-single")
        await pilot.click("#prompt")
        await pilot.click("#question-meta")
        await pilot.press("1", "enter")  # picked and kept: on to the next question
        await at(pilot, screen, "t-multi")
        assert exam.answer_of("t-single") is not None

    drive(app, scenario)


def test_a_question_comes_back_from_its_top_line_however_it_is_revisited() -> None:
    app = make_app(warm_up=False)
    exam = make_exam(app, FakeClock())
    # Taller than the screen: focusing its answer would scroll the question's top away.
    long = replace(exam.questions[1], prompt="Which of these hold? " + "Read this line. " * 60)
    exam.questions[1] = long
    results: list[ExamResult] = []

    async def shown_from_the_top(pilot: Pilot, screen: ExamScreen) -> None:
        await at(pilot, screen, long.id)
        await pilot.pause()  # the focused answer scrolls into view after a refresh, if it does
        await pilot.pause()
        body = screen.query_one("#exam-body")
        assert body.max_scroll_y > 0 and body.scroll_y == 0
        meta = screen.query_one("#question-meta", Label)
        assert meta.region.y >= body.content_region.y
        assert label(screen, "#question-meta").startswith("⚑ flagged for review · ")

    async def scenario(pilot: Pilot) -> None:
        screen = await open_exam(pilot, exam, results)
        await at(pilot, screen, "t-single")
        await pilot.press("n")
        await at(pilot, screen, long.id)
        await pilot.press("f", "n")
        await at(pilot, screen, "t-tf")
        await pilot.press("p")  # back with p
        await shown_from_the_top(pilot, screen)
        await pilot.press("n", "g", "up", "enter")  # back through the navigator
        await shown_from_the_top(pilot, screen)

    drive(app, scenario, size=(80, 24))


def test_the_submit_question_counts_the_time_down_while_it_is_open() -> None:
    app = make_app(warm_up=False)
    clock = FakeClock()
    exam = make_exam(app, clock)
    results: list[ExamResult] = []

    def dialog_text() -> str:
        return " ".join(text_of(w) for w in app.screen.query(Label))

    async def scenario(pilot: Pilot) -> None:
        screen = await open_exam(pilot, exam, results)
        await at(pilot, screen, "t-single")
        clock.advance(14)
        await wait_for(pilot, lambda: label(screen, "#exam-timer") == "9:46 left")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "Confirm")
        assert "9:46 left" in dialog_text()
        clock.advance(60)  # the student thinks it over; the clock behind runs on
        await wait_for(pilot, lambda: label(screen, "#exam-timer") == "8:46 left")
        await wait_for(pilot, lambda: "8:46 left" in dialog_text())
        assert "9:46" not in dialog_text()
        await pilot.press("n")
        await wait_for(pilot, lambda: app.screen is screen)

    drive(app, scenario)
