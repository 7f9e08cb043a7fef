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
import os
import subprocess
import sys
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH_DIR))

from harness import Benchmark, measure  # noqa: E402


def load(path: Path) -> list[Benchmark]:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return list(module.BENCHMARKS)


def run_module(path: Path, filters: list[str]) -> tuple[int, int]:
    """Run one file's matching benchmarks in this process. Returns (run, missed)."""
    benchmarks = [b for b in load(path) if not filters or any(f in b.name for f in filters)]
    missed = 0
    for benchmark in benchmarks:
        result = measure(benchmark)
        verdict = "ok" if result.passed else "MISSED"
        missed += not result.passed
        print(
            f"{benchmark.name:<34} {result.candidate_s * 1000:>9.1f}ms "
            f"{result.baseline_s * 1000:>9.1f}ms {result.ratio:>6.2f}x {result.target:>22}  {verdict}"
        )
        print(f"    {benchmark.description}")
        if benchmark.baseline_label:
            print(f"    baseline: {benchmark.baseline_label}")
        if result.peak_mb is not None:
            print(f"    peak memory: {result.peak_mb:.0f} MB")
        for note in benchmark.notes() if benchmark.notes else []:
            print(f"    {note}")
        # Other work on the machine stretches both sides alike, but not always evenly: say how busy.
        print(f"    load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        sys.stdout.flush()
    print(f"__summary__ {len(benchmarks)} {missed}")
    return len(benchmarks), missed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "filters", nargs="*", help="run benchmarks whose name contains any of these"
    )
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    parser.add_argument("--module", help=argparse.SUPPRESS)  # internal: one file, this process
    args = parser.parse_args(argv)
    if args.module:
        run_module(Path(args.module), args.filters)
        return 0

    header = (
        f"{'benchmark':<34} {'candidate':>11} {'baseline':>11} {'ratio':>7} {'target':>22}  result"
    )
    print(header)
    print("-" * len(header), flush=True)
    total = missed = 0
    # Each file runs in a fresh interpreter: a file that imports torch must not slow the
    # next one down (a large heap makes every garbage collection pass longer).
    for path in sorted(BENCH_DIR.glob("bench_*.py")):
        child = subprocess.run(
            [sys.executable, __file__, "--module", str(path), *args.filters],
            capture_output=True,
            text=True,
        )
        for line in child.stdout.splitlines():
            if line.startswith("__summary__ "):
                ran, failed = map(int, line.split()[1:])
                total, missed = total + ran, missed + failed
            else:
                print(line, flush=True)
        if child.returncode != 0:
            print(f"{path.name} failed:\n{child.stderr}", file=sys.stderr)
            return 2
    if total == 0:
        print("no benchmark matches", file=sys.stderr)
        return 2
    return 1 if missed and args.check else 0


if __name__ == "__main__":
    raise SystemExit(main())
