"""No number box's hint, nor any message a rejected entry gets, shows a key of the bank.

Over the whole shipped bank: every numeric question (every variant of a parameterized one),
its hint as the quiz and the exam write it, both before any computation has run (a fresh app)
and with every computed key known, checked against every key and trap of the bank in every
form the app prints or reads a number (tests/tui/number_forms.py).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

import pytest

from quizapp.bank import Bank, bundled_bank_path, load_bank
from quizapp.bank.answers import NumberFormatError, parse_number
from quizapp.bank.model import NumericQuestion
from quizapp.bank.number_examples import WHOLE_CANDIDATES
from quizapp.bank.variants import assignments, compute_args, instantiate
from quizapp.experiments.result import Result
from quizapp.tui.text.exam_lines import EXAM_ENTER
from quizapp.tui.text.number_examples import BankNumbers
from quizapp.tui.widgets.answer_input import numeric_hint
from tests.tui.number_forms import key_shown, shown_forms, values_near

# What a student might type that the box refuses: each message it gets is checked.
REJECTED = ("12,34", "1 2 8", "1,2,3", "abc", "12 furlongs", "2^99999", "1e999", "1e", "1.5.5")
# The tolerance a hint states is the question's own, not an example: checked only against
# the question's own key.
TOLERANCE = re.compile(r"within \S+ of the key")


def variants(question: NumericQuestion) -> list[NumericQuestion]:
    if not question.vary:
        return [question]
    return [instantiate(question, a) for a in assignments(question)]  # type: ignore[misc]


def run_of(question: NumericQuestion) -> tuple[str, str]:
    assert question.compute is not None
    return question.compute.name, repr(sorted(compute_args(question.compute, {}).items()))


@pytest.fixture(scope="module")
def shipped() -> tuple[Bank, dict[tuple[str, str], Mapping[str, object]]]:
    """The shipped bank, and the values of every computation that keys one of its questions
    (run as lint runs them: on the CPU, each distinct run once)."""
    from quizapp.authoring.evaluation import BudgetedRuns

    bank = load_bank([bundled_bank_path()])
    runs = BudgetedRuns(None)
    computed: dict[tuple[str, str], Mapping[str, object]] = {}
    for question in bank.questions.values():
        if isinstance(question, NumericQuestion) and question.answer.from_value:
            for variant in variants(question):
                assert variant.compute is not None
                values = runs.outcome(variant.compute.name, variant.compute.args)
                assert not isinstance(values, Exception), values
                computed[run_of(variant)] = values
    return bank, computed


def key_of(question: NumericQuestion, computed: Mapping[tuple[str, str], Mapping[str, object]]):
    if question.answer.value is not None:
        return question.answer.value
    return float(computed[run_of(question)][question.answer.from_value or ""])  # type: ignore[arg-type]


def stored_from(computed: Mapping[tuple[str, str], Mapping[str, object]]):
    """LabService.stored, answering from `computed` as the result cache would."""

    def stored(name: str, args: Mapping[str, object]) -> Result | None:
        values = computed.get((name, repr(sorted(args.items()))))
        if values is None:
            return None
        return Result(name, dict(args), "cpu", dict(values), "", cached=True)  # type: ignore[arg-type]

    return stored


@pytest.mark.parametrize("known", ["nothing computed yet", "every computed key known"])
def test_no_hint_in_the_shipped_bank_shows_its_key_or_any_key_or_trap(shipped, known) -> None:
    bank, computed = shipped
    numeric = [
        variant
        for question in bank.questions.values()
        if isinstance(question, NumericQuestion)
        for variant in variants(question)
    ]
    assert len(numeric) > 10  # the bank's numeric questions, parameterized ones per variant
    keys = {key_of(question, computed) for question in numeric}
    traps = {trap.value for question in numeric for trap in question.traps}
    assert 1048576 in keys  # the number the old hint showed as its example
    stored = stored_from(computed if known == "every computed key known" else {})
    numbers = BankNumbers(lambda: bank, stored)
    leaks = []
    for question in numeric:
        for enter in ("Enter submit", EXAM_ENTER):
            hint = numeric_hint(question, enter, numbers.examples_for(question)).plain
            own = key_shown(hint, key_of(question, computed))
            examples = TOLERANCE.sub("", hint)
            others = values_near(examples, sorted(keys | traps))
            others += [form for key in keys for form in shown_forms(examples, key)]
            if own or others:
                leaks.append(f"{question.id} {dict(question.assignment)}: {hint!r}: {own + others}")
    assert leaks == []


def test_no_message_a_rejected_entry_gets_shows_a_key_of_the_shipped_bank(shipped) -> None:
    bank, computed = shipped
    numbers = BankNumbers(lambda: bank, stored_from(computed))
    numeric = [
        variant
        for question in bank.questions.values()
        if isinstance(question, NumericQuestion)
        for variant in variants(question)
    ]
    keys = sorted({key_of(question, computed) for question in numeric})
    leaks = []
    for question in numeric:
        examples = numbers.examples_for(question)
        assert examples is not None
        for typed in REJECTED:
            with pytest.raises(NumberFormatError) as raised:
                parse_number(typed, question.answer.unit)
            # The entry itself is the student's, echoed back: only the rest is checked.
            message = raised.value.explained(examples.whole).replace(repr(typed), "")
            if found := values_near(message, keys):
                leaks.append(f"{question.id}, {typed!r}: {message!r}: {found}")
    assert leaks == []


HEADER = "deck: {id: n, title: N, topic: n, domain: D, exam_weight: 1}\nquestions:\n"
QUESTIONS = """\
  - id: n-literal
    type: numeric
    difficulty: easy
    tags: [n]
    prompt: How many?
    explanation: This many.
    answer: 1234567
    traps: [{value: 2187, why: cubed instead}]
  - id: n-computed
    type: numeric
    difficulty: easy
    tags: [n]
    prompt: How many parameters?
    explanation: As computed.
    compute: {name: mha_params, args: {d_model: 512, n_heads: 8}}
    answer: {from: params_multi_head}
