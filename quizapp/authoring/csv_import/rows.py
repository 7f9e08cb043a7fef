"""One spreadsheet row as one bank question mapping (checked afterwards by the loader)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from quizapp.authoring.csv_import.cells import (
    aligned_items,
    option_numbers,
    parse_compute,
    parse_vary,
    scalar,
    split_items,
)
from quizapp.authoring.csv_import.numbers import spreadsheet_number
from quizapp.authoring.csv_import.problems import RowError
from quizapp.authoring.csv_import.render import Flow, FlowMap
from quizapp.authoring.expect_cell import parse_expect_cell
from quizapp.bank.model import QuestionType

_NUMERIC_ONLY = ("answer_from", "tolerance", "relative_tolerance", "unit", "traps", "trap_whys")


def row_mapping(
    cells: Mapping[str, str], deck_topic: str | None = None, delimiter: str = ","
) -> dict[str, Any]:
    """One CSV row as a bank question mapping (not yet validated). Raises RowError.

    Number cells are read as spreadsheets write them (`quizapp.authoring.csv_import.numbers`);
    the file's `delimiter` tells whether `1,500` has a thousands comma.
    """

    def text(column: str, strip: bool = False) -> str | None:
        value = cells.get(column, "")
        if not value.strip():
            return None
        return value.strip() if strip else value

    qtype = (text("type", strip=True) or "").lower() or None
    q: dict[str, Any] = {}
    for key in ("id", "type", "difficulty"):
        if (value := text(key, strip=True)) is not None:
            q[key] = value.lower() if key != "id" else value
    if (tags := text("tags")) is not None:
        q["tags"] = Flow(t for t in re.split(r"[;,\s]+", tags) if t)
    topic = text("topic", strip=True)
    if topic is not None and topic != deck_topic:
        q["topic"] = topic
    if (source := text("source", strip=True)) is not None:
        q["source"] = source
    if (pairs := text("pairs_with", strip=True)) is not None:
        q["pairs_with"] = Flow(i for i in re.split(r"[;,\s]+", pairs) if i)
    if (prompt := text("prompt")) is not None:
        q["prompt"] = prompt
    if (vary := text("vary")) is not None:
        q["vary"] = parse_vary(vary)

    if qtype not in (QuestionType.NUMERIC.value, None):
        given = [c for c in _NUMERIC_ONLY if text(c) is not None]
        if given:
            raise RowError(
                f"{', '.join(given)} appl{'y' if len(given) > 1 else 'ies'} to numeric questions only"
            )
    if text("shuffle") is not None:
        q["shuffle"] = scalar(cells["shuffle"])

    choices = split_items(cells["choices"]) if text("choices") is not None else None
    steps = split_items(cells["steps"]) if text("steps") is not None else None
    if text("correct") is not None and choices is None:
        raise RowError("correct is given but choices is empty")
    if choices is not None:
        correct = option_numbers(cells.get("correct", ""), len(choices))
        whys = (
            None
            if qtype == QuestionType.ORDERING.value
            else aligned_items(cells, "whys", "choices", len(choices))
        )
        options = []
        for n, option in enumerate(choices, start=1):
            if not option:
                raise RowError(f"choices: option {n} is empty")
            choice: dict[str, Any] = {"text": option}
            if n in correct:
                choice["correct"] = True
            if whys and whys[n - 1]:
                choice["why"] = whys[n - 1]
            options.append(choice)
        q["choices"] = options

    if qtype == QuestionType.NUMERIC.value:
        answer: dict[str, Any] = {}
        if (value := text("answer")) is not None:
            answer["value"] = spreadsheet_number("answer", value, delimiter)
        if (from_value := text("answer_from", strip=True)) is not None:
            answer["from"] = from_value
        for key in ("tolerance", "relative_tolerance"):
            if (value := text(key)) is not None:
                answer[key] = spreadsheet_number(key, value, delimiter)
        if (unit := text("unit", strip=True)) is not None:
            answer["unit"] = unit
        if answer:
            q["answer"] = answer
        if text("traps") is not None:
            values = split_items(cells["traps"])
            trap_whys = aligned_items(cells, "trap_whys", "traps", len(values))
            traps = []
            for n, value in enumerate(values, start=1):
                if not value:
                    raise RowError(f"traps: trap {n} is empty")
                trap: dict[str, Any] = {"value": spreadsheet_number("traps", value, delimiter)}
                if trap_whys and trap_whys[n - 1]:
                    trap["why"] = trap_whys[n - 1]
                traps.append(trap)
            q["traps"] = traps
        elif text("trap_whys") is not None:
            raise RowError("trap_whys is given but traps is empty")
    elif (value := text("answer")) is not None:
        q["answer"] = scalar(value)

    for key in ("why_true", "why_false"):
        if (value := text(key)) is not None:
            q[key] = value

    if steps is not None:
        whys = aligned_items(cells, "whys", "steps", len(steps)) if qtype == "ordering" else None
        items: list[Any] = []
        for n, step in enumerate(steps, start=1):
            if not step:
                raise RowError(f"steps: step {n} is empty")
            items.append({"text": step, "why": whys[n - 1]} if whys and whys[n - 1] else step)
        q["steps"] = items
    if text("whys") is not None:
        wants = "steps" if qtype == QuestionType.ORDERING.value else "choices"
        if (steps if wants == "steps" else choices) is None:
            raise RowError(f"whys is given but {wants} is empty")

    if (back := text("back")) is not None:
        q["back"] = back
    if (explanation := text("explanation")) is not None:
        q["explanation"] = explanation
    if (compute := text("compute")) is not None:
        spec = parse_compute(compute)
        if "args" in spec:
            spec["args"] = FlowMap(spec["args"])
        q["compute"] = spec
    if (expect := text("expect")) is not None:
        if "compute" not in q:
            raise RowError("expect is given but compute is empty")
        q["compute"]["expect"] = parse_expect_cell(expect)
    return q


__all__ = ["row_mapping"]
