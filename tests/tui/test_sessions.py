"""Whole quiz sessions driven by key presses through Pilot, one per question type and mixed.

The assertions read what the screen shows: the verdict, the score, the key, the lab's values.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Label

from quizapp.bank import load_bank
from quizapp.tui.app import AppOptions, QuizApp
from quizapp.tui.screens.confirm import Confirm
from quizapp.tui.screens.help import HelpScreen
from quizapp.tui.screens.home import HomeScreen
from quizapp.tui.screens.quiz import QuizScreen
from quizapp.tui.screens.summary import SummaryScreen
from quizapp.tui.widgets.lab_panel import LabPanel
from quizapp.tui.widgets.ordering_list import OrderingList
from tests.conftest import CORPUS
from tests.tui.screen_text import screen_lines

SIZE = (100, 40)


def make_app(**options: object) -> QuizApp:
    bank = load_bank([CORPUS / "good"])
    return QuizApp(bank, AppOptions(device="cpu", shuffle=False, **options))  # type: ignore[arg-type]


def drive(app: QuizApp, scenario: Callable[[Pilot], Awaitable[None]], size=SIZE) -> None:
    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await scenario(pilot)

    asyncio.run(main())


async def wait_for(pilot: Pilot, condition: Callable[[], bool], timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for the screen")
        await pilot.pause(0.05)


def text_of(widget) -> str:
    return str(getattr(widget, "content", "")) or str(widget.render())


def verdict(app: QuizApp) -> str:
    return text_of(app.screen.query_one("#verdict", Label))


async def start_deck(pilot: Pilot, tags: str | None = None) -> QuizScreen:
    await wait_for(
        pilot, lambda: isinstance(pilot.app.screen, HomeScreen) and pilot.app.screen.is_mounted
    )
    await pilot.press("enter")  # the highlighted deck: the only one
    await wait_for(
        pilot, lambda: isinstance(pilot.app.screen, QuizScreen) and pilot.app.screen.is_mounted
    )
    await pilot.pause()
    return pilot.app.screen  # type: ignore[return-value]


def ready_for_an_answer(screen: QuizScreen) -> bool:
    """The current question's answer is mounted and has the keys (QuizScreen._focus_answer has
    run). Keys pressed before then, while the last question's widgets go and this one's mount,
    reach no answer and are lost."""
    answers = screen.query("#answer")
    if len(answers) != 1:
        return False
    answer = answers.first()
    if getattr(answer, "locked", False) or answer.disabled:
        return False  # the last question's, answered
    if answer.can_focus:
        return answer.has_focus
    return screen.query_one("#quiz-body").has_focus  # a flashcard: the screen's keys


async def answer_current(pilot: Pilot, screen: QuizScreen, *, right: bool) -> None:
    """Answer whatever is showing the way a student would, by keys, once it can take them."""
    await wait_for(pilot, lambda: ready_for_an_answer(screen))
    question = screen.question
    assert question is not None
    qid = question.id
    if qid in ("t-single", "t-multi"):
        # By the numbers the options are shown under: shuffled unless the app was started
        # with the authoring aid --no-shuffle (AppOptions(shuffle=False)).
        shown = screen.session.display_orders[qid]
        keys = [str(shown.index(i) + 1) for i in sorted(question.correct_indices)]
        if not right:  # a wrong option, or only one of several correct ones
            keys = keys[:1] if len(keys) > 1 else [wrong(shown, question)]
        await pilot.press(*keys, "enter")
    elif qid == "t-tf":
        await pilot.press("2" if right else "1", "enter")  # the statement is false
    elif qid.startswith("t-numeric"):
        typed = {
            "t-numeric": "1,048,576",
            "t-numeric-derived": "1.048e6",
            "t-numeric-short": "0.25",
        }[qid]
        await pilot.press(*(typed if right else "7"), "enter")
    elif qid == "t-order":
        ordering = screen.query_one(OrderingList)
        if right:
            for target in range(len(ordering.items)):
                where = ordering.order.index(target)
                for _ in range(ordering.cursor - where if ordering.cursor > where else 0):
                    await pilot.press("up")
                for _ in range(where - ordering.cursor if where > ordering.cursor else 0):
                    await pilot.press("down")
                for _ in range(where - target):
                    await pilot.press("shift+up")
        await pilot.press("enter")
    elif qid == "t-card":
        await pilot.press("space", "3" if right else "1")
    else:  # pragma: no cover - the corpus has no other ids
        raise AssertionError(qid)
    await wait_for(pilot, lambda: screen.state == "answered")


def wrong(shown: tuple[int, ...], question) -> str:
    """The number a wrong option is shown under."""
    return str(next(n for n, i in enumerate(shown, 1) if i not in question.correct_indices))


async def advance_to(pilot: Pilot, screen: QuizScreen, qid: str) -> None:
    """Answer (rightly) and move past every question before `qid`."""
    while screen.question.id != qid:
        await answer_current(pilot, screen, right=True)
        await pilot.press("enter")


def test_a_whole_session_of_every_type_all_right() -> None:
    app = make_app()
    verdicts: list[str] = []

    async def scenario(pilot: Pilot) -> None:
        screen = await start_deck(pilot)
        for _ in range(len(screen.session.questions)):
            await answer_current(pilot, screen, right=True)
            verdicts.append(verdict(app))
            await pilot.press("enter")
        await wait_for(
            pilot, lambda: isinstance(app.screen, SummaryScreen) and app.screen.is_mounted
        )
        score = text_of(app.screen.query_one("#summary-score", Label))
        assert score.startswith("Score: 8 of 8")

    drive(app, scenario)
    assert len(verdicts) == 8
    assert all(v.startswith("✓ Correct") or v.startswith("You graded it Good") for v in verdicts)


def test_wrong_answers_show_the_key_and_the_traps_why_then_the_summary_lists_them() -> None:
    app = make_app()

    async def scenario(pilot: Pilot) -> None:
        screen = await start_deck(pilot)
        seen: dict[str, str] = {}
        for _ in range(len(screen.session.questions)):
            qid = screen.question.id
            await answer_current(pilot, screen, right=False)
            seen[qid] = text_of(app.screen.query_one("#feedback-text")) if qid != "t-card" else ""
            markdown = app.screen.query_one("#feedback-text")
            seen[qid] = markdown.source if hasattr(markdown, "source") else seen[qid]
            await pilot.press("enter")
        assert "**Correct answer:** 1. Right" in seen["t-single"]  # numbered as shown
        assert "The trap." in seen["t-single"]  # the why of the option picked
        assert "It is right." in seen["t-single"]  # and of the correct one
        assert "**Correct answer:** 1,048,576 parameters" in seen["t-numeric"]
        await wait_for(
            pilot, lambda: isinstance(app.screen, SummaryScreen) and app.screen.is_mounted
        )
        summary = app.screen
        assert text_of(summary.query_one("#summary-score", Label)).startswith("Score: 0 of 8")
        table = summary.query_one("#by-topic", DataTable)
        assert table.row_count == 2  # the deck's topic, and t-multi's own
        missed = summary.query_one("#missed")
        assert missed.option_count == 8
        shown = [str(missed.get_option_at_index(i).prompt) for i in range(8)]
        assert not any(line.startswith("t-") for line in shown)  # prompts, not question ids
        assert "Pick all that apply." in shown
        await pilot.press("enter")  # the first missed question opens with its lab
        await wait_for(pilot, lambda: app.screen.id == "review")
        assert app.screen.query_one(LabPanel)

    drive(app, scenario)


def test_numeric_typing_errors_are_explained_and_the_question_stays() -> None:
    app = make_app()

    async def scenario(pilot: Pilot) -> None:
        screen = await start_deck(pilot)
        await advance_to(pilot, screen, "t-numeric")
        await pilot.press(*"12,34", "enter")
        await pilot.pause()
        assert screen.state == "asking"
        assert "commas only separate thousands" in text_of(screen.query_one("#key-hint", Label))
        answer = screen.query_one("#answer", Input)
        answer.value = ""
        await pilot.press(*"1048576", "enter")
        await wait_for(pilot, lambda: screen.state == "answered")
        assert verdict(app).startswith("✓ Correct")

    drive(app, scenario)


def test_a_derived_key_is_graded_against_the_live_computation_and_the_lab_shows_values() -> None:
    app = make_app()

    async def scenario(pilot: Pilot) -> None:
        screen = await start_deck(pilot)
        await advance_to(pilot, screen, "t-numeric-derived")
        await answer_current(pilot, screen, right=True)
        assert verdict(app).startswith("✓ Correct")
        lab = screen.query_one(LabPanel)
        await wait_for(pilot, lambda: bool(lab.query(".lab-values")))
        values = lab.query_one(".lab-values", DataTable)
        assert str(values.get_cell("params_multi_head", "result")) == "1,048,576"
        assert not lab.has_class("hidden")

    drive(app, scenario)


def test_the_lab_reruns_with_a_changed_argument() -> None:
    app = make_app()

    async def scenario(pilot: Pilot) -> None:
        screen = await start_deck(pilot)
        await advance_to(pilot, screen, "t-numeric-derived")
        await answer_current(pilot, screen, right=True)
        lab = screen.query_one(LabPanel)
        await wait_for(pilot, lambda: bool(lab.query(".lab-values")))
        field = lab.query_one("#arg-n_heads", Input)
        field.focus()
        field.value = ""
        await pilot.press(*"16", "enter")

        def head_dim() -> str:
            tables = lab.query(".lab-values")
            return str(tables.first(DataTable).get_cell("head_dim", "result")) if tables else ""

        await wait_for(pilot, lambda: head_dim() == "32")
        # Escape hands the keys back to the quiz; Enter then moves on.
        await pilot.press("escape", "enter")
        await wait_for(
            pilot, lambda: screen.question is not None and screen.question.id != "t-numeric-derived"
        )

    drive(app, scenario)


def test_quitting_mid_session_asks_first() -> None:
    app = make_app()

    async def scenario(pilot: Pilot) -> None:
        screen = await start_deck(pilot)
        await answer_current(pilot, screen, right=True)
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, Confirm) and app.screen.is_mounted)
        await pilot.press("n")
        await wait_for(pilot, lambda: app.screen is screen)
        assert app.is_running
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: isinstance(app.screen, Confirm) and app.screen.is_mounted)
        await pilot.press("y")
        await wait_for(pilot, lambda: not app.is_running)

    drive(app, scenario)


def test_help_lists_the_keys_and_the_palette_offers_decks_and_computations() -> None:
    app = make_app()

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen) and app.screen.is_mounted)
        await pilot.pause()
        # The text as drawn, wrapped lines joined.
        help_text = " ".join(" ".join(screen_lines(app)).split())
        assert "Everything" in help_text and "Again, Hard, Good, Easy" in help_text
        await pilot.press("escape")
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "Deck: Every question type" in titles
        assert "Compute: mha_params" in titles and "Theme" in titles

    drive(app, scenario, size=(120, 60))


def help_as_drawn(app: QuizApp) -> str:
    """The help's text as drawn, wrapped lines joined, without the dialog's border."""
    return " ".join(" ".join(screen_lines(app)).replace("█", " ").split())


def test_help_on_an_exam_never_says_leaving_keeps_the_answers() -> None:
    """Escape on an exam loses its answers, and a session without a history saves none: the
    help says leaving asks first and tells what becomes of them, not that they are kept.

    The help lists the keys as they reach the widget in focus, so each step waits for the focus
    it reads: the exam gives its first answer the keys only after a refresh (_focus_answer), and
    a help opened before that listed the exam's Escape where the number box's was due."""
    from quizapp.tui.screens.exam import ExamScreen

    app = make_app()  # no review history

    async def help_says(pilot: Pilot) -> str:
        app.action_help()  # what ? does; the key itself would go to a number box
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen) and app.screen.is_mounted)
        await wait_for(pilot, lambda: "Everywhere" in help_as_drawn(app))  # drawn to the end
        text = help_as_drawn(app)
        await pilot.press("escape")  # closes the help
        await wait_for(pilot, lambda: isinstance(app.screen, ExamScreen))
        return text

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        app.start_exam(questions=3, seed=5)  # its first question is a numeric one
        await wait_for(pilot, lambda: isinstance(app.screen, ExamScreen) and app.screen.is_mounted)
        exam = app.screen
        await wait_for(
            pilot, lambda: isinstance(exam.focused, Input) and exam.focused.id == "answer"
        )
        in_the_box = await help_says(pilot)
        assert "esc Leave field" in in_the_box and "Leave exam" not in in_the_box
        await pilot.press("escape")  # out of the box: the exam's own keys work again
        await wait_for(pilot, lambda: exam.focused is exam.query_one("#exam-body"))
        on_the_exam = await help_says(pilot)
        assert "esc Leave exam" in on_the_exam  # the exam's own key, on this screen
        for text in (in_the_box, on_the_exam):
            assert "kept" not in text
            assert "asks first and says what becomes of the answers" in text

    drive(app, scenario, size=(120, 60))


@pytest.mark.parametrize("size", [(80, 24), (160, 50)])
def test_usable_at_small_and_large_sizes(size) -> None:
    app = make_app()

    async def scenario(pilot: Pilot) -> None:
        screen = await start_deck(pilot)
        prompt = screen.query_one("#prompt")
        assert prompt.region.width > 0 and prompt.region.y < size[1]
        answer = screen.query_one("#answer")
        assert answer.region.bottom <= size[1]  # the options are visible without scrolling
        await answer_current(pilot, screen, right=True)
        assert verdict(app).startswith("✓")

    drive(app, scenario, size=size)


def test_the_mouse_picks_an_option() -> None:
    app = make_app()

    async def scenario(pilot: Pilot) -> None:
        screen = await start_deck(pilot)
        assert screen.question.id == "t-single"
        first = screen.query(".choice").first()
        await pilot.click(first)
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.state == "answered")
        assert verdict(app).startswith("✓ Correct")

    drive(app, scenario)


def test_a_flashcard_back_written_as_a_table_renders_as_one() -> None:
    from quizapp.bank import bundled_bank_path
    from quizapp.bank import load_bank as load

    bank = load([bundled_bank_path()])
    card = bank.questions["pe-fc-three-schemes"]
    assert card.back.lstrip().startswith("|")  # the bundled card's back is a Markdown table
    app = QuizApp(bank, AppOptions(device="cpu", shuffle=False))

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        app.start_session(questions=[card], title="Card")
        await wait_for(pilot, lambda: isinstance(app.screen, QuizScreen) and app.screen.is_mounted)
        await pilot.press("space")
        await pilot.pause()
        back = app.screen.query_one("#flashcard-back")
        assert back.query("MarkdownTable"), "the back's table was flattened into a paragraph"

    drive(app, scenario)


def test_escape_leaves_a_number_box_so_single_keys_work_and_x_cancels_the_lab() -> None:
    app = make_app()

    async def scenario(pilot: Pilot) -> None:
        screen = await start_deck(pilot)
        await advance_to(pilot, screen, "t-numeric")
        await wait_for(pilot, lambda: screen.focused is not None and screen.focused.id == "answer")
        await pilot.press("escape")  # out of the number box, not out of the session
        await pilot.pause()
        assert isinstance(app.screen, QuizScreen) and screen.focused.id == "quiz-body"
        await pilot.press("u")  # now a command again: the previous answer is taken back
        await wait_for(pilot, lambda: screen.question.id != "t-numeric")
        lab = screen.query_one(LabPanel)
        cancelled: list[bool] = []
        lab.cancel = lambda: cancelled.append(True)  # type: ignore[method-assign]
        lab.running = True  # type: ignore[misc]
        await pilot.press("x")
        assert cancelled == [True]

    drive(app, scenario)


def test_enter_in_the_length_box_starts_a_session_of_that_length() -> None:
    from textual.widgets import Input

    app = QuizApp(load_bank([CORPUS / "good"]), AppOptions(device="cpu"))

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        app.screen.query_one("#length", Input).focus()
        await pilot.press("3", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, QuizScreen) and app.screen.is_mounted)
        assert len(app.screen.session.questions) == 3

    drive(app, scenario)


def test_a_click_on_the_question_text_leaves_the_keys_with_the_answer() -> None:
    """Clicking to read (the prompt, the topic line) must not take 1–9 and Enter away."""
    app = make_app()

    async def scenario(pilot: Pilot) -> None:
        screen = await start_deck(pilot)
        assert screen.question.id == "t-single"
        answer = screen.query_one("#answer")
        await wait_for(pilot, lambda: answer.has_focus)
        await pilot.click("#prompt")
        await pilot.click("#question-meta")
        await pilot.click("#key-hint")
        await pilot.press("1", "enter")
        await wait_for(pilot, lambda: screen.state == "answered")
        assert verdict(app).startswith("✓ Correct")

    drive(app, scenario)


async def click_into_view(pilot: Pilot, widget, timeout: float = 20.0) -> None:
    """Scroll `widget` to the top of its view (the feedback may have scrolled it away), then
    click it, again until the click lands on it: the scroll is applied after the next refresh,
    so a click aimed at where the widget was on the screen before it can land on another."""
    screen = pilot.app.screen
    deadline = time.monotonic() + timeout
    while True:
        widget.scroll_visible(animate=False, top=True)
        await wait_for(
            pilot,
            lambda: widget.region.height > 0 and screen.region.contains_region(widget.region),
        )
        if await pilot.click(widget):
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"clicks aimed at {widget} kept landing elsewhere")


def test_once_answered_a_clicked_answer_list_hands_its_keys_back_to_the_screen() -> None:
    """After the feedback shows, a click on the (locked) options or steps must not swallow
    Enter: it goes on to the next question, as it does from anywhere else. The locked list
    takes no focus (Tab goes to the lab), and its keys pass on if it had it."""
    app = make_app()

    async def scenario(pilot: Pilot) -> None:
        screen = await start_deck(pilot)
        await answer_current(pilot, screen, right=True)  # t-single
        await click_into_view(pilot, screen.query(".choice").first())
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.state == "asking")
        await advance_to(pilot, screen, "t-order")
        await answer_current(pilot, screen, right=False)
        await click_into_view(pilot, screen.query(".step").first())
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.state == "asking")

    drive(app, scenario)
