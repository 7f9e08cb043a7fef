"""While a question is open, nothing on screen gives its answer away: read from what is drawn.

A numeric question whose key is 1,048,576 (= 2^20, the old hint's own example): its hint, a
rejected entry's message, the ? help and any toast show no form of the key until the answer is
committed; then the feedback does (which shows that the search would find it). A choice and a
true/false question show their options, each as often as the others, and nothing more.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from quizapp.bank import load_bank, number_examples
from quizapp.tui.app import AppOptions, QuizApp
from quizapp.tui.screens.help import HelpScreen
from quizapp.tui.screens.quiz import QuizScreen
from tests.exam.test_session import FakeClock
from tests.tui.number_forms import key_shown
from tests.tui.screen_text import drive_with_toasts, screen_lines
from tests.tui.test_exam_screen import at, make_exam, open_exam
from tests.tui.test_exam_screen import make_app as exam_app
from tests.tui.test_sessions import advance_to, make_app, ready_for_an_answer, start_deck, wait_for

KEY = 1_048_576  # t-numeric's key in the corpus's every-type deck
SIZE = (100, 50)  # tall enough that the whole question, hint and feedback are drawn
REJECTED = ("12,34", "1 2 8", "7 furlongs")
# In an exam n, p, f and g outside a unit move between questions: no entry here has them.
REJECTED_IN_EXAM = ("12,34", "1 2 8", "7 dims")


def drawn(app: QuizApp) -> str:
    return "\n".join(screen_lines(app))


async def type_into_box(pilot: Pilot, text: str) -> None:
    box = pilot.app.screen.query_one("#answer", Input)
    box.value = ""
    await pilot.press(*text, "enter")


def test_a_numeric_question_shows_no_form_of_its_key_until_it_is_answered() -> None:
    app = make_app()

    async def scenario(pilot: Pilot) -> None:
        screen = await start_deck(pilot)
        await advance_to(pilot, screen, "t-numeric")
        await wait_for(pilot, lambda: ready_for_an_answer(screen))
        await wait_for(pilot, lambda: "Type a number:" in drawn(app))
        assert "rounded answer" in drawn(app)  # the whole hint, both lines, is on screen
        assert key_shown(drawn(app), KEY) == []

        for typed in REJECTED:
            await type_into_box(pilot, typed)
            await wait_for(pilot, lambda typed=typed: repr(typed) in drawn(app))
            assert screen.state == "asking"
            # The entry is the student's own, echoed back: the rest of the screen is checked.
            assert key_shown(drawn(app).replace(typed, ""), KEY) == [], typed

        await pilot.press("escape", "question_mark")  # out of the box, then the keys
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        await pilot.pause()
        assert "Answering" in drawn(app)
        assert key_shown(drawn(app), KEY) == []
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, QuizScreen))

        await pilot.press("tab")  # back into the box, as a student would
        await wait_for(pilot, lambda: ready_for_an_answer(screen))
        await type_into_box(pilot, "1,048,576")
        await wait_for(pilot, lambda: screen.state == "answered")
        await wait_for(pilot, lambda: "Correct answer" in drawn(app))
        assert "✓ Correct" in drawn(app)
        assert key_shown(drawn(app), KEY) != []  # now it may show, and the search finds it

    drive_with_toasts(app, scenario, SIZE)


def test_an_exam_numeric_question_shows_no_form_of_its_key_while_it_is_open() -> None:
    app = exam_app()
    exam = make_exam(app, FakeClock())

    async def scenario(pilot: Pilot) -> None:
        screen = await open_exam(pilot, exam, [])
        await pilot.press("g", "down", "down", "down", "enter")
        await at(pilot, screen, "t-numeric")
        await wait_for(pilot, lambda: "Type a number:" in drawn(app))
        assert key_shown(drawn(app), KEY) == []
        for typed in REJECTED_IN_EXAM:
            screen.query_one("#answer", Input).value = ""
            await pilot.press(*typed)
            await wait_for(pilot, lambda typed=typed: f"{typed!r}" in drawn(app))
            assert "would be marked wrong" in drawn(app)
            assert key_shown(drawn(app).replace(typed, ""), KEY) == [], typed

    drive_with_toasts(app, scenario, SIZE)


CHOICES = """\
deck: {id: c, title: Choices, topic: c, domain: D, exam_weight: 1}
questions:
  - id: c-single
    type: single_choice
    prompt: Which word names the blue fruit?
    explanation: Plums.
    difficulty: easy
    tags: [c]
    choices:
      - {text: Plumkey, correct: true, why: It is.}
      - {text: Apricotish, why: It is not.}
      - {text: Figgy, why: Nor this.}
  - id: c-tf
    type: true_false
    prompt: Plums can be blue.
    explanation: Some are.
    difficulty: easy
    tags: [c]
    answer: true
