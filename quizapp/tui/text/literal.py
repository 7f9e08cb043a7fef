"""Untrusted text on screen: shown exactly as written, never read as Rich or Textual markup.

Bank text, CSV cells, computation arguments, file names and error messages that quote them
are data. Textual reads a plain `str` as markup almost everywhere (Static, Label, Option,
Selection, DataTable cells and column labels, notifications, the command palette), and in
that markup `[@click=app.quit]` is a live action and `[link=…]` a live link. So untrusted
text reaches a widget only through one of these:

- `literal(text)`: a rich `Text`, which every widget shows as it is (a DataTable cell or
  column label too, where a Textual `Content` would not do).
- `with_markup(template, **values)`: the app's own markup around untrusted `$values`,
  which Textual substitutes as plain text.
- `markup_escaped(text)`: for the few places that take nothing but a markup string
  (the command palette's prompt and help); prefer the other two.

All three show a control character or bidirectional override as a visible escape (`\\x1b`).
Notifications take `markup=False` (tests/tui/test_untrusted_text.py checks every call).
Markdown fields go to `BankMarkdown`, which renders Markdown only and asks before a link opens.
"""

from __future__ import annotations

from rich.style import StyleType
from rich.text import Text
from textual.content import Content

from quizapp.bank.literal import terminal_safe

__all__ = ["literal", "markup_escaped", "one_line", "with_markup"]

# Longer than any screen is wide: a list that shows one line per item ends it in … itself.
ONE_LINE_LIMIT = 300


def literal(text: object, style: StyleType = "", *, justify: str | None = None) -> Text:
    """`text` as written: brackets and all, never parsed as markup, and with any control
    character or bidirectional override shown as an escape (a student id or a stored response
    on a shared store did not pass the bank's loader)."""
    shown = terminal_safe(text, multiline=True)
    return Text(shown, style=style, justify=justify)  # type: ignore[arg-type]


def with_markup(template: str, **values: object) -> Content:
    """Our markup, their text: `$name` in `template` is filled with `values` as plain text.

    `with_markup("[b $error]Failed: $reason[/]", reason=message)` styles the message without
    reading any markup inside it.
    """
    safe = {name: terminal_safe(value, multiline=True) for name, value in values.items()}
    return Content.from_markup(template, **safe)


def markup_escaped(text: object) -> str:
    """`text` escaped for an API that reads only markup strings, so it shows as written.

    Every `[` gets a backslash, and nothing else changes: Textual reads `\\[` as a plain
    bracket and any other backslash as itself (textual.markup.escape doubles backslashes
    that Textual then shows doubled).
    """
    return terminal_safe(text, multiline=True).replace("[", "\\[")


def one_line(text: str, limit: int = ONE_LINE_LIMIT) -> str:
    """`text` (a prompt, say) on one line: its whitespace and line breaks as single spaces,
    and no longer than `limit` characters."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"
