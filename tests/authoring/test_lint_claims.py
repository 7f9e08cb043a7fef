"""Claims (`expect:`) from file to lint: located load errors, names held to the registry, and
each claim evaluated on the computation's real values."""

from __future__ import annotations

from pathlib import Path

import pytest

from quizapp.authoring.lint import lint
from quizapp.bank import load_file
from quizapp.bank.claims import MAX_CLAIMS

HEADER = "deck: {id: d, title: T, topic: t, domain: D, exam_weight: 1}\nquestions:\n"
CARD = (
    "  - id: {qid}\n    type: flashcard\n    prompt: Prompt of {qid}\n    explanation: E\n"
    "    difficulty: easy\n    tags: [t]\n    back: B\n"
)


def deck(tmp_path: Path, *questions: str) -> Path:
    path = tmp_path / "deck.yaml"
    path.write_text(HEADER + "".join(questions), encoding="utf-8")
    return path


def card(compute: str, qid: str = "q1") -> str:
    return CARD.format(qid=qid) + compute


def found(path: Path, **kwargs: bool) -> list[tuple[int, int, str, str, str]]:
    return [
        (d.line, d.column, d.severity, d.code, d.message)
        for d in lint([path], **kwargs).diagnostics
    ]


MHA = """\
    compute:
      name: mha_params
      args: {d_model: 512, n_heads: 8}
      expect:
"""


def test_claims_load_onto_the_compute_model_with_their_places(tmp_path: Path) -> None:
    path = deck(
        tmp_path,
        card(
            MHA
            + "        - claim: params_single_head == params_multi_head\n"
            + "          says: One wide head and eight narrow heads cost the same\n"
            + "        - params_multi_head == 1048576\n"
        ),
    )
    loaded, diagnostics = load_file(path)
    assert diagnostics == [] and loaded is not None
    compute = loaded.questions[0].compute
    assert compute is not None
    first, second = compute.expect
    assert (first.text, first.says) == (
        "params_single_head == params_multi_head",
        "One wide head and eight narrow heads cost the same",
    )
    assert (first.location.line, first.location.column) == (14, 18)
    assert (second.text, second.says, second.location.line) == (
        "params_multi_head == 1048576",
        None,
        16,
    )
    assert found(path) == []


def test_a_failed_claim_is_an_error_at_its_line_with_the_values_it_read(tmp_path: Path) -> None:
    path = deck(
        tmp_path,
        card(
            MHA
            + "        - params_multi_head == 1048576\n        - params_multi_head < params_single_head\n"
        ),
    )
    assert found(path) == [
        (
            15,
            11,
            "error",
            "claim-failed",
            "claim failed: params_multi_head < params_single_head "
            "(params_multi_head = 1048576, params_single_head = 1048576)",
        )
    ]
    report = lint([path])
    assert report.exit_code == 1
    assert report.diagnostics[0].format().startswith(f"{path}:15:11: error: claim failed: ")


def test_a_claim_that_cannot_be_evaluated_is_an_error(tmp_path: Path) -> None:
    path = deck(
        tmp_path, card(MHA + "        - params_multi_head / (params_multi_head - 1048576) > 1\n")
    )
    [(line, column, severity, code, message)] = found(path)
    assert (line, column, severity, code) == (14, 11, "error", "claim-error")
    assert "division by zero" in message and "params_multi_head = 1048576" in message


def test_an_unknown_name_is_located_with_a_suggestion_and_needs_no_run(tmp_path: Path) -> None:
    path = deck(
        tmp_path,
        card(MHA + "        - params_multi_head == 1048576\n        - params_multi_hed > 0\n"),
    )
    [(line, column, severity, code, message)] = found(path, evaluate=False)
    assert (line, column, severity, code) == (15, 11, "error", "unknown-value")
    assert "'params_multi_hed'" in message and "did you mean 'params_multi_head'?" in message


@pytest.mark.parametrize(
    ("expect", "line", "code", "fragment"),
    [
        ("        - ().__class__ == 1\n", 14, "bad-claim", "attributes"),
        ("        - __import__('os') == 0\n", 14, "bad-claim", "only abs, min, max"),
        ("        - head_dim + 1\n", 14, "bad-claim", "true or false"),
        (
            "        - claim: params_multi_head == 1048576\n          sayz: x\n",
            15,
            "unknown-key",
            "'says'",
        ),
        ("        - says: words only\n", 14, "missing-key", "'claim'"),
        ("        - claim: 64\n", 14, "wrong-type", "must be text"),
        (
            '        - claim: params_multi_head == 1048576\n          says: "one\\ntwo"\n',
            15,
            "bad-claim",
            "one line",
        ),
        (
            "        - claim: params_multi_head == 1048576\n          says: " + "w" * 201 + "\n",
            15,
            "bad-claim",
            "200",
        ),
        ("        []\n", 14, "bad-claim", "no claims"),
        (
            "        "
            + "["
            + ", ".join(["params_multi_head == 1048576"] * (MAX_CLAIMS + 1))
            + "]\n",
            14,
            "bad-claim",
            "at most 16",
        ),
    ],
)
def test_a_malformed_claim_is_a_load_error_that_keeps_the_question_out(
    tmp_path: Path, expect: str, line: int, code: str, fragment: str
) -> None:
    if expect.lstrip().startswith("["):
        compute = MHA.replace("      expect:\n", "      expect:\n" + expect)
    else:
        compute = MHA + expect
    path = deck(tmp_path, card(compute))
    loaded, diagnostics = load_file(path)
    errors = [d for d in diagnostics if d.severity == "error"]
    assert [(d.line, d.code) for d in errors] == [(line, code)], [d.format() for d in errors]
    assert fragment in errors[0].message
    assert loaded is not None and loaded.questions == ()


