"""What an app under Pilot actually draws: the text of its rows, and what a click there does.

Read from the current screen's compositor, so it is what a user sees: clipped, scrolled and
overlaid (toasts, when the app runs with notifications on) exactly as on a terminal.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from textual.app import App
from textual.pilot import Pilot


def drive_with_toasts(
    app: App, scenario: Callable[[Pilot], Awaitable[None]], size: tuple[int, int]
) -> None:
    """Run a Pilot scenario with notifications on (run_test leaves them out by default)."""

    async def main() -> None:
        async with app.run_test(size=size, notifications=True) as pilot:
            await scenario(pilot)

    asyncio.run(main())


def screen_lines(app: App) -> list[str]:
    """The text of every row the current screen draws."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def click_actions(app: App) -> set[str]:
    """Every click action attached to something drawn on the current screen."""
    actions: set[str] = set()
    for strip in app.screen._compositor.render_strips():
        for segment in strip:
            if segment.style is not None and segment.style.meta.get("@click"):
                actions.add(str(segment.style.meta["@click"]))
    return actions


def find(app: App, text: str) -> tuple[int, int] | None:
    """Where `text` first appears on screen, as (x, y); None when it is not drawn."""
    for y, line in enumerate(screen_lines(app)):
        if text in line:
            return line.index(text), y
    return None


def cut_off(app: App) -> list[str]:
    """What the current screen cuts off at its right edge, unseen: a widget that sticks out of
    the container it sits in (a Label wider than its pane, a footer key past the edge), and a
    table wider than itself. Empty when everything on screen reads whole."""
    from textual.widget import Widget
    from textual.widgets import DataTable

    found: list[str] = []

    def name(widget: Widget) -> str:
        return f"{type(widget).__name__}#{widget.id or ''}"

    def walk(node: Widget) -> None:
        for child in node.children:
            if not child.display or not child.visible:
                continue
            room = node.scrollable_content_region
            if child.region.width and room.width and child.region.right > room.right:
                found.append(f"{name(child)} ends at {child.region.right}, past {name(node)}")
            if isinstance(child, DataTable):
                wide, room_width = child.virtual_size.width, child.scrollable_content_region.width
                if wide > room_width:
                    found.append(f"{name(child)} is {wide} wide in {room_width}")
            walk(child)

    walk(app.screen)
    return found