"""


def test_choice_and_true_false_questions_show_each_option_alike_and_no_mark(
    tmp_path: Path,
) -> None:
    path = tmp_path / "c.yaml"
    path.write_text(CHOICES)
    app = QuizApp(load_bank([path]), AppOptions(device="cpu", shuffle=False))
    seen: dict[str, str] = {}

    async def scenario(pilot: Pilot) -> None:
        screen = await start_deck(pilot)
        for options, right in ((("Plumkey", "Apricotish", "Figgy"), "1"), (("True", "False"), "1")):
            await wait_for(pilot, lambda: ready_for_an_answer(screen))
            await pilot.pause()
            text = drawn(app)
            seen[screen.question.id] = text
            counts = {option: text.count(option) for option in options}
            assert len(set(counts.values())) == 1 and counts[options[0]] >= 1, counts
            assert "✓" not in text and "✗" not in text and "orrect" not in text
            await pilot.press(right, "enter")
            await wait_for(pilot, lambda: screen.state == "answered")
            # The marks the search looked for do show, after (drawn in the next frame).
            await wait_for(pilot, lambda: "✓ Correct" in drawn(app))
            await pilot.press("enter")

    drive_with_toasts(app, scenario, SIZE)
    assert set(seen) == {"c-single", "c-tf"}


DERIVED = """\
deck: {id: d, title: Derived, topic: d, domain: D, exam_weight: 1}
questions:
  - id: d-params
    type: numeric
    prompt: How many projection parameters has this attention layer?
    explanation: As computed.
    difficulty: easy
    tags: [d]
    compute: {name: mha_params, args: {d_model: 512, n_heads: 8}}
    answer: {from: params_multi_head, tolerance: 0}
"""


def test_a_computed_key_is_never_drawn_and_the_hint_gains_examples_once_it_is_known(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The first candidates are the computed key itself (4 · 512² = 2^20): only knowing the key
    # keeps them off the screen.
    monkeypatch.setattr(number_examples, "WHOLE_CANDIDATES", (KEY, 1234567))
    monkeypatch.setattr(number_examples, "POWER_CANDIDATES", ((2, 20), (3, 7)))
    path = tmp_path / "d.yaml"
    path.write_text(DERIVED)
    app = QuizApp(load_bank([path]), AppOptions(device="cpu", shuffle=False))

    async def scenario(pilot: Pilot) -> None:
        screen = await start_deck(pilot)
        await wait_for(pilot, lambda: "Type a number" in drawn(app))
        deadline = time.monotonic() + 120  # the lab loads torch, then computes the key
        while "1,234,567" not in drawn(app):  # the hint, once the lab has computed the key
            assert key_shown(drawn(app), KEY) == []
            assert time.monotonic() < deadline, "the hint never gained its examples"
            await pilot.pause(0.05)
        assert "3^7" in drawn(app) and key_shown(drawn(app), KEY) == []
        await wait_for(pilot, lambda: ready_for_an_answer(screen))
        await type_into_box(pilot, "1048576")
        await wait_for(pilot, lambda: screen.state == "answered")
        assert "✓ Correct" in drawn(app)

    drive_with_toasts(app, scenario, SIZE)
