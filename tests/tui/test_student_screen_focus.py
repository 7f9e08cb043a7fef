"""The student's id is typed straight into the field even when the app starts without focus,
as it does in a browser tab under `quizapp serve` (Textual's web driver starts it blurred)."""

from __future__ import annotations

import asyncio

from textual import events
from textual.app import App
from textual.widgets import Input

from quizapp.tui.screens.student import StudentScreen
from tests.tui.test_sessions import wait_for


class BlurredApp(App[None]):
    def on_mount(self) -> None:
        self.app_focus = False  # what the web driver's first AppBlur leaves
        self.push_screen(StudentScreen("postgresql://class.example/quiz"))


def test_typing_reaches_the_field_when_the_app_started_blurred() -> None:
    app = BlurredApp()

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(
                pilot,
                lambda: (
                    isinstance(app.screen, StudentScreen)
                    and app.screen.is_mounted
                    and bool(app.screen.query(Input))
                ),
            )
            app.post_message(events.AppFocus())  # the tab reports focus
            await pilot.pause()
            await pilot.press("a", "d", "a")
            assert app.screen.query_one(Input).value == "ada"

    asyncio.run(run())
