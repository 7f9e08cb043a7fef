"""Where the app's lab runs: the device asked for, the devices this machine has, the fallback.

`quizapp compute --device cuda` refuses without a GPU: a script should fail loudly. The app
falls back to the CPU instead and says so (a lasting line in every lab panel, and one toast),
because a student who opened a quiz wants the quiz, not the same error under every question.
The command palette switches device; which devices exist is known once torch has loaded, in
the warm-up worker, so listing them never imports torch on the UI thread.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from typing import TYPE_CHECKING

from textual.app import SystemCommand

from quizapp.tui.components.device_choice import DEVICE_NAMES, PALETTE_DEVICES

if TYPE_CHECKING:
    from textual.app import App

    from quizapp.tui.components.lab_service import LabService


def refresh_device_notices(app: App) -> None:
    """Every lab panel on every open screen shows the lab's current device notice."""
    from quizapp.tui.widgets.device_notice import DeviceNotice

    for screen in app.screen_stack:
        for notice in screen.query(DeviceNotice):
            notice.show_notice()


def announce_device(app: App, lab: LabService) -> None:
    """After the warm-up: a toast when the CPU stands in for the device asked for."""
    refresh_device_notices(app)
    if lab.device_notice:
        missing = DEVICE_NAMES.get(lab.device, lab.device)
        app.notify(
            f"{missing} is not available: the lab runs on the CPU. "
            "To switch device: ctrl+p, then Device.",
            title="Lab device",
            severity="warning",
            timeout=10,
            markup=False,
        )


def switch_device(app: App, lab: LabService, requested: str) -> None:
    """The palette's device switch. A device this machine lacks is refused, not faked."""
    refusal = lab.select_device(requested)
    if refusal:
        app.notify(refusal, title="Lab device", severity="warning", timeout=6, markup=False)
        return
    refresh_device_notices(app)
    if lab.resolved_device is None:
        where = f"{requested} (checked once PyTorch has loaded)"
    else:
        where = lab.resolved_device if requested != "auto" else f"auto: {lab.resolved_device}"
    app.notify(f"The lab now runs on {where}.", title="Lab device", timeout=4, markup=False)


def device_commands(app: App, lab: LabService) -> Iterable[SystemCommand]:
    """Palette entries "Device: …", each saying whether it is in use or available."""
    available = lab.available
    for name in PALETTE_DEVICES:
        missing = available is not None and name not in ("auto", *available)
        if name == lab.device:
            state = "asked for, missing: the CPU stands in" if lab.device_notice else "in use"
            if name == "auto" and lab.resolved_device:
                state += f" (now {lab.resolved_device})"
        elif available is None:
            state = "availability known once PyTorch has loaded"
        else:
            state = "not available on this machine" if missing else "available"
        if name == "auto":
            what = "Let the lab pick: CUDA, then Apple MPS, then the CPU"
        else:
            what = f"Run the lab's computations on {'the ' * (name == 'cpu')}{DEVICE_NAMES[name]}"
        chosen = "asked for" if lab.device_notice else "in use"
        marks = [m for m, on in ((chosen, name == lab.device), ("not available", missing)) if on]
        title = f"Device: {name}" + (f" ({', '.join(marks)})" if marks else "")
        yield SystemCommand(title, f"{what} · {state}", partial(switch_device, app, lab, name))


__all__ = [
    "announce_device",
    "device_commands",
    "refresh_device_notices",
    "switch_device",
]
