"""Shared by the authoring tests: run a command in-process, compare questions field by field,
read an Anki package."""

from __future__ import annotations

import dataclasses
import sqlite3
import zipfile
from pathlib import Path

import pytest

from quizapp.bank import Question
from quizapp.cli import main


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run a quizapp command in-process: (exit code, stdout, stderr)."""
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return int(code or 0), out, err


def without_deck_notes(stderr: str) -> list[str]:
    """An import's report but the lines naming the deck settings a CSV without deck columns
    leaves at their defaults (tests/authoring/test_csv_deck_settings.py tests those)."""
    return [line for line in stderr.splitlines() if not line.startswith("quizapp import: deck ")]


def comparable(question: Question) -> dict[str, object]:
    """Every field of the question, except where in which file it was read."""
    fields = dataclasses.asdict(question)
    fields.pop("location")
    fields.pop("field_locations", None)
    # Keys tied to the computation (`holds:`, `value:`) are authoring only: the YAML writer
    # writes them (export.question_mapping); CSV, JSON, GIFT, Moodle and Anki do not carry them yet.
    fields.pop("holds", None)
    fields.pop("order_by_value", None)
    for choice in fields.get("choices", ()):
        choice.pop("location")
        choice.pop("holds", None)
    for step in fields.get("steps", ()):
        step.pop("value", None)
    if fields.get("compute"):
        fields["compute"] = {
            "name": question.compute.name,
            "args": dict(question.compute.args),
            "expect": [(c.text, c.says) for c in question.compute.expect],
        }
    return {"class": type(question).__name__, **fields}


def comparable_any_option_order(question: Question) -> dict[str, object]:
    """`comparable`, with the options as a set: what a shuffled export keeps (the steps'
    order is the key, so it still counts)."""
    fields = comparable(question)
    if "choices" in fields:
        fields["choices"] = sorted(fields["choices"], key=repr)
    return fields


def query_apkg(path: Path, scratch: Path, *queries: str) -> list[list[tuple]]:
    """The rows each SQL query finds in an .apkg's collection (a valid zip holding one)."""
    with zipfile.ZipFile(path) as archive:
        assert archive.testzip() is None
        db = scratch / "query.anki2"
        db.write_bytes(archive.read("collection.anki2"))
    conn = sqlite3.connect(db)
    try:
        return [conn.execute(query).fetchall() for query in queries]
    finally:
        conn.close()
        db.unlink()
