"""The command palette (ctrl+p): every entry the app adds to Textual's own.

The fixed entries are the table `COMMANDS`: adding one is a line there, a title, its help
and what picking it does (a function given the app). The rest are generated: a session per
deck, the lab per computation, and the device switches (quizapp/tui/components/lab_device.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from textual.app import SystemCommand

from quizapp.tui.components.lab_device import device_commands
from quizapp.tui.components.trap_drill import start_trap_drill
from quizapp.tui.screens.class_report import may_read_class_report, open_class_report
from quizapp.tui.screens.fit import open_fit_screen
from quizapp.tui.screens.lab import open_lab
from quizapp.tui.screens.readiness import ask_exam_date, open_readiness
from quizapp.tui.text.literal import markup_escaped
from quizapp.wording import plural

if TYPE_CHECKING:
    from quizapp.tui.components.host import AppHost


@dataclass(frozen=True)
class PaletteCommand:
    title: str  # read as markup by the palette: never put bank text here unescaped
    help: str
    run: Callable[[AppHost], object]  # what picking it does
    offered: Callable[[AppHost], bool] = lambda app: True  # whether the palette lists it


# The palette shows its entries sorted by title, so where a line goes here does not matter.
COMMANDS: tuple[PaletteCommand, ...] = (
    PaletteCommand("Drill", "Today's spaced-repetition drill", lambda app: app.start_drill()),
    PaletteCommand("Drill my traps", "The questions whose traps you fell for", start_trap_drill),
    PaletteCommand("Exam", "A timed 20-question mock exam", lambda app: app.start_exam(intro=True)),
    PaletteCommand(
        "Suspended cards",
        "Bring suspended cards back into sessions",
        lambda app: app.action_suspended(),
    ),
    PaletteCommand(
        "Buried cards",
        "Bring cards buried until tomorrow back now",
        lambda app: app.action_buried(),
    ),
    PaletteCommand(
        "Stats",
        "Reviews, retention, topics, forecast, streak, exams",
        lambda app: app.action_stats(),
    ),
    PaletteCommand("Readiness", "Predicted exam score, by topic and by day", open_readiness),
    PaletteCommand("Exam date", "Set the exam date the drills plan for", ask_exam_date),
    PaletteCommand(
        "Class report",
        "For the instructor: item analysis",
        open_class_report,
        offered=may_read_class_report,
    ),
    PaletteCommand(
        "Fit the scheduler to my history",
        "FSRS's parameters fitted to your reviews (quizapp optimize)",
        open_fit_screen,
    ),
    PaletteCommand("Help: keys", "Every key the app answers to", lambda app: app.action_help()),
)


def palette_commands(app: AppHost) -> Iterable[SystemCommand]:
    yield from deck_commands(app)
    yield from computation_commands(app)
    yield from device_commands(app, app.lab)
    for command in COMMANDS:
        if not command.offered(app):
            continue
        yield SystemCommand(command.title, command.help, partial(command.run, app))


def deck_commands(app: AppHost) -> Iterable[SystemCommand]:
    """A session on each deck, then on all of them."""
    for deck in app.bank.decks:
        # The palette reads its titles and help as markup, and nothing else.
        title = markup_escaped(deck.title)
        yield SystemCommand(
            f"Deck: {title}",
            f"Start a session on {title} ({plural(len(deck.questions), 'question')})",
            partial(app.start_session, deck_ids=(deck.id,)),
        )
    yield SystemCommand("Deck: everything", "Start a session on every deck", app.start_session)


def computation_commands(app: AppHost) -> Iterable[SystemCommand]:
    """The lab on each named computation, on its own screen."""
    from quizapp.experiments.registry import COMPUTATIONS

    for spec in COMPUTATIONS:
        yield SystemCommand(
            f"Compute: {spec.name}", spec.description, partial(open_lab, app, spec.name)
        )
