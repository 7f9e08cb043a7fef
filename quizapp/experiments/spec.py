"""What a computation accepts and promises, in pure Python (no torch), so that the bank's
linter, the CLI and the TUI can check arguments before anything heavy is imported."""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Literal

from quizapp.bank.bounded import ANY_NUMBER, shown
from quizapp.bank.literal import forbidden_character, named_character
from quizapp.wording import format_number

ArgValue = int | float | bool | str
ArgKind = Literal["int", "float", "bool", "str", "choice"]
DEVICES = ("auto", "cpu", "cuda", "mps")


class ArgumentError(ValueError):
    """A bad computation name or argument. `argument` names the culprit (None for the name)."""

    def __init__(self, message: str, argument: str | None = None) -> None:
        super().__init__(message)
        self.argument = argument


@dataclass(frozen=True)
class Arg:
    name: str
    kind: ArgKind
    default: ArgValue | None
    doc: str
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] = ()
    max_length: int = 200  # for strings: bank files are untrusted, so no unbounded text
    optional: bool = False  # None (absent) is meaningful, e.g. "use the preset's value"

    def describe(self) -> str:
        if self.kind == "choice":
            kind = "|".join(self.choices)
        elif self.minimum is not None or self.maximum is not None:
            lo = "" if self.minimum is None else _number(self.minimum)
            hi = "" if self.maximum is None else _number(self.maximum)
            kind = f"{self.kind} {lo}..{hi}"
        else:
            kind = self.kind
        default = "" if self.default is None else f"={self.default}"
        return f"{self.name}{default} ({kind})"

    def coerce(self, value: object) -> ArgValue:
        """Check one value; return it in the declared type or raise ArgumentError naming the arg."""
        name = self.name
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in ("yes", "no", "true", "false"):
                return value.lower() in ("yes", "true")
            raise ArgumentError(f"{name} must be true or false, not {value!r}", name)
        if (
            self.kind in ("int", "float")
            and isinstance(value, int | float)
            and not isinstance(value, bool)
            and (isinstance(value, int) or math.isfinite(value))  # inf, nan: messages below
            and not ANY_NUMBER.contains(value)
        ):
            # Before int() or float(): float(10**400) raises OverflowError.
            message = f"{name} must be {ANY_NUMBER.describe()}, not {shown(value)}"
            raise ArgumentError(message, name)
        if self.kind == "int":
            whole = isinstance(value, int) or (
                isinstance(value, float) and math.isfinite(value) and value.is_integer()
            )
            if isinstance(value, bool) or not whole:
                raise ArgumentError(f"{name} must be a whole number, not {value!r}", name)
            value = int(value)
        elif self.kind == "float":
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ArgumentError(f"{name} must be a number, not {value!r}", name)
            if not math.isfinite(value):
                raise ArgumentError(f"{name} must be finite", name)
            value = float(value)
        else:
            if not isinstance(value, str):
                raise ArgumentError(f"{name} must be text, not {value!r}", name)
            if len(value) > self.max_length:
                raise ArgumentError(f"{name} is longer than {self.max_length} characters", name)
            if (found := forbidden_character(value)) is not None:
                raise ArgumentError(f"{name} contains {named_character(found[1])}", name)
            if self.kind == "choice" and value not in self.choices:
                close = difflib.get_close_matches(value, self.choices, n=1)
                hint = f"; did you mean {close[0]!r}?" if close else ""
                raise ArgumentError(
                    f"{name} must be one of {', '.join(self.choices)}, not {value!r}{hint}", name
                )
            return value
        # Whole numbers as a person writes them (65,536 and 100,000,000, not 1e+08).
        if self.minimum is not None and value < self.minimum:
            raise ArgumentError(
                f"{name} must be at least {format_number(self.minimum)}, "
                f"not {format_number(value)}",
                name,
            )
        if self.maximum is not None and value > self.maximum:
            raise ArgumentError(
                f"{name} must be at most {format_number(self.maximum)}, not {format_number(value)}",
                name,
            )
        return value


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


# A cross-argument rule: returns None when the arguments agree, else (argument, message).
Rule = Callable[[Mapping[str, ArgValue | None]], tuple[str, str] | None]


