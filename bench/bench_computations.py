"""Live computations: warm latency at their defaults, the reference MHA against PyTorch's own,
and counting Llama-2-7B on the meta device (time and peak memory)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import torch
from harness import Benchmark

from quizapp.experiments.registry import COMPUTATIONS
from quizapp.experiments.runner import run
from quizapp.reference import MultiHeadAttention

# One small matmul: a yardstick, so each latency also reads as "this many units of torch work".
_unit_layer = torch.nn.Linear(512, 512)
_unit_input = torch.randn(64, 512)


def _unit_of_work() -> None:
    with torch.no_grad():
        _unit_layer(_unit_input)


def _latency_benchmark(name: str) -> Benchmark:
    limit = 1.0 if name == "gradient_flow" else 0.150
    return Benchmark(
        name=f"compute {name}",
        description=f"warm latency of {name} at its defaults on the CPU",
        candidate=lambda: run(name, {}, device="cpu"),
        baseline=_unit_of_work,
        baseline_label="one 64×512 @ 512×512 linear layer",
        max_ratio=None,
        max_seconds=limit,
        repeats=5,
    )


_mha_state: dict[str, object] = {}


def _mha_setup() -> None:
    torch.manual_seed(0)
    reference = MultiHeadAttention(512, 8).eval()
    theirs = torch.nn.MultiheadAttention(512, 8, batch_first=True).eval()
    _mha_state.update(reference=reference, theirs=theirs, x=torch.randn(8, 512, 512))


def _mha_reference() -> None:
    with torch.no_grad():
        _mha_state["reference"](_mha_state["x"])  # type: ignore[operator]


def _mha_torch() -> None:
    x = _mha_state["x"]
    with torch.no_grad():
        # need_weights=True: the reference always returns its weights, so compare like with like.
        _mha_state["theirs"](x, x, x, need_weights=True, average_attn_weights=False)  # type: ignore[operator]


_LLAMA_PEAK = textwrap.dedent(
    """
    import torch, quizapp.experiments.runner as r

    def high_water_kb():
        # VmHWM belongs to this process's own memory map; ru_maxrss can carry over the
        # parent's peak across exec, which would hide this process's growth.
        status = open("/proc/self/status").read()
        return int(status.split("VmHWM:")[1].split()[0])

    # Only torch is loaded beforehand: the lab's import and torch's one-time setup for
    # meta tensors count against the budget, as they would for a student's first question.
    before = high_water_kb()
    result = r.run("model_params", {"preset": "llama2-7b"}, device="cpu")
    after = high_water_kb()
    assert result.values["total"] == 6_738_415_616, result.values["total"]
    print((after - before) / 1024)
    """
)


def _llama_peak_mb() -> float:
    out = subprocess.run(
        [sys.executable, "-c", _LLAMA_PEAK], capture_output=True, text=True, check=True
    )
    return float(out.stdout.strip().splitlines()[-1])


BENCHMARKS = [
    *(_latency_benchmark(spec.name) for spec in COMPUTATIONS),
    Benchmark(
        name="reference MHA forward",
        description="quizapp.reference.MultiHeadAttention vs nn.MultiheadAttention, batch 8, seq 512, d_model 512",
        candidate=_mha_reference,
        baseline=_mha_torch,
        baseline_label="torch.nn.MultiheadAttention with per-head weights",
        max_ratio=1.3,
        setup=_mha_setup,
        repeats=7,
    ),
    Benchmark(
        name="model_params llama2-7b",
        description="count Llama-2-7B built on the meta device; peak memory growth measured in a fresh process",
        candidate=lambda: run("model_params", {"preset": "llama2-7b"}, device="cpu"),
        baseline=lambda: run("model_params", {"preset": "gpt2-small"}, device="cpu"),
        baseline_label="the same count for GPT-2 small",
        max_ratio=None,
        max_seconds=1.0,
        peak_mb=_llama_peak_mb,
        max_peak_mb=200,
        repeats=3,
    ),
]
