"""Huge, endless and out-of-range numbers in a bank: one located error, never an overflow."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from quizapp.bank import load_file
from quizapp.bank.fields import MAX_TAGS

HUGE = "1" + "0" * 400  # 401 characters: refused by its length, before int()
LARGE = "2e100"  # read, then refused by its magnitude
DECK = "deck: {{id: d, title: T, topic: t, domain: D, exam_weight: {weight}}}\nquestions:\n"
NUMERIC = """\
  - id: q
    type: numeric
    prompt: P
    explanation: E
    difficulty: easy
    tags: [t]
    answer: {{value: {value}, tolerance: {tolerance}}}
    traps: [{{value: {trap}, why: W}}]
"""
COMPUTED = """\
  - id: c
    type: flashcard
    prompt: P
    explanation: E
    difficulty: easy
    tags: [t]
    back: B
    compute: {{name: head_parallelism, args: {{d_model: {argument}}}}}
"""


def bank_text(
    weight: str = "1", value: str = "3", tolerance: str = "0", trap: str = "4", argument: str = "8"
) -> str:
    return (
        DECK.format(weight=weight)
        + NUMERIC.format(value=value, tolerance=tolerance, trap=trap)
        + COMPUTED.format(argument=argument)
    )


def located_errors(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "deck.yaml"
    path.write_text(text)
    _, diagnostics = load_file(path)
    return [d.format() for d in diagnostics if d.severity == "error"]


@pytest.mark.parametrize(
    ("field", "line", "number"),
    [
        ("weight", 1, HUGE),
        ("value", 9, HUGE),
        ("tolerance", 9, HUGE),
        ("trap", 10, HUGE),
        ("argument", 18, HUGE),
        ("value", 9, LARGE),
        ("value", 9, "-" + LARGE),
        ("argument", 18, LARGE),
        ("value", 9, "1e400"),
    ],
    ids=lambda v: v if isinstance(v, str) and len(v) < 10 else str(v)[:3] + "...",
)
def test_a_huge_number_anywhere_is_one_error_at_its_line(
    tmp_path: Path, field: str, line: int, number: str
) -> None:
    errors = located_errors(tmp_path, bank_text(**{field: number}))
    assert len(errors) == 1, errors
    assert f"deck.yaml:{line}:" in errors[0]
    assert "1e100" in errors[0]  # the allowed range is named


def test_the_same_bank_with_ordinary_numbers_loads(tmp_path: Path) -> None:
    path = tmp_path / "deck.yaml"
    path.write_text(bank_text(value="1" + "0" * 50, trap="-2.5e99"))
    deck, diagnostics = load_file(path)
    assert deck is not None, [d.format() for d in diagnostics]


@pytest.mark.parametrize(
    ("weight", "fragment"), [("0", "greater than 0"), ("1001", "at most 1000")]
)
def test_exam_weight_has_a_range(tmp_path: Path, weight: str, fragment: str) -> None:
    errors = located_errors(tmp_path, bank_text(weight=weight))
    assert len(errors) == 1 and "deck.yaml:1:" in errors[0] and fragment in errors[0], errors


def test_a_negative_tolerance_is_refused_with_its_range(tmp_path: Path) -> None:
    errors = located_errors(tmp_path, bank_text(tolerance="-1"))
    assert len(errors) == 1 and "deck.yaml:9:" in errors[0] and "from 0 to" in errors[0], errors


@pytest.mark.parametrize("count", [MAX_TAGS + 1, 60_000])
def test_too_many_tags_are_refused_quickly_at_their_line(tmp_path: Path, count: int) -> None:
    tags = ", ".join(f"t{n}" for n in range(count))
    text = DECK.format(weight="1") + NUMERIC.format(value=3, tolerance=0, trap=4)
    text = text.replace("tags: [t]", f"tags: [{tags}]")
    # CPU time, not wall time: on a shared machine the wall clock measures the neighbours.
    started = time.process_time()
    errors = located_errors(tmp_path, text)
    assert time.process_time() - started < 1.0
    where = f"{tmp_path / 'deck.yaml'}:8:11"
    assert errors == [
        f"{where}: error: {count} tags; a question has at most {MAX_TAGS} [bad-value]"
    ]


def test_the_most_tags_allowed_load(tmp_path: Path) -> None:
    tags = ", ".join(f"t{n}" for n in range(MAX_TAGS))
    text = DECK.format(weight="1") + NUMERIC.format(value=3, tolerance=0, trap=4)
    path = tmp_path / "deck.yaml"
    path.write_text(text.replace("tags: [t]", f"tags: [{tags}]"))
    deck, diagnostics = load_file(path)
    assert deck is not None and len(deck.questions[0].tags) == MAX_TAGS, diagnostics


def test_a_text_over_the_limit_is_one_error_at_its_line(tmp_path: Path) -> None:
    from quizapp.bank.fields import MAX_TEXT_LENGTH

    text = bank_text().replace("prompt: P", "prompt: " + "p" * (MAX_TEXT_LENGTH + 1), 1)
    errors = located_errors(tmp_path, text)
    assert len(errors) == 1 and "deck.yaml:5:" in errors[0], errors
    assert f"a text is at most {MAX_TEXT_LENGTH:,}" in errors[0]
    at_the_limit = bank_text().replace("prompt: P", "prompt: " + "p" * MAX_TEXT_LENGTH, 1)
    assert located_errors(tmp_path, at_the_limit) == []


def test_a_deck_over_the_size_limit_is_one_error(tmp_path: Path) -> None:
    from quizapp.bank.fields import MAX_DECK_QUESTIONS

    question = "  - {{id: q{n}, type: flashcard, prompt: P, explanation: E, difficulty: easy, tags: [t], back: B}}\n"
    text = DECK.format(weight="1") + "".join(
        question.format(n=n) for n in range(MAX_DECK_QUESTIONS + 1)
    )
    errors = located_errors(tmp_path, text)
    assert len(errors) == 1 and "deck.yaml:3:" in errors[0], errors
    assert f"a deck has at most {MAX_DECK_QUESTIONS:,}" in errors[0]