@dataclass(frozen=True)
class ComputationSpec:
    name: str
    title: str
    description: str  # one line, for `quizapp compute --list`
    implementation: str  # "module:function", imported only when the computation runs
    args: tuple[Arg, ...]
    values: tuple[str, ...]  # the named values every result carries (a bank's `from:` may use them)
    rules: tuple[Rule, ...] = field(default=())
    notes: str = ""  # Markdown for docs/authoring.md: what a reader comparing figures should know
    # Values the computation does not compute, so a claim over them alone proves nothing
    # (lint's `echo-claim`). `restated`: (value, its formula over the arguments in claim
    # syntax, or "" when no claim can write it, e.g. a preset's width or a count of words);
    # `constants`: fixed by the code (a tolerance); `aliases`: (value, the value it repeats).
    restated: tuple[tuple[str, str], ...] = ()
    constants: tuple[str, ...] = ()
    aliases: tuple[tuple[str, str], ...] = ()

    @property
    def not_computed(self) -> frozenset[str]:
        """The values that restate an argument or are constants of the code."""
        return frozenset(name for name, _ in self.restated) | frozenset(self.constants)

    def symbol(self, value: str) -> str:
        """The value a name stands for: the one an alias repeats, or the name itself."""
        return dict(self.aliases).get(value, value)

    def arg(self, name: str) -> Arg | None:
        return next((a for a in self.args if a.name == name), None)

    def bind(self, raw: Mapping[str, object]) -> dict[str, ArgValue | None]:
        """Validate arguments against this spec and fill in defaults. Raises ArgumentError."""
        known = {a.name: a for a in self.args}
        for key in raw:
            if key not in known:
                close = difflib.get_close_matches(key, list(known), n=1)
                hint = f"; did you mean {close[0]!r}?" if close else ""
                accepted = ", ".join(known) or "none"
                raise ArgumentError(
                    f"{self.name} has no argument {key!r}{hint} (it takes: {accepted})", key
                )
        bound: dict[str, ArgValue | None] = {}
        for arg in self.args:
            given = raw.get(arg.name)
            bound[arg.name] = arg.default if given is None else arg.coerce(given)
        for rule in self.rules:
            broken = rule(bound)
            if broken is not None:
                raise ArgumentError(broken[1], broken[0])
        return bound


def divisible(numerator: str, denominator: str) -> Rule:
    def rule(args: Mapping[str, ArgValue | None]) -> tuple[str, str] | None:
        n, d = args.get(numerator), args.get(denominator)
        if isinstance(n, int) and isinstance(d, int) and d > 0 and n % d:
            return denominator, f"{numerator} ({n}) is not divisible by {denominator} ({d})"
        return None

    return rule


def even(name: str) -> Rule:
    def rule(args: Mapping[str, ArgValue | None]) -> tuple[str, str] | None:
        value = args.get(name)
        if isinstance(value, int) and value % 2:
            return name, f"{name} must be even (dimensions rotate in pairs), not {value}"
        return None

    return rule


def multiple_of(name: str, factor: int) -> Rule:
    def rule(args: Mapping[str, ArgValue | None]) -> tuple[str, str] | None:
        value = args.get(name)
        if isinstance(value, int) and value % factor:
            return name, f"{name} must be a multiple of {factor}, not {value}"
        return None

    rule.__doc__ = f"`{name}` must be a multiple of {factor}"
    return rule


# A plain decimal number: no nan/inf, no hex, no underscores, no words.
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def parse_numbers(
    text: str, name: str, *, at_least: int, at_most: int, magnitude: float
) -> tuple[float, ...]:
    """Comma-separated numbers, e.g. "2, 4, 6, 8", checked strictly. Raises ArgumentError."""
    # Only spaces and tabs are trimmed: str.strip() would also eat control characters.
    items = [item.strip(" \t") for item in text.split(",")]
    if len(items) > at_most:
        raise ArgumentError(f"{name} has {len(items)} numbers; at most {at_most} are allowed", name)
    numbers = []
    for position, item in enumerate(items, start=1):
        if not _NUMBER.fullmatch(item):
            shown = repr(item[:20]) if item else "nothing"
            raise ArgumentError(
                f"{name} must be numbers separated by commas; item {position} is {shown}", name
            )
        number = float(item)
        if not abs(number) <= magnitude:  # also refuses an overflow to inf
            raise ArgumentError(
                f"{name}: item {position} ({item}) is outside ±{magnitude:,.0f}", name
            )
        numbers.append(number)
    if len(numbers) < at_least:
        raise ArgumentError(f"{name} needs at least {at_least} numbers, not {len(numbers)}", name)
    return tuple(numbers)


def number_list(name: str, *, at_least: int, at_most: int, magnitude: float) -> Rule:
    def rule(args: Mapping[str, ArgValue | None]) -> tuple[str, str] | None:
        value = args.get(name)
        if isinstance(value, str):
            try:
                parse_numbers(value, name, at_least=at_least, at_most=at_most, magnitude=magnitude)
            except ArgumentError as exc:
                return name, str(exc)
        return None

    rule.__doc__ = (
        f"`{name}` must be {at_least} to {at_most} comma-separated numbers, "
        f"each within ±{magnitude:,.0f}"
    )
    return rule
