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
    max_ratio: float
    max_seconds: float | None = None
    setup: Callable[[], None] = lambda: None
    teardown: Callable[[], None] = lambda: None
    repeats: int = 7


@dataclass
class Result:
    benchmark: Benchmark
    candidate_s: float
    baseline_s: float

    @property
    def ratio(self) -> float:
        return self.candidate_s / self.baseline_s

    @property
    def passed(self) -> bool:
        within_ratio = self.ratio <= self.benchmark.max_ratio
        within_time = (
            self.benchmark.max_seconds is None or self.candidate_s <= self.benchmark.max_seconds
        )
        return within_ratio and within_time


def measure(benchmark: Benchmark) -> Result:
    benchmark.setup()
    try:
        benchmark.candidate()  # warm caches and imports on both sides before timing
        benchmark.baseline()
        candidate, baseline = [], []
        for _ in range(benchmark.repeats):
            for fn, times in ((benchmark.candidate, candidate), (benchmark.baseline, baseline)):
                start = time.perf_counter()
                fn()
                times.append(time.perf_counter() - start)
        return Result(benchmark, statistics.median(candidate), statistics.median(baseline))
    finally:
        benchmark.teardown()
