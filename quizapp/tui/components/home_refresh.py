"""Keeping the home screen's due and new counts current while it is not being looked at.

The counts move when:
- an answer is queued or saved (HistoryService refreshes the home screen itself);
- another program, such as a second quizapp, writes the same history: SQLite's
  `PRAGMA data_version` on the UI's reader connection changes with every commit made by
  another connection, and costs next to nothing to ask, so it is asked every 2 seconds;
- time passes: a card falls due, or local midnight ends the burials and starts a new day's
  allowance of new cards. A timer is set for the next such moment (`HomeCounts.next_change`).
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from textual.timer import Timer

if TYPE_CHECKING:
    from textual.screen import Screen

POLL_SECONDS = 2.0
LONGEST_WAIT_SECONDS = 3600.0  # look again at least hourly (a clock change, a suspend)
SETTLE_SECONDS = 0.5  # a card due at 12:00:00.000 is due once the timer fires a bit after


class CountsRefresh:
    def __init__(self, screen: Screen) -> None:  # the home screen
        self.screen = screen
        self.version: int | None = None
        self.timer: Timer | None = None

    def start(self) -> None:
        self.screen.set_interval(POLL_SECONDS, self.poll, name="history data_version")

    def poll(self) -> None:
        """Refresh when anything has written the history since the last look."""
        version = self.screen.app.history_writes.data_version()  # type: ignore[attr-defined]
        if version is None or version == self.version:
            return
        # The first look refreshes too: a commit between the counts and that look would
        # otherwise become the baseline unseen.
        self.version = version
        self.screen.app.refresh_home()  # type: ignore[attr-defined]

    def refresh_at(self, moment: datetime) -> None:
        """Refresh when the counts next move by themselves."""
        from quizapp.srs.memory.scheduling import utc_now

        if self.timer is not None:
            self.timer.stop()
        wait = (moment - utc_now()).total_seconds() + SETTLE_SECONDS
        self.timer = self.screen.set_timer(
            min(max(wait, SETTLE_SECONDS), LONGEST_WAIT_SECONDS),
            self.screen.app.refresh_home,  # type: ignore[attr-defined]
            name="next card due",
        )
