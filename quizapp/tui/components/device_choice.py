"""Which device the lab's computations run on: the one asked for where it is there, else the
CPU with a notice saying why. Pure: the lab service (quizapp/tui/components/lab_service.py) decides with
it, and quizapp/tui/components/lab_device.py shows the outcome.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

# In the palette's order; auto's preference order is the runner's (cuda, mps, cpu).
PALETTE_DEVICES = ("auto", "cpu", "cuda", "mps")
DEVICE_NAMES = {"cuda": "CUDA", "mps": "Apple MPS", "cpu": "CPU"}


@dataclass(frozen=True)
class DeviceChoice:
    device: str  # where computations run: cpu, cuda or mps
    notice: str | None = None  # set when the device asked for is missing and the CPU stands in


def choose_device(requested: str, available: Sequence[str]) -> DeviceChoice:
    """The device to run on. `available` is in preference order and always ends with cpu."""
    if requested == "auto":
        return DeviceChoice(available[0] if available else "cpu")
    if requested in available or requested == "cpu":
        return DeviceChoice(requested)
    missing = DEVICE_NAMES.get(requested, requested)
    return DeviceChoice("cpu", f"running on CPU: {missing} is not available")
