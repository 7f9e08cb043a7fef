"""A numbered line whose text wraps under itself, not under its number (a hanging indent).

    1. ( ) Let the model attend to multiple representation subspaces in
           parallel

A Rich grid of two columns: the prefix never wraps, the text takes the rest of the width.
"""

from __future__ import annotations

from rich.table import Table
from rich.text import Text


def hanging(prefix: Text, body: Text) -> Table:
    grid = Table.grid(expand=True)
    grid.add_column(no_wrap=True)
    grid.add_column(ratio=1)
    grid.add_row(prefix, body)
    return grid


__all__ = ["hanging"]
