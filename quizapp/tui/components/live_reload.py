"""Live reload in the running app: poll the bank files, swap in the new bank, say what changed.

The watcher itself (what changed, and the bank rebuilt from it) is quizapp/tui/components/reload.py,
free of Textual; this is its wiring to the app: a timer, the home screen and the toasts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from quizapp.wording import plural

if TYPE_CHECKING:
    from quizapp.bank import Bank
    from quizapp.bank.diagnostics import Diagnostic
    from quizapp.tui.components.host import AppHost
    from quizapp.tui.components.reload import Reload

MOST_PROBLEMS_SHOWN = 5  # a toast has room for a few; the rest are counted


def start_watching(app: AppHost) -> None:
    if not (app.options.watch and app.options.bank_paths):
        return
    from quizapp.tui.components.reload import BankWatcher

    # Only stats the files: nothing is parsed until one changes.
    app.watcher = BankWatcher.start(app.options.bank_paths, app.bank)
    app.set_interval(app.options.watch_interval, lambda: poll_bank_files(app), name="bank watch")


def poll_bank_files(app: AppHost) -> None:
    if app.watcher is None:
        return
    try:
        change = app.watcher.poll()
    except Exception as exc:  # never let a watcher bug take the app (and a session) down
        app.watcher = None
        app.notify(
            f"Live reload stopped: {type(exc).__name__}: {exc}",
            title="Bank files",
            severity="error",
            timeout=15,
            markup=False,
        )
        return
    if change is not None:
        app.replace_bank(change.bank)
        announce(app, change)


def replace_bank(app: AppHost, bank: Bank) -> None:
    """Swap in a new bank. New sessions use it; a session in progress keeps its questions."""
    from quizapp.tui.screens.home import HomeScreen

    app.bank = bank
    for screen in app.screen_stack:
        if isinstance(screen, HomeScreen):
            screen.show_bank(bank)
    app.refresh_home()


def problem_lines(problems: Sequence[Diagnostic]) -> list[str]:
    """The first few problems, located, for a toast; and how many more there are."""
    from quizapp.tui.components.reload import located

    lines = [located(d) for d in problems[:MOST_PROBLEMS_SHOWN]]
    if len(problems) > MOST_PROBLEMS_SHOWN:
        lines.append(f"… and {len(problems) - MOST_PROBLEMS_SHOWN} more")
    return lines


def announce(app: AppHost, change: Reload) -> None:
    hint = " · ctrl+r shows it" if app.options.preview else ""
    for verb, decks in (("Reloaded", change.reloaded), ("Loaded new", change.added)):
        for deck in decks:
            app.notify(
                f"{verb} deck {deck.title} ({plural(change.size_of(deck), 'question')}){hint}",
                title="Bank files",
                timeout=5,
                markup=False,
            )
    for deck in change.removed:
        app.notify(
            f"Removed deck {deck.title}: its file is gone",
            title="Bank files",
            severity="warning",
            timeout=6,
            markup=False,
        )
    if change.problems:
        lines = problem_lines(change.problems)
        if change.kept:
            lines.append("The last good version stays in use.")
        app.notify(
            "\n".join(lines),
            title="Bank problems",
            severity="error",
            timeout=12,
            markup=False,
        )
    for path in change.cleared:
        app.notify(f"Problems fixed: {path}", title="Bank files", timeout=4, markup=False)
