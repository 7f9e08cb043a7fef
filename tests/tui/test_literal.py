"""The three ways untrusted text reaches a widget also keep control characters off the screen.

The bank's loader refuses them, but a student id or a stored response on a shared store, a
file name or an error message did not pass through it."""

from __future__ import annotations

import pytest

from quizapp.tui.text.literal import literal, markup_escaped, with_markup

HOSTILE = "ann\x1b]0;owned\x07 \u202emoc.live\n[@click=app.quit]x[/]"


@pytest.mark.parametrize(
    "shown",
    [
        literal(HOSTILE).plain,
        with_markup("[b]$name[/b]", name=HOSTILE).plain,
        markup_escaped(HOSTILE).replace("\\[", "["),
    ],
    ids=["literal", "with_markup", "markup_escaped"],
)
def test_control_characters_show_as_escapes_and_the_rest_as_written(shown: str) -> None:
    assert "\x1b" not in shown and "\x07" not in shown and "\u202e" not in shown
    assert "\\x1b]0;owned\\x07" in shown and "\\u202emoc.live" in shown
    assert "\n[@click=app.quit]x[/]" in shown  # a line break and brackets, kept as written
