"""Markers that tell a plot's lines apart without colour.

Lines drawn in braille differ only by colour, which a colour-blind student or a monochrome
terminal cannot see. Each line also gets a marker of its own (● ■ ▲ …) at a few points along
it, and the caption's key shows the same marker. The points are staggered from line to line,
so that lines lying on top of each other (q·k with the key at 0 and at 1000, the point of
that plot) still show every marker.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

MARKERS = ("●", "■", "▲", "◆", "✚", "✖", "★")
MARKS_PER_LINE = 6


def marker_for(line_index: int) -> str:
    return MARKERS[line_index % len(MARKERS)]


def marked_points(
    x: Sequence[float], y: Sequence[float], line_index: int, line_count: int
) -> tuple[list[float], list[float]]:
    """A few points of a line to draw its marker on: spread along it, offset by line."""
    drawn = [i for i, value in enumerate(y[: len(x)]) if math.isfinite(value)]
    if not drawn:
        return [], []
    marks = min(MARKS_PER_LINE, len(drawn))
    offset = (line_index % max(1, line_count) + 0.5) / max(1, line_count)
    chosen = sorted(
        {
            drawn[min(len(drawn) - 1, math.floor((j + offset) * len(drawn) / marks))]
            for j in range(marks)
        }
    )
    return [x[i] for i in chosen], [y[i] for i in chosen]


__all__ = ["MARKERS", "marked_points", "marker_for"]
