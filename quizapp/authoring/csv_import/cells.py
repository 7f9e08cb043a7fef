"""Reading one spreadsheet cell: `|`-separated items, option numbers, `compute` and `vary`.

In a |-separated cell, `\\|` is a literal pipe and `\\\\` a backslash. `compute` is a
computation's name, then key=value arguments (values are YAML 1.2 scalars; quote one that has
spaces). `vary` is `name: [values], ...`, a YAML flow mapping with or without its braces.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import yaml

from quizapp.authoring.cells import split_escaped
from quizapp.authoring.csv_cells import unguard_cell
from quizapp.authoring.csv_import.problems import RowError
from quizapp.authoring.csv_import.render import Flow, FlowMap
from quizapp.bank.text_checks import normal_text
from quizapp.bank.yaml12 import (
    MappingNode,
    ScalarNode,
    SequenceNode,
    compose,
    parse_scalar,
    scalar_value,
)


def cell_text(cell: str) -> str:
    """A cell as text: its formula guard off (`quizapp.authoring.csv_cells`), its line breaks
    `\n`, in NFC as every text of a bank is."""
    return normal_text(unguard_cell(cell).replace("\r\n", "\n").replace("\r", "\n"))


def split_items(cell: str) -> list[str]:
    """A |-separated cell's items, trimmed. `\\|` is a literal pipe, `\\\\` a backslash."""
    return [_trim(item) for item in split_escaped(cell, "|")]


def _trim(item: str) -> str:
    """Surrounding whitespace goes, but multi-line text keeps its final newline, as a YAML
    `|` block has it (so an exported why written as a block imports back unchanged)."""
    trimmed = item.strip()
    if "\n" in trimmed and item.rstrip(" \t").endswith("\n"):
        return trimmed + "\n"
    return trimmed


def scalar(text: str) -> Any:
    """A cell read as a YAML 1.2 plain scalar (`1e-5` is a number, `no` a string)."""
    try:
        return parse_scalar(text.strip())
    except ValueError:
        return text.strip()


def compute_tokens(cell: str) -> list[str]:
    """Whitespace-separated tokens; quotes (kept in the token) protect spaces."""
    tokens: list[str] = []
    buf: list[str] = []
    quote: str | None = None
    i = 0
    while i < len(cell):
        char = cell[i]
        if quote:
            buf.append(char)
            if char == "\\" and quote == '"' and i + 1 < len(cell):
                buf.append(cell[i + 1])
                i += 1
            elif char == quote:
                quote = None
        elif char in "\"'":
            quote = char
            buf.append(char)
        elif char.isspace():
            if buf:
                tokens.append("".join(buf))
                buf = []
        else:
            buf.append(char)
        i += 1
    if quote:
        raise RowError(f"compute: a {quote} quote is not closed")
    if buf:
        tokens.append("".join(buf))
    return tokens


def parse_compute(cell: str) -> dict[str, Any]:
    """`name key=value ...` as a compute mapping. Values are YAML 1.2 scalars."""
    tokens = compute_tokens(cell)
    name, assignments = tokens[0], tokens[1:]
    if "=" in name:
        raise RowError("compute: start with the computation's name, then key=value arguments")
    args: dict[str, Any] = {}
    for token in assignments:
        key, sep, raw = token.partition("=")
        if not sep or not key:
            raise RowError(f"compute: arguments are written key=value, not {token!r}")
        if key in args:
            raise RowError(f"compute: argument '{key}' is given twice")
        if not raw:
            raise RowError(f"compute: argument '{key}' has no value")
        try:
            node = compose(raw)
        except (yaml.YAMLError, ValueError) as exc:
            raise RowError(
                f"compute: cannot read the value of '{key}': {' '.join(str(exc).split())}"
            ) from None
        if not isinstance(node, ScalarNode):
            raise RowError(f"compute: the value of '{key}' must be a single value (quote it)")
        try:
            args[key] = scalar_value(node)
        except ValueError as exc:
            raise RowError(f"compute: argument '{key}': {exc}") from None
    return {"name": name, "args": args} if args else {"name": name}


def parse_vary(cell: str) -> dict[str, Any]:
    """`name: [v1, v2], other: [v3]` (braces optional) as a vary mapping of flow lists."""
    source = cell.strip()
    if not source.startswith("{"):
        source = "{" + source + "}"
    try:
        node = compose(source)
    except (yaml.YAMLError, ValueError) as exc:
        raise RowError(
            f"vary: not readable as 'name: [values], ...': {' '.join(str(exc).split())}"
        ) from None
    if not isinstance(node, MappingNode):
        raise RowError("vary: write it as 'name: [values], ...'")
    vary = FlowMap()
    for key_node, value_node in node.value:
        if not isinstance(key_node, ScalarNode):
            raise RowError("vary: the names must be plain words")
        if not isinstance(value_node, SequenceNode) or not all(
            isinstance(item, ScalarNode) for item in value_node.value
        ):
            raise RowError(f"vary: list the values of '{key_node.value}' in [ ], comma-separated")
        if key_node.value in vary:
            raise RowError(f"vary: '{key_node.value}' is given twice")
        try:
            vary[key_node.value] = Flow(scalar_value(item) for item in value_node.value)
        except ValueError as exc:
            raise RowError(f"vary: {exc}") from None
    return vary


def option_numbers(cell: str, count: int) -> set[int]:
    numbers: set[int] = set()
    for item in re.split(r"[;,\s]+", cell.strip()):
        if not item:
            continue
        if re.fullmatch(r"[A-Ia-i]", item):
            number = ord(item.upper()) - ord("A") + 1
        elif re.fullmatch(r"[0-9]{1,2}", item):  # not isdigit(): '²' and 5,000 digits pass it
            number = int(item)
        else:
            shown = item if len(item) <= 40 else item[:39] + "…"
            raise RowError(f"correct: '{shown}' is not an option number (1 to {count})")
        if not 1 <= number <= count:
            raise RowError(f"correct: {item} is not an option number (1 to {count})")
        numbers.add(number)
    return numbers


def aligned_items(cells: Mapping[str, str], column: str, to: str, count: int) -> list[str] | None:
    if not cells.get(column, "").strip():
        return None
    items = split_items(cells[column])
    if len(items) != count:
        raise RowError(
            f"{column} has {len(items)} item{'s' if len(items) != 1 else ''} "
            f"but {to} has {count} (separate them with |)"
        )
    return items


__all__ = [
    "aligned_items",
    "cell_text",
    "option_numbers",
    "parse_compute",
    "parse_vary",
    "scalar",
    "split_items",
]
