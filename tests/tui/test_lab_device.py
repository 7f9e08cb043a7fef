"""--device cuda on a machine without a GPU: the app falls back to the CPU and says so, and the
command palette switches device.

Tests run on the CPU: "CUDA unavailable" is this machine's own state, not a mock, and the
tests that rely on it skip where a GPU is present.
"""

from __future__ import annotations

import threading

import pytest
from textual.command import CommandPalette
from textual.pilot import Pilot
from textual.widgets import OptionList

from quizapp.bank import load_bank
from quizapp.tui.app import AppOptions, QuizApp
from quizapp.tui.components.device_choice import DeviceChoice, choose_device
from quizapp.tui.components.lab_service import LabService
from quizapp.tui.screens.lab import LabScreen
from quizapp.tui.widgets.device_notice import DeviceNotice
from tests.conftest import CORPUS
from tests.tui.screen_text import drive_with_toasts, screen_lines
from tests.tui.test_sessions import HomeScreen, make_app, wait_for
from tests.tui.toasts import said


def _cuda_present() -> bool:
    import torch

    return torch.cuda.is_available()


needs_no_cuda = pytest.mark.skipif(_cuda_present(), reason="this machine has CUDA")
CUDA_MISSING = "running on CPU: CUDA is not available"
FALLBACK_TOAST = "CUDA is not available: the lab runs on the CPU."


@pytest.mark.parametrize(
    ("requested", "available", "expected"),
    [
        ("auto", ("cuda", "mps", "cpu"), DeviceChoice("cuda")),
        ("auto", ("mps", "cpu"), DeviceChoice("mps")),
        ("auto", ("cpu",), DeviceChoice("cpu")),
        ("cpu", ("cuda", "cpu"), DeviceChoice("cpu")),
        ("cuda", ("cuda", "cpu"), DeviceChoice("cuda")),
        ("cuda", ("cpu",), DeviceChoice("cpu", CUDA_MISSING)),
        ("mps", ("cuda", "cpu"), DeviceChoice("cpu", "running on CPU: Apple MPS is not available")),
    ],
)
def test_choose_device(requested: str, available: tuple[str, ...], expected: DeviceChoice) -> None:
    assert choose_device(requested, available) == expected


@needs_no_cuda
def test_the_lab_service_falls_back_to_the_cpu_and_says_why() -> None:
    lab = LabService(device="cuda")
    lab.warm_up()
    assert lab.failed is None
    assert lab.available == ("cpu",) or "cuda" not in (lab.available or ())
    assert (lab.resolved_device, lab.device_notice) == ("cpu", CUDA_MISSING)
    result = lab.run("head_split", {"d_model": 64, "n_heads": 8})
    assert result.device == "cpu" and result.values["head_dim"] == 8

    assert lab.select_device("cuda") is not None  # refused: the machine has none
    assert (lab.device, lab.device_notice) == ("cuda", CUDA_MISSING)
    assert lab.select_device("cpu") is None
    assert (lab.device, lab.resolved_device, lab.device_notice) == ("cpu", "cpu", None)


@needs_no_cuda
def test_a_device_chosen_before_torch_loads_is_settled_by_the_warm_up() -> None:
    lab = LabService(device="cpu")
    assert lab.select_device("cuda") is None  # nothing is known yet: taken, checked later
    warm = threading.Thread(target=lab.warm_up)
    warm.start()
    warm.join(timeout=120)
    assert lab.ready.is_set()
    assert (lab.device, lab.resolved_device, lab.device_notice) == ("cuda", "cpu", CUDA_MISSING)


async def palette(pilot: Pilot, query: str) -> list[str]:
    """Open the command palette, type `query`, and return the prompts it offers."""
    await pilot.press("ctrl+p")
    await wait_for(
        pilot, lambda: isinstance(pilot.app.screen, CommandPalette) and pilot.app.screen.is_mounted
    )
    await pilot.press(*query)
    options = pilot.app.screen.query_one(OptionList)

    def prompts() -> list[str]:
        return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]

    await wait_for(pilot, lambda: any(query.lower() in p.lower() for p in prompts()))
    return prompts()


