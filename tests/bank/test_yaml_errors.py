"""YAML syntax errors name the line to change, in plain words, and cost one file one question.

The corpus (corpus/bad/yaml_*.yaml) holds one file per translated message; these tests hold
the places the corpus cannot: where the split into questions must not be trusted, and bounds.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from quizapp.bank import load_file

HEADER = "deck: {id: d, title: T, topic: t, domain: D, exam_weight: 1}\nquestions:\n"


def question(n: int, indent: str = "  ", back: str = "B") -> str:
    body = (
        f"- id: q{n}\n  type: flashcard\n  prompt: P{n}\n  explanation: E\n"
        f"  difficulty: easy\n  tags: [t]\n  back: {back}\n"
    )
    return "".join(indent + line + "\n" for line in body.splitlines())


def errors_and_ids(tmp_path: Path, text: str, name: str = "deck.yaml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8", newline="")
    deck, diagnostics = load_file(path)
    errors = [(d.line, d.column, d.message) for d in diagnostics if d.severity == "error"]
    return errors, None if deck is None else [q.id for q in deck.questions]


def test_an_over_indented_first_line_is_blamed_not_the_correct_line_after_it(
    tmp_path: Path,
) -> None:
    # libyaml reports line 6 ("did not find expected key"): line 5 set the block's indent.
    text = HEADER + (
        "  - id: q1\n    compute:\n        name: mha_params\n      args: {d_model: 512}\n"
    )
    ((line, column, message),), _ = errors_and_ids(tmp_path, text)
    assert (line, column) == (5, 9)
    assert "indent this one 6 spaces" in message


def test_a_tab_is_called_a_tab(tmp_path: Path) -> None:
    ((line, column, message),), _ = errors_and_ids(tmp_path, HEADER + "  - id: q1\n\ttype: x\n")
    assert (line, column) == (4, 1)
    assert "a tab character at col 1: YAML indents with spaces" in message


def test_the_other_questions_load_when_the_list_sits_at_the_margin(tmp_path: Path) -> None:
    text = HEADER + question(1, "") + question(2, "", back='"open') + question(3, "")
    ((line, _column, message),), ids = errors_and_ids(tmp_path, text)
    assert ids == ["q1", "q3"]
    assert line == 3 + 7 + 6 and "never closed" in message


def test_windows_line_ends_keep_their_lines(tmp_path: Path) -> None:
    text = (HEADER + question(1) + question(2, back="*nothing") + question(3)).replace("\n", "\r\n")
    ((line, column, _message),), ids = errors_and_ids(tmp_path, text)
    assert ids == ["q1", "q3"]
    assert (line, column) == (16, 11)


def test_questions_keep_their_own_lines_after_recovery(tmp_path: Path) -> None:
    text = HEADER + question(1) + question(2, back="'open") + question(3)
    path = tmp_path / "deck.yaml"
    path.write_text(text, encoding="utf-8")
    deck, _ = load_file(path)
    assert deck is not None
    assert [(q.id, q.location.line) for q in deck.questions] == [("q1", 3), ("q3", 17)]
    assert deck.questions[1].prompt == "P3"


def test_every_broken_question_is_reported(tmp_path: Path) -> None:
    text = HEADER + question(1, back="'a") + question(2) + question(3, back="*x")
    errors, ids = errors_and_ids(tmp_path, text)
    assert ids == ["q2"]
    assert [line for line, _, _ in errors] == [9, 23]


def test_no_question_parses_no_deck(tmp_path: Path) -> None:
    errors, ids = errors_and_ids(tmp_path, HEADER + question(1, back="'a"))
    assert ids is None and len(errors) == 1


@pytest.mark.parametrize(
    "text",
    [
        # the error is in the header: there is no deck to keep questions in
        "deck: {id: d, title: T\n" + "questions:\n" + question(1),
        # questions written as a flow list: no items to split at
        HEADER.replace("questions:\n", "questions: [") + "{id: q1, back: 'x}]\n",
    ],
    ids=["header", "flow-list"],
)
def test_an_error_that_cannot_be_isolated_keeps_the_whole_file_out(
    tmp_path: Path, text: str
) -> None:
    errors, ids = errors_and_ids(tmp_path, text)
    assert ids is None and len(errors) == 1


def test_recovering_a_large_file_costs_about_one_more_parse(tmp_path: Path) -> None:
    count = 4000
    good = HEADER + "".join(question(n) for n in range(count))
    broken = good.replace("back: B\n", "back: 'B\n", 1)
    start = time.perf_counter()
    errors_and_ids(tmp_path, good, "good.yaml")
    clean = time.perf_counter() - start
    start = time.perf_counter()
    errors, ids = errors_and_ids(tmp_path, broken, "broken.yaml")
    recovering = time.perf_counter() - start
    assert ids is not None and len(ids) == count - 1 and len(errors) == 1
    # Validation dominates both; recovering adds a second parse, not one per question.
    assert recovering < 3 * clean + 0.5


def test_a_file_broken_throughout_is_one_error_and_stays_cheap(tmp_path: Path) -> None:
    text = HEADER + "".join(question(n, back="'open") for n in range(4000))
    start = time.perf_counter()
    errors, ids = errors_and_ids(tmp_path, text)
    assert time.perf_counter() - start < 5
    assert ids is None and len(errors) == 1
