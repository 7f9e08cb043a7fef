"""A DataTable that fits its width: named text columns give way, ending in an ellipsis.

A DataTable sizes every column to its widest cell and, when the total is wider than the
widget, cuts the right-hand columns off at the edge (`Layer normalization and re`, a
Domain column gone). Here the columns named `shrinkable` narrow instead, the widest first,
and their cells end in `…` where they are cut. Given the room, they grow back.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.text import Text
from textual.widgets import DataTable
from textual.widgets.data_table import ColumnKey, RowKey

# Narrower than this a shrinkable column stops giving way (and the table scrolls instead).
MIN_SHRUNK_WIDTH = 8


class FittedTable(DataTable):
    # Room for the vertical scrollbar is kept whether or not it shows: the table is fitted to
    # its width once, and a scrollbar appearing later (a line added above it on the screen)
    # would otherwise push the last column out of sight.
    DEFAULT_CSS = "FittedTable { scrollbar-gutter: stable; }"

    def __init__(self, *args: Any, shrinkable: Iterable[str] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.shrinkable = frozenset(shrinkable)  # column labels

    def add_row(self, *cells: Any, **kwargs: Any) -> RowKey:
        # One line per cell, cut with an ellipsis: never wrapped and then cropped mid-word.
        fitted = [_one_line(cell) for cell in cells]
        key = super().add_row(*fitted, **kwargs)
        self.call_after_refresh(self.fit)
        return key

    def on_resize(self) -> None:
        self.fit()

    def fit(self) -> None:
        """Narrow (or widen back) the shrinkable columns so that the table fits its width."""
        if not self.is_mounted or not self.columns:
            return
        available = self.scrollable_content_region.width
        if available <= 0:
            return
        padding = 2 * self.cell_padding
        flexible = {
            key: column.content_width
            for key, column in self.columns.items()
            if column.label.plain in self.shrinkable
        }
        fixed = sum(
            column.content_width + padding
            for key, column in self.columns.items()
            if key not in flexible
        )
        widths = _share(available - fixed - padding * len(flexible), flexible)
        changed = False
        for key, width in widths.items():
            column = self.columns[key]
            auto = width >= column.content_width
            if column.auto_width != auto or (not auto and column.width != width):
                column.auto_width = auto
                column.width = width
                changed = True
        if changed:
            # DataTable recomputes its virtual size only when told its dimensions changed.
            self._require_update_dimensions = True
            self.refresh()


def _share(room: int, natural: dict[ColumnKey, int]) -> dict[ColumnKey, int]:
    """Widths for the flexible columns within `room` cells: the widest shrink first, each
    to no less than MIN_SHRUNK_WIDTH (or its natural width, if that is less)."""
    widths = dict(natural)
    excess = sum(widths.values()) - room
    while excess > 0:
        widest = max(widths, key=lambda key: widths[key])
        floor = min(natural[widest], MIN_SHRUNK_WIDTH)
        if widths[widest] <= floor:
            break
        others = sorted((w for k, w in widths.items() if k != widest), reverse=True)
        # Down to the next widest (so that they then shrink together), or by what is left.
        target = max(floor, others[0] if others else floor, widths[widest] - excess)
        if target == widths[widest]:
            target -= 1
        excess -= widths[widest] - target
        widths[widest] = target
    return widths


def _one_line(cell: Any) -> Any:
    if isinstance(cell, Text):
        cell = cell.copy()
        cell.no_wrap = True
        cell.overflow = "ellipsis"
    return cell


__all__ = ["MIN_SHRUNK_WIDTH", "FittedTable"]
