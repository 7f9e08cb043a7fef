"""What a computation returns: named values, an optional table and plot series, and a summary."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Value = int | float | bool | str


@dataclass(frozen=True)
class Table:
    columns: tuple[str, ...]
    rows: tuple[tuple[Value, ...], ...]
    title: str = ""


@dataclass(frozen=True)
class Series:
    """Named lines over one shared x axis, ready for a plot."""

    x_label: str
    x: tuple[float, ...]
    lines: dict[str, tuple[float, ...]]
    y_label: str = ""
    log_y: bool = False


@dataclass(frozen=True)
class Result:
    name: str
    args: dict[str, Any]
    device: str
    values: dict[str, Value]
    summary: str  # Markdown
    table: Table | None = None
    series: Series | None = None
    extra_tables: tuple[Table, ...] = field(default=())
    # True for a result read back from the on-disk cache (quizapp.experiments.result_cache),
    # not computed by this process: whatever shows it must say so. Not part of as_json().
    cached: bool = False

    def as_json(self) -> dict[str, Any]:
        def table_json(t: Table) -> dict[str, Any]:
            return {"title": t.title, "columns": list(t.columns), "rows": [list(r) for r in t.rows]}

        return {
            "name": self.name,
            "args": self.args,
            "device": self.device,
            "values": self.values,
            "table": table_json(self.table) if self.table else None,
            "series": (
                {
                    "x_label": self.series.x_label,
                    "y_label": self.series.y_label,
                    "log_y": self.series.log_y,
                    "x": list(self.series.x),
                    "lines": {k: list(v) for k, v in self.series.lines.items()},
                }
                if self.series
                else None
            ),
            "extra_tables": [table_json(t) for t in self.extra_tables],
            "summary": self.summary,
        }
