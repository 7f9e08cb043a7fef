"""The screens' header: it shows title changes, and one queued as the screen goes is harmless.

Textual's Header raised NoMatches (ending the app with a traceback) when a title change was
applied after its title widget had gone, as when the app quits or switches screens right after a
screen retitles itself; CI hit it at the end of the timed-out exam test.
"""

from __future__ import annotations

import asyncio

from textual.app import App, ComposeResult
from textual.screen import Screen
from textual.widgets._header import HeaderTitle

from quizapp.tui.widgets.title_bar import TitleBar


class TitledScreen(Screen):
    def compose(self) -> ComposeResult:
        yield TitleBar()


class TitledApp(App):
    def on_mount(self) -> None:
        self.push_screen(TitledScreen())


def rendered_title(bar: TitleBar) -> str:
    return str(bar.query_one(HeaderTitle).render())


def test_the_title_bar_follows_the_screens_sub_title() -> None:
    async def main() -> None:
        app = TitledApp()
        async with app.run_test(size=(80, 10)) as pilot:
            await pilot.pause()
            bar = app.screen.query_one(TitleBar)
            app.screen.sub_title = "Mock exam: passed"
            await pilot.pause()
            assert "Mock exam: passed" in rendered_title(bar)

    asyncio.run(main())


def test_a_title_change_after_the_title_widget_went_is_ignored() -> None:
    async def main() -> None:
        app = TitledApp()
        async with app.run_test(size=(80, 10)) as pilot:
            await pilot.pause()
            bar = app.screen.query_one(TitleBar)
            await bar.query_one(HeaderTitle).remove()  # as a screen being torn down
            app.screen.sub_title = "changed while going"
            await pilot.pause()
            await pilot.pause()
            assert app.return_code is None and app.is_running  # no NoMatches ended it

    asyncio.run(main())
