"""The test-wise student: what a bank gives someone who answers with no knowledge at all.

    python bench/run.py items                      # the shipped bank
    python bench/run.py items path/to/bank ...     # and these banks (files or folders)

Each strategy answers every question it applies to from the items' form alone (position,
length, shape), in file order (an export's order; sessions shuffle the options), and its
expected score is set beside the chance score: what random guessing expects on the same
questions. Credit is all or nothing, as the app grades: a multiple-choice answer scores only
when it ticks exactly the keys. A random guess there ticks a random non-empty set of the n
options (chance 1/(2^n - 1)).

- first option: single choice, option 1; multiple choice, the first j options, j at random
  from 1 to n (right when the keys are the first k); true/false, always True (shown first);
- longest / shortest option: single choice, that option (ties split evenly); multiple
  choice, the j longest (shortest) options, j at random;
- tick all: multiple choice, every option;
- middle numeric trap: a numeric question with traps, read as a multiple-choice export
  shows it (the key and its traps as options): the median value (of two middle values, either);
- random: a random answer among the options, simulated (its distance from chance is noise).

Target: no strategy beats chance by more than 5 points. Also printed: where the keys sit
(position) and how long they are beside the other options (length rank), each with what
chance expects, and issue 18's figures for a bank (position and strictly longest / shortest
within chance + 10 points, at most one multiple-choice question with every option correct).

Pure Python: no torch. A `from:` key is read from the result cache when an earlier run
(`quizapp lint`, the lab) stored it; numeric questions whose key is not there are left out
of the numeric strategy, and counted.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from math import comb
from pathlib import Path
from typing import Literal

from harness import Benchmark

from quizapp.bank import Bank, bundled_bank_path, load_bank
from quizapp.bank.model import (
    ChoiceQuestion,
    NumericQuestion,
    Question,
    QuestionType,
    TrueFalseQuestion,
)
from quizapp.bank.variants import assignments, instantiate
from quizapp.wording import format_number

TARGET_POINTS = 5.0  # no strategy may beat chance by more
ISSUE_POINTS = 10.0  # issue 18, point 2: position and length within chance + 10 points
RANDOM_DRAWS = 2000  # random answers simulated per question
MOST_VARIANTS = 200  # of one parameterized question, each weighted 1/count

Kind = Literal["single choice", "multiple choice", "true/false", "numeric"]
KINDS: tuple[Kind, ...] = ("single choice", "multiple choice", "true/false", "numeric")
KeyLookup = Callable[[NumericQuestion], "float | None"]


@dataclass(frozen=True)
class Item:
    """One question (or one variant of one) as a student with no knowledge sees it."""

    question_id: str
    kind: Kind
    options: tuple[str, ...]  # in file order; a numeric question's: the key, then its traps
    keys: frozenset[int]
    weight: float = 1.0
    values: tuple[float, ...] = ()  # numeric: the options' values

    @property
    def chance(self) -> float:
        """What a random answer among the options expects."""
        n = len(self.options)
        return 1 / (2**n - 1) if self.kind == "multiple choice" else 1 / n


@dataclass(frozen=True)
class Strategy:
    name: str
    how: str
    score: Callable[[Item], float | None]  # expected score; None: it does not apply


@dataclass(frozen=True)
class Figure:
    """A strategy's expected score against chance over the items it applies to."""

    strategy: Strategy
    questions: float  # weighted count
    expected: float
    chance: float
    by_kind: dict[Kind, tuple[float, float, float]]  # kind: (questions, expected, chance)

    @property
    def points_above(self) -> float:
        return 100 * (self.expected - self.chance)

    @property
    def above_target(self) -> bool:
        return self.points_above > TARGET_POINTS


@dataclass
class Analysis:
    label: str
    items: list[Item]
    figures: list[Figure]
    unknown_keys: list[str]  # numeric questions with traps whose computed key is not stored
    question_count: int

    @property
    def met(self) -> bool:
        return not any(f.above_target for f in self.figures)


# -- the items -------------------------------------------------------------------------------


def stored_keys() -> KeyLookup:
    """Computed keys from the result cache (no torch); None for a key no run has stored."""
    from quizapp.experiments.result_cache import ResultCache

    cache = ResultCache.default()

    def lookup(question: NumericQuestion) -> float | None:
        if cache is None or question.compute is None:
            return None
        result = cache.get(question.compute.name, question.compute.args, "cpu")
        value = None if result is None else result.values.get(question.answer.from_value or "")
        return None if isinstance(value, bool) or not isinstance(value, int | float) else value

    return lookup


