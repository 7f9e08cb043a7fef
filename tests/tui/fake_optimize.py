"""`quizapp optimize` with a stand-in for py-fsrs's optimizer, for the app's Fit screen tests.

Run as a script in the child process the Fit screen starts. Everything but the optimizer is
the real command: the history read, the refusal, the held-out check, the stored fit, the JSON.
The stand-in returns FORGETFUL (the simulated student's true parameters) at once, or after
`FAKE_OPTIMIZER_SECONDS` (a slow fit to cancel).
"""

from __future__ import annotations

import os
import sys
import time

from tests.srs.simulated_history import FORGETFUL


class FastOptimizer:
    def __init__(self, review_logs) -> None:
        self.review_logs = list(review_logs)

    def compute_optimal_parameters(self, verbose: bool = False) -> list[float]:
        time.sleep(float(os.environ.get("FAKE_OPTIMIZER_SECONDS", "0")))
        return list(FORGETFUL)

    def compute_optimal_retention(self, parameters) -> float:
        return 0.85


if __name__ == "__main__":
    import quizapp.srs.memory.optimize
    from quizapp.cli import main

    quizapp.srs.memory.optimize.load_optimizer = lambda: FastOptimizer
    sys.exit(main(["optimize", *sys.argv[1:]]))
