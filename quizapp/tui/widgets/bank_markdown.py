"""Markdown from a bank: rendered as Markdown only, and its links never open on one click.

Textual's Markdown builds its text from the Markdown tokens (bracketed Rich or Textual markup
in the source stays text), and by default opens a clicked link straight away
(`Markdown.on_markdown_link_clicked` calls `app.open_url`). Here a click shows the address
and asks first (quizapp.tui.screens.open_link). Every Markdown field of a bank (prompt,
explanation, a flashcard's back, the feedback built from choices and whys, a computation's
summary) is shown with this widget.
"""

from __future__ import annotations

from textual.widgets import Markdown


class BankMarkdown(Markdown):
    def __init__(
        self,
        markdown: str | None = None,
        *,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(markdown, id=id, classes=classes, open_links=False)

    def on_markdown_link_clicked(self, event: Markdown.LinkClicked) -> None:
        # Runs before Markdown's own handler; prevent_default skips it, stop keeps the click
        # from reaching anything else that might act on it.
        event.prevent_default()
        event.stop()
        from quizapp.tui.screens.open_link import ask_to_open

        ask_to_open(self.app, event.href)


__all__ = ["BankMarkdown"]
