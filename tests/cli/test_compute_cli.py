"""`quizapp compute` from a shell."""

from __future__ import annotations

import json
import re

import pytest


def test_list_names_every_computation_with_its_arguments(run_cli) -> None:
    from quizapp.experiments import COMPUTATIONS

    result = run_cli("compute", "--list")
    assert result.returncode == 0
    for spec in COMPUTATIONS:
        assert spec.name in result.stdout
    assert "d_model=512 (int 2..65536)" in result.stdout


def test_list_name_describes_one_computation_with_every_value_and_its_unit(run_cli) -> None:
    from quizapp.experiments import get_spec
    from quizapp.experiments.value_docs import VALUE_DOCS

    result = run_cli("compute", "--list", "kv_cache")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.startswith("kv_cache: The KV cache\nBytes a decoder keeps per token")
    assert "mha_params" not in out  # the one asked for, not the whole list
    assert "  seq_len     integer  4096       tokens cached per sequence; 1 to 1048576\n" in out
    assert "dtype       choice   float16    the cache's number format; one of float32," in out
    assert "rules: n_heads must be divisible by n_kv_heads" in out
    rows = {line.split()[0]: line for line in out.splitlines() if line.startswith("  ")}
    for value in get_spec("kv_cache").values:
        unit, meaning = VALUE_DOCS["kv_cache"][value]
        assert value in rows, value
        assert f" {unit or '-'} " in rows[value] and meaning.split()[0] in rows[value], value
    assert re.search(r"^  kv_cache_bytes +bytes +the whole cache", out, re.MULTILINE)
    assert out.rstrip().endswith(
        "try: quizapp compute kv_cache preset=llama2-7b seq_len=4096 batch=1 dtype=float16"
    )


def test_search_ranks_by_what_computations_compute(run_cli) -> None:
    quoted = run_cli("compute", "--search", "attention cost")
    assert quoted.returncode == 0, quoted.stderr
    lines = quoted.stdout.splitlines()
    assert re.match(r"\d+ computations match 'attention cost', best first", lines[0])
    assert lines[1].startswith("  head_parallelism  More heads, same cost: Parameters and")
    assert "values: attention_flops_1_head (FLOPs)" in quoted.stdout
    unquoted = run_cli("compute", "--search", "attention", "cost")
    assert unquoted.stdout == quoted.stdout


def test_json_output_has_the_documented_keys(run_cli) -> None:
    result = run_cli(
        "compute", "mha_params", "d_model=512", "n_heads=8", "--json", "--device", "cpu"
    )
    assert result.returncode == 0, result.stderr
    payload = json.loads(result.stdout)
    assert {"name", "args", "device", "values", "table", "series", "summary"} <= set(payload)
    assert (
        payload["values"]["params_multi_head"]
        == payload["values"]["params_single_head"]
        == 4 * 512 * 512
    )
    assert payload["args"] == {"d_model": 512, "n_heads": 8, "bias": False}


