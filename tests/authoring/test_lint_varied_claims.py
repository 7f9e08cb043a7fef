"""Claims over a `vary:` question's placeholders and over a second run (`at(...)`), through
lint: they hold on the real computation, fail located (the variant named) when it is broken,
and each mistake in them is a located error rather than a traceback."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from quizapp.authoring.lint import lint
from quizapp.bank import load_file

HEADER = "deck: {id: d, title: T, topic: t, domain: D, exam_weight: 1}\nquestions:\n"
# Attention FLOPs of one head grow with the square of the length: four times the cost at half
# the length, and 4 * seq_len² * d_model in all (QKᵀ and AV, a multiply-add counted as two).
FLOPS = """\
  - id: flops
    type: numeric
    difficulty: easy
    tags: [t]
    prompt: "Attention FLOPs of one head at {seq_len} tokens?"
    vary:
      seq_len: [128, 256]
    answer:
      from: attention_flops_1_head
      tolerance: 0
    explanation: Quadratic in the length.
    compute:
      name: head_parallelism
      args: {seq_len: "{seq_len}"}
      expect:
        - claim: attention_flops_1_head == 4 * {seq_len} ** 2 * 512
        - claim: attention_flops_1_head == 4 * at(seq_len={seq_len} // 2).attention_flops_1_head
          says: Four times the cost at half the length
"""
CLAIM_LINE, AT_LINE = 18, 19  # the two claims' lines in the file (HEADER is two lines)
DOUBLED = """\
  - id: doubled
    type: true_false
    difficulty: easy
    tags: [t]
    prompt: "Does doubling {seq_len} tokens quadruple the cost?"
    vary:
      seq_len: [128, 256]
    answer: true
    holds: at(seq_len={seq_len} * 2).attention_flops_1_head == 4 * attention_flops_1_head
    explanation: Quadratic in the length.
    compute:
      name: head_parallelism
      args: {seq_len: "{seq_len}"}
      expect:
        - claim: at(seq_len=2 * {seq_len}).attention_flops_1_head > attention_flops_1_head
"""


def bank(tmp_path: Path, *questions: str) -> Path:
    path = tmp_path / "deck.yaml"
    path.write_text(HEADER + "".join(questions), encoding="utf-8")
    return path


def errors(path: Path) -> list[tuple[int, str, str]]:
    report = lint([path], use_cache=False)
    return [(d.line, d.code, d.message) for d in report.diagnostics if d.severity == "error"]


def with_claim(claim: str) -> str:
    """FLOPS with its second claim replaced (on AT_LINE)."""
    old = "attention_flops_1_head == 4 * at(seq_len={seq_len} // 2).attention_flops_1_head"
    return FLOPS.replace(old, claim)


def test_placeholders_and_second_runs_hold_and_each_run_is_made_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import quizapp.experiments.runner as runner

    made: list[int] = []
    real_run = runner.run

    def counting_run(name, args=None, **kwargs):  # type: ignore[no-untyped-def]
        made.append(args["seq_len"])
        return real_run(name, args, **kwargs)

    monkeypatch.setattr(runner, "run", counting_run)
    path = bank(tmp_path, FLOPS, DOUBLED)
    report = lint([path], use_cache=False)
    assert report.error_count == 0, [d.format() for d in report.diagnostics]
    # Runs at 64, 128, 256 and 512 tokens: the half-length run of the 256 variant is the 128
    # variant's own run, and the questions share theirs, so each is made once.
    assert sorted(made) == [64, 128, 256, 512]


def test_a_broken_computation_fails_the_claims_at_their_lines_naming_the_variant(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import quizapp.experiments.lab.parallelism as parallelism

    real = parallelism.head_parallelism

    def wrong_at_128(ctx, *, d_model, seq_len):  # type: ignore[no-untyped-def]
        result = real(ctx, d_model=d_model, seq_len=seq_len)
        if seq_len != 128:
            return result
        values = dict(result.values)
        values["attention_flops_1_head"] *= 3  # what a wrong FLOP count would give
        return replace(result, values=values)

    monkeypatch.setattr(parallelism, "head_parallelism", wrong_at_128)
    found = errors(bank(tmp_path, FLOPS))
    # The 128 variant's own value is wrong; the 256 variant's second run (at 128) is.
    assert [(line, code) for line, code, _ in found] == [
        (CLAIM_LINE, "claim-failed"),
        (AT_LINE, "claim-failed"),
        (AT_LINE, "claim-failed"),
    ]
    messages = [message for _, _, message in found]
    assert messages[0].endswith("(with seq_len=128)")
    assert messages[1].endswith("(with seq_len=128)")
    assert messages[2].endswith("(with seq_len=256)")
    # The message shows the second run's value as well as the question's.
    assert "at(seq_len={seq_len} // 2).attention_flops_1_head = 100663296" in messages[2]


def test_an_unknown_placeholder_is_located_at_its_claim(tmp_path: Path) -> None:
    path = bank(tmp_path, with_claim("attention_flops_1_head > {seq_ln}"))
    assert errors(path) == [
        (
            AT_LINE,
            "unknown-placeholder",
            "claim 'attention_flops_1_head > {seq_ln}' uses {seq_ln}, which vary does not list "
            "(it lists seq_len)",
        )
    ]


def test_an_unknown_placeholder_in_a_holds_claim_is_located_too(tmp_path: Path) -> None:
    path = bank(tmp_path, DOUBLED.replace("{seq_len} * 2", "{tokens} * 2"))
    [(line, code, message)] = errors(path)
    assert (line, code) == (11, "unknown-placeholder") and "{tokens}" in message


@pytest.mark.parametrize(
    ("claim", "code", "says"),
    [
        (
            "attention_flops_1_head > at(seq_len=0).attention_flops_1_head",
            "bad-argument",
            "at(seq_len=0).attention_flops_1_head: head_parallelism: seq_len must be at least "
            "1, not 0 (with seq_len=128)",
        ),
        (
            "attention_flops_1_head > at(sq_len=64).attention_flops_1_head",
            "bad-argument",
            "did you mean 'seq_len'?",
        ),
        (
            "attention_flops_1_head > at(d_model={seq_len} + 1).attention_flops_1_head",
            "bad-argument",
            "(with seq_len=128)",  # 129 is no multiple of 8: the registry's rule
        ),
        (
            "attention_flops_1_head > at(seq_len=64).attention_flops_1_hed",
            "unknown-value",
            "did you mean 'attention_flops_1_head'?",
        ),
        (
            "attention_flops_1_head > at(seq_len={seq_len} // 0).attention_flops_1_head",
            "claim-error",
            "division by zero (with seq_len=128)",
        ),
    ],
)
def test_a_bad_second_run_is_a_located_error_before_anything_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, claim: str, code: str, says: str
) -> None:
    import quizapp.experiments.runner as runner

    def no_run(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise AssertionError("a refused claim must not run anything")

    monkeypatch.setattr(runner, "run", no_run)
    [(line, found_code, message)] = errors(bank(tmp_path, with_claim(claim)))
    assert (line, found_code) == (AT_LINE, code)
    assert says in message


@pytest.mark.parametrize(
    ("claim", "says"),
    [
        ("attention_flops_1_head > at(64).attention_flops_1_head", "arguments by name"),
        ("attention_flops_1_head > at(seq_len=64)", "followed by a value"),
        ("at(seq_len=params_1_head).attention_flops_1_head > 0", "not a value"),
        ("attention_flops_1_head > {seq_len, 2}", "sets are not allowed"),
        ("attention_flops_1_head.real > 0", "attributes (a.b) are not allowed"),
    ],
)
def test_a_malformed_claim_is_refused_at_load_with_no_follow_on_error(
    tmp_path: Path, claim: str, says: str
) -> None:
    # The question's numeric answer is `from:` its computation: a refused claim must not make
    # the loader add that the question has no compute block.
    [(line, code, message)] = errors(bank(tmp_path, with_claim(claim)))
    assert (line, code) == (AT_LINE, "bad-claim") and says in message


def test_a_question_asks_for_a_bounded_number_of_second_runs(tmp_path: Path) -> None:
    from quizapp.bank.fields import MAX_SECOND_RUNS

    claims = "".join(
        f"        - attention_flops_1_head > at(seq_len={n}).attention_flops_1_head\n"
        for n in range(1, MAX_SECOND_RUNS + 2)
    )
    path = bank(tmp_path, FLOPS + claims)
    [(line, code, message)] = errors(path)
    assert code == "bad-claim" and line == AT_LINE + 1 + MAX_SECOND_RUNS  # the 9th distinct run
    assert f"at most {MAX_SECOND_RUNS}" in message


def test_a_placeholder_read_only_by_a_claim_counts_as_used(tmp_path: Path) -> None:
    only_in_claim = FLOPS.replace("seq_len: [128, 256]", "seq_len: [128, 256]\n      scale: [2, 4]")
    only_in_claim = only_in_claim.replace(
        "== 4 * {seq_len} ** 2 * 512", "* {scale} == {scale} * 4 * {seq_len} ** 2 * 512"
    )
    path = bank(tmp_path, only_in_claim)
    loaded, diagnostics = load_file(path)
    assert loaded is not None
    assert [d.code for d in diagnostics if d.code == "unused-vary"] == []
    unused = bank(tmp_path, only_in_claim.replace("* {scale} == {scale} *", "== "))
    assert [d.code for d in load_file(unused)[1] if d.code == "unused-vary"] == ["unused-vary"]


def test_a_placeholder_in_a_question_without_vary_is_located(tmp_path: Path) -> None:
    fixed = FLOPS.replace("    vary:\n      seq_len: [128, 256]\n", "").replace(
        '"{seq_len}"', "128"
    )
    fixed = fixed.replace("at {seq_len} tokens", "at 128 tokens")
    found = errors(bank(tmp_path, fixed))
    assert [(line, code) for line, code, _ in found] == [
        (CLAIM_LINE - 2, "unknown-placeholder"),  # two lines of vary: fewer
        (AT_LINE - 2, "unknown-placeholder"),
    ]
    assert all(m.endswith("uses {seq_len}, but the question has no vary:") for _, _, m in found)
