"""The Stats screen's "Your traps": the wrong answers the student picked most, each with the
bank's why, in the same wrapping table `quizapp stats` prints (quizapp/srs/study/traps_report.py). Bank
text reaches it only as rich `Text`, never as markup."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from textual.widget import Widget
from textual.widgets import Label, Static

from quizapp.srs.study.traps import TrapCount

TRAPS_ON_SCREEN = 10


def traps_section(traps: Sequence[TrapCount]) -> Iterator[Widget]:
    from quizapp.srs.study.traps_report import NO_TRAPS, traps_table

    yield Label("Your traps", classes="pane-title")
    if not traps:
        yield Static(NO_TRAPS, id="no-traps", classes="stats-note", markup=False)
        return
    table = traps_table(traps, TRAPS_ON_SCREEN)
    table.title = None
    yield Static(table, id="stats-traps")
    more = len(traps) - TRAPS_ON_SCREEN
    hint = f"{more} more in `quizapp stats --json`. " if more > 0 else ""
    yield Static(
        hint + "Drill them: “Drill my traps” in the palette (ctrl+p), or quizapp drill --traps.",
        classes="stats-note",
        markup=False,
    )
