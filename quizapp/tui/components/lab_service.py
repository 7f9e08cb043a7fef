"""The app's doorway to the live computations: loads torch off the UI thread, then runs them.

Nothing here imports torch at module level; `warm_up` does, in a worker thread, after the
first screen is drawn, so the student never waits for PyTorch to see a question. Where no
warm-up was started (a browser tab of `quizapp serve`: thirty tabs need not hold thirty copies
of torch before anyone opens the lab), the first computation loads it instead. While it loads,
`stored` can hand the lab a result an earlier run kept on disk (marked `cached`, for the panel
to label as such); every live run is kept there in turn.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from quizapp.experiments.result import Result
    from quizapp.experiments.result_cache import ResultCache

# The user's cache folder (QUIZAPP_CACHE_DIR, the platform's, or none with QUIZAPP_NO_CACHE).
USER_CACHE = "user"


class LabService:
    def __init__(
        self,
        device: str = "auto",
        results: ResultCache | Literal["user"] | None = USER_CACHE,
        *,
        load_on_first_use: bool = False,
    ) -> None:
        """`results`: where results are kept between runs; the user's cache folder by default
        (looked up when first needed, off the start-up path), None for none.
        `load_on_first_use`: the first computation loads torch; otherwise computations wait
        for `warm_up`, which the app starts once the first screen is drawn."""
        self.device = device  # as asked for: auto, cpu, cuda or mps
        self.ready = threading.Event()
        self.failed: str | None = None  # why torch could not be loaded, if it could not
        self.resolved_device: str | None = None
        # Known once torch is loaded (in the warm-up worker): the devices this machine has.
        self.available: tuple[str, ...] | None = None
        self.device_notice: str | None = None  # why the CPU stands in for the device asked for
        self.warm_up_seconds: float | None = None
        self.load_on_first_use = load_on_first_use
        self._warm_up_started = False  # by the warm-up worker, or by the first computation
        self._warm_up_lock = threading.Lock()
        self._device_lock = threading.Lock()  # the palette may switch while the worker resolves
        self._results = results

    @property
    def status(self) -> str:
        if self.failed:
            return f"lab unavailable: {self.failed}"
        if not self.ready.is_set():
            if self.load_on_first_use and not self._warm_up_started:
                return "the lab loads PyTorch for its first computation"
            return "warming up the lab (loading PyTorch)…"
        return f"lab ready on {self.resolved_device}"

    def _claim_warm_up(self) -> bool:
        """True for the one caller that is to load torch; False once someone has."""
        with self._warm_up_lock:
            claimed, self._warm_up_started = not self._warm_up_started, True
        return claimed

    def warm_up(self) -> None:
        """Blocking: import torch and resolve the device, unless that is done or under way.
        Call from a thread worker."""
        if self._claim_warm_up():
            self._load_torch()

    def _load_torch(self) -> None:
        start = time.perf_counter()
        try:
            import torch

            from quizapp.experiments.runner import available_devices

            available = available_devices()
            with self._device_lock:
                self.available = available
                self._resolve_device()
            # torch builds its meta-tensor machinery on first use (about a second); pay it now
            # rather than on the student's first parameter count.
            torch.nn.Embedding(2, 2, device="meta")
        except Exception as exc:  # a broken torch must not take the quiz down with it
            self.failed = f"{type(exc).__name__}: {exc}"
        finally:
            self.warm_up_seconds = time.perf_counter() - start
            self.ready.set()

    def wait_until_ready(self, is_cancelled: Callable[[], bool] | None = None) -> None:
        """Blocking: until torch is loaded (loading it here, on first use, if nobody has) or
        has failed to. Raises Cancelled once `is_cancelled` says so; an import under way runs
        to its end first, as imports do."""
        if self.load_on_first_use:
            self.warm_up()
        while not self.ready.wait(timeout=0.05):
            if is_cancelled and is_cancelled():
                from quizapp.experiments.context import Cancelled

                raise Cancelled

    def select_device(self, device: str) -> str | None:
        """Switch device (on the UI thread); the reason it cannot be used, or None.

        Before the warm-up has found the devices, the choice is resolved when it has (with
        the CPU standing in, and a notice, if the device is missing).
        """
        from quizapp.tui.components.device_choice import DEVICE_NAMES

        with self._device_lock:
            if self.available is not None and device not in ("auto", *self.available):
                name = DEVICE_NAMES.get(device, device)
                return f"{name} is not available on this machine: the lab stays on {self.resolved_device}."
            self.device = device
            if self.available is not None:
                self._resolve_device()
        return None

    def _resolve_device(self) -> None:
        from quizapp.tui.components.device_choice import choose_device

        assert self.available is not None
        choice = choose_device(self.device, self.available)
        self.resolved_device, self.device_notice = choice.device, choice.notice

    def _stored_results(self) -> ResultCache | None:
        if self._results == USER_CACHE:  # looked up each time: the environment decides
            from quizapp.experiments.result_cache import ResultCache

            return ResultCache.default()
        return self._results  # type: ignore[return-value]

    def stored(self, name: str, args: Mapping[str, object]) -> Result | None:
        """Blocking (a small file read; no torch): a result an earlier run kept, marked
        `cached`, for the device runs go to; None when there is none."""
        results = self._stored_results()
        if results is None:
            return None
        device = self.resolved_device or ("cpu" if self.device == "auto" else self.device)
        return results.get(name, args, device)

    def run(
        self,
        name: str,
        args: Mapping[str, object],
        *,
        on_progress: Callable[[float, str], None] | None = None,
        is_cancelled: Callable[[], bool] | None = None,
    ) -> Result:
        """Blocking: wait for the warm-up (or, loading on first use, do it), then run live,
        and keep the result for next time. Raises what the runner raises."""
        self.wait_until_ready(is_cancelled)
        if self.failed:
            raise RuntimeError(self.failed)
        from quizapp.experiments.runner import run

        device = self.resolved_device or "cpu"  # resolved by the warm-up: never a missing one
        result = run(name, args, device=device, on_progress=on_progress, is_cancelled=is_cancelled)
        results = self._stored_results()
        if results is not None:
            results.put(result, args)
        return result
