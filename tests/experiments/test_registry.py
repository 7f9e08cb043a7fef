"""The registry's argument checking: every bad value is refused with the argument named."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quizapp.experiments import COMPUTATIONS, REGISTRY, ArgumentError, get_spec
from quizapp.experiments.runner import resolve_device, run


def test_every_computation_is_declared_once_with_an_importable_implementation() -> None:
    import importlib

    assert len(REGISTRY) == len(COMPUTATIONS) >= 10
    for spec in COMPUTATIONS:
        module, function = spec.implementation.split(":")
        assert callable(getattr(importlib.import_module(module), function)), spec.name
        assert spec.values, f"{spec.name} promises no values"
        # Defaults must themselves pass the checks, or `quizapp compute NAME` would fail bare.
        spec.bind({})


# Values a result carries only for some arguments, so they cannot be promised.
CONDITIONAL_VALUES = {
    "positional_extrapolation": {"learned_norm"},  # only when the position has a learned row
    "model_params": {"lm_head", "pooler", "mlm_head"},  # only for the families that have them
}


@pytest.mark.parametrize("spec", COMPUTATIONS, ids=lambda spec: spec.name)
def test_every_value_a_result_carries_is_declared(spec) -> None:
    """Lint and claims check value names against the registry without running anything."""
    if spec.name == "gradient_flow":
        args = {"n_layers": 4, "d_model": 16}  # the default takes a second
    elif spec.name == "model_params":
        args = {"preset": "bert-base"}  # pooler and MLM head: the most components
    else:
        args = {}
    carried = set(run(spec.name, args).values)
    declared = set(spec.values)
    assert declared <= carried
    assert carried - declared <= CONDITIONAL_VALUES.get(spec.name, set())
    assert len(spec.values) == len(declared), "a value is declared twice"


def test_unknown_name_suggests_the_closest() -> None:
    with pytest.raises(ArgumentError, match="did you mean 'mha_params'"):
        get_spec("mha_param")


@pytest.mark.parametrize(
    ("name", "args", "culprit", "fragment"),
    [
        ("mha_params", {"d_model": 500, "n_heads": 16}, "n_heads", "not divisible"),
        ("mha_params", {"d_model": 0}, "d_model", "at least 2"),
        ("mha_params", {"n_heads": 2.5}, "n_heads", "whole number"),
        ("mha_params", {"n_heads": True}, "n_heads", "whole number"),
        ("mha_params", {"d_model": float("inf")}, "d_model", "whole number"),
        ("mha_params", {"d_model": float("nan")}, "d_model", "whole number"),
        ("mha_params", {"bias": "maybe"}, "bias", "true or false"),
        ("mha_params", {"n_head": 4}, "n_head", "did you mean 'n_heads'"),
        ("variance_drift", {"n_layers": 10_000}, "n_layers", "at most 64"),
        ("permutation_demo", {"positional": "alibi"}, "positional", "one of none"),
        ("permutation_demo", {"sentence": "x " * 500}, "sentence", "longer than"),
        ("rope_relative", {"head_dim": 63}, "head_dim", "even"),
        ("rope_relative", {"base": float("inf")}, "base", "finite"),
        ("model_params", {"preset": "gpt5"}, "preset", "one of"),
        ("layernorm_vector", {"values": "1,x"}, "values", "item 2"),
        ("layernorm_vector", {"eps": 0}, "eps", "at least"),
        ("ln_placement", {"n_layers": 0}, "n_layers", "at least 1"),
        ("ln_placement", {"d_model": 4096}, "d_model", "at most 128"),
        ("residual_passthrough", {"n_tokens": 10**6}, "n_tokens", "at most"),
        ("head_parallelism", {"d_model": 100}, "d_model", "multiple of 8"),
    ],
)
def test_bad_arguments_name_the_argument(name, args, culprit, fragment) -> None:
    with pytest.raises(ArgumentError, match=fragment) as info:
        get_spec(name).bind(args)
    assert info.value.argument == culprit
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"d_model": 1e8}, "d_model must be at most 65,536, not 100,000,000"),
        ({"d_model": 100_000}, "d_model must be at most 65,536, not 100,000"),
        ({"d_model": 0}, "d_model must be at least 2, not 0"),
    ],
)
def test_range_messages_write_whole_numbers_as_people_do(args, message) -> None:
    with pytest.raises(ArgumentError) as info:
        get_spec("model_params").bind(args)
    assert str(info.value) == message


def test_yes_no_and_integral_floats_are_accepted() -> None:
    bound = get_spec("mha_params").bind({"bias": "yes", "d_model": 256.0, "n_heads": 4})
    assert bound == {"d_model": 256, "n_heads": 4, "bias": True}
    assert isinstance(bound["d_model"], int)


@settings(max_examples=60, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["d_model", "n_heads", "bias", "zzz"]),
        st.one_of(st.integers(), st.floats(), st.text(max_size=5), st.booleans(), st.none()),
    )
)
def test_bind_either_accepts_or_raises_argument_error(args) -> None:
    spec = get_spec("mha_params")
    try:
        bound = spec.bind(args)
    except ArgumentError as exc:
        assert exc.argument is not None
    else:
        assert bound["d_model"] % bound["n_heads"] == 0
        assert 2 <= bound["d_model"] <= 65536


def test_auto_device_is_cpu_here_and_absent_devices_are_errors() -> None:
    import torch

    if not torch.cuda.is_available():
        with pytest.raises(ArgumentError, match="no CUDA device"):
            resolve_device("cuda")
    assert resolve_device("cpu").type == "cpu"
    with pytest.raises(ArgumentError, match="device must be one of"):
        resolve_device("tpu")


def test_the_runner_holds_results_to_the_promised_values() -> None:
    result = run("mha_params", {"d_model": 128, "n_heads": 4})
    assert set(get_spec("mha_params").values) <= set(result.values)
    assert result.device == "cpu" and result.summary


def test_cancellation_stops_a_computation() -> None:
    from quizapp.experiments.context import Cancelled

    with pytest.raises(Cancelled):
        run("mha_params", {}, is_cancelled=lambda: True)


def test_progress_is_reported() -> None:
    seen: list[float] = []
    run("mha_params", {}, on_progress=lambda fraction, message: seen.append(fraction))
    assert seen and seen == sorted(seen) and all(0 <= f <= 1 for f in seen)


@pytest.mark.cuda
def test_cuda_device_runs_when_present() -> None:
    import torch

    if not torch.cuda.is_available():
        pytest.skip("no CUDA device")
    assert run("mha_params", {}, device="cuda").device.startswith("cuda")


@pytest.mark.mps
def test_mps_device_runs_when_present() -> None:
    import torch

    if not (getattr(torch.backends, "mps", None) and torch.backends.mps.is_available()):
        pytest.skip("no Apple MPS device")
    assert run("mha_params", {}, device="mps").device == "mps"
