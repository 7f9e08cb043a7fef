"""The header every screen shows: Textual's Header, safe to remove while a title change is queued.

Textual's Header updates its title from a coroutine queued on the screen (or app) whose title
changed. When that screen is torn down first (the app quits just after the home screen retitled
itself, a screen is switched away mid-update), the queued coroutine finds the header's title
widget gone and raises NoMatches, which ends the app with a traceback. Here the update is
skipped once the header has left the DOM.
"""

from __future__ import annotations

from textual import events
from textual.css.query import NoMatches
from textual.widgets import Header
from textual.widgets._header import HeaderTitle


class TitleBar(Header):
    def _on_mount(self, event: events.Mount) -> None:
        # Replaces Header's own mount handler, whose title update has no guard.
        event.prevent_default()

        async def set_title() -> None:
            if not self.is_attached:
                return
            try:
                title = self.query_one(HeaderTitle)
            except NoMatches:  # removed between the change and this update
                return
            title.update(self.format_title())

        self.watch(self.app, "title", set_title)
        self.watch(self.app, "sub_title", set_title)
        self.watch(self.screen, "title", set_title)
        self.watch(self.screen, "sub_title", set_title)
