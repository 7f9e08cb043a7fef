"""Work queued for a widget that is torn down before it runs is harmless.

- Textual's Header raised NoMatches (ending the app with a traceback) when a title change was
  applied after its title widget had gone, as when the app quits or switches screens right after
  a screen retitles itself; CI hit it at the end of the timed-out exam test.
- A plot's deferred draw (after refresh, on a theme change) did the same with its legend when the
  lab holding it went first (seen under load in a drill test).
"""

from __future__ import annotations

import asyncio

from textual.app import App, ComposeResult
from textual.screen import Screen
from textual.widgets._header import HeaderTitle

from quizapp.experiments.result import Series
from quizapp.tui.widgets.result_view import SeriesPlot
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


def test_a_plot_drawn_after_it_was_removed_does_nothing() -> None:
    series = Series(x_label="layer", x=(1.0, 2.0, 3.0), lines={"pre-LN": (1.0, 2.0, 4.0)})

    class PlotApp(App):
        def compose(self) -> ComposeResult:
            yield SeriesPlot(series)

    async def main() -> None:
        app = PlotApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            plot = app.query_one(SeriesPlot)
            await plot.remove()
            plot.draw()  # as a draw queued before the removal would run after it
            await pilot.pause()
            assert app.return_code is None and app.is_running

    asyncio.run(main())
