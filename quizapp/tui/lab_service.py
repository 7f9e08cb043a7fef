"""The app's doorway to the live computations: loads torch off the UI thread, then runs them.

Nothing here imports torch at module level; `warm_up` does, in a worker thread, after the
first screen is drawn, so the student never waits for PyTorch to see a question.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from quizapp.experiments.result import Result


class LabService:
    def __init__(self, device: str = "auto") -> None:
        self.device = device
        self.ready = threading.Event()
        self.failed: str | None = None  # why torch could not be loaded, if it could not
        self.resolved_device: str | None = None
        self.warm_up_seconds: float | None = None

    @property
    def status(self) -> str:
        if self.failed:
            return f"lab unavailable: {self.failed}"
        if not self.ready.is_set():
            return "warming up the lab (loading PyTorch)…"
        return f"lab ready on {self.resolved_device}"

    def warm_up(self) -> None:
        """Blocking: import torch and resolve the device. Call from a thread worker."""
        start = time.perf_counter()
        try:
            import torch

            from quizapp.experiments.runner import resolve_device

            self.resolved_device = str(resolve_device(self.device))
            # torch builds its meta-tensor machinery on first use (about a second); pay it now
            # rather than on the student's first parameter count.
            torch.nn.Embedding(2, 2, device="meta")
        except Exception as exc:  # a broken torch must not take the quiz down with it
            self.failed = f"{type(exc).__name__}: {exc}"
        finally:
            self.warm_up_seconds = time.perf_counter() - start
            self.ready.set()

    def run(
        self,
        name: str,
        args: Mapping[str, object],
        *,
        on_progress: Callable[[float, str], None] | None = None,
        is_cancelled: Callable[[], bool] | None = None,
    ) -> Result:
        """Blocking: wait for the warm-up, then run. Raises what the runner raises."""
        while not self.ready.wait(timeout=0.1):
            if is_cancelled and is_cancelled():
                from quizapp.experiments.context import Cancelled

                raise Cancelled
        if self.failed:
            raise RuntimeError(self.failed)
        from quizapp.experiments.runner import run

        return run(
            name, args, device=self.device, on_progress=on_progress, is_cancelled=is_cancelled
        )
