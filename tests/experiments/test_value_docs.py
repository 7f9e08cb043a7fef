"""Every value of every computation says what it means and in what unit
(quizapp/experiments/value_docs/), and the tables hold nothing the registry does not promise."""

from __future__ import annotations

import pytest

from quizapp.experiments.registry import COMPUTATIONS
from quizapp.experiments.runner import run
from quizapp.experiments.value_docs import UNITS, VALUE_DOCS, ValueDoc, value_docs
from tests.experiments.test_runner_contract import SMALL_ARGS

NAMES = [spec.name for spec in COMPUTATIONS]


def test_every_value_is_documented_and_nothing_documented_is_stale() -> None:
    assert set(VALUE_DOCS) == set(NAMES), "a computation added or removed: see value_docs/"
    for spec in COMPUTATIONS:
        documented = set(VALUE_DOCS[spec.name])
        assert not set(spec.values) - documented, f"{spec.name}: undocumented values"
        assert not documented - set(spec.values), f"{spec.name}: documented, not given"


def test_each_meaning_is_one_short_line_with_a_known_unit() -> None:
    for name, table in VALUE_DOCS.items():
        for value, (unit, meaning) in table.items():
            where = f"{name}.{value}"
            assert unit in UNITS, f"{where}: unit {unit!r} is not one of UNITS"
            assert meaning and meaning == " ".join(meaning.split()), where
            assert len(meaning) <= 120 and not meaning.endswith("."), where


def test_value_docs_follow_the_registry_order() -> None:
    spec = next(s for s in COMPUTATIONS if s.name == "kv_cache")
    docs = value_docs("kv_cache", spec.values)
    assert [d.name for d in docs] == list(spec.values)
    assert docs[0] == ValueDoc(
        "kv_cache_bytes", "bytes", VALUE_DOCS["kv_cache"]["kv_cache_bytes"][1]
    )
    with pytest.raises(KeyError):
        value_docs("kv_cache", ("no_such_value",))


@pytest.mark.parametrize("name", NAMES)
def test_the_unit_fits_what_the_computation_returns(name: str) -> None:
    """bool for a yes/no, text for words, a number for everything else: read off a real run."""
    spec = next(s for s in COMPUTATIONS if s.name == name)
    result = run(name, SMALL_ARGS[name])
    for doc in value_docs(name, spec.values):
        value = result.values[doc.name]
        where = f"{name}.{doc.name} = {value!r} ({doc.unit or 'a number'})"
        if doc.unit == "bool":
            assert isinstance(value, bool), where
        elif doc.unit == "text":
            assert isinstance(value, str), where
        else:
            assert isinstance(value, int | float) and not isinstance(value, bool), where
