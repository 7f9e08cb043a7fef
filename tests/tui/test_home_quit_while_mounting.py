"""A quit that arrives while the home screen is still mounting (a browser tab closed as soon
as it opened): the app ends at once, cleanly, rather than raising on widgets already gone and
hanging until `quizapp serve` kills it."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual import messages

from quizapp.tui.screens.home import HomeScreen
from tests.tui.test_history_in_app import make_app


@pytest.mark.parametrize("quit_by", ["exit", "ExitApp"])
def test_quit_before_the_home_screen_has_mounted_ends_the_app_cleanly(
    tmp_path: Path, quit_by: str
) -> None:
    """`exit`: App.exit(), as `q` does. `ExitApp`: the message Textual's web driver posts when
    textual-serve asks a closing tab's app to quit."""
    app = make_app(tmp_path / "history.sqlite3")
    mounted: list[bool] = []
    original = HomeScreen.on_mount

    def on_mount(screen: HomeScreen) -> None:
        mounted.append(screen._in_app)
        original(screen)

    if quit_by == "exit":
        app.call_later(app.exit)  # handled before the home screen's Mount
    else:
        app.call_later(app.post_message, messages.ExitApp())

    async def run() -> None:
        HomeScreen.on_mount = on_mount  # type: ignore[method-assign]
        try:
            await asyncio.wait_for(app.run_async(headless=True, size=(80, 24)), 60)
        finally:
            HomeScreen.on_mount = original  # type: ignore[method-assign]

    asyncio.run(run())
    assert mounted == [False]  # the case at hand: Mount handled after the quit took it down
    assert app.return_code in (0, None)  # an exception in a handler makes it 1


def test_counts_arriving_after_the_screen_left_the_app_are_ignored(tmp_path: Path) -> None:
    app = make_app(tmp_path / "history.sqlite3")
    screens: list[HomeScreen] = []

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, HomeScreen)
            screens.append(screen)
        # The app has ended: its screen is no longer attached, its widgets are gone.
        screen.show_counts(None)
        screen.show_bank(app.bank)

    asyncio.run(run())
    assert screens and not screens[0].is_attached
