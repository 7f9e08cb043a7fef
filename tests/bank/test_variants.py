"""Parameterized questions: placeholders, variants, and lint over every combination."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from quizapp.authoring.lint import lint
from quizapp.bank import NumericQuestion, load_file
from quizapp.bank.session import QuizSession, SessionOptions
from quizapp.bank.variants import assignments, count, fill, instantiate, pick, placeholders

HEADER = "deck: {id: v, title: V, topic: v, domain: D, exam_weight: 1}\nquestions:\n"
VARIED = """\
  - id: v-width
    type: numeric
    difficulty: easy
    tags: [vary]
    prompt: "d_model = {d_model}, {n_heads} heads: width per head? Literal {{braces}}."
    explanation: "{d_model} / {n_heads}"
    vary:
      d_model: [256, 512]
      n_heads: [4, 8, 16]
    compute:
      name: head_split
      args: {d_model: "{d_model}", n_heads: "{n_heads}"}
    answer: {from: head_dim}
"""


def write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "v.yaml"
    path.write_text(HEADER + body)
    return path


def test_fill_substitutes_names_and_unescapes_braces_only() -> None:
    assert (
        fill("{a} and {{a}} and {a.__class__} and { a }", {"a": 3})
        == "3 and {a} and {a.__class__} and { a }"
    )
    assert placeholders("{a} {{b}} {c}") == {"a", "c"}
    assert fill("{n}", {"n": 1048576}) == "1,048,576"


def test_a_varied_question_loads_with_its_values(tmp_path: Path) -> None:
    deck, diagnostics = load_file(write(tmp_path, VARIED))
    assert [d for d in diagnostics if d.severity == "error"] == []
    [question] = deck.questions
    assert question.vary == {"d_model": (256, 512), "n_heads": (4, 8, 16)}
    assert count(question) == 6 and len(list(assignments(question))) == 6


def test_instantiate_writes_the_values_in_and_keeps_argument_types(tmp_path: Path) -> None:
    deck, _ = load_file(write(tmp_path, VARIED))
    variant = instantiate(deck.questions[0], {"d_model": 512, "n_heads": 16})
    assert variant.prompt == "d_model = 512, 16 heads: width per head? Literal {braces}."
    assert variant.compute.args == {"d_model": 512, "n_heads": 16}
    assert variant.id == "v-width" and variant.assignment == {"d_model": 512, "n_heads": 16}


def test_pick_draws_from_the_variants_repeatably() -> None:
    deck, _ = load_file(write(Path(__import__("tempfile").mkdtemp()), VARIED))
    question = deck.questions[0]
    seen = {tuple(pick(question, random.Random(seed)).assignment.items()) for seed in range(40)}
    assert len(seen) > 1
    assert (
        pick(question, random.Random(1)).assignment == pick(question, random.Random(1)).assignment
    )


def test_sessions_show_a_variant_under_the_same_id(tmp_path: Path) -> None:
    deck, _ = load_file(write(tmp_path, VARIED))
    session = QuizSession.start(deck.questions, SessionOptions(seed=3))
    [shown] = session.questions
    assert shown.id == "v-width" and shown.assignment and "{d_model}" not in shown.prompt


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (VARIED.replace("{n_heads} heads", "{heads} heads"), "unknown-placeholder"),
        (VARIED.replace("n_heads: [4, 8, 16]", "n_heads: [4, 4]"), "bad-value"),
        (VARIED.replace("n_heads: [4, 8, 16]", "n_heads: []"), "bad-value"),
        (VARIED.replace("n_heads: [4, 8, 16]", "n_heads: 4"), "wrong-type"),
        (
            VARIED.replace(
                "d_model: [256, 512]",
                "d_model: [" + ", ".join(str(64 * i) for i in range(1, 21)) + "]",
            )
            .replace(
                "n_heads: [4, 8, 16]", "n_heads: [" + ", ".join(str(i) for i in range(1, 21)) + "]"
            )
            .replace("    vary:\n", "    vary:\n      extra: [1, 2, 3]\n"),
            "too-many-variants",
        ),
    ],
)
def test_bad_vary_blocks_are_located_errors(tmp_path: Path, body: str, code: str) -> None:
    _, diagnostics = load_file(write(tmp_path, body))
    assert code in {d.code for d in diagnostics if d.severity == "error"}


def test_lint_checks_every_combination_and_names_the_failing_one(tmp_path: Path) -> None:
    path = write(tmp_path, VARIED.replace("n_heads: [4, 8, 16]", "n_heads: [4, 8, 7]"))
    report = lint([path], evaluate=False)
    [error] = [d for d in report.diagnostics if d.severity == "error"]
    assert error.code == "bad-argument" and "(with d_model=256, n_heads=7)" in error.message


def test_lint_evaluates_the_derived_key_of_every_variant(tmp_path: Path) -> None:
    traps = "    traps:\n      - {value: 32, why: a guess}\n"
    report = lint([write(tmp_path, VARIED + traps)])
    errors = [d for d in report.diagnostics if d.severity == "error"]
    # 256 / 8 and 512 / 16 are 32: those two variants' computed keys equal the trap.
    assert [e.code for e in errors] == ["bad-value", "bad-value"]
    named = sorted(e.message.split("(with ")[1] for e in errors)
    assert named == ["d_model=256, n_heads=8)", "d_model=512, n_heads=16)"]


def test_an_unused_vary_name_is_a_warning(tmp_path: Path) -> None:
    body = VARIED.replace("    vary:\n", "    vary:\n      unused: [1, 2]\n")
    _, diagnostics = load_file(write(tmp_path, body))
    assert [d.code for d in diagnostics if d.severity == "warning"] == ["unused-vary"]


def test_the_bundled_bank_has_varied_questions_that_lint_clean() -> None:
    from quizapp.bank import bundled_bank_path, load_bank

    bank = load_bank([bundled_bank_path()])
    varied = [q for q in bank.questions.values() if q.vary]
    assert varied and all(isinstance(q, NumericQuestion) for q in varied)
