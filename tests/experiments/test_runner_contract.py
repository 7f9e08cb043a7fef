"""What every computation owes the runner: its promised values, the same numbers on a rerun,
monotone progress, a stop when cancelled, and (when it draws noise) numbers from its seed."""

from __future__ import annotations

import pytest
import torch

from quizapp.experiments.context import Cancelled, Context
from quizapp.experiments.registry import COMPUTATIONS, get_spec
from quizapp.experiments.runner import run

# Small arguments, so the whole contract runs in seconds; {} means the defaults are small.
SMALL_ARGS: dict[str, dict[str, object]] = {
    "mha_params": {},
    "head_split": {},
    "model_params": {},
    "permutation_demo": {"d_model": 16},
    "rope_relative": {},
    "positional_extrapolation": {},
    "variance_drift": {"n_layers": 6, "d_model": 32, "n_tokens": 32},
    "norm_comparison": {"d_model": 6, "batch_size": 3},
    "gradient_flow": {"n_layers": 4, "d_model": 16},
    "attention_heads": {},
    "layernorm_vector": {"values": "1, 2, 3, 7"},
    "ln_placement": {"n_layers": 2, "d_model": 16},
    "residual_passthrough": {"d_model": 16, "n_tokens": 4},
    "head_parallelism": {"d_model": 64, "seq_len": 16},
    "learned_table_coverage": {"max_positions": 8, "seq_len": 12, "d_model": 4},
    "kv_cache": {},
    "gqa": {"d_model": 64, "n_heads": 8, "n_kv_heads": 2},
    "rmsnorm": {},
    "rope_scaling": {"head_dim": 16},
    "alibi": {},
    "sliding_window": {"window": 4, "n_layers": 3, "seq_len": 40},
}
# Computations that draw random weights or tokens: another seed must give other numbers.
SEEDED = (
    "head_split",
    "permutation_demo",
    "rope_relative",
    "variance_drift",
    "norm_comparison",
    "gradient_flow",
    "ln_placement",
    "residual_passthrough",
    "gqa",
    "rmsnorm",
    "rope_scaling",
)
NAMES = [spec.name for spec in COMPUTATIONS]


def test_every_computation_has_small_arguments_here() -> None:
    assert set(SMALL_ARGS) == set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_results_keep_their_promises_and_rerun_identically(name: str) -> None:
    seen: list[float] = []
    first = run(name, SMALL_ARGS[name], on_progress=lambda f, message: seen.append(f))
    again = run(name, SMALL_ARGS[name])
    assert set(get_spec(name).values) <= set(first.values)
    assert first.values == again.values
    assert first.summary and first.device == "cpu"
    assert seen and seen == sorted(seen) and all(0 <= f <= 1 for f in seen)


@pytest.mark.parametrize("name", SEEDED)
def test_results_are_computed_not_stored(name: str) -> None:
    spec = get_spec(name)
    module, function = spec.implementation.split(":")
    implementation = getattr(__import__(module, fromlist=[function]), function)

    def values(seed: int) -> dict[str, object]:
        context = Context(device=torch.device("cpu"), seed=seed)
        return implementation(context, **spec.bind(SMALL_ARGS[name])).values

    assert values(1) != values(2)  # another seed, other numbers


@pytest.mark.parametrize("name", NAMES)
def test_cancellation_stops_each_computation(name: str) -> None:
    with pytest.raises(Cancelled):
        run(name, SMALL_ARGS[name], is_cancelled=lambda: True)


def test_threads_sets_torchs_intra_op_count_for_the_run_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import quizapp.experiments.lab.attention as attention

    seen: list[int] = []
    real = attention.mha_params

    def recording(ctx: Context, **args: object):  # type: ignore[no-untyped-def]
        seen.append(torch.get_num_threads())
        return real(ctx, **args)

    monkeypatch.setattr(attention, "mha_params", recording)
    before = torch.get_num_threads()
    run("mha_params", {}, device="cpu", threads=1)
    assert seen == [1] and torch.get_num_threads() == before
    run("mha_params", {}, device="cpu")  # unset: whatever the process has
    assert seen == [1, before]

    def failing(ctx: Context, **args: object):  # type: ignore[no-untyped-def]
        raise RuntimeError("boom")

    monkeypatch.setattr(attention, "mha_params", failing)
    with pytest.raises(RuntimeError):
        run("mha_params", {}, device="cpu", threads=1)
    assert torch.get_num_threads() == before  # restored after a failure too
