"""`?`: every key the app answers to, gathered from the live bindings plus the quiz keys."""

from __future__ import annotations

from rich.markup import escape
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

Section = tuple[str, list[tuple[str, str]]]

ANSWERING: Section = (
    "Answering",
    [
        ("1–9", "pick an option (toggle it in select-all-that-apply)"),
        ("↑ ↓", "move between options or steps"),
        ("shift+↑ shift+↓  [ ]", "move a step up or down (ordering)"),
        ("Enter", "submit; after the feedback, the next question"),
        ("Space", "reveal a flashcard's back; after the feedback, next"),
        ("1 2 3 4", "grade a revealed flashcard: Again, Hard, Good, Easy"),
        ("Escape", "leave the session (answers so far are kept)"),
        ("u", "undo the last answer: it leaves the history and is asked again"),
        ("b  !", "bury the question until tomorrow; suspend it (palette: Suspended cards)"),
    ],
)
LAB: Section = (
    "The live lab",
    [
        ("Tab", "move into the lab's argument fields"),
        ("Enter  r", "rerun the computation with the form's arguments"),
        ("Escape", "out of a field (the lab's, or a number box): single keys work again"),
        ("x", "cancel a running computation (outside a field)"),
    ],
)
EVERYWHERE: Section = (
    "Everywhere",
    [
        ("?", "this help"),
        ("ctrl+p", "command palette: decks, computations, theme"),
        ("q  ctrl+q", "quit (asks first in the middle of a session)"),
    ],
)


def render_sections(sections: list[Section]) -> str:
    lines: list[str] = ["[b]Keys[/b]", ""]
    for title, rows in sections:
        if not rows:
            continue
        lines.append(f"[b $accent]{escape(title)}[/]")
        lines.extend(f"  [b]{escape(key):<22}[/b] {escape(what)}" for key, what in rows)
        lines.append("")
    return "\n".join(lines)


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q,question_mark", "dismiss", "Close")]

    def __init__(self, bindings: list[tuple[str, str]]) -> None:
        super().__init__()
        self.sections = [ANSWERING, LAB, ("On this screen", bindings), EVERYWHERE]

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog help-dialog"):
            yield Static(render_sections(self.sections), id="help-text")