async def pick(pilot: Pilot, query: str) -> None:
    """Run the palette's first command for `query`."""
    await palette(pilot, query)
    await pilot.press("enter")
    await wait_for(pilot, lambda: not isinstance(pilot.app.screen, CommandPalette))


def toasts(app, text: str) -> int:
    """How many notifications containing `text` were posted, including ones that have since
    timed out (a slow machine can outlast a toast's seconds before the test looks)."""
    return sum(text in message for message in said(app))


@needs_no_cuda
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_device_cuda_without_a_gpu_falls_back_with_a_lasting_notice_and_the_palette_switches(
    size: tuple[int, int],
) -> None:
    app = QuizApp(load_bank([CORPUS / "good"]), AppOptions(device="cuda", shuffle=False))

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        await wait_for(pilot, lambda: toasts(app, FALLBACK_TOAST) == 1, timeout=60)
        assert app.lab.device == "cuda" and app.lab.resolved_device == "cpu"

        await pick(pilot, "Compute: mha_params")
        await wait_for(pilot, lambda: isinstance(app.screen, LabScreen) and app.screen.is_mounted)
        screen = app.screen
        await wait_for(pilot, lambda: bool(screen.query(".lab-values")))
        notice = screen.query_one(DeviceNotice)
        assert notice.display and str(notice.content) == CUDA_MISSING
        assert any(CUDA_MISSING in line for line in screen_lines(app))  # drawn whole
        status = str(screen.query_one("#lab-status").content)
        assert status.startswith("done in") and status.endswith("on cpu")
        assert "unavailable" not in " ".join(screen_lines(app))
        assert toasts(app, FALLBACK_TOAST) == 1  # said once, not per lab

        offered = await palette(pilot, "Device")
        assert any(p.startswith("Device: cuda (asked for, not available)") for p in offered)
        assert any(p.startswith("Device: cpu") for p in offered)
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen)

        await pick(pilot, "Device: cpu")
        await wait_for(pilot, lambda: app.lab.device == "cpu")
        assert app.lab.resolved_device == "cpu" and app.lab.device_notice is None
        await wait_for(pilot, lambda: not notice.display)
        assert toasts(app, "The lab now runs on cpu") == 1

        await pick(pilot, "Device: cuda")  # refused: this machine has none
        await wait_for(pilot, lambda: toasts(app, "CUDA is not available on this machine") == 1)
        assert app.lab.device == "cpu" and not notice.display

    drive_with_toasts(app, scenario, size)


def test_the_palette_lists_devices_without_loading_torch() -> None:
    app = make_app(warm_up=False)

    async def scenario(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        commands = {c.title: c.help for c in app.get_system_commands(app.screen)}
        devices = {t: h for t, h in commands.items() if t.startswith("Device: ")}
        assert set(devices) == {
            "Device: auto",
            "Device: cpu (in use)",
            "Device: cuda",
            "Device: mps",
        }
        assert "known once PyTorch has loaded" in devices["Device: cuda"]
        assert app.lab.available is None  # nothing asked torch

    drive_with_toasts(app, scenario, (80, 24))


def test_a_lab_that_cannot_load_torch_says_why_on_a_line_that_wraps() -> None:
    from tests.tui.test_lab_panel import Harness, compute, wait_until

    broken = LabService(device="cpu")
    broken.failed = "ImportError: " + "libtorch_cpu.so: cannot open shared object file " * 3
    broken.ready.set()
    app = Harness(broken, compute("mha_params"))

    async def scenario(pilot: Pilot) -> None:
        await wait_until(pilot, lambda: bool(app.failed))
        assert str(app.query_one("#lab-status").content) == "lab unavailable"
        error = app.query_one("#lab-error")
        assert str(error.content) == broken.failed
        # Wrapped inside the panel, not cut at its edge (once the layout has caught up).
        await wait_until(pilot, lambda: error.size.height > 1)
        lines = " ".join(line.strip(" │") for line in screen_lines(app))
        assert "cannot open shared object file" in lines

    drive_with_toasts(app, scenario, (80, 24))
