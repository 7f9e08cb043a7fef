"""`echo-claim` and `unknown-source`: lint holds the evidence behind an item to account.

Echo claims are judged against what the registry declares a computation does not compute;
a test here keeps those declarations honest. Sources are judged against lesson files each
test writes for itself (the course's lessons are not part of the project).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from quizapp.authoring.echo_claims import parts, perturbations
from quizapp.authoring.lessons import load_lessons
from quizapp.authoring.lint import lint
from quizapp.bank.claims import evaluate, parse_claim
from quizapp.experiments.registry import COMPUTATIONS, REGISTRY
from tests.authoring.test_item_writing import line_of, write
from tests.conftest import REPO


def claiming(qid: str, *claims: str, computation: str = "mha_params", source: str = "") -> str:
    listed = "".join(f"        - {claim}\n" for claim in claims)
    cited = f'    source: "{source}"\n' if source else ""
    return (
        f"  - id: {qid}\n    type: flashcard\n    prompt: What does case {qid} show?\n"
        f"    explanation: E\n    difficulty: easy\n    tags: [t]\n{cited}    back: B\n"
        f"    compute:\n      name: {computation}\n      expect:\n{listed}"
    )


def codes_at(path: Path, evaluate: bool = True, **options) -> list[tuple[str, int]]:
    report = lint([path], evaluate=evaluate, eval_budget=None, **options)
    assert report.error_count == 0, [d.format() for d in report.diagnostics]
    return [(d.code, d.line) for d in report.diagnostics]


# -- echo-claim --------------------------------------------------------------------------------


def test_a_claim_over_a_restated_argument_is_an_echo(tmp_path: Path) -> None:
    path = write(tmp_path, claiming("q", "head_dim == 64", "params_single_head > 0"))
    # Found from the registry alone: no computation needs to run.
    assert codes_at(path, evaluate=False) == [("echo-claim", line_of(path, "head_dim == 64"))]
    report = lint([path], evaluate=False)
    assert "`head_dim`, which mha_params does not compute" in report.diagnostics[0].message


def test_an_echo_part_of_an_and_claim(tmp_path: Path) -> None:
    path = write(tmp_path, claiming("q", "head_dim == 64 and params_single_head > 0"))
    found = lint([path], evaluate=False).diagnostics
    assert [d.code for d in found] == ["echo-claim"]
    assert found[0].message.startswith("'head_dim == 64' in the claim")


def test_a_claim_that_holds_whatever_is_computed(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        claiming("q1", "params_multi_head - params_multi_head == 0"),
        claiming("q2", "abs(params_single_head) >= 0 or head_dim > 0"),
        claiming("q3", "params_single_head == params_multi_head"),
    )
    assert codes_at(path, evaluate=False) == []  # each names a computed value
    assert codes_at(path) == [
        ("echo-claim", line_of(path, "params_multi_head - params_multi_head")),
        ("echo-claim", line_of(path, "abs(params_single_head)")),
    ]


def test_an_alias_is_perturbed_with_the_value_it_repeats(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path, claiming("q", "torch_nn_multihead == params_multi_head"))
    assert codes_at(path) == []  # two values computed apart: the claim can fail
    aliased = dataclasses.replace(
        REGISTRY["mha_params"], aliases=(("torch_nn_multihead", "params_multi_head"),)
    )
    monkeypatch.setitem(REGISTRY, "mha_params", aliased)
    assert codes_at(path) == [("echo-claim", line_of(path, "torch_nn_multihead"))]


def test_the_issues_torch_norm_count_echo_is_found(tmp_path: Path) -> None:
    """ln_placement's torch encoder is converted from its own stack, so comparing the two norm
    counts checks nothing (issue 18); the outputs' difference is what can fail."""
    path = write(
        tmp_path,
        claiming(
            "q",
            "torch_pre_ln_norm_count == pre_ln_norm_count",
            "pre_ln_torch_max_abs_diff < 1e-9",
            computation="ln_placement",
        ),
    )
    assert codes_at(path) == [("echo-claim", line_of(path, "torch_pre_ln_norm_count"))]


@pytest.mark.slow
@pytest.mark.parametrize("spec", [s for s in COMPUTATIONS if s.aliases], ids=lambda s: s.name)
def test_an_alias_equals_the_value_it_repeats(spec) -> None:
    from quizapp.experiments.runner import run

    values = run(spec.name, {}, device="cpu").values
    for alias, value in spec.aliases:
        assert values[alias] == values[value], (spec.name, alias, value)


def test_perturbations_differ_from_the_value() -> None:
    for value in (0, 1, -3, 2.5, 0.0, True, False, "dog", ""):
        others = perturbations(value)
        assert others and value not in others and all(type(o) is type(value) for o in others)


def test_parts_split_only_and() -> None:
    assert [p.text for p in parts(parse_claim("a > 1 and (b < 2 and c)"))] == [
        "a > 1",
        "b < 2",
        "c",
    ]
    assert [p.text for p in parts(parse_claim("a > 1 or b"))] == ["a > 1 or b"]


# -- the registry's declarations ---------------------------------------------------------------


def test_declared_values_are_values_and_formulas_read_only_arguments() -> None:
    for spec in COMPUTATIONS:
        declared = [name for name, _ in spec.restated] + list(spec.constants)
        declared += [name for pair in spec.aliases for name in pair]
        assert set(declared) <= set(spec.values), spec.name
        arguments = {arg.name for arg in spec.args}
        for name, formula in spec.restated:
            if formula:
                assert set(parse_claim(f"{formula} == 0").names) <= arguments, (spec.name, name)


