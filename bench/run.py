"""Run quizapp's benchmarks: each measures a candidate against a baseline run alongside it.

    python bench/run.py              # every benchmark
    python bench/run.py lint         # those whose name contains "lint"
    python bench/run.py --check      # exit 1 if any target is missed

Timings are medians of interleaved runs (candidate, baseline, candidate, ...), so a busy
machine slows both sides alike and the ratio stays meaningful.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH_DIR))

from harness import Benchmark, measure  # noqa: E402


def discover() -> list[Benchmark]:
    found: list[Benchmark] = []
    for path in sorted(BENCH_DIR.glob("bench_*.py")):
        spec = importlib.util.spec_from_file_location(path.stem, path)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        found.extend(module.BENCHMARKS)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "filters", nargs="*", help="run benchmarks whose name contains any of these"
    )
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args(argv)
    benchmarks = [
        b for b in discover() if not args.filters or any(f in b.name for f in args.filters)
    ]
    if not benchmarks:
        print("no benchmark matches", file=sys.stderr)
        return 2
    header = (
        f"{'benchmark':<34} {'candidate':>11} {'baseline':>11} {'ratio':>7} {'target':>16}  result"
    )
    print(header)
    print("-" * len(header))
    failures = 0
    for benchmark in benchmarks:
        result = measure(benchmark)
        verdict = "ok" if result.passed else "MISSED"
        failures += not result.passed
        print(
            f"{benchmark.name:<34} {result.candidate_s * 1000:>9.1f}ms {result.baseline_s * 1000:>9.1f}ms "
            f"{result.ratio:>6.2f}x {result.target:>22}  {verdict}"
        )
        print(f"    {benchmark.description}")
        if benchmark.baseline_label:
            print(f"    baseline: {benchmark.baseline_label}")
        if result.peak_mb is not None:
            print(f"    peak memory: {result.peak_mb:.0f} MB")
    return 1 if failures and args.check else 0


if __name__ == "__main__":
    raise SystemExit(main())