"""


def small_bank(tmp_path: Path) -> Bank:
    path = tmp_path / "n.yaml"
    path.write_text(HEADER + QUESTIONS)
    bank = load_bank([path])
    assert not bank.errors, bank.errors
    return bank


def test_the_app_avoids_literal_keys_traps_and_stored_computed_keys(tmp_path) -> None:
    bank = small_bank(tmp_path)
    stored: dict[tuple[str, str], Mapping[str, object]] = {}
    numbers = BankNumbers(lambda: bank, stored_from(stored))
    literal, computed = bank.questions["n-literal"], bank.questions["n-computed"]
    first = numbers.examples_for(literal)
    assert first is not None
    assert first.whole == WHOLE_CANDIDATES[1]  # the literal key took the first candidate
    assert first.power != (3, 7)  # 3^7 is a trap
    # Its own key not known yet, a computed question's hint shows no example at all.
    assert numbers.examples_for(computed) is None
    # The result cache comes to hold the computed key: asked again, it is avoided everywhere.
    stored[("mha_params", repr(sorted({"d_model": 512, "n_heads": 8}.items())))] = {
        "params_multi_head": WHOLE_CANDIDATES[1]
    }
    for question in (literal, computed):
        examples = numbers.examples_for(question)
        assert examples is not None and examples.whole == WHOLE_CANDIDATES[2], question.id


def test_a_key_the_lab_computed_is_avoided_from_then_on_even_after_a_reload(tmp_path) -> None:
    banks = [small_bank(tmp_path)]
    numbers = BankNumbers(lambda: banks[-1], stored_from({}))  # caching off: nothing stored
    computed = banks[-1].questions["n-computed"]
    derived = {"params_multi_head": WHOLE_CANDIDATES[1]}
    given = numbers.examples_for(computed, derived)  # the quiz passes its lab's values
    assert given is not None and given.whole == WHOLE_CANDIDATES[2]
    numbers.learn(computed, derived)
    banks.append(small_bank(tmp_path))  # reloaded: a new bank object, the same questions
    for question in banks[-1].questions.values():
        examples = numbers.examples_for(question)
        assert examples is not None and examples.whole == WHOLE_CANDIDATES[2], question.id


def test_the_question_on_screen_is_avoided_even_when_the_bank_no_longer_has_it(tmp_path) -> None:
    bank = small_bank(tmp_path)
    empty = Bank()
    numbers = BankNumbers(lambda: empty, stored_from({}))  # reloaded since the session began
    examples = numbers.examples_for(bank.questions["n-literal"])
    assert examples is not None and examples.whole != 1234567 and examples.power != (3, 7)
    derived = {"params_multi_head": WHOLE_CANDIDATES[0] * 1000 + 1}
    assert numbers.examples_for(bank.questions["n-computed"], derived) is not None


def test_a_hint_with_no_safe_example_names_the_forms_without_a_number(tmp_path) -> None:
    path = tmp_path / "n.yaml"
    path.write_text(
        HEADER + QUESTIONS.replace("answer: 1234567", "answer: {value: 5, tolerance: 1e100}")
    )
    bank = load_bank([path])
    question = bank.questions["n-literal"]
    assert isinstance(question, NumericQuestion)
    numbers = BankNumbers(lambda: bank, stored_from({}))
    hint = numeric_hint(question, "Enter submit", numbers.examples_for(question)).plain
    assert "Type a number: digits" in hint
    assert re.findall(r"\d", TOLERANCE.sub("", hint)) == []
