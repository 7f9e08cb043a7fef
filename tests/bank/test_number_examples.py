"""The example numbers a hint shows keep clear of every key and trap (quizapp/bank/number_examples.py)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from quizapp.bank import NumericQuestion, load_file
from quizapp.bank.answers import NumberFormatError, parse_number
from quizapp.bank.number_examples import (
    NEAR,
    POWER_CANDIDATES,
    WHOLE_CANDIDATES,
    AvoidedNumbers,
    NumberExamples,
    key_margin,
    rounded_text,
)

HEADER = "deck: {id: n, title: N, topic: n, domain: D, exam_weight: 1}\nquestions:\n"


def numeric(tmp_path: Path, answer: str, traps: str = "[]", compute: str = "") -> NumericQuestion:
    path = tmp_path / "n.yaml"
    path.write_text(
        HEADER
        + f"""\
  - id: n-one
    type: numeric
    difficulty: easy
    tags: [n]
    prompt: How many?
    explanation: This many.{compute}
    answer: {answer}
    traps: {traps}
"""
    )
    deck, diagnostics = load_file(path)
    assert deck is not None, diagnostics
    [question] = deck.questions
    assert isinstance(question, NumericQuestion)
    return question


def test_every_written_form_of_an_example_reads_back_as_its_number() -> None:
    examples = NumberExamples(1234567, (3, 7))
    assert examples.formats() == "1234567, 1,234,567, 1 234 567 or 3^7"
    for written in examples.formats().replace(" or ", ", ").split(", "):
        assert parse_number(written) in (1234567, 3**7)
    assert examples.rounded == "1.23e6" and parse_number(examples.rounded) == 1.23e6
    assert NumberExamples(2345678).formats() == "2345678, 2,345,678 or 2 345 678"


def test_rounded_text_is_three_significant_figures_as_a_student_types_them() -> None:
    assert rounded_text(1234567) == "1.23e6"
    assert rounded_text(9876543) == "9.88e6"
    assert rounded_text(1234567 * 1000) == "1.23e9"


def test_with_nothing_to_avoid_the_first_candidates_are_shown() -> None:
    assert AvoidedNumbers().examples() == NumberExamples(WHOLE_CANDIDATES[0], POWER_CANDIDATES[0])


def test_a_literal_key_and_a_trap_move_the_examples_on(tmp_path: Path) -> None:
    question = numeric(tmp_path, "1234567", traps="[{value: 2187, why: w}]")
    avoided = AvoidedNumbers()
    avoided.avoid_question(question)
    examples = avoided.examples()
    assert examples is not None
    assert examples.whole == WHOLE_CANDIDATES[1]
    assert examples.power == POWER_CANDIDATES[1]


def test_a_key_the_rounded_example_would_show_is_avoided_too(tmp_path: Path) -> None:
    # 1.23e6 is within 1% of 1,230,000: "a rounded answer (1.23e6 ...)" would show the key.
    avoided = AvoidedNumbers()
    avoided.avoid_question(numeric(tmp_path, "1230000"))
    examples = avoided.examples()
    assert examples is not None and not math.isclose(float(examples.rounded), 1230000, rel_tol=NEAR)
    assert examples.whole != 1234567


def test_a_wide_tolerance_keeps_examples_farther_away(tmp_path: Path) -> None:
    question = numeric(tmp_path, "{value: 2000000, relative_tolerance: 0.5}")
    assert key_margin(question, 2000000) == 1000000
    avoided = AvoidedNumbers()
    avoided.avoid_question(question)
    examples = avoided.examples()
    assert examples is not None
    assert not 1000000 <= examples.whole <= 3000000
    assert examples.whole == 3456789


def test_a_computed_key_is_avoided_once_known(tmp_path: Path) -> None:
    compute = "\n    compute: {name: mha_params}"
    question = numeric(tmp_path, "{from: params_multi_head, tolerance: 0}", compute=compute)
    avoided = AvoidedNumbers()
    avoided.avoid_question(question)  # nothing known yet: the first candidate is free
    assert avoided.examples() == NumberExamples(WHOLE_CANDIDATES[0], POWER_CANDIDATES[0])
    avoided.avoid_key(question, 1234567.0)
    examples = avoided.examples()
    assert examples is not None and examples.whole == WHOLE_CANDIDATES[1]


def test_when_every_candidate_is_taken_larger_ones_are_tried() -> None:
    avoided = AvoidedNumbers()
    for candidate in WHOLE_CANDIDATES:
        avoided.avoid(candidate, 1)
    examples = avoided.examples()
    assert examples is not None and examples.whole == WHOLE_CANDIDATES[0] * 1000


def test_a_key_whose_tolerance_takes_in_every_number_leaves_no_example(tmp_path: Path) -> None:
    avoided = AvoidedNumbers()
    avoided.avoid_question(numeric(tmp_path, "{value: 5, tolerance: 1e100}"))
    assert avoided.examples() is None


@pytest.mark.parametrize(
    ("typed", "grouping", "explained"),
    [
        ("12,34", ",", "'12,34': commas only separate thousands (1,234,567)"),
        ("1 2 8", " ", "'1 2 8': a space only separates groups of three digits (1 234 567)"),
        ("abc", None, "'abc' is not a number"),
    ],
)
def test_a_grouping_error_shows_the_example_it_is_given_and_no_number_of_its_own(
    typed: str, grouping: str | None, explained: str
) -> None:
    with pytest.raises(NumberFormatError) as raised:
        parse_number(typed)
    assert raised.value.grouping == grouping
    assert raised.value.explained(1234567) == explained
    # Without an example (the caller knows none that is no key) no number is added.
    assert raised.value.explained(None) == str(raised.value) == explained.split(" (")[0]
