"""`quizapp compute`: run one live computation from the shell and show what it found."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence

from quizapp.bank.claim_checks import Outcome, check_all, unknown_name_message, unknown_names
from quizapp.bank.claims import ClaimError, parse_claim, quoted
from quizapp.bank.literal import error_line, terminal_safe
from quizapp.experiments.registry import COMPUTATIONS, get_spec
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


def describe_command(name: str, extra: Sequence[str]) -> int:
    """`quizapp compute --list NAME`. Raises ArgumentError for an unknown name."""
    from quizapp.authoring.computation_docs import describe

    if extra:
        raise ArgumentError(f"--list takes one computation name, not also {extra[0]!r}", "list")
    print(describe(get_spec(name)))
    return 0


def search_command(words: str) -> int:
    """`quizapp compute --search WORDS`. Raises ArgumentError on bad input or no match."""
    from quizapp.authoring.computation_docs import search_text
    from quizapp.experiments.discover import search

    print(search_text(words, search(words, COMPUTATIONS)))
    return 0


def list_computations() -> str:
    lines = []
    for spec in COMPUTATIONS:
        lines.append(f"{spec.name:<26} {spec.description}")
        if spec.args:
            lines.append(f"{'':<26}   args: {', '.join(a.describe() for a in spec.args)}")
        lines.append(f"{'':<26}   values: {', '.join(spec.values)}")
    return "\n".join(lines)


def run_command(
    name: str,
    assignments: Sequence[str],
    device: str,
    as_json: bool,
    expect: Sequence[str] = (),
) -> int:
    """Run and show one computation; with `expect`, check each claim: exit 1 if one fails."""
    from quizapp.experiments.runner import run
    from quizapp.experiments.spec import DEVICES

    if device not in DEVICES:
        raise ArgumentError(
            f"--device must be one of {', '.join(DEVICES)}, not {device!r}", "device"
        )
    args = parse_assignments(assignments)
    check_claims_before_running(name, expect)  # a typo costs no run
    result = run(name, args, device=device)
    outcomes = check_all(((text, None) for text in expect), result.values)
    if as_json:
        payload = result.as_json()
        if expect:
            payload["claims"] = [
                {"claim": o.text, "holds": o.holds, "values": o.values, "error": o.error}
                for o in outcomes
            ]
        print(json.dumps(payload, indent=2, default=str))
    else:
        _render(result)
        for line in claim_lines(outcomes):
            print(terminal_safe(line))
    return 0 if all(o.holds for o in outcomes) else 1


def check_claims_before_running(name: str, claims: Sequence[str]) -> None:
    """Each claim must parse and name only the computation's values. Raises ArgumentError."""
    spec = get_spec(name)
    for text in claims:
        try:
            parsed = parse_claim(text)
        except ClaimError as exc:
            raise ArgumentError(f"--expect {quoted(text)}: {exc}", "expect") from None
        unknown = unknown_names(parsed, spec.values)
        if parsed.placeholders:  # a question's vary: binds them; here nothing does
            shown = ", ".join("{" + p + "}" for p in parsed.placeholders)
            raise ArgumentError(
                f"--expect {quoted(text)}: {shown} is a placeholder of a question's vary:; "
                "write the number here",
                "expect",
            )
        if parsed.second_runs:
            raise ArgumentError(
                f"--expect {quoted(text)}: at(...) compares a second run, which quizapp lint "
                "checks in a bank question; here, run the computation again with those arguments",
                "expect",
            )
        if unknown:
            message = unknown_name_message(unknown[0], name, spec.values)
            raise ArgumentError(f"--expect {quoted(text)} names {message}", "expect")


def claim_lines(outcomes: Sequence[Outcome]) -> list[str]:
    """One line per claim: ✓ or ✗, the claim, and the values it read (or why it could not)."""
    held, failed = _marks()
    lines = []
    for outcome in outcomes:
        mark = held if outcome.holds else failed
        detail = outcome.values
        if outcome.error is not None:
            detail = f"cannot be checked: {outcome.error}" + (f"; {detail}" if detail else "")
        lines.append(f"{mark} {outcome.text}" + (f"  ({detail})" if detail else ""))
    return lines


def _marks() -> tuple[str, str]:
    """✓ and ✗, or words where the terminal's encoding has no such characters."""
    encoding = getattr(sys.stdout, "encoding", None) or "ascii"
    try:
        "✓✗".encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return "PASS", "FAIL"
    return "✓", "✗"


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
            title=literal(table.title) if table.title else None,
            title_justify="left",
            show_edge=False,  # two more columns for the numbers at 80
            collapse_padding=True,
        )
        for index, column in enumerate(table.columns):
            cells = [row[index] for row in table.rows if index < len(row)]
            rich_table.add_column(literal(column), **_column_fit(cells))
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
        rich_table.add_column(literal(series.x_label), **_column_fit(series.x))
        for line, ys in series.lines.items():
            rich_table.add_column(literal(line), **_column_fit(ys))
        for i in range(0, len(series.x), step):
            rich_table.add_row(
                literal(series.x[i]), *(literal(ys[i]) for ys in series.lines.values())
            )
        console.print(rich_table)
    # The summary is Markdown the computation wrote (it escapes any words it quotes).
    console.print(Markdown(terminal_safe(result.summary, multiline=True)))


def _column_fit(cells: object) -> dict[str, object]:
    """A column of numbers keeps every digit at any width (its header wraps instead; cut, a
    67,108,864 read '67,108,8…'); a column of words wraps rather than ending in '…'."""
    values = list(cells)  # type: ignore[call-overload]
    numbers = [v for v in values if isinstance(v, int | float) and not isinstance(v, bool)]
    if values and len(numbers) == len(values):
        widest = max(len(_fmt(v)) for v in numbers)
        return {"justify": "right", "overflow": "fold", "min_width": widest}
    return {"overflow": "fold"}


def main_error(message: str) -> int:
    print(error_line("quizapp compute", message), file=sys.stderr)
    return 2