def variants(question: Question) -> list[Question]:
    if not question.vary:
        return [question]
    return [instantiate(question, a) for a in islice(assignments(question), MOST_VARIANTS)]


def items_of(bank: Bank, key_of: KeyLookup) -> tuple[list[Item], list[str]]:
    """The bank's option-bearing questions as items, and the numeric ones left out because
    their computed key is not known."""
    items: list[Item] = []
    unknown: list[str] = []
    for question in bank.questions.values():
        shown = variants(question)
        for variant in shown:
            item = _item(variant, 1 / len(shown), key_of)
            if item is not None:
                items.append(item)
            elif isinstance(variant, NumericQuestion) and variant.traps:
                unknown.append(question.id)
    return items, sorted(set(unknown))


def _item(question: Question, weight: float, key_of: KeyLookup) -> Item | None:
    if isinstance(question, ChoiceQuestion):
        kind: Kind = (
            "multiple choice" if question.type is QuestionType.MULTIPLE_CHOICE else "single choice"
        )
        texts = tuple(c.text for c in question.choices)
        return Item(question.id, kind, texts, question.correct_indices, weight)
    if isinstance(question, TrueFalseQuestion):
        keys = frozenset({0 if question.answer else 1})
        return Item(question.id, "true/false", ("True", "False"), keys, weight)
    if isinstance(question, NumericQuestion) and question.traps:
        key = question.answer.value
        key = key if key is not None else key_of(question)
        if key is None:
            return None
        values = (float(key), *(t.value for t in question.traps))
        options = tuple(format_number(v) for v in values)
        return Item(question.id, "numeric", options, frozenset({0}), weight, values)
    return None


# -- the strategies --------------------------------------------------------------------------


def first_option(item: Item) -> float | None:
    n = len(item.options)
    if item.kind in ("single choice", "true/false"):
        return float(0 in item.keys)
    if item.kind == "multiple choice":  # the first j, j at random: right when keys are a prefix
        return 1 / n if item.keys == frozenset(range(len(item.keys))) else 0.0
    return None


def _top_by_length(item: Item, longest: bool) -> float:
    """The chance that the len(keys) longest (shortest) options, ties drawn at random, are
    exactly the keys."""
    sign = 1 if longest else -1
    lengths = [sign * len(text) for text in item.options]
    k = len(item.keys)
    boundary = sorted(lengths, reverse=True)[k - 1]
    above = {i for i, length in enumerate(lengths) if length > boundary}
    tied = {i for i, length in enumerate(lengths) if length == boundary}
    if not above <= item.keys or not item.keys <= above | tied:
        return 0.0
    return 1 / comb(len(tied), k - len(above))


def by_length(longest: bool) -> Callable[[Item], float | None]:
    def score(item: Item) -> float | None:
        if item.kind == "single choice":
            return _top_by_length(item, longest)
        if item.kind == "multiple choice":  # the j longest, j at random
            return _top_by_length(item, longest) / len(item.options)
        return None

    return score


def tick_all(item: Item) -> float | None:
    if item.kind != "multiple choice":
        return None
    return float(len(item.keys) == len(item.options))


