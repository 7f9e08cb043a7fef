"""Lint holds compute blocks to the registry and evaluates answers derived from computations."""

from __future__ import annotations

from pathlib import Path

from quizapp.authoring.lint import lint

HEADER = "deck: {id: d, title: T, topic: t, domain: D, exam_weight: 1}\nquestions:\n"
COMMON = "    prompt: P\n    explanation: E\n    difficulty: easy\n    tags: [t]\n"


def lint_text(tmp_path: Path, body: str, **kwargs):
    path = tmp_path / "deck.yaml"
    path.write_text(HEADER + body)
    report = lint([path], **kwargs)
    return [
        (d.line, d.column, d.code, d.message) for d in report.diagnostics if d.severity == "error"
    ]


def card(compute: str) -> str:
    return "  - id: q1\n    type: flashcard\n" + COMMON + "    back: B\n" + compute


def test_unknown_computation_is_located_with_a_hint(tmp_path: Path) -> None:
    [(line, col, code, message)] = lint_text(tmp_path, card("    compute: {name: mha_param}\n"))
    assert (line, col, code) == (10, 21, "unknown-computation")
    assert "did you mean 'mha_params'" in message


def test_a_bad_argument_points_at_its_own_line(tmp_path: Path) -> None:
    compute = "    compute:\n      name: mha_params\n      args:\n        d_model: 512\n        n_heads: 7\n"
    [(line, col, code, message)] = lint_text(tmp_path, card(compute))
    assert (line, col, code) == (14, 18, "bad-argument")
    assert "not divisible" in message


def test_an_out_of_bounds_argument(tmp_path: Path) -> None:
    compute = "    compute:\n      name: variance_drift\n      args: {n_layers: 100000}\n"
    [(line, _, code, message)] = lint_text(tmp_path, card(compute))
    assert (line, code) == (12, "bad-argument") and "at most 64" in message


def numeric(answer: str, traps: str = "") -> str:
    return (
        "  - id: q1\n    type: numeric\n"
        + COMMON
        + "    compute: {name: mha_params, args: {d_model: 256, n_heads: 4}}\n"
        + f"    answer: {answer}\n"
        + traps
    )


def test_from_must_name_a_value_the_computation_gives(tmp_path: Path) -> None:
    [(_, _, code, message)] = lint_text(tmp_path, numeric("{from: params_total}"))
    assert code == "unknown-value" and "params_multi_head" in message


def test_derived_answers_are_evaluated_and_traps_checked_against_them(tmp_path: Path) -> None:
    assert lint_text(tmp_path, numeric("{from: params_multi_head}")) == []
    traps = "    traps:\n      - {value: 262144, why: 4 x 256 x 256 is the answer itself}\n"
    [(_, _, code, message)] = lint_text(tmp_path, numeric("{from: params_multi_head}", traps))
    assert code == "bad-value" and "262144" in message


def test_no_eval_skips_running_computations(tmp_path: Path) -> None:
    traps = "    traps:\n      - {value: 262144, why: same as the answer}\n"
    assert lint_text(tmp_path, numeric("{from: params_multi_head}", traps), evaluate=False) == []
