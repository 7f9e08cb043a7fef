"""Named live computations behind the explanations.

`registry` declares them (pure Python, safe to import anywhere); `runner.run` executes one,
importing torch and the implementation from `lab/` only then.
"""

from quizapp.experiments.registry import COMPUTATIONS, REGISTRY, get_spec
from quizapp.experiments.result import Result, Series, Table
from quizapp.experiments.spec import Arg, ArgumentError, ComputationSpec

__all__ = [
    "COMPUTATIONS",
    "REGISTRY",
    "Arg",
    "ArgumentError",
    "ComputationSpec",
    "Result",
    "Series",
    "Table",
    "get_spec",
]
