"""Run a named computation: check its arguments, pick the device, import its code, call it."""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING

from quizapp.experiments.context import SEED, Cancelled, Context
from quizapp.experiments.registry import get_spec
from quizapp.experiments.result import Result
from quizapp.experiments.spec import DEVICES, ArgumentError

if TYPE_CHECKING:
    import torch


class DeviceUnavailable(ArgumentError):
    pass


def available_devices() -> tuple[str, ...]:
    """The devices this machine can run on, in auto's order of preference; cpu always last."""
    import torch

    found = []
    if torch.cuda.is_available():
        found.append("cuda")
    if bool(getattr(torch.backends, "mps", None)) and torch.backends.mps.is_available():
        found.append("mps")
    return (*found, "cpu")


def resolve_device(name: str = "auto") -> torch.device:
    """auto prefers cuda, then mps, then cpu. Asking for an absent device is an error, not a fallback."""
    import torch

    if name not in DEVICES:
        raise ArgumentError(f"device must be one of {', '.join(DEVICES)}, not {name!r}", "device")
    available = available_devices()
    cuda, mps = "cuda" in available, "mps" in available
    if name == "auto":
        return torch.device("cuda" if cuda else "mps" if mps else "cpu")
    if name == "cuda" and not cuda:
        raise DeviceUnavailable(
            "device cuda was asked for, but no CUDA device is available", "device"
        )
    if name == "mps" and not mps:
        raise DeviceUnavailable(
            "device mps was asked for, but no Apple MPS device is available", "device"
        )
    return torch.device(name)


def run(
    name: str,
    args: Mapping[str, object] | None = None,
    *,
    device: str = "auto",
    on_progress: Callable[[float, str], None] | None = None,
    is_cancelled: Callable[[], bool] | None = None,
    threads: int | None = None,
) -> Result:
    """Raises ArgumentError for a bad name, argument or device; Cancelled if cancelled.
    `threads`: torch's intra-op thread count during this run, restored after (None: as set)."""
    spec = get_spec(name)
    bound = spec.bind(args or {})
    torch_device = resolve_device(device)
    module_name, function_name = spec.implementation.split(":")
    implementation = getattr(importlib.import_module(module_name), function_name)
    context = Context(
        device=torch_device,
        seed=SEED,
        on_progress=on_progress or (lambda fraction, message: None),
        is_cancelled=is_cancelled or (lambda: False),
    )
    if context.is_cancelled():  # cancelled while torch and the module were importing
        raise Cancelled
    import torch

    # Computations that measure gradients turn autograd on themselves; the rest never need it.
    grad = torch.no_grad() if spec.name not in _NEEDS_GRAD else contextlib.nullcontext()
    with intra_op_threads(threads), grad:
        result: Result = implementation(context, **bound)
    missing = [v for v in spec.values if v not in result.values]
    if missing:  # the registry is a contract: a bank's `from:` relies on these names
        raise RuntimeError(f"{name} did not produce the promised values {missing}")
    return result


_NEEDS_GRAD = frozenset({"gradient_flow"})


@contextlib.contextmanager
def intra_op_threads(count: int | None) -> Iterator[None]:
    """torch's intra-op thread count set to `count` inside, then restored (None: unchanged)."""
    if count is None:
        yield
        return
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(count)
    try:
        yield
    finally:
        torch.set_num_threads(before)


__all__ = [
    "Cancelled",
    "DeviceUnavailable",
    "available_devices",
    "intra_op_threads",
    "resolve_device",
    "run",
]
