"""A lab panel's line saying the CPU stands in for the device asked for (hidden otherwise).

Lasting, unlike a toast: whoever opens a lab later, or missed the toast, still reads why the
numbers come from the CPU. Refreshed by `quizapp.tui.components.lab_device` when the device settles.
"""

from __future__ import annotations

from textual.widgets import Static

from quizapp.tui.components.lab_service import LabService
from quizapp.tui.text.literal import literal


class DeviceNotice(Static):
    DEFAULT_CSS = """
    DeviceNotice {
        color: $warning;
        display: none;
        &.-shown { display: block; }
    }
    """

    def __init__(self, lab: LabService, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.lab = lab

    def on_mount(self) -> None:
        self.show_notice()

    def show_notice(self) -> None:
        text = self.lab.device_notice
        self.update(literal(text or ""))
        self.set_class(bool(text), "-shown")