def test_human_output_shows_values_and_summary(run_cli) -> None:
    result = run_cli("compute", "mha_params", "n_heads=16")
    assert result.returncode == 0, result.stderr
    assert "head_dim" in result.stdout and "32" in result.stdout
    assert "1,048,576" in result.stdout


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["compute", "nope"], "unknown computation 'nope'"),
        (["compute", "mha_params", "d_model=500", "n_heads=16"], "not divisible"),
        (["compute", "mha_params", "d_model"], "key=value"),
        (["compute", "mha_params", "d_model=1e-5"], "whole number"),
        (["compute", "mha_params", "--device", "tpu"], "--device must be one of"),
        (["compute"], "--list"),
        (["compute", "attention_cost"], "or 'head_parallelism' (by what it computes)?"),
        (["compute", "--list", "nope"], "unknown computation 'nope'"),
        (["compute", "--list", "kv_cache", "seq_len=4"], "--list takes one computation name"),
        (["compute", "--search", "the of"], "--search needs a word to look for"),
        (["compute", "--search", "x" * 41], "--search: a word of 41 letters is too long"),
        (["compute", "--search", "zebra"], "--search: no computation mentions 'zebra'"),
        (["compute", "--search", "cache", "--list"], "do not go together"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(run_cli, args, fragment) -> None:
    result = run_cli(*args)
    assert result.returncode == 2
    assert fragment in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_a_missing_gpu_is_refused_not_replaced_by_the_cpu(run_cli) -> None:
    import torch

    if torch.cuda.is_available():
        pytest.skip("this machine has CUDA")
    # The app falls back to the CPU with a notice; a script asking for cuda must fail instead.
    result = run_cli("compute", "mha_params", "--device", "cuda")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.strip().splitlines() == [
        "quizapp compute: error: device cuda was asked for, but no CUDA device is available"
    ]


def test_yaml_scalars_on_the_command_line(run_cli) -> None:
    result = run_cli("compute", "mha_params", "bias=yes", "d_model=0x100", "n_heads=4", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["args"] == {"d_model": 256, "n_heads": 4, "bias": True}


def test_an_empty_value_is_an_error_not_the_default(run_cli) -> None:
    result = run_cli("compute", "permutation_demo", "sentence=")
    assert result.returncode == 2 and "sentence= has no value" in result.stderr


# -- --expect: claims checked from the shell ---------------------------------------------------


def test_expect_marks_each_claim_and_exits_1_when_one_fails(run_cli) -> None:
    held = run_cli(
        "compute",
        "mha_params",
        "n_heads=8",
        "--device",
        "cpu",
        "--expect",
        "params_single_head == params_multi_head",
        "--expect",
        "head_dim == 64",
    )
    assert held.returncode == 0, held.stderr
    lines = held.stdout.splitlines()
    assert (
        "✓ params_single_head == params_multi_head  "
        "(params_single_head = 1048576, params_multi_head = 1048576)"
    ) in lines
    assert "✓ head_dim == 64  (head_dim = 64)" in lines

    failed = run_cli(
        "compute",
        "mha_params",
        "n_heads=16",
        "--device",
        "cpu",
        "--expect",
        "head_dim == 64",
        "--expect",
        "head_dim / (head_dim - 32) > 1",
    )
    assert failed.returncode == 1, failed.stderr
    lines = failed.stdout.splitlines()
    assert "✗ head_dim == 64  (head_dim = 32)" in lines
    assert any(
        line.startswith("✗ head_dim / (head_dim - 32) > 1  (cannot be checked: division by zero")
        for line in lines
    ), lines


@pytest.mark.parametrize(
    ("claim", "fragment"),
    [
        ("head_dim ==", "not a valid expression"),
        ("().__class__ == 1", "attributes"),
        ("__import__('os').getcwd() == 1", "only abs, min, max may be called"),
        ("head_dm == 64", "did you mean 'head_dim'?"),
    ],
)
def test_a_claim_that_does_not_parse_or_names_no_value_exits_2_before_running(
    run_cli, claim: str, fragment: str
) -> None:
    result = run_cli("compute", "mha_params", "--expect", claim)
    assert result.returncode == 2
    assert result.stdout == ""
    [line] = result.stderr.splitlines()
    assert line.startswith("quizapp compute: error: --expect ") and fragment in line


def test_expect_with_json_reports_each_claim(run_cli) -> None:
    result = run_cli(
        "compute", "mha_params", "--json", "--device", "cpu", "--expect", "head_dim < 64"
    )
    assert result.returncode == 1
    payload = json.loads(result.stdout)
    assert payload["claims"] == [
        {"claim": "head_dim < 64", "holds": False, "values": "head_dim = 64", "error": None}
    ]


@pytest.mark.parametrize(
    ("claim", "says"),
    [
        ("attention_flops_1_head == 4 * {seq_len} ** 2 * 512", "placeholder of a question's vary"),
        ("attention_flops_1_head > at(seq_len=64).attention_flops_1_head", "second run"),
    ],
)
def test_expect_refuses_placeholders_and_second_runs_saying_why(claim: str, says: str) -> None:
    from quizapp.cli.compute import check_claims_before_running
    from quizapp.experiments.spec import ArgumentError

    with pytest.raises(ArgumentError, match=says):
        check_claims_before_running("head_parallelism", [claim])


def test_at_80_columns_every_number_of_a_table_is_whole(run_cli, monkeypatch) -> None:
    # Cut to fit, 67,108,864 read '67,108,8…' and the last column was off the screen.
    monkeypatch.setenv("COLUMNS", "80")
    done = run_cli("compute", "head_parallelism", "seq_len=256")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    table = [line for line in lines if line.lstrip().startswith("1 │")]
    assert table and table[0].split("│")[-1].strip() == "2"  # the last column, matmul calls
    for figure in ("67,108,864", "134,217,728", "1,048,576"):
        assert figure in done.stdout
    assert "…" not in done.stdout
