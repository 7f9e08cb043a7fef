"""A stand-in for quizapp.experiments.runner.run whose runs take a set time.

It polls `is_cancelled` while it "computes", as the real computations do at each progress
report, and records every run. `variance_drift` never finishes on its own: only cancellation
stops it. Every other run takes $TIMED_RUN_SECONDS (default 0).

`python -m tests.authoring.timed_runner lint ...` runs the command line with it in place, so a
subprocess test (a pty, exit codes) needs neither torch nor real computing time.
"""

from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Callable, Mapping
from types import SimpleNamespace

from quizapp.experiments.context import Cancelled
from quizapp.experiments.registry import get_spec

NEVER_FINISHES = "variance_drift"
runs: list[tuple[str, dict[str, object]]] = []


def timed_run(
    name: str,
    args: Mapping[str, object] | None = None,
    *,
    device: str = "auto",
    on_progress: Callable[[float, str], None] | None = None,
    is_cancelled: Callable[[], bool] | None = None,
    threads: int | None = None,
) -> SimpleNamespace:
    spec = get_spec(name)
    bound = spec.bind(args or {})
    runs.append((name, bound))
    seconds = math.inf if name == NEVER_FINISHES else float(os.environ.get("TIMED_RUN_SECONDS", 0))
    finish = time.monotonic() + seconds
    while time.monotonic() < finish:
        if is_cancelled is not None and is_cancelled():
            raise Cancelled
        time.sleep(0.005)
    return SimpleNamespace(values=dict.fromkeys(spec.values, 1.5))


def main(argv: list[str]) -> int:
    from quizapp.cli import main as cli_main
    from quizapp.experiments import runner

    runner.run = timed_run  # type: ignore[assignment]
    return cli_main(argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
