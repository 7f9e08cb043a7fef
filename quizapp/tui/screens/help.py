"""`?`: every key the app answers to, gathered from the live bindings plus the quiz keys."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Label

from quizapp.tui.literal import literal

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


def help_rows(sections: list[Section]) -> Iterator[Widget]:
    """The keys, section by section: a key column, and descriptions that wrap under themselves
    (hanging), not under the keys."""
    yield Label("Keys", classes="help-heading")
    for title, rows in sections:
        if not rows:
            continue
        yield Label(literal(title), classes="help-section")
        for key, what in rows:
            with Horizontal(classes="help-row"):
                yield Label(literal(key), classes="help-key")
                yield Label(literal(what), classes="help-what")


class HelpScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    HelpScreen .help-heading { text-style: bold; margin-bottom: 1; }
    HelpScreen .help-section { text-style: bold; color: $accent; margin-top: 1; }
    HelpScreen .help-row { height: auto; }
    HelpScreen .help-key { width: 24; padding-left: 2; text-style: bold; }
    HelpScreen .help-what { width: 1fr; }
    """
    BINDINGS = [Binding("escape,q,question_mark", "dismiss", "Close")]

    def __init__(self, bindings: list[tuple[str, str]]) -> None:
        super().__init__()
        self.sections = [ANSWERING, LAB, ("On this screen", bindings), EVERYWHERE]

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog help-dialog", id="help-text"):
            yield from help_rows(self.sections)


def show_keys(app: App[None]) -> None:
    """`?`: the keys of the screen on top, with the quiz's and the lab's, in a dialog."""
    if isinstance(app.screen, HelpScreen):
        return
    bindings = []
    for binding in _visible_bindings(app, app.screen):
        bindings.append((app.get_key_display(binding), binding.description))
    app.push_screen(HelpScreen(bindings))


def _visible_bindings(app: App[None], screen: Screen) -> Iterable[Binding]:
    seen: set[str] = set()
    for active in screen.active_bindings.values():
        binding = active.binding
        # Ours only: Textual's scrolling keys (page up, home…) would bury the quiz's own.
        ours = active.node is app or type(active.node).__module__.startswith("quizapp")
        if ours and binding.description and binding.action not in seen:
            seen.add(binding.action)
            yield binding
