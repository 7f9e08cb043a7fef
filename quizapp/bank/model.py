"""The question model: what a validated bank holds. Plain frozen data, no I/O."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum

from quizapp.bank.diagnostics import Diagnostic

Scalar = str | int | float | bool | None


class QuestionType(StrEnum):
    SINGLE_CHOICE = "single_choice"
    MULTIPLE_CHOICE = "multiple_choice"
    TRUE_FALSE = "true_false"
    NUMERIC = "numeric"
    ORDERING = "ordering"
    FLASHCARD = "flashcard"


class Difficulty(StrEnum):
    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


@dataclass(frozen=True, slots=True)
class Location:
    path: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"


@dataclass(frozen=True, slots=True)
class Claim:
    """What the computation shows, as an expression over its values (see claims.py)."""

    text: str  # e.g. "residual_final > 1000 * plain_final"
    location: Location
    says: str | None = None  # the claim in words, one line
    # A variant's values of the vary: placeholders the claim may read ({seq_len}), bound as
    # values when it is evaluated: the claim's text is never rewritten. Empty as written.
    placeholders: tuple[tuple[str, Scalar], ...] = ()


@dataclass(frozen=True, slots=True)
class ComputeSpec:
    """A named live computation and the arguments the question runs it with."""

    name: str
    args: Mapping[str, Scalar]
    location: Location
    # Where each argument's value is written, so a registry check can point at the right line.
    arg_locations: Mapping[str, Location] = field(default_factory=dict)
    expect: tuple[Claim, ...] = ()  # claims that must hold for the question's arguments


@dataclass(frozen=True, kw_only=True)
class Question:
    id: str
    type: QuestionType
    prompt: str
    explanation: str
    topic: str
    tags: tuple[str, ...]
    difficulty: Difficulty
    deck_id: str
    location: Location
    source: str | None = None
    # Ids of questions this one deliberately resembles (lint's `near-duplicate` lets them be).
    pairs_with: tuple[str, ...] = ()
    compute: ComputeSpec | None = None
    # Parameterized questions: each name takes one of its values per showing; `{name}` in the
    # texts and "{name}" as a compute argument are replaced (see variants.py).
    vary: Mapping[str, tuple[Scalar, ...]] = field(default_factory=dict)
    assignment: Mapping[str, Scalar] = field(default_factory=dict)  # the variant shown, if any
    # Where `source` and `pairs_with` are written, so lint can point at them; not identity.
    field_locations: Mapping[str, Location] = field(default_factory=dict, compare=False)


@dataclass(frozen=True, slots=True)
class Choice:
    text: str
    correct: bool
    why: str | None
    # Where the choice is written, so lint can point at one option; not part of its identity.
    location: Location | None = field(default=None, compare=False)
    # `holds:` ties `correct` to the computation: lint checks the option is marked correct
    # exactly when this claim holds. Authoring only: the student never sees it.
    holds: Claim | None = field(default=None, compare=False)


@dataclass(frozen=True, kw_only=True)
class ChoiceQuestion(Question):
    """`single_choice` (exactly one correct) and `multiple_choice` (select all that apply)."""

    choices: tuple[Choice, ...]
    shuffle: bool = True

    @property
    def correct_indices(self) -> frozenset[int]:
        return frozenset(i for i, choice in enumerate(self.choices) if choice.correct)


@dataclass(frozen=True, kw_only=True)
class TrueFalseQuestion(Question):
    answer: bool
    why_true: str | None = None
    why_false: str | None = None
    # `holds:` ties the key to the computation: lint checks `answer` is whether it holds.
    holds: Claim | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class NumericAnswer:
    """The key: a literal `value`, or `from_value`, a named value of the question's computation."""

    value: float | None
    from_value: str | None
    tolerance: float | None = None
    relative_tolerance: float | None = None
    unit: str | None = None


@dataclass(frozen=True, slots=True)
class Trap:
    """A common wrong numeric answer and the mistake that produces it."""

    value: float
    why: str


@dataclass(frozen=True, kw_only=True)
class NumericQuestion(Question):
    answer: NumericAnswer
    traps: tuple[Trap, ...] = ()


@dataclass(frozen=True, slots=True)
class Step:
    text: str
    why: str | None = None
    # `value:`, an expression over the computation's values that places the step; lint checks
    # the steps are written sorted by it (`order_by_value`). Authoring only.
    value: Claim | None = field(default=None, compare=False)


class SortOrder(StrEnum):
    ASCENDING = "ascending"
    DESCENDING = "descending"


@dataclass(frozen=True, kw_only=True)
class OrderingQuestion(Question):
    steps: tuple[Step, ...]  # in the correct order; the app shuffles them
    order_by_value: SortOrder | None = None  # set exactly when the steps carry `value:`


@dataclass(frozen=True, kw_only=True)
class Flashcard(Question):
    back: str


@dataclass(frozen=True, kw_only=True)
class Deck:
    id: str
    title: str
    topic: str
    domain: str
    exam_weight: float
    path: str
    description: str | None = None
    questions: tuple[Question, ...] = field(default=())


@dataclass
class Bank:
    """The questions that loaded, the decks they came in, and what went wrong on the way."""

    decks: list[Deck] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    # The computation names its questions were held to (None: not checked), so a file
    # loaded again (live reload) is held to the same ones.
    computations: frozenset[str] | None = None

    @property
    def questions(self) -> dict[str, Question]:
        return {q.id: q for deck in self.decks for q in deck.questions}

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "warning"]

    def deck(self, deck_id: str) -> Deck | None:
        return next((d for d in self.decks if d.id == deck_id), None)

    @classmethod
    def combine(
        cls,
        files: Iterable[tuple[str, Deck | None, list[Diagnostic]]],
        problems: Iterable[Diagnostic] = (),
        computations: frozenset[str] | None = None,
    ) -> Bank:
        """One bank from each file's deck (None for a file that did not load) and diagnostics.

        Ids are unique across the whole bank: a deck or question whose id an earlier file
        already used is left out and reported where it stands.
        """
        bank = cls(diagnostics=list(problems), computations=computations)
        seen_questions: dict[str, Question] = {}
        seen_decks: dict[str, Deck] = {}
        for path, deck, diagnostics in files:
            bank.files.append(path)
            bank.diagnostics.extend(diagnostics)
            if deck is None:
                continue
            if deck.id in seen_decks:
                message = f"deck id '{deck.id}' is already used by {seen_decks[deck.id].path}"
                bank.diagnostics.append(Diagnostic(path, 1, 1, "error", "duplicate-id", message))
                continue
            kept: list[Question] = []
            for question in deck.questions:
                first = seen_questions.get(question.id)
                if first is None:
                    seen_questions[question.id] = question
                    kept.append(question)
                    continue
                loc = question.location
                message = (
                    f"duplicate question id '{question.id}' (first defined at {first.location})"
                )
                bank.diagnostics.append(
                    Diagnostic(loc.path, loc.line, loc.column, "error", "duplicate-id", message)
                )
            seen_decks[deck.id] = deck
            if len(kept) != len(deck.questions):
                deck = replace(deck, questions=tuple(kept))
            bank.decks.append(deck)
        return bank
