"""`quizapp compute`: run one live computation from the shell and show what it found."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence

from quizapp.bank.literal import error_line, terminal_safe
from quizapp.experiments.registry import COMPUTATIONS
from quizapp.experiments.result import Result
from quizapp.experiments.spec import ArgumentError

MAX_SERIES_ROWS = 24


def parse_assignments(items: Sequence[str]) -> dict[str, object]:
    """`key=value` pairs, each value read as a YAML 1.2 scalar (so `1e-5` is a number)."""
    from quizapp.bank.yaml12 import parse_scalar

    parsed: dict[str, object] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ArgumentError(f"arguments are written key=value, not {item!r}", item)
        if key in parsed:
            raise ArgumentError(f"argument {key!r} is given twice", key)
        if not raw.strip():
            # Blank would read as null, i.e. the default: say so rather than quietly ignore it.
            raise ArgumentError(
                f"{key}= has no value (leave the argument out for its default)", key
            )
        try:
            parsed[key] = parse_scalar(raw.strip())
        except ValueError as exc:
            raise ArgumentError(f"{key}: {exc}", key) from None
    return parsed


def list_computations() -> str:
    lines = []
    for spec in COMPUTATIONS:
        lines.append(f"{spec.name:<26} {spec.description}")
        if spec.args:
            lines.append(f"{'':<26}   args: {', '.join(a.describe() for a in spec.args)}")
        lines.append(f"{'':<26}   values: {', '.join(spec.values)}")
    return "\n".join(lines)


def run_command(name: str, assignments: Sequence[str], device: str, as_json: bool) -> int:
    from quizapp.experiments.runner import run
    from quizapp.experiments.spec import DEVICES

    if device not in DEVICES:
        raise ArgumentError(
            f"--device must be one of {', '.join(DEVICES)}, not {device!r}", "device"
        )
    args = parse_assignments(assignments)
    result = run(name, args, device=device)
    if as_json:
        print(json.dumps(result.as_json(), indent=2, default=str))
    else:
        _render(result)
    return 0


def _fmt(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        if value == 0 or 1e-3 <= abs(value) < 1e6:
            return f"{value:,.4f}".rstrip("0").rstrip(".")
        return f"{value:.3e}"
    return str(value)


def _render(result: Result) -> None:
    from rich.console import Console
    from rich.markdown import Markdown
    from rich.table import Table
    from rich.text import Text

    def literal(value: object) -> Text:
        # Arguments and cells can be the caller's text: never Rich markup, never a control code.
        return Text(terminal_safe(_fmt(value)))

    console = Console()
    args = ", ".join(f"{k}={v}" for k, v in result.args.items() if v is not None)
    values = Table(title=literal(f"{result.name}({args}) on {result.device}"), title_justify="left")
    values.add_column("value")
    values.add_column("result", justify="right")
    for key, value in result.values.items():
        values.add_row(literal(key), literal(value))
    console.print(values)
    for table in [t for t in (result.table, *result.extra_tables) if t is not None]:
        rich_table = Table(
            title=literal(table.title) if table.title else None, title_justify="left"
        )
        for column in table.columns:
            rich_table.add_column(literal(column))
        for row in table.rows:
            rich_table.add_row(*(literal(cell) for cell in row))
        console.print(rich_table)
    if result.series is not None:
        series = result.series
        step = max(1, len(series.x) // MAX_SERIES_ROWS)
        rich_table = Table(
            title=literal(f"series: {series.y_label or 'y'} by {series.x_label}"),
            title_justify="left",
        )
        rich_table.add_column(literal(series.x_label))
        for line in series.lines:
            rich_table.add_column(literal(line), justify="right")
        for i in range(0, len(series.x), step):
            rich_table.add_row(
                literal(series.x[i]), *(literal(ys[i]) for ys in series.lines.values())
            )
        console.print(rich_table)
    # The summary is Markdown the computation wrote (it escapes any words it quotes).
    console.print(Markdown(terminal_safe(result.summary, multiline=True)))


def main_error(message: str) -> int:
    print(error_line("quizapp compute", message), file=sys.stderr)
    return 2
