"""`quizapp compute` from a shell."""

from __future__ import annotations

import json

import pytest


def test_list_names_every_computation_with_its_arguments(run_cli) -> None:
    from quizapp.experiments import COMPUTATIONS

    result = run_cli("compute", "--list")
    assert result.returncode == 0
    for spec in COMPUTATIONS:
        assert spec.name in result.stdout
    assert "d_model=512 (int 2..65536)" in result.stdout


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
