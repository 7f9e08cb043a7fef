"""The numbers a number box's hint may show in this app: none of them a key the app knows.

quizapp/bank/number_examples.py chooses the examples; this feeds it what the app knows of the
loaded bank's numbers: every literal key and trap, every computed (`from:`) key the result
cache holds, for every variant of a parameterized question, and each key the quiz's lab has
computed since (`learn`). A key no run has computed yet cannot be known: other questions'
hints are chosen again when it is, and the question's own hint shows no example until then
(the quiz redraws its hint when its lab has computed the key).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from quizapp.bank.model import NumericQuestion, Question
from quizapp.bank.number_examples import AvoidedNumbers, NumberExamples
from quizapp.bank.variants import assignments, compute_args

if TYPE_CHECKING:
    from quizapp.bank import Bank
    from quizapp.experiments.result import Result

# Variants looked up per parameterized question: a bank's `vary:` is small (the validator
# bounds it), so this only guards the UI thread against a pathological one.
MOST_VARIANTS = 1000

StoredResult = Callable[[str, Mapping[str, object]], "Result | None"]
RunOf = tuple[str, str]  # (computation, its arguments as canonical JSON)


class BankNumbers:
    """Examples for the hints, clear of the keys and traps of `bank()` (looked up each time, so
    a reloaded bank is used) and of the question on screen. `stored` reads a result an earlier
    run kept (LabService.stored); it is asked again for the keys it did not have."""

    def __init__(self, bank: Callable[[], Bank], stored: StoredResult) -> None:
        self._bank = bank
        self._stored = stored
        self._built_for: Bank | None = None
        self._avoided = AvoidedNumbers()
        # Computed keys not known yet: the run that gives each (name, arguments), and the
        # questions it keys.
        self._unknown: dict[RunOf, tuple[str, Mapping[str, object], list[NumericQuestion]]] = {}
        # Keys the lab computed (learn), kept across a reload of the bank.
        self._learned: dict[RunOf, tuple[NumericQuestion, float]] = {}

    def examples_for(
        self, question: Question, derived: Mapping[str, object] | None = None
    ) -> NumberExamples | None:
        """Examples for `question`'s hint; `derived`: its computation's values, when known.

        None while the question's own key is computed and not known yet: no example can be
        shown to differ from it, so the hint shows none until it is (the quiz writes its hint
        again then).
        """
        self._refresh()
        avoided = self._avoided.copy()
        avoided.avoid_question(question)  # a session may hold a question the bank no longer has
        if isinstance(question, NumericQuestion) and question.answer.from_value is not None:
            key = self._own_key(question, derived)
            if key is None:
                return None
            avoided.avoid_key(question, key)
        return avoided.examples()

    def learn(self, question: Question, derived: Mapping[str, object]) -> None:
        """A key the lab computed: kept clear of from now on, in every hint."""
        self._refresh()
        if isinstance(question, NumericQuestion) and question.compute is not None:
            key = _key_in(question, derived)
            if key is not None:
                self._learned[_run_of(question.compute.name, question.compute.args)] = (
                    question,
                    key,
                )
                self._avoided.avoid_key(question, key)

    def _own_key(
        self, question: NumericQuestion, derived: Mapping[str, object] | None
    ) -> float | None:
        key = _key_in(question, derived)
        if key is not None or question.compute is None:
            return key
        run = _run_of(question.compute.name, question.compute.args)
        if run in self._learned:
            return self._learned[run][1]
        stored = self._stored(question.compute.name, question.compute.args)
        return None if stored is None else _key_in(question, stored.values)

    def _refresh(self) -> None:
        bank = self._bank()
        if bank is not self._built_for:
            self._build(bank)
        for run, (name, args, keyed) in list(self._unknown.items()):
            result = self._stored(name, args)
            if result is None:
                continue
            del self._unknown[run]
            for question in keyed:
                key = _key_in(question, result.values)
                if key is not None:
                    self._avoided.avoid_key(question, key)

    def _build(self, bank: Bank) -> None:
        self._built_for = bank
        self._avoided = AvoidedNumbers()
        self._unknown = {}
        for question, key in self._learned.values():
            self._avoided.avoid_key(question, key)
        for question in bank.questions.values():
            self._avoided.avoid_question(question)
            if not isinstance(question, NumericQuestion) or question.compute is None:
                continue
            if question.answer.from_value is None:
                continue
            variants = itertools.islice(assignments(question), MOST_VARIANTS)
            for assignment in variants if question.vary else [{}]:
                args = compute_args(question.compute, assignment)
                name = question.compute.name
                self._unknown.setdefault(_run_of(name, args), (name, args, []))[2].append(question)


def _run_of(name: str, args: Mapping[str, object]) -> RunOf:
    return name, json.dumps(dict(args), sort_keys=True, default=str)


def _key_in(question: NumericQuestion, values: Mapping[str, object] | None) -> float | None:
    """The question's computed key among a computation's `values`, or None."""
    if values is None:
        return None
    value = values.get(question.answer.from_value or "")
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


__all__ = ["BankNumbers"]
