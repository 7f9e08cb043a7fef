"""What a running computation is handed: its device, a seeded generator, progress and cancel hooks."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import torch

SEED = 1234  # every computation starts from this, so a rerun shows the same numbers


class Cancelled(Exception):
    """Raised inside a computation when its caller asked it to stop."""


@dataclass
class Context:
    device: torch.device
    seed: int = SEED
    on_progress: Callable[[float, str], None] = lambda fraction, message: None
    is_cancelled: Callable[[], bool] = lambda: False
    _generators: dict[str, torch.Generator] = field(default_factory=dict)

    def generator(self) -> torch.Generator:
        """A CPU generator seeded afresh per call site name is overkill; one per run suffices."""
        import torch

        if "main" not in self._generators:
            self._generators["main"] = torch.Generator().manual_seed(self.seed)
        return self._generators["main"]

    def randn(self, *shape: int, dtype: torch.dtype | None = None) -> torch.Tensor:
        """Seeded normal noise, drawn on the CPU (so every device sees the same numbers) then moved."""
        import torch

        values = torch.randn(*shape, generator=self.generator(), dtype=dtype or torch.float32)
        return values.to(self.device)

    def progress(self, fraction: float, message: str = "") -> None:
        """Report progress and stop here if the caller cancelled."""
        if self.is_cancelled():
            raise Cancelled
        self.on_progress(max(0.0, min(1.0, fraction)), message)
