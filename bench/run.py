"""Run quizapp's benchmarks: each measures a candidate against a baseline run alongside it.

    python bench/run.py              # every benchmark
    python bench/run.py lint         # those whose name contains "lint"
    python bench/run.py --check      # exit 1 if any target is missed
    python bench/run.py items        # the test-wise student on the shipped bank
    python bench/run.py items my.yaml other_bank/   # ... and on these banks too

Timings are medians of interleaved runs (candidate, baseline, candidate, ...), so a busy
machine slows both sides alike and the ratio stays meaningful.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

BENCH_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH_DIR))
# This checkout's quizapp (and its tests' PostgreSQL helper), not whichever one is installed.
sys.path.insert(1, str(BENCH_DIR.parent))

from harness import Benchmark, measure  # noqa: E402


def load(path: Path) -> tuple[list[Benchmark], str | None, ModuleType]:
    """A file's benchmarks, why they cannot run here (its `skip_reason()`) or None, and the
    module itself."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # as an import does: a dataclass in it looks itself up there
    spec.loader.exec_module(module)
    skip_reason = getattr(module, "skip_reason", lambda: None)
    return list(module.BENCHMARKS), skip_reason(), module


def is_bank_path(argument: str) -> bool:
    """A bank file or folder given where filters go (`items question_bank/x.yaml`)."""
    path = Path(argument)
    return path.is_dir() or (path.is_file() and path.suffix in (".yaml", ".yml"))


def run_module(path: Path, filters: list[str], banks: Sequence[str] = ()) -> tuple[int, int]:
    """Run one file's matching benchmarks in this process. Returns (run, missed). `banks`
    go to a file that measures banks (its `use_banks`)."""
    found, skip, module = load(path)
    benchmarks = [b for b in found if not filters or any(f in b.name for f in filters)]
    use_banks = getattr(module, "use_banks", None)
    if use_banks is not None:
        use_banks(list(banks))
    if benchmarks and skip:
        print(f"{path.stem}: {len(benchmarks)} skipped: {skip}")
        print(f"__summary__ 0 0 {len(benchmarks)}")
        return 0, 0
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
        for note in benchmark.notes(result) if benchmark.notes else ():
            print(f"    {note}")
        # Other work on the machine stretches both sides alike, but not always evenly: say how busy.
        print(f"    load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        sys.stdout.flush()
    print(f"__summary__ {len(benchmarks)} {missed} 0")
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
    parser.add_argument("--bank", action="append", default=[], help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.module:
        run_module(Path(args.module), args.filters, args.bank)
        return 0
    # Bank paths among the filters are banks to measure (only `items` measures banks).
    banks = [f for f in args.filters if is_bank_path(f)]
    args.filters = [f for f in args.filters if not is_bank_path(f)] or (["items"] if banks else [])
    bank_options = [option for bank in banks for option in ("--bank", bank)]

    header = (
        f"{'benchmark':<34} {'candidate':>11} {'baseline':>11} {'ratio':>7} {'target':>22}  result"
    )
    print(header)
    print("-" * len(header), flush=True)
    total = missed = skipped = 0
    # Each file runs in a fresh interpreter: a file that imports torch must not slow the
    # next one down (a large heap makes every garbage collection pass longer).
    for path in sorted(BENCH_DIR.glob("bench_*.py")):
        child = subprocess.run(
            [sys.executable, __file__, "--module", str(path), *bank_options, *args.filters],
            capture_output=True,
            text=True,
        )
        for line in child.stdout.splitlines():
            if line.startswith("__summary__ "):
                ran, failed, passed_over = map(int, line.split()[1:])
                total, missed, skipped = total + ran, missed + failed, skipped + passed_over
            else:
                print(line, flush=True)
        if child.returncode != 0:
            print(f"{path.name} failed:\n{child.stderr}", file=sys.stderr)
            return 2
    if total == 0 and not skipped:
        print("no benchmark matches", file=sys.stderr)
        return 2
    return 1 if missed and args.check else 0


if __name__ == "__main__":
    raise SystemExit(main())
