"""Running computations for `quizapp lint`: one total time budget, each distinct run once.

Lint checks what a bank says about its computations by running them (a numeric answer
written as `from: <value>`, and anything else that states what a computation gives). A
careless or hostile bank can ask for hundreds of runs near the arguments' bounds, so
`BudgetedRuns`:

- runs each computation in a worker thread and stops waiting when the budget is spent, so
  the budget bounds wall time, not merely the number of runs;
- asks the run in progress to stop through the Context's `is_cancelled` hook (the one the
  TUI's lab uses), which every computation polls at each progress report;
- abandons a run that cannot stop in time (inside the torch import, say): `live_runs()`
  tells the command line to exit without waiting for it;
- runs each (computation, bound arguments) pair once, caching its values or its error, so
  variants and questions that ask for the same run share it;
- runs one computation at a time and keeps only the named values, so memory peaks at one
  computation's, which the registry's argument bounds cap;
- given a `ResultCache`, answers from results stored on disk by earlier runs (which costs no
  budget and imports no torch) and stores what it computes, so a second lint of an unchanged
  bank never imports torch.
"""

from __future__ import annotations

import atexit
import json
import math
import os
import threading
import time
import weakref
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from quizapp.experiments.context import Cancelled

if TYPE_CHECKING:
    from quizapp.experiments.result import Result
    from quizapp.experiments.result_cache import ResultCache

# Every derived answer of the bundled bank evaluates in about 2 s on an idle 2-core machine
# (most of it the torch import), and in about 5 s with both cores busy: 10 s leaves room for
# a loaded CI runner while an editor's lint-on-save or a CI job on a hostile file is never
# held for longer than this.
DEFAULT_BUDGET_SECONDS = 10.0
# A machine slower than that (a shared CI runner) sets its own default, as pip's timeout can be.
BUDGET_VARIABLE = "QUIZAPP_EVAL_TIMEOUT"
MAX_BUDGET_SECONDS = 86_400.0
# Lint's computations are small (the registry bounds them), so torch's second intra-op thread
# gains them little, and on a busy machine it costs far more: with both cores taken by other
# work, gradient_flow at 16 blocks took 10-50 s on two threads and 1-2 s on one, which put a
# cold `lint --strict` of the bundled bank past the budget.
LINT_THREADS = 1
# A cancelled run gets this long to reach its next progress report before it is abandoned.
STOP_GRACE_SECONDS = 0.2
# How often the waiting thread hands control to `on_wait` (the progress line).
WAIT_STEP_SECONDS = 0.1

Values = Mapping[str, object]
RunKey = tuple[str, str]  # (computation name, its bound arguments as canonical JSON)

_workers: weakref.WeakSet[threading.Thread] = weakref.WeakSet()


# How long a finishing Python process waits for abandoned runs to reach their next check.
EXIT_WAIT_SECONDS = 30.0


class BudgetSpent(Exception):
    """The budget ran out before the computation asked for could run (or finish)."""


def live_runs() -> frozenset[threading.Thread]:
    """The worker threads still running, abandoned at a deadline or not stopped yet."""
    return frozenset(thread for thread in list(_workers) if thread.is_alive())


def _let_abandoned_runs_stop() -> None:
    """A torch thread still running when the interpreter shuts down aborts the process, so a
    program that used lint as a library waits for its cancelled runs to stop. (The command line
    does not wait: it leaves through os._exit.)"""
    deadline = time.monotonic() + EXIT_WAIT_SECONDS
    for thread in live_runs():
        thread.join(max(0.0, deadline - time.monotonic()))


# atexit runs its hooks last-registered first, and weakref.finalize registers its own hook the
# first time any finalizer is made, which a worker's torch import would otherwise do after this
# module registered: torch's finalizers would then run while the import was still going, and
# print "Exception ignored in: <finalize object …>". Making a finalizer first puts weakref's hook
# before ours, so abandoned runs stop before any finalizer runs.
weakref.finalize(_let_abandoned_runs_stop, lambda: None)
atexit.register(_let_abandoned_runs_stop)


def run_key(name: str, args: Mapping[str, object]) -> RunKey:
    """What makes two runs the same: the name and the arguments after defaults are filled in,
    so `{name: mha_params}` and `{name: mha_params, args: {d_model: 512}}` are one run."""
    from quizapp.experiments.registry import get_spec

    try:
        bound: Mapping[str, object] = get_spec(name).bind(args)
    except Exception:  # an unknown name or bad arguments fail alike whenever they run
        bound = args
    return name, json.dumps(dict(bound), sort_keys=True, default=str)