def test_claim_missing_is_a_warning_that_strict_makes_an_error(tmp_path: Path) -> None:
    path = deck(
        tmp_path,
        card("    compute: {name: mha_params}\n"),
        card("    compute: {name: mha_params, expect: [params_multi_head == 1048576]}\n", qid="q2"),
    )
    relaxed = lint([path], evaluate=False)
    assert [(d.line, d.severity, d.code) for d in relaxed.diagnostics] == [
        (10, "warning", "claim-missing")
    ]
    assert relaxed.exit_code == 0
    strict = lint([path], strict=True, evaluate=False)
    assert [(d.severity, d.code) for d in strict.diagnostics] == [("error", "claim-missing")]
    assert strict.exit_code == 1


def test_a_question_without_a_computation_is_not_asked_for_claims(tmp_path: Path) -> None:
    path = deck(tmp_path, card(""))
    assert [d.code for d in lint([path], evaluate=False).diagnostics] == ["no-compute"]


VARIED = """\
    vary: {layers: [1, 20]}
    compute:
      name: variance_drift
      args: {n_layers: "{layers}", d_model: 32, n_tokens: 64}
      expect:
        - claim: residual_final > 1000 * plain_final
          says: At {layers} layers the residual stream's variance has compounded
        - abs(post_ln_final - 1) < 0.01
"""


def test_claims_are_checked_for_every_variant_and_the_failing_one_is_named(
    tmp_path: Path,
) -> None:
    path = deck(
        tmp_path, card(VARIED.replace("back: B", "back: B")).replace("P\n", "P {layers}\n", 1)
    )
    problems = found(path)
    assert len(problems) == 1, problems
    line, column, severity, code, message = problems[0]
    assert (line, column, severity, code) == (15, 18, "error", "claim-failed")
    assert message.startswith(
        "claim failed: residual_final > 1000 * plain_final (residual_final = "
    )
    assert message.endswith("(with layers=1)")


def test_a_varied_says_fills_its_placeholders(tmp_path: Path) -> None:
    from quizapp.bank.variants import instantiate

    path = deck(tmp_path, card(VARIED).replace("P\n", "P {layers}\n", 1))
    loaded, _ = load_file(path)
    assert loaded is not None
    variant = instantiate(loaded.questions[0], {"layers": 20})
    assert variant.compute is not None
    assert variant.compute.expect[0].says == (
        "At 20 layers the residual stream's variance has compounded"
    )
    assert variant.compute.expect[0].text == "residual_final > 1000 * plain_final"


def test_one_run_serves_the_claims_and_the_derived_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import quizapp.experiments.runner as runner

    runs: list[str] = []
    real_run = runner.run

    def counting_run(name, args=None, **kwargs):  # type: ignore[no-untyped-def]
        runs.append(name)
        return real_run(name, args, **kwargs)

    monkeypatch.setattr(runner, "run", counting_run)
    numeric = (
        "  - id: q2\n    type: numeric\n    prompt: P\n    explanation: E\n"
        "    difficulty: easy\n    tags: [t]\n    answer: {from: head_dim}\n"
        + MHA
        + "        - params_multi_head == 1048576\n"
    )
    path = deck(tmp_path, card(MHA + "        - params_multi_head == 1048576\n"), numeric)
    assert found(path) == []
    assert runs == ["mha_params"]


def test_no_eval_skips_the_run_but_not_the_names(tmp_path: Path) -> None:
    path = deck(tmp_path, card(MHA + "        - params_multi_head < 0\n"))
    assert found(path, evaluate=False) == []
    assert [p[3] for p in found(path)] == ["claim-failed"]


def test_says_cannot_carry_control_characters_to_the_terminal(tmp_path: Path) -> None:
    path = deck(
        tmp_path,
        card(
            MHA + '        - claim: params_multi_head == 1048576\n          says: "red \\e[31m"\n'
        ),
    )
    _, diagnostics = load_file(path)
    assert [(d.line, d.code) for d in diagnostics] == [(15, "control-character")]