@pytest.mark.slow
@pytest.mark.parametrize(
    "spec", [s for s in COMPUTATIONS if any(f for _, f in s.restated)], ids=lambda s: s.name
)
def test_a_restated_value_equals_its_formula(spec) -> None:
    """Run the computation with its defaults: each restated value is its formula over them."""
    from quizapp.experiments.runner import run

    bound = spec.bind({})
    values = run(spec.name, {}, device="cpu").values
    for name, formula in spec.restated:
        if formula:
            assert evaluate(
                parse_claim(f"abs(({formula}) - got) < 1e-9"), {**bound, "got": values[name]}
            ), (
                name,
                formula,
                values[name],
            )


# -- unknown-source ----------------------------------------------------------------------------

LESSON = """

Layer   Normalization

What LayerNorm computes
Why not BatchNorm
A long paragraph of prose that is not a heading but is still a line of the lesson.
"""


@pytest.fixture
def lessons(tmp_path: Path) -> Path:
    folder = tmp_path / "lessons"
    folder.mkdir()
    (folder / "norm.txt").write_text(LESSON, encoding="utf-8")
    (folder / "rope.md").write_text("# Rotary Positions\n\n## How RoPE rotates\n", encoding="utf-8")
    (folder / "notes.pdf").write_text("Not A Lesson\n", encoding="utf-8")
    return folder


def sourced(tmp_path: Path, *sources: str) -> Path:
    claim = "params_single_head == params_multi_head"
    items = [claiming(f"q{i}", claim, source=s) for i, s in enumerate(sources)]
    return write(tmp_path, *items)


def test_sources_that_name_lessons_and_their_lines(tmp_path: Path, lessons: Path) -> None:
    path = sourced(
        tmp_path,
        "Lesson: Layer Normalization › Why not BatchNorm",
        "Lesson: layer normalization ›   what layernorm  computes",  # case and spaces
        "Lesson: Rotary Positions › How RoPE rotates",  # a .md heading without its marks
        "Lesson: Layer Normalization",  # the lesson alone
        "Vaswani et al. 2017, section 3.5",  # not in the Lesson: form: free text
    )
    assert codes_at(path, evaluate=False, lessons=load_lessons(lessons)) == []


def test_sources_the_lessons_do_not_have(tmp_path: Path, lessons: Path) -> None:
    path = sourced(
        tmp_path,
        "Lesson: Layer Normalisation › Why not BatchNorm",
        "Lesson: Layer Normalization › Why BatchNorm fails",
        "Lesson: Not A Lesson › Anything",  # a .pdf is no lesson
    )
    report = lint([path], evaluate=False, lessons=load_lessons(lessons))
    found = report.diagnostics
    assert [(d.code, d.line) for d in found] == [
        ("unknown-source", line_of(path, "Normalisation")),
        ("unknown-source", line_of(path, "Why BatchNorm fails")),
        ("unknown-source", line_of(path, "Not A Lesson")),
    ]
    assert found[0].message.endswith(
        "titled 'Layer Normalisation'; did you mean 'Layer Normalization'?"
    )
    assert found[1].message == (
        "lesson 'Layer Normalization' (norm.txt) has no line 'Why BatchNorm fails'; did you "
        "mean 'Why not BatchNorm'?"
    )
    assert not report.notes


def test_without_lessons_lint_says_so_once(
    run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("QUIZAPP_CONFIG", str(tmp_path / "none.toml"))
    path = sourced(tmp_path, "Lesson: A › B", "Lesson: C › D", "a paper")
    result = run_cli("lint", "--no-eval", str(path))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ""
    assert result.stderr.count("sources not checked") == 1
    assert "2 question(s) cite a lesson" in result.stderr
    payload = json.loads(run_cli("lint", "--no-eval", "--format", "json", str(path)).stdout)
    assert len(payload["notes"]) == 1


def test_lessons_from_the_flag_or_the_config(
    run_cli, tmp_path: Path, lessons: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = sourced(tmp_path, "Lesson: Layer Normalization › Why BatchNorm fails")
    monkeypatch.setenv("QUIZAPP_CONFIG", str(tmp_path / "none.toml"))
    flagged = run_cli("lint", "--no-eval", "--strict", "--lessons", str(lessons), str(path))
    assert flagged.returncode == 1
    assert f"{path}:{line_of(path, 'Why BatchNorm')}:" in flagged.stdout
    assert (
        "error: lesson 'Layer Normalization'" in flagged.stdout
        and "[unknown-source]" in flagged.stdout
    )
    config = tmp_path / "config.toml"
    config.write_text('lessons = "lessons"\n', encoding="utf-8")  # beside the config file
    monkeypatch.setenv("QUIZAPP_CONFIG", str(config))
    configured = run_cli("lint", "--no-eval", str(path))
    assert (
        "[unknown-source]" in configured.stdout and "sources not checked" not in configured.stderr
    )
    missing = run_cli("lint", "--no-eval", "--lessons", str(tmp_path / "absent"), str(path))
    assert missing.returncode == 2 and "not a folder of lessons" in missing.stderr


def test_the_shipped_bank_against_the_course_lessons() -> None:
    seeds = REPO.parent / "shared" / "seeds"
    if not seeds.is_dir():
        pytest.skip(f"{seeds} is absent (the course's lessons are not part of the project)")
    from quizapp.bank import bundled_bank_path

    report = lint([bundled_bank_path()], evaluate=False, lessons=load_lessons(seeds))
    unknown = [d.format() for d in report.diagnostics if d.code == "unknown-source"]
    assert not unknown, "\n".join(unknown)
