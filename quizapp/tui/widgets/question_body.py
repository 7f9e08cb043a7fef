"""The scrolling body that holds a question, its answer widget and the lab."""

from __future__ import annotations

from textual.containers import VerticalScroll


class QuestionBody(VerticalScroll):
    """A click on its text (to read, or on a link) keeps the focus where it was, on the answer,
    so 1–9 and Enter go on working. Tab still reaches it to scroll by keys, and a screen may
    focus it (the feedback does)."""

    FOCUS_ON_CLICK = False
