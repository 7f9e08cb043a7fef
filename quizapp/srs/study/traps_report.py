"""The traps a student fell into, as `quizapp stats` prints them and the Stats screen shows
them: one wrapping Rich table (bank text as `Text`, never markup), and the line shown when
there are none. Rich loads only when a table is made.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from quizapp.bank.literal import terminal_safe

if TYPE_CHECKING:
    from rich.table import Table

    from quizapp.srs.study.traps import TrapCount

TRAPS_SHOWN = 10  # the human table's rows; --json lists every trap


def _first_line(text: str, limit: int = 72) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def traps_table(traps: Sequence[TrapCount], shown: int = TRAPS_SHOWN) -> Table:
    """The traps as a Rich table that wraps to any width (the CLI's and the Stats screen's).
    Bank text goes in as `Text`, never markup, and through terminal_safe."""
    from rich.table import Table
    from rich.text import Text

    table = Table(title="Your traps", title_justify="left", expand=True, show_lines=True)
    table.add_column("Times", justify="right", no_wrap=True)
    table.add_column("Last", no_wrap=True)
    table.add_column("What you picked, and why it is wrong", ratio=1)
    for trap in traps[:shown]:
        cell = Text(terminal_safe(trap.answer), style="bold")
        cell.append("\n" + terminal_safe(trap.why or "(the bank gives no why)"))
        cell.append(
            "\n" + terminal_safe(f"{trap.question_id}: {_first_line(trap.prompt)}"), style="dim"
        )
        table.add_row(f"{trap.times}×", f"{trap.last.astimezone():%b %d}", cell)
    return table


NO_TRAPS = (
    "No traps yet: the wrong choices and numeric traps you pick will show here, "
    "with why each is wrong."
)