def middle_trap(item: Item) -> float | None:
    if item.kind != "numeric":
        return None
    ranked = sorted(range(len(item.values)), key=lambda i: item.values[i])
    n = len(ranked)
    middle = [ranked[n // 2]] if n % 2 else [ranked[n // 2 - 1], ranked[n // 2]]
    return sum(i in item.keys for i in middle) / len(middle)


def random_answer(seed: int = 18) -> Callable[[Item], float | None]:
    rng = random.Random(seed)

    def one(item: Item) -> bool:
        n = len(item.options)
        if item.kind == "multiple choice":
            while not (ticked := frozenset(i for i in range(n) if rng.random() < 0.5)):
                pass
            return ticked == item.keys
        return rng.randrange(n) in item.keys

    def score(item: Item) -> float | None:
        return sum(one(item) for _ in range(RANDOM_DRAWS)) / RANDOM_DRAWS

    return score


def strategies() -> list[Strategy]:
    return [
        Strategy("first option", "1st; multi: the first j, j random; T/F: True", first_option),
        Strategy("longest option", "the longest; multi: the j longest", by_length(True)),
        Strategy("shortest option", "the shortest; multi: the j shortest", by_length(False)),
        Strategy("tick all", "multiple choice: every option", tick_all),
        Strategy("middle numeric trap", "the median of key and traps", middle_trap),
        Strategy("random", f"simulated, {RANDOM_DRAWS} answers a question", random_answer()),
    ]


def figure(strategy: Strategy, items: Iterable[Item]) -> Figure:
    totals: dict[Kind, list[float]] = {}
    for item in items:
        score = strategy.score(item)
        if score is None:
            continue
        row = totals.setdefault(item.kind, [0.0, 0.0, 0.0])
        row[0] += item.weight
        row[1] += item.weight * score
        row[2] += item.weight * item.chance
    weight = sum(row[0] for row in totals.values())
    by_kind = {kind: (w, s / w, c / w) for kind, (w, s, c) in totals.items() if w}
    expected = sum(row[1] for row in totals.values()) / weight if weight else 0.0
    chance = sum(row[2] for row in totals.values()) / weight if weight else 0.0
    return Figure(strategy, weight, expected, chance, by_kind)


def analyse(bank: Bank, label: str, key_of: KeyLookup | None = None) -> Analysis:
    items, unknown = items_of(bank, key_of or stored_keys())
    figures = [figure(strategy, items) for strategy in strategies()]
    return Analysis(label, items, figures, unknown, len(bank.questions))


# -- where the keys sit ------------------------------------------------------------------------


def position_shares(items: Sequence[Item]) -> tuple[list[float], list[float], float]:
    """By position (0-based): the share of keys there, and what chance expects; the number of
    keys. Each question weighs the same; a multiple-choice question's keys share its weight."""
    widest = max(len(item.options) for item in items)
    keys, chance = [0.0] * widest, [0.0] * widest
    total = sum(item.weight for item in items)
    for item in items:
        n = len(item.options)
        for position in range(n):
            keys[position] += item.weight * (position in item.keys) / len(item.keys) / total
            chance[position] += item.weight / n / total
    return keys, chance, total


def length_ranks(item: Item) -> list[int]:
    """Each option's rank by length: 1 + the number of options strictly longer."""
    lengths = [len(text) for text in item.options]
    return [1 + sum(other > length for other in lengths) for length in lengths]


def rank_shares(items: Sequence[Item]) -> tuple[list[float], list[float]]:
    """By length rank (0-based; 0 is the longest): the share of keys, and what chance expects."""
    widest = max(len(item.options) for item in items)
    keys, chance = [0.0] * widest, [0.0] * widest
    total = sum(item.weight for item in items)
    for item in items:
        ranks = length_ranks(item)
        for index, rank in enumerate(ranks):
            share = item.weight / total
            keys[rank - 1] += share * (index in item.keys) / len(item.keys)
            chance[rank - 1] += share / len(ranks)
    return keys, chance


def strictly(items: Sequence[Item], longest: bool) -> tuple[float, float]:
    """The share of single-choice keys strictly longest (shortest), and what chance expects."""
    total = sum(item.weight for item in items)
    keys = chance = 0.0
    for item in items:
        lengths = [len(text) if longest else -len(text) for text in item.options]
        top = max(lengths)
        alone = [i for i, length in enumerate(lengths) if length == top]
        if len(alone) == 1:
            keys += item.weight * (alone[0] in item.keys) / total
            chance += item.weight / len(lengths) / total
    return keys, chance


# -- the report --------------------------------------------------------------------------------


def pct(share: float) -> str:
    return f"{100 * share:5.1f}%"


def report(analysis: Analysis) -> Iterator[str]:
    items = analysis.items
    counts = {kind: sum(1 for i in items if i.kind == kind and i.weight == 1) for kind in KINDS}
    varied = {i.question_id for i in items if i.weight < 1}
    shape = ", ".join(f"{n} {kind}" for kind, n in counts.items() if n)
    yield f"{analysis.label}: {analysis.question_count} questions; with options: {shape}" + (
        f", and {len(varied)} parameterized (each variant weighs 1/count)" if varied else ""
    )
    if analysis.unknown_keys:
        yield (
            f"  left out: {len(analysis.unknown_keys)} numeric question(s) whose computed key "
            f"is not in the result cache ({', '.join(analysis.unknown_keys)}); "
            "`quizapp lint` stores them"
        )
    yield "  expected score answering with no knowledge, in file order; all-or-nothing credit"
    yield "  (a multiple-choice answer must tick exactly the keys; chance there is 1/(2^n-1))"
    yield f"    {'strategy':<20} {'questions':>9} {'expected':>8} {'chance':>7} {'diff':>6}"
    for f in analysis.figures:
        flag = f"  ABOVE chance + {TARGET_POINTS:g}" if f.above_target else ""
        yield (
            f"    {f.strategy.name:<20} {f.questions:9.4g} {pct(f.expected):>8} "
            f"{pct(f.chance):>7} {f.points_above:+6.1f}{flag}"
        )
        for kind, (questions, expected, chance) in f.by_kind.items():
            yield (
                f"      {kind:<18} {questions:9.4g} {pct(expected):>8} {pct(chance):>7} "
                f"{100 * (expected - chance):+6.1f}"
            )
        yield f"      ({f.strategy.how})"
    above = [f"{f.strategy.name} {f.points_above:+.1f}" for f in analysis.figures if f.above_target]
    verdict = "met" if analysis.met else f"MISSED ({', '.join(above)})"
    yield f"  target: no strategy beats chance by more than {TARGET_POINTS:g} points: {verdict}"
    yield from _where_keys_sit(analysis)


def _row(label: str, shares: Sequence[float]) -> str:
    return f"    {label:<12}" + "".join(f"{pct(s):>8}" for s in shares)


def _where_keys_sit(analysis: Analysis) -> Iterator[str]:
    worst_position = 0.0
    for kind in ("single choice", "multiple choice"):
        chosen = [i for i in analysis.items if i.kind == kind]
        if not chosen:
            continue
        keys, chance, total = position_shares(chosen)
        yield f"  key position, {kind} ({total:g} questions; keys' share of each question)"
        yield "    " + " " * 12 + "".join(f"{p + 1:>8}" for p in range(len(keys)))
        yield _row("keys", keys)
        yield _row("chance", chance)
        worst_position = max(
            worst_position, *(100 * (k - c) for k, c in zip(keys, chance, strict=True))
        )
        ranks, rank_chance = rank_shares(chosen)
        yield f"  key length rank, {kind} (1 = longest; ties share the higher rank)"
        yield "    " + " " * 12 + "".join(f"{r + 1:>8}" for r in range(len(ranks)))
        yield _row("keys", ranks)
        yield _row("chance", rank_chance)
    single = [i for i in analysis.items if i.kind == "single choice"]
    multiple = [i for i in analysis.items if i.kind == "multiple choice"]
    yield "  issue 18, point 2 (in file order):"
    yield _check(
        f"key position at most chance + {ISSUE_POINTS:g} at any position",
        f"worst {worst_position:+.1f}",
        worst_position <= ISSUE_POINTS,
    )
    for longest in (True, False):
        if single:
            share, chance = strictly(single, longest)
            word = "longest" if longest else "shortest"
            yield _check(
                f"key strictly the {word} option (single choice) at most chance + {ISSUE_POINTS:g}",
                f"{pct(share).strip()}, chance {pct(chance).strip()}",
                100 * (share - chance) <= ISSUE_POINTS,
            )
    every = sorted({i.question_id for i in multiple if len(i.keys) == len(i.options)})
    yield _check(
        "at most one multiple-choice question with every option correct",
        f"{len(every)}" + (f": {', '.join(every)}" if every else ""),
        len(every) <= 1,
    )


def _check(what: str, figure: str, met: bool) -> str:
    return f"    {what}: {figure}: {'met' if met else 'MISSED'}"


# -- the benchmark -----------------------------------------------------------------------------

_banks: list[Path] = []
_analyses: list[Analysis] = []


def use_banks(paths: Sequence[str]) -> None:
    """bench/run.py: the banks given on its command line, measured after the shipped one."""
    _banks[:] = [Path(p) for p in paths]


def measured() -> list[tuple[str, Path]]:
    return [("shipped bank", bundled_bank_path()), *((str(p), p) for p in _banks)]


def setup() -> None:
    start = time.perf_counter()
    _analyses.clear()
    print("items: the test-wise student (answers from the items' form alone)")
    for label, path in measured():
        bank = load_bank([path])
        if bank.errors:
            print(f"  {label}: {len(bank.errors)} load error(s); measured without those")
        analysis = analyse(bank, f"{label} ({path})")
        _analyses.append(analysis)
        for line in report(analysis):
            print(f"  {line}")
    print(f"  measured in {time.perf_counter() - start:.1f} s")


def verdict() -> bool:
    return all(analysis.met for analysis in _analyses)


def candidate() -> None:
    analyse(load_bank([bundled_bank_path()]), "shipped")


def baseline() -> None:
    load_bank([bundled_bank_path()])


BENCHMARKS = [
    Benchmark(
        name="items: test-wise student",
        description="loading the shipped bank and measuring every strategy on it; "
        "the figures above are the point",
        candidate=candidate,
        baseline=baseline,
        max_ratio=None,
        setup=setup,
        repeats=3,
        baseline_label="loading the shipped bank alone",
        verdict=verdict,
        verdict_label=f"<= chance+{TARGET_POINTS:g}",
    )
]
