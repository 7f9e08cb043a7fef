"""The shared pieces of quizapp's benchmarks: what a benchmark is, and how it is timed."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class Benchmark:
    name: str
    description: str
    candidate: Callable[[], object]
    baseline: Callable[[], object]
    max_ratio: float | None  # None: the target is absolute and the ratio is for reading only
    max_seconds: float | None = None
    setup: Callable[[], None] = lambda: None
    teardown: Callable[[], None] = lambda: None
    repeats: int = 7
    baseline_label: str = ""
    # Peak memory is measured in a fresh process, where earlier benchmarks cannot inflate it.
    peak_mb: Callable[[], float] | None = None
    max_peak_mb: float | None = None
    # A target that is not a time: checked after the run (e.g. a simulation's figures).
    verdict: Callable[[], bool] | None = None
    verdict_label: str = ""
    # True: candidate and baseline return their own timing in seconds (a spawned program timed
    # to an event, without the time it takes to end it afterwards).
    self_timed: bool = False
    # Figures that are not timings (e.g. memory per process), printed under the result.
    notes: Callable[[], list[str]] | None = None


@dataclass
class Result:
    benchmark: Benchmark
    candidate_s: float
    baseline_s: float
    peak_mb: float | None = None

    @property
    def ratio(self) -> float:
        return self.candidate_s / self.baseline_s

    @property
    def passed(self) -> bool:
        b = self.benchmark
        within_ratio = b.max_ratio is None or self.ratio <= b.max_ratio
        within_time = b.max_seconds is None or self.candidate_s <= b.max_seconds
        within_memory = b.max_peak_mb is None or (
            self.peak_mb is not None and self.peak_mb <= b.max_peak_mb
        )
        within_verdict = b.verdict is None or b.verdict()
        return within_ratio and within_time and within_memory and within_verdict

    @property
    def target(self) -> str:
        b = self.benchmark
        parts = []
        if b.max_ratio is not None:
            parts.append(f"<= {b.max_ratio:g}x")
        if b.max_seconds is not None:
            parts.append(
                f"{b.max_seconds * 1000:g}ms" if b.max_seconds < 1 else f"{b.max_seconds:g}s"
            )
        if b.max_peak_mb is not None:
            parts.append(f"{b.max_peak_mb:g}MB")
        if b.verdict_label:
            parts.append(b.verdict_label)
        return ", ".join(parts)


def measure(benchmark: Benchmark) -> Result:
    benchmark.setup()
    try:
        benchmark.candidate()  # warm caches and imports on both sides before timing
        benchmark.baseline()
        candidate, baseline = [], []
        for _ in range(benchmark.repeats):
            for fn, times in ((benchmark.candidate, candidate), (benchmark.baseline, baseline)):
                start = time.perf_counter()
                timed = fn()
                elapsed = time.perf_counter() - start
                times.append(float(timed) if benchmark.self_timed else elapsed)  # type: ignore[arg-type]
        peak = benchmark.peak_mb() if benchmark.peak_mb else None
        return Result(benchmark, statistics.median(candidate), statistics.median(baseline), peak)
    finally:
        benchmark.teardown()
