"""Numbers written as people write them: what each form is, and the loader's hint for it."""

from __future__ import annotations

from pathlib import Path

import pytest

from quizapp.bank import load_file
from quizapp.bank.number_text import number_hint, read_number_text, unambiguous_decimal


@pytest.mark.parametrize(
    ("text", "kind", "plain", "decimal"),
    [
        ("1,048,576", "grouped", "1048576", None),
        ("-1,048,576", "grouped", "-1048576", None),
        ("1 048 576", "grouped", "1048576", None),
        ("1\u00a0048\u00a0576", "grouped", "1048576", None),
        ("1\u202f048\u202f576", "grouped", "1048576", None),
        ("1.048.576", "grouped", "1048576", None),
        ("1,500.25", "grouped", "1500.25", None),
        ("0,5", "decimal_comma", "0.5", None),
        (",5", "decimal_comma", "0.5", None),
        ("1.048,5", "decimal_comma", "1048.5", None),
        ("1 048,5", "decimal_comma", "1048.5", None),
        ("3,14e2", "decimal_comma", "3.14e2", None),
        ("0,500", "decimal_comma", "0.500", None),  # a leading 0 groups no thousands
        ("1,500", "ambiguous", "1500", "1.500"),
        ("50%", "percent", "50", None),
        ("50 %", "percent", "50", None),
        ("12,5\u00a0%", "percent", "12.5", None),
    ],
)
def test_number_forms(text: str, kind: str, plain: str, decimal: str | None) -> None:
    read = read_number_text(text)
    assert read is not None
    assert (read.kind, read.plain, read.decimal) == (kind, plain, decimal)


@pytest.mark.parametrize("text", ["0.5", "1048576", "1 2 8", "12,34,567", "five", "", "%", "1,2,3"])
def test_plain_numbers_and_non_numbers_are_no_form(text: str) -> None:
    assert read_number_text(text) is None
    assert number_hint(text) is None


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("0,5", "write 0.5 with a decimal point"),
        ("1,048,576", "write 1048576 without thousands separators"),
        ("1,500", "write 1500 without a thousands separator, or 1.5 with a decimal point"),
        ("2,048", "write 2048 without a thousands separator, or 2.0480 with a decimal point"),
        ("50%", "a percentage: write the fraction 0.5, or 50 with the unit '%'"),
    ],
)
def test_hints_name_the_right_fix(text: str, hint: str) -> None:
    assert number_hint(text) == hint


def test_a_decimal_is_made_unambiguous_only_when_it_needs_to_be() -> None:
    assert unambiguous_decimal("2.048") == "2.0480"
    assert unambiguous_decimal("1.500") == "1.5"
    assert unambiguous_decimal("0.125") == "0.1250"
    assert unambiguous_decimal("1.25") == "1.25"


def test_a_yaml_bank_with_a_decimal_comma_gets_the_decimal_point_hint(tmp_path: Path) -> None:
    bank = tmp_path / "d.yaml"
    bank.write_text(
        "deck: {id: d, title: D, topic: d, domain: D, exam_weight: 1}\n"
        "questions:\n"
        "  - {id: q, type: numeric, prompt: P, explanation: E, difficulty: easy, tags: [t],\n"
        '     answer: {value: "0,5"}}\n',
        encoding="utf-8",
    )
    _, diagnostics = load_file(bank)
    [error] = [d for d in diagnostics if d.severity == "error"]
    assert error.message == "value must be a number, not a string (write 0.5 with a decimal point)"
    assert "05" not in error.message
