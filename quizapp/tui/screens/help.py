"""`?`: every key the app answers to, gathered from the live bindings plus the quiz keys."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.dom import DOMNode
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import DataTable, Input, Label, OptionList, Static

from quizapp.tui.text.literal import literal

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
        # Not "the answers are kept": an exam's are lost, and without a history none are saved.
        (
            "Escape",
            "leave; once you have answered, it asks first and says what becomes of the answers",
        ),
        ("u", "undo the last answer: it leaves the history and is asked again"),
        ("b  !", "bury the question until tomorrow; suspend it (palette: Suspended cards)"),
    ],
)
LAB: Section = (
    "The live lab",
    [
        ("Tab", "move into the lab's argument fields"),
        ("Enter  r", "rerun the computation with the form's arguments"),
        (
            "Escape",
            "out of a field or off the lab's buttons (or a number box), back to the page: "
            "single keys work again",
        ),
        ("x", "cancel a running computation (outside a field)"),
        ("↑ ↓  PgUp PgDn", "scroll the page, down to the end of the lab's result"),
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


KEY_WIDTH = 22  # the key column, after the section's 2-cell indent


def key_table(rows: list[tuple[str, str]]) -> Table:
    """One section's keys: a key column, and descriptions that wrap under themselves (hanging),
    not under the keys. One table per section rather than a pair of widgets per key: the help
    is built on every `?`, and a hundred widgets to style and lay out cost a frame's worth of
    time many times over (a quarter of a second in a browser tab on a busy server)."""
    table = Table.grid(padding=(0, 1, 0, 0), expand=True)
    table.add_column(width=KEY_WIDTH, style="bold")
    table.add_column(ratio=1)
    for key, what in rows:
        table.add_row(Text(key), Text(what))  # Text: literal, never markup
    return table


def help_rows(sections: list[Section]) -> Iterator[Widget]:
    """The keys, section by section, each section's under its title."""
    yield Label("Keys", classes="help-heading")
    for title, rows in sections:
        if not rows:
            continue
        yield Label(literal(title), classes="help-section")
        yield Static(key_table(rows), classes="help-keys")


class HelpScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    HelpScreen { background: $background; }
    HelpScreen .help-heading { text-style: bold; margin-bottom: 1; }
    HelpScreen .help-section { text-style: bold; color: $accent; margin-top: 1; }
    HelpScreen .help-keys { padding-left: 2; }
    """
    BINDINGS = [Binding("escape,q,question_mark", "dismiss", "Close")]

    def __init__(self, bindings: list[tuple[str, str]], own: Section | None = None) -> None:
        super().__init__()
        # `own`: a screen's keys said at more length than its footer has room for.
        mine = [own] if own is not None else []
        self.sections = [ANSWERING, LAB, *mine, ("On this screen", bindings), EVERYWHERE]

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
    navigation = _navigation(app.screen.focused)
    if navigation is not None:
        bindings.append(navigation)
    app.push_screen(HelpScreen(bindings, getattr(app.screen, "HELP_SECTION", None)))


# A Textual widget's own keys (a table's sixteen: cursor moves, pages, Select…), in one line.
NAVIGATION: tuple[tuple[type[Widget], tuple[str, str]], ...] = (
    (DataTable, ("↑ ↓ PgUp PgDn", "move in the table")),
    (OptionList, ("↑ ↓ PgUp PgDn", "move in the list")),
    (Input, ("← → Home End", "move in the box")),
)


def _navigation(focused: Widget | None) -> tuple[str, str] | None:
    for widget_type, row in NAVIGATION:
        if isinstance(focused, widget_type):
            return row
    return None


def _visible_bindings(app: App[None], screen: Screen) -> Iterable[Binding]:
    """The app's, the screen's and our widgets' own bindings, as the keys reach them.

    Textual's (a table's cursor keys, Tab, "Copy selected text") are left out: they would
    bury the screen's own. Where one of them takes a key the screen also binds (Enter in
    the deck table, which starts the deck), the screen's binding says what the key does.
    """
    seen: set[str] = set()
    for key, active in screen.active_bindings.items():
        binding: Binding | None = active.binding
        if not _declared_here(active.node, active.binding):
            binding = _under(screen, key)
        if binding is not None and binding.description and binding.action not in seen:
            seen.add(binding.action)
            yield binding


def _declared_here(node: DOMNode, binding: Binding) -> bool:
    """Whether `binding` is one of quizapp's, not inherited from a Textual class."""
    return any(
        own.action == binding.action and own.key == binding.key
        for own in _quizapp_bindings(type(node))
    )


def _under(screen: Screen, key: str) -> Binding | None:
    """The screen's or the app's own binding for `key`, when a Textual widget's takes it."""
    for node in (screen, screen.app):
        for own in _quizapp_bindings(type(node)):
            if own.key == key and node.check_action(own.action, ()) is not False:
                return own
    return None


def _quizapp_bindings(node_type: type) -> Iterator[Binding]:
    for cls in node_type.__mro__:
        if cls.__module__.startswith("quizapp") and "BINDINGS" in cls.__dict__:
            yield from Binding.make_bindings(cls.__dict__["BINDINGS"])
