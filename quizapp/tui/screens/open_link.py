"""Before a link in bank Markdown opens: the full address, as text, and a question.

A link's text can say anything, so one click never opens it. The dialog shows the address
that would be opened and asks (Open / Cancel, Escape cancels). Only http, https and mailto
addresses are opened at all; anything else (javascript:, file:, data:, a relative path) is
shown and refused. Returns True only when the student chose to open an openable address.
"""

from __future__ import annotations

from urllib.parse import quote, urlsplit

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

from quizapp.tui.text.literal import literal

# What opening does, by scheme: the system hands a mailto: address to the mail program (a
# browser, under `quizapp serve`, does the same), which only starts a message.
_WHAT_OPENING_DOES = {
    "http": "It opens in your web browser.",
    "https": "It opens in your web browser.",
    "mailto": "It starts a new message in your mail program; nothing is sent unless you send it.",
}
OPENABLE_SCHEMES = frozenset(_WHAT_OPENING_DOES)
# Printable ASCII stays as written (including % escapes); spaces, control characters and
# everything beyond ASCII are percent-encoded, so what is shown is exactly what is opened.
_PRINTABLE_ASCII = "".join(chr(code) for code in range(0x21, 0x7F))


def link_address(href: str) -> str:
    """The address as it would be opened: no whitespace, control or look-alike characters."""
    return quote(href.strip(), safe=_PRINTABLE_ASCII)


def refusal(address: str) -> str | None:
    """Why this address is not opened, or None when it may be (after the student agrees)."""
    try:
        parts = urlsplit(address)
    except ValueError:
        return "This address cannot be read."
    scheme = parts.scheme.lower()
    if scheme not in OPENABLE_SCHEMES:
        shown = f"a {scheme}: address" if scheme else "not a full address (no http or https)"
        return f"quizapp opens only http, https and mailto links; this is {shown}."
    if scheme in ("http", "https") and not parts.hostname:
        return "This address names no web site."
    if scheme == "mailto" and not parts.path:
        return "This mailto link names no address."
    return None


class OpenLink(ModalScreen[bool]):
    """Ask before opening a link from bank text; refuse one that may not be opened."""

    BINDINGS = [
        Binding("escape,n", "dismiss(False)", "Cancel"),
        Binding("o", "open", "Open", show=False),
    ]

    def __init__(self, href: str) -> None:
        super().__init__()
        self.address = link_address(href)
        self.refused = refusal(self.address)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="open-link"):
            title = "Open this link?" if self.refused is None else "This link is not opened"
            yield Label(title, classes="dialog-title")
            yield Label("The link goes to:")
            yield Static(literal(self.address), id="link-address")
            # Statics, not Labels: a long address or reason wraps instead of being cut off.
            note = self.refused or _WHAT_OPENING_DOES[urlsplit(self.address).scheme.lower()]
            yield Static(literal(note), id="link-note")
            with Horizontal(classes="dialog-buttons"):
                if self.refused is None:
                    yield Button("Open (o)", variant="warning", id="open")
                yield Button("Cancel (esc)", variant="primary", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#cancel", Button).focus()

    def action_open(self) -> None:
        if self.refused is None:
            self.dismiss(True)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "open":
            self.action_open()
        else:
            self.dismiss(False)


def ask_to_open(app: App, href: str) -> None:
    """Show the link's address and open it only if the student says so (and it may be)."""
    dialog = OpenLink(href)

    def answered(open_it: bool | None) -> None:
        if open_it and dialog.refused is None:
            app.open_url(dialog.address)

    app.push_screen(dialog, answered)
