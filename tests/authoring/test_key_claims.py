"""Keys proven by the computation: a choice's `holds:`, a true/false `holds:`, ordering steps'
`value:` with `order_by_value`. Lint fails with file:line and the values read when the key
contradicts the computation, per variant; it passes when the key is right; and it counts the
computed keys proven and judged by the author."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from quizapp.authoring.lint import lint, render_json, render_summary
from quizapp.bank import load_file

HEADER = "deck: {id: d, title: T, topic: t, domain: D, exam_weight: 1}\nquestions:\n"
COMMON = "    explanation: E\n    difficulty: easy\n    tags: [t]\n"
MHA = (
    "    compute:\n      name: mha_params\n      args: {d_model: 512, n_heads: 8}\n"
    "      expect: [params_single_head == params_multi_head]\n"
)
VARIED = (
    "    vary: {n_heads: [4, 8, 16]}\n"
    '    compute:\n      name: mha_params\n      args: {d_model: 512, n_heads: "{n_heads}"}\n'
    "      expect: [params_single_head == params_multi_head]\n"
)
SAME = "params_multi_head == params_single_head"
EIGHTH = "params_multi_head * 8 == params_single_head"


def write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "deck.yaml"
    path.write_text(HEADER + body, encoding="utf-8")
    return path


def diagnostics(path: Path) -> list[tuple[int, str, str]]:
    return [(d.line, d.code, d.message) for d in lint([path], eval_budget=None).diagnostics]


def line_of(path: Path, text: str, after: int = 0) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, start=1) if i > after and text in line)


def choice_question(qtype: str, keyed: tuple[bool, bool, bool], compute: str = MHA) -> str:
    options = [
        ("The same", SAME),
        ("An eighth", EIGHTH),
        ("Double", "params_multi_head == 2 * params_single_head"),
    ]
    lines = [f"  - id: q1\n    type: {qtype}\n    prompt: Heads and parameters?\n", COMMON]
    lines.append("    choices:\n")
    for (text, claim), correct in zip(options, keyed, strict=True):
        lines.append(f"      - text: {text}\n        why: W\n        holds: {claim}\n")
        if correct:
            lines.append("        correct: true\n")
    return "".join(lines) + compute


# -- single and multiple choice ---------------------------------------------------------------


def test_a_single_choice_key_moved_off_the_proven_option_fails_at_both_options(
    tmp_path: Path,
) -> None:
    path = write(tmp_path, choice_question("single_choice", (False, True, False)))
    found = diagnostics(path)
    assert [(line, code) for line, code, _ in found] == [
        (line_of(path, "- text: The same"), "key-contradicted"),
        (line_of(path, "- text: An eighth"), "key-contradicted"),
    ]
    same, eighth = (message for _, _, message in found)
    assert same.startswith("option 1 'The same' is not marked correct, but its claim holds: ")
    assert "params_multi_head = 1048576, params_single_head = 1048576" in same
    assert eighth.startswith("option 2 'An eighth' is marked correct, but its claim does not")


def test_the_same_single_choice_with_the_right_key_passes(tmp_path: Path) -> None:
    path = write(tmp_path, choice_question("single_choice", (True, False, False)))
    assert diagnostics(path) == []


def test_a_multiple_choice_option_wrongly_keyed_fails_and_the_right_keys_pass(
    tmp_path: Path,
) -> None:
    wrong = write(tmp_path, choice_question("multiple_choice", (True, False, True)))
    found = diagnostics(wrong)
    assert [(line, code) for line, code, _ in found] == [
        (line_of(wrong, "- text: Double"), "key-contradicted")
    ]
    assert "params_multi_head = 1048576" in found[0][2]
    right = write(tmp_path, choice_question("multiple_choice", (True, False, False)))
    assert diagnostics(right) == []


def test_an_option_without_holds_is_judged_by_the_author(tmp_path: Path) -> None:
    body = choice_question("single_choice", (True, False, False)).replace(
        "        holds: params_multi_head == 2 * params_single_head\n", ""
    )
    path = write(tmp_path, body)
    report = lint([path], eval_budget=None)
    assert report.diagnostics == []
    assert report.keys.proven == 1  # the keyed option is tied: a moved key fails


# -- true/false --------------------------------------------------------------------------------


def statement(answer: str, claim: str = EIGHTH, compute: str = MHA) -> str:
    return (
        "  - id: q1\n    type: true_false\n    prompt: Eight heads cut the parameters by 8.\n"
        + COMMON
        + f"    answer: {answer}\n    holds: {claim}\n    why_true: W\n    why_false: W\n"
        + compute
    )


def test_a_flipped_true_false_answer_fails_at_its_claim_with_the_values(tmp_path: Path) -> None:
    path = write(tmp_path, statement("true"))
    assert diagnostics(path) == [
        (
            line_of(path, "holds:"),
            "key-contradicted",
            f"answer is true, but the claim does not hold: {EIGHTH} "
            "(params_multi_head = 1048576, params_single_head = 1048576)",
        )
    ]


def test_the_same_true_false_with_the_right_answer_passes(tmp_path: Path) -> None:
    assert diagnostics(write(tmp_path, statement("false"))) == []


def test_a_true_false_answer_written_as_a_mapping_points_at_holds(tmp_path: Path) -> None:
    body = statement("false").replace("    answer: false\n", f"    answer: {{from: {SAME}}}\n")
    _, found = load_file(write(tmp_path, body))
    assert [d.code for d in found] == ["wrong-type"]
    assert "add 'holds: CLAIM' beside it" in found[0].message


# -- ordering ----------------------------------------------------------------------------------


def ordering(order: str, values: tuple[str, ...], compute: str = MHA) -> str:
    steps = "".join(f"      - text: Step {value}\n        value: {value}\n" for value in values)
    return (
        "  - id: q1\n    type: ordering\n    prompt: From smallest to largest.\n"
        + COMMON
        + f"    order_by_value: {order}\n    steps:\n{steps}"
        + compute
    )


SIZES = ("head_dim", "params_per_head_qkv", "params_multi_head")


def test_ordering_steps_out_of_their_computed_order_fail_at_the_step(tmp_path: Path) -> None:
    path = write(tmp_path, ordering("ascending", (SIZES[1], SIZES[0], SIZES[2])))
    found = diagnostics(path)
    assert [(line, code) for line, code, _ in found] == [
        (line_of(path, "value: head_dim"), "key-contradicted")
    ]
    assert "(value 64) comes after step 1 'Step params_per_head_qkv' (value 98304)" in found[0][2]


def test_ordering_steps_in_their_computed_order_pass_either_way(tmp_path: Path) -> None:
    assert diagnostics(write(tmp_path, ordering("ascending", SIZES))) == []
    assert diagnostics(write(tmp_path, ordering("descending", SIZES[::-1]))) == []
    reversed_key = diagnostics(write(tmp_path, ordering("descending", SIZES)))
    assert [code for _, code, _ in reversed_key] == ["key-contradicted"] * 2


def test_equal_values_do_not_decide_an_order(tmp_path: Path) -> None:
    path = write(
        tmp_path, ordering("ascending", ("head_dim", "params_multi_head", "params_single_head"))
    )
    assert [code for _, code, _ in diagnostics(path)] == ["key-contradicted"]


# -- per variant -------------------------------------------------------------------------------


def test_each_variant_is_checked_and_the_failing_one_is_named(tmp_path: Path) -> None:
    body = choice_question("multiple_choice", (True, False, True), VARIED).replace(
        "holds: params_multi_head == 2 * params_single_head", "holds: head_dim >= 64"
    )
    found = diagnostics(write(tmp_path, body))
    assert [code for _, code, _ in found] == ["key-contradicted"]
    assert found[0][2].endswith("(with n_heads=16)")
    assert "head_dim = 32" in found[0][2]
    right = body.replace("head_dim >= 64", "head_dim >= 32")
    assert diagnostics(write(tmp_path, right)) == []


def test_a_varied_true_false_fails_only_in_the_variant_it_is_wrong_for(tmp_path: Path) -> None:
    found = diagnostics(write(tmp_path, statement("true", "head_dim > 64", VARIED)))
    assert [message.rsplit(" (with ", 1)[1] for _, _, message in found] == [
        "n_heads=8)",
        "n_heads=16)",
    ]
    path = write(tmp_path, statement("true", "head_dim * n_heads == 512", VARIED))
    assert [code for _, code, _ in diagnostics(path)] == ["unknown-value"]


def test_a_varied_ordering_is_checked_per_variant(tmp_path: Path) -> None:
    path = write(tmp_path, ordering("ascending", SIZES, VARIED))
    assert diagnostics(path) == []
    path = write(tmp_path, ordering("ascending", ("head_dim", "48", "params_multi_head"), VARIED))
    found = diagnostics(path)  # head_dim: 128, 64, 32 against a constant 48
    assert [message.rsplit(" (with ", 1)[1] for _, _, message in found] == [
        "n_heads=4)",
        "n_heads=8)",
    ]


# -- bad input: one line, at the claim ---------------------------------------------------------


@pytest.mark.parametrize(
    ("claim", "code", "words"),
    [
        ("params_multi_head[0] > 2", "bad-claim", "indexing (a[b])"),
        ("params_multi_hed > 2", "unknown-value", "did you mean 'params_multi_head'?"),
    ],
)
def test_a_bad_holds_is_one_error_at_its_line(
    tmp_path: Path, claim: str, code: str, words: str
) -> None:
    path = write(tmp_path, statement("false", claim))
    found = diagnostics(path)
    assert [(line, c) for line, c, _ in found] == [(line_of(path, "holds:"), code)]
    assert words in found[0][2]


def test_holds_without_a_computation_is_refused_at_its_line(tmp_path: Path) -> None:
    path = write(tmp_path, statement("false", compute=""))
    found = [(d.line, d.code, d.message) for d in load_file(path)[1] if d.severity == "error"]
    assert found == [
        (
            line_of(path, "holds:"),
            "bad-claim",
            f"'holds: {EIGHTH}' needs a computation: the question has no 'compute' block",
        )
    ]


def test_ordering_values_must_cover_every_step_and_say_their_direction(tmp_path: Path) -> None:
    partial = ordering("ascending", SIZES).replace("        value: head_dim\n", "")
    _, found = load_file(write(tmp_path, partial))
    assert [d.code for d in found] == ["ordering-steps"]
    undirected = ordering("ascending", SIZES).replace("    order_by_value: ascending\n", "")
    _, found = load_file(write(tmp_path, undirected))
    assert [d.code for d in found] == ["missing-key"]
    no_values = "".join(
        line for line in ordering("ascending", SIZES).splitlines(True) if "value: " not in line[:16]
    )
    _, found = load_file(write(tmp_path, no_values.replace("        value:", "        why:")))
    assert [d.code for d in found] == ["bad-value"]


# -- counting ----------------------------------------------------------------------------------


def test_the_summary_and_json_count_proven_and_judged_keys(tmp_path: Path) -> None:
    judged = choice_question("single_choice", (True, False, False)).replace(
        f"        holds: {SAME}\n", ""
    )
    body = (
        judged
        + statement("false").replace("id: q1", "id: q2").replace("Eight heads", "Sixteen heads")
        + ordering("ascending", SIZES).replace("id: q1", "id: q3")
    )
    report = lint([write(tmp_path, body)], eval_budget=None)
    assert report.error_count == 0
    assert render_summary(report).endswith(
        "0 error(s), 0 warning(s); computed keys: 2 proven, 1 judged by the author"
    )
    keys = json.loads(render_json(report))["computed_keys"]
    assert (keys["proven"], keys["judged_by_author"]) == (2, 1)
    assert [(q["id"], q["type"], q["line"]) for q in keys["judged"]] == [("q1", "single_choice", 3)]


def test_strict_does_not_turn_a_judged_key_into_a_problem(tmp_path: Path) -> None:
    body = choice_question("single_choice", (True, False, False))
    for claim in (SAME, EIGHTH, "params_multi_head == 2 * params_single_head"):
        body = body.replace(f"        holds: {claim}\n", "")
    report = lint([write(tmp_path, body)], strict=True, eval_budget=None)
    assert report.diagnostics == [] and report.exit_code == 0
    assert report.keys.summary() == "computed keys: 0 proven, 1 judged by the author"


def test_grading_never_reads_holds(tmp_path: Path) -> None:
    deck, _ = load_file(write(tmp_path, choice_question("single_choice", (True, False, False))))
    bare, _ = load_file(
        write(
            tmp_path,
            "".join(
                line
                for line in choice_question("single_choice", (True, False, False)).splitlines(True)
                if "holds:" not in line
            ),
        )
    )
    assert deck is not None and bare is not None
    tied, plain = deck.questions[0], bare.questions[0]
    assert tied.choices == plain.choices  # a tie is authoring only: not part of the option
    assert tied.correct_indices == plain.correct_indices == {0}
