"""A one-line bar that stays up while answers wait to be saved in the review history."""

from __future__ import annotations

from textual.widgets import Static


class HistoryStatus(Static):
    DEFAULT_CSS = """
    HistoryStatus {
        height: auto;
        padding: 0 1;
        background: $warning-muted;
        color: $text;
        display: none;
    }
    HistoryStatus.-shown { display: block; }
    """

    def __init__(self) -> None:
        super().__init__("", markup=False)

    def on_mount(self) -> None:
        service = getattr(self.app, "history_writes", None)
        self.show(service.status_line() if service is not None else "")

    def show(self, line: str) -> None:
        self.update(line)
        self.set_class(bool(line), "-shown")
