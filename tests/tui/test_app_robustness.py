"""The app under strain: broken bank files, failing computations, every result rendered."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.containers import VerticalScroll

from quizapp.bank import load_bank
from quizapp.bank.model import ComputeSpec, Location
from quizapp.experiments.registry import COMPUTATIONS
from quizapp.experiments.runner import intra_op_threads
from quizapp.tui.app import AppOptions, QuizApp
from quizapp.tui.components.lab_service import LabService
from quizapp.tui.screens.home import HomeScreen
from quizapp.tui.widgets.lab_panel import LabPanel
from tests.conftest import CORPUS, REPO
from tests.tui.test_sessions import (
    advance_to,
    answer_current,
    drive,
    start_deck,
    text_of,
    wait_for,
)


@pytest.fixture(scope="module")
def warm_lab() -> LabService:
    lab = LabService("cpu")
    lab.warm_up()
    return lab


def test_broken_bank_files_still_open_the_app_and_say_where(tmp_path: Path) -> None:
    (tmp_path / "broken.yaml").write_text("deck: {id: x\n")
    bank = load_bank([CORPUS / "good", tmp_path])
    app = QuizApp(bank, AppOptions(device="cpu", shuffle=False))

    async def scenario(pilot) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        problems = text_of(app.screen.query_one("#problems"))
        assert "broken.yaml:1:7: error: YAML syntax" in problems  # where the { opens
        assert app.screen.query_one("#decks").row_count == 2  # the good deck and "All decks"

    drive(app, scenario)


def test_a_computation_that_raises_shows_its_error_and_the_session_goes_on(monkeypatch) -> None:
    def boom(self, name, args, **kwargs):
        raise RuntimeError("the lab caught fire")

    monkeypatch.setattr(LabService, "run", boom)
    app = QuizApp(load_bank([CORPUS / "good"]), AppOptions(device="cpu", shuffle=False))

    async def scenario(pilot) -> None:
        screen = await start_deck(pilot)
        await answer_current(pilot, screen, right=True)  # t-single has a computation
        lab = screen.query_one(LabPanel)
        await wait_for(pilot, lambda: "caught fire" in text_of(lab.query_one("#lab-error")))
        await pilot.press("enter")
        await wait_for(
            pilot, lambda: screen.question is not None and screen.question.id == "t-multi"
        )
        # A derived key whose computation fails: the question is not scored, the session goes on.
        await advance_to(pilot, screen, "t-numeric-derived")
        await pilot.press(*"1048576", "enter")
        await wait_for(pilot, lambda: screen.state == "answered")
        assert "not scored" in text_of(screen.query_one("#key-hint"))
        await pilot.press("enter")
        assert screen.question is not None and screen.question.id == "t-numeric-short"

    drive(app, scenario)


@pytest.fixture
def one_torch_thread() -> Iterator[None]:
    """torch on one intra-op thread, as lint runs the same computations: on a busy 2-core
    machine the second thread made gradient_flow at its defaults take 10-50 s, not 1-2 s, and
    the panel's wait below ran out (at load 15). Here: 5.1 s on two threads, 1.1 s on one."""
    with intra_op_threads(1):
        yield


@pytest.mark.parametrize("spec", COMPUTATIONS, ids=lambda s: s.name)
def test_every_computation_renders_in_the_panel(
    spec, warm_lab: LabService, one_torch_thread: None
) -> None:
    from textual.app import App

    class Harness(App[None]):
        def compose(self):
            with VerticalScroll():
                yield LabPanel(warm_lab, ComputeSpec(spec.name, {}, Location("t", 1, 1)), id="lab")

    app = Harness()

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            panel = app.query_one(LabPanel)
            await wait_for(
                pilot,
                lambda: (
                    bool(panel.query(".lab-values"))
                    or bool(
                        panel.query("#lab-error").first().display
                        if panel.query("#lab-error")
                        else False
                    )
                ),
                timeout=60,
            )
            await pilot.pause()
            assert panel.query(".lab-values"), text_of(panel.query_one("#lab-status"))
            assert panel.query(".lab-summary")

    asyncio.run(main())


def test_the_first_screen_is_drawn_before_torch_is_imported() -> None:
    code = textwrap.dedent(
        """
        import asyncio, sys, time
        from quizapp.bank import bundled_bank_path, load_bank
        from quizapp.tui.app import AppOptions, QuizApp

        app = QuizApp(load_bank([bundled_bank_path()]), AppOptions(device="cpu"))

        async def main():
            async with app.run_test(size=(100, 30)) as pilot:
                await pilot.pause()
                print("home", type(app.screen).__name__)
                print("torch-at-first-screen", app.torch_loaded_at_first_screen)
                deadline = time.monotonic() + 120
                while not app.lab.ready.is_set() and time.monotonic() < deadline:
                    await pilot.pause(0.05)
                print("torch-after-warm-up", "torch" in sys.modules, app.lab.failed)

        asyncio.run(main())
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=180, cwd=REPO
    )
    assert result.returncode == 0, result.stderr[-2000:]
    lines = dict(line.split(" ", 1) for line in result.stdout.splitlines() if " " in line)
    assert lines["home"] == "HomeScreen"
    assert lines["torch-at-first-screen"] == "False"
    assert lines["torch-after-warm-up"] == "True None"
