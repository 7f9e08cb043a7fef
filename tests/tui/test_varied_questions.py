"""A parameterized question in the app: a fresh variant, graded against its own computation."""

from __future__ import annotations

import re

from textual.pilot import Pilot

from quizapp.bank import bundled_bank_path, load_bank
from quizapp.tui.app import AppOptions, QuizApp
from quizapp.tui.screens.home import HomeScreen
from quizapp.tui.screens.quiz import QuizScreen
from quizapp.tui.widgets.lab_panel import LabPanel
from tests.tui.test_sessions import drive, verdict, wait_for


def test_the_variant_shown_is_the_one_graded_and_computed() -> None:
    bank = load_bank([bundled_bank_path()])
    question = bank.questions["mha-head-width-varied"]
    app = QuizApp(bank, AppOptions(device="cpu"))

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        app.start_session(questions=[question], title="Varied")
        await wait_for(pilot, lambda: isinstance(app.screen, QuizScreen) and app.screen.is_mounted)
        screen: QuizScreen = app.screen  # type: ignore[assignment]
        shown = screen.question
        assert shown.id == question.id and shown.assignment
        d_model, n_heads = (int(n) for n in re.findall(r"\d+", shown.prompt.replace(",", ""))[:2])
        assert (d_model, n_heads) == (shown.assignment["d_model"], shown.assignment["n_heads"])
        await wait_for(pilot, lambda: screen.focused is not None and screen.focused.id == "answer")
        await pilot.press(*str(d_model // n_heads), "enter")
        await wait_for(pilot, lambda: screen.state == "answered", timeout=30)
        assert verdict(app).startswith("✓ Correct"), (
            shown.prompt,
            screen.session.attempts[-1].grade,
        )
        lab = screen.query_one(LabPanel)
        assert lab.args["d_model"] == d_model and lab.args["n_heads"] == n_heads

    drive(app, scenario)