def stored_results(use: bool = True) -> ResultCache | None:
    """The user's stored results, unless `use` is False (`--no-cache`) or QUIZAPP_NO_CACHE."""
    if not use:
        return None
    from quizapp.experiments.result_cache import ResultCache

    return ResultCache.default()


class BudgetedRuns:
    """Computations run on the CPU for lint, within `budget` seconds in all (None: no limit).

    With `stored` (see quizapp.experiments.result_cache), a run made before is read from disk
    instead, and each new successful run is stored there."""

    def __init__(
        self,
        budget: float | None,
        *,
        on_wait: Callable[[], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
        stored: ResultCache | None = None,
    ) -> None:
        self.budget = budget or None  # 0 means no limit, as `--eval-timeout 0` does
        self._clock = clock
        self._deadline = None if self.budget is None else clock() + self.budget
        self.on_wait = on_wait or (lambda: None)  # called every WAIT_STEP_SECONDS while waiting
        self.stored = stored
        self.from_disk = 0  # how many distinct runs were answered from the stored results
        self._cache: dict[RunKey, Values | Exception] = {}

    @property
    def spent(self) -> bool:
        return self._deadline is not None and self._clock() >= self._deadline

    @property
    def runs(self) -> int:
        """How many distinct computations have run (or failed)."""
        return len(self._cache)

    def outcome(self, name: str, args: Mapping[str, object]) -> Values | Exception:
        """The computation's named values, or the exception it raised. Raises BudgetSpent
        when it has not run yet and the budget does not allow it to finish."""
        key = run_key(name, args)
        if key not in self._cache:
            earlier = self.stored.get(name, args, "cpu") if self.stored is not None else None
            if earlier is not None:  # reading it costs no budget, like a run already made
                self.from_disk += 1
                self._cache[key] = dict(earlier.values)
            elif self.spent:
                raise BudgetSpent
            else:
                self._cache[key] = self._run(name, args)
        return self._cache[key]

    def made(self, name: str, args: Mapping[str, object]) -> Values | Exception:
        """The outcome of a run made (or read from disk) already. Raises KeyError if none was:
        this never runs anything, so it costs no budget."""
        return self._cache[run_key(name, args)]

    def _remaining(self) -> float | None:
        return None if self._deadline is None else max(0.0, self._deadline - self._clock())

    def _run(self, name: str, args: Mapping[str, object]) -> Values | Exception:
        stop = threading.Event()
        finished = threading.Event()
        outcome: list[Result | Exception] = []

        def cancelled() -> bool:
            return stop.is_set() or self.spent

        def work() -> None:
            try:
                from quizapp.experiments import runner  # looked up per run: tests count runs

                outcome.append(
                    runner.run(
                        name, args, device="cpu", is_cancelled=cancelled, threads=LINT_THREADS
                    )
                )
            except Exception as exc:  # a failing computation is a finding, not a crash
                outcome.append(exc)
            finally:
                finished.set()

        worker = threading.Thread(target=work, name=f"lint-run-{name}", daemon=True)
        _workers.add(worker)
        worker.start()
        try:
            while not finished.wait(min(WAIT_STEP_SECONDS, self._remaining() or WAIT_STEP_SECONDS)):
                self.on_wait()
                if self.spent:
                    stop.set()
                    finished.wait(STOP_GRACE_SECONDS)
                    break
        finally:
            stop.set()  # also on Ctrl-C: a run nobody waits for stops at its next check
        if not outcome or isinstance(outcome[0], Cancelled):
            raise BudgetSpent
        if isinstance(outcome[0], Exception):
            return outcome[0]
        result = outcome[0]
        if self.stored is not None:
            self.stored.put(result, args)
        return dict(result.values)  # only the values are kept in memory


def default_budget() -> float | None:
    """The budget when none is given: $QUIZAPP_EVAL_TIMEOUT seconds (0: no limit), else
    DEFAULT_BUDGET_SECONDS. Raises ValueError, naming the variable, when it is not a number
    of seconds from 0 to a day."""
    text = os.environ.get(BUDGET_VARIABLE, "").strip()
    if not text:
        return DEFAULT_BUDGET_SECONDS
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not 0 <= seconds <= MAX_BUDGET_SECONDS:  # NaN fails too
        raise ValueError(
            f"{BUDGET_VARIABLE} must be seconds from 0 (no limit) to {MAX_BUDGET_SECONDS:g}, "
            f"not {text[:40]!r}"
        )
    return seconds or None


__all__ = [
    "BUDGET_VARIABLE",
    "DEFAULT_BUDGET_SECONDS",
    "BudgetSpent",
    "BudgetedRuns",
    "RunKey",
    "Values",
    "default_budget",
    "live_runs",
    "run_key",
    "stored_results",
]
