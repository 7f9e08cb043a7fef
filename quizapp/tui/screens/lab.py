"""A computation on its own, opened from the command palette."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Label

from quizapp.bank.model import ComputeSpec, Location
from quizapp.experiments.registry import get_spec
from quizapp.tui.components.lab_service import LabService
from quizapp.tui.widgets.lab_panel import LabPanel, cancel_running, release_focus
from quizapp.tui.widgets.title_bar import TitleBar


class LabScreen(Screen[None]):
    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("x", "cancel_lab", "Cancel computation", show=False),
    ]

    def __init__(self, name: str, lab: LabService) -> None:
        super().__init__(id="lab-screen")
        self.computation = get_spec(name)
        self.lab = lab

    def compose(self) -> ComposeResult:
        spec = self.computation
        yield TitleBar()
        with VerticalScroll(id="lab-body"):
            yield Label(f"[b]{spec.title}[/]: {spec.description}", id="lab-title")
            yield LabPanel(
                self.lab,
                ComputeSpec(spec.name, {}, Location("(palette)", 1, 1)),
                autorun=True,
                id="lab",
            )
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = f"Lab: {self.computation.name}"

    def action_back(self) -> None:
        # Escape from a field of the lab's form first hands the keys back to the screen.
        if not release_focus(self, self.query_one("#lab-body")):
            self.app.pop_screen()

    def action_cancel_lab(self) -> None:
        cancel_running(self)


def open_lab(app: App[None], name: str) -> None:
    """The palette's "Compute: name": the computation on its own screen."""
    app.push_screen(LabScreen(name, app.lab))  # type: ignore[attr-defined]
