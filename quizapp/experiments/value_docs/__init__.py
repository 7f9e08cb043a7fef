"""What every value of every computation means, and its unit: for `quizapp compute --list NAME`,
`--search`, the JSON Schema and docs/computations.md.

Pure Python, like registry.py, whose `values` stay plain names everywhere they are used; each
meaning here was read off the implementation in `lab/`. One module per topic, as in `lab/`. A
test keeps these tables and the registry in step: every value documented, with a unit from
UNITS, and nothing documented that no computation gives.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from quizapp.experiments.value_docs.attention import ATTENTION
from quizapp.experiments.value_docs.normalization import NORMALIZATION
from quizapp.experiments.value_docs.positions import POSITIONS

# "" is a plain number: a difference, a variance, a cosine, a norm, a slope.
UNITS = (
    "parameters",
    "FLOPs",
    "bytes",
    "GiB",
    "tokens",
    "positions",
    "dimensions",
    "features",
    "layers",
    "heads",
    "LayerNorms",
    "sub-layers",
    "words",
    "rows",
    "pairs",
    "calls",
    "radians per token",
    "attention weight",
    "logit",
    "ratio",
    "bool",
    "text",
    "",
)

# computation -> value -> (unit, meaning). A meaning is one line, with no final full stop.
VALUE_DOCS: dict[str, dict[str, tuple[str, str]]] = {**ATTENTION, **POSITIONS, **NORMALIZATION}


class ValueDoc(NamedTuple):
    name: str
    unit: str
    meaning: str


def value_docs(computation: str, values: Sequence[str]) -> tuple[ValueDoc, ...]:
    """The documentation of `values` of `computation`, in their order. Raises KeyError."""
    table = VALUE_DOCS[computation]
    return tuple(ValueDoc(value, *table[value]) for value in values)
