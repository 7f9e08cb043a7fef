"""Claims: short expressions over a computation's values that must hold, checked safely.

A question's `compute:` block may say what its computation shows, e.g.
`residual_final > 1000 * plain_final`. A claim is untrusted bank text, so it is never given
to eval, exec or compile: `ast.parse` reads it, a whitelist refuses every construct but value
names, numbers, arithmetic, comparisons, `and`/`or`/`not` and calls to `abs`, `min` and
`max`, and a small interpreter walks the tree with bounded sizes.

Two forms reach past the one result. `{seq_len}` is a placeholder of the question's `vary:`:
it is read as a name, bound to the variant's value when the claim is evaluated (never written
into the claim's text). `at(seq_len={seq_len} // 2).attention_flops_1_head` is a value of a
second run of the same computation, with the named arguments replaced; its arguments are
numbers, placeholders and arithmetic only, so they are known before anything runs.

Pure Python (no torch): the loader checks a claim's form, lint checks its names against the
registry, and lint, the CLI and the lab panel evaluate it on a result's values (second runs:
lint alone, quizapp.authoring.second_runs).
"""

from __future__ import annotations

import ast
import functools
import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

MAX_CLAIMS = 16  # per compute block
MAX_CLAIM_LENGTH = 300  # characters of one claim
MAX_SAYS_LENGTH = 200  # characters of its one-line `says`
MAX_NODES = 100  # syntax-tree nodes of one claim
MAX_EXPONENT = 64  # |b| in a ** b
MAX_INT_BITS = 4096  # an integer that grows past this is refused, not computed further
MAX_WHOLE_DIGITS = 16  # a larger integer is shown as 1.23456e+20 in a message
FUNCTIONS = ("abs", "min", "max")
AT = "at"  # at(arg=value, ...).value: a value of the computation run with other arguments
MAX_CLAIM_SECOND_RUNS = 4  # at(...) values one claim reads (a question: fields.MAX_SECOND_RUNS)
# YAML writes booleans in lower case; a claim accepts them beside Python's True and False.
LOWERCASE_BOOLEANS = {"true": True, "false": False}

Number = int | float | bool


class ClaimError(ValueError):
    """A claim that cannot be read (at load) or evaluated (on values). One-line message."""


class NotRunHere(ClaimError):
    """The claim reads a second run (at(...)) where none is made: lint checks it."""


@dataclass(frozen=True)
class SecondRun:
    """`at(seq_len=64).attention_flops_1_head`: one value of a second run of the computation."""

    text: str  # as written, for messages
    arguments: tuple[tuple[str, ast.expr], ...]  # (argument, its expression), as written
    value: str


@dataclass(frozen=True)
class ParsedClaim:
    """A claim that passed the whitelist: its text, its tree, and the value names it uses."""

    text: str
    tree: ast.expr
    names: tuple[str, ...]  # in order of first use
    placeholders: tuple[str, ...] = ()  # the {name}s of vary: it reads, in order of first use
    second_runs: tuple[SecondRun, ...] = ()  # its at(...).value references, in order


_COMPARE: dict[type[ast.cmpop], Callable[[object, object], bool]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}
_ARITHMETIC: dict[type[ast.operator], Callable[[Number, Number], Number]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}
_ORDERING = (ast.Lt, ast.LtE, ast.Gt, ast.GtE)

# Names for refused constructs, so the message says what was written rather than an AST class.
_REFUSED: dict[type[ast.AST], str] = {
    ast.Attribute: "attributes (a.b)",
    ast.Subscript: "indexing (a[b])",
    ast.Lambda: "lambdas",
    ast.IfExp: "conditional expressions (a if b else c)",
    ast.NamedExpr: "assignments (:=)",
    ast.ListComp: "comprehensions",
    ast.SetComp: "comprehensions",
    ast.DictComp: "comprehensions",
    ast.GeneratorExp: "comprehensions",
    ast.JoinedStr: "f-strings",
    ast.List: "lists",
    ast.Tuple: "tuples",
    ast.Set: "sets",
    ast.Dict: "dictionaries",
    ast.Starred: "* unpacking",
    ast.Await: "await",
    ast.Yield: "yield",
    ast.YieldFrom: "yield",
}


def _segment(text: str, node: ast.AST) -> str:
    try:
        piece = ast.get_source_segment(text, node)
    except Exception:  # positions are a nicety; a message without them still says what
        piece = None
    return piece if piece else type(node).__name__


@functools.lru_cache(maxsize=1024)
def parse_claim(text: str) -> ParsedClaim:
    """Read one claim. Raises ClaimError naming what is not allowed; never executes anything."""
    return _parse(text, truth=True)


@functools.lru_cache(maxsize=1024)
def parse_expression(text: str) -> ParsedClaim:
    """Read a number-valued expression over a computation's values (an ordering step's
    `value:`), under the same whitelist as a claim. Raises ClaimError."""
    return _parse(text, truth=False)


def _parse(text: str, *, truth: bool) -> ParsedClaim:
    if not isinstance(text, str):
        raise ClaimError("a claim must be text")
    stripped = text.strip()
    if not stripped:
        raise ClaimError("a claim must not be empty")
    if len(stripped) > MAX_CLAIM_LENGTH:
        raise ClaimError(f"a claim is at most {MAX_CLAIM_LENGTH} characters, not {len(stripped)}")
    if any(not ch.isprintable() for ch in stripped):
        raise ClaimError(
            "a claim is one line of printable text (no line breaks or control characters)"
        )
    if "#" in stripped:
        raise ClaimError("a claim cannot hold a comment (#); put words in `says`")
    try:
        module = ast.parse(stripped, mode="eval")
    except SyntaxError as exc:
        where = f" at column {exc.offset}" if exc.offset else ""
        raise ClaimError(f"not a valid expression{where}: {exc.msg}") from None
    except (ValueError, RecursionError, MemoryError, OverflowError) as exc:
        raise ClaimError(f"not a valid expression: {type(exc).__name__}") from None
    root = module.body
    names: dict[str, None] = {}  # an ordered set
    placeholders: dict[str, None] = {}
    runs: list[SecondRun] = []
    stack: list[tuple[ast.AST, bool]] = [(root, False)]  # (node, inside at()'s arguments)
    nodes = 0
    while stack:  # depth first, left to right, without recursion
        node, in_at = stack.pop()
        nodes += 1
        if nodes > MAX_NODES:
            raise ClaimError(f"the claim is too complex (more than {MAX_NODES} parts); split it")
        if (name := placeholder_name(node)) is not None:
            placeholders.setdefault(name, None)
            continue
        if isinstance(node, ast.Attribute) and not in_at:
            runs.append(_second_run(stripped, node))
            if len(runs) > MAX_CLAIM_SECOND_RUNS:
                raise ClaimError(f"a claim reads at most {MAX_CLAIM_SECOND_RUNS} at(...) values")
            stack.extend((value, True) for _, value in reversed(runs[-1].arguments))
            continue
        if in_at and isinstance(node, ast.Name) and node.id not in LOWERCASE_BOOLEANS:
            raise ClaimError(
                f"'{node.id}' in at(...): an argument there is a number, a {{placeholder}} "
                "or arithmetic of them, not a value"
            )
        _check_node(stripped, node, names)
        # A call's function name was checked by _check_node; only its arguments are values.
        children = node.args if isinstance(node, ast.Call) else list(ast.iter_child_nodes(node))
        stack.extend((child, in_at) for child in reversed(children))
    if truth and not (
        isinstance(root, ast.Compare | ast.BoolOp | ast.Name | ast.Attribute)
        or (isinstance(root, ast.UnaryOp) and isinstance(root.op, ast.Not))
        or (isinstance(root, ast.Constant) and isinstance(root.value, bool))
    ):
        raise ClaimError(
            "a claim must be true or false: compare something (a > b, abs(a - b) < 1e-6)"
        )
    return ParsedClaim(stripped, root, tuple(names), tuple(placeholders), tuple(runs))


def placeholder_name(node: ast.AST) -> str | None:
    """`seq_len` for `{seq_len}`, which Python reads as a set of one name; else None."""
    if isinstance(node, ast.Set) and len(node.elts) == 1 and isinstance(node.elts[0], ast.Name):
        return node.elts[0].id
    return None


def _second_run(text: str, node: ast.Attribute) -> SecondRun:
    call = node.value
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == AT):
        raise ClaimError(
            f"{_segment(text, node)}: attributes (a.b) are not allowed in a claim, "
            "except a second run's value: at(seq_len=64).name"
        )
    written = _segment(text, call)
    if call.args or not call.keywords or any(k.arg is None for k in call.keywords):
        raise ClaimError(f"{written}: at() takes arguments by name, as in at(seq_len=64)")
    arguments = tuple((k.arg, k.value) for k in call.keywords if k.arg is not None)
    if len({name for name, _ in arguments}) < len(arguments):
        raise ClaimError(f"{written}: at() names an argument twice")
    return SecondRun(_segment(text, node), arguments, node.attr)


def _check_node(text: str, node: ast.AST, names: dict[str, None]) -> None:
    if isinstance(node, ast.Name):
        if node.id in FUNCTIONS:
            raise ClaimError(f"{node.id} is a function: call it, as in {node.id}(x)")
        if node.id not in LOWERCASE_BOOLEANS:
            names.setdefault(node.id, None)
        return
    if isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bool | int | float):
            if isinstance(value, int) and value.bit_length() > MAX_INT_BITS:
                raise ClaimError("a number in the claim is too large")
            return
        kind = "text" if isinstance(value, str | bytes) else repr(value)
        raise ClaimError(f"{_segment(text, node)}: a claim may use numbers, not {kind}")
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Name) and func.id == AT:
            raise ClaimError(
                f"{_segment(text, node)}: at(...) is followed by a value, at(...).name"
            )
        if not isinstance(func, ast.Name) or func.id not in FUNCTIONS:
            raise ClaimError(
                f"{_segment(text, func)}(...): only {', '.join(FUNCTIONS)} may be called"
            )
        if node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
            raise ClaimError(f"{func.id}() takes plain arguments only")
        if func.id == "abs" and len(node.args) != 1:
            raise ClaimError("abs() takes exactly one argument")
        if func.id != "abs" and len(node.args) < 2:
            raise ClaimError(f"{func.id}() takes at least two arguments")
        return
    if isinstance(node, ast.BinOp):
        if type(node.op) not in _ARITHMETIC:
            raise ClaimError(f"{_segment(text, node)}: only + - * / // % ** are allowed")
        exponent = node.right
        if isinstance(exponent, ast.UnaryOp) and isinstance(exponent.op, ast.USub | ast.UAdd):
            exponent = exponent.operand
        if (
            isinstance(node.op, ast.Pow)
            and isinstance(exponent, ast.Constant)
            and isinstance(exponent.value, int | float)
            and abs(exponent.value) > MAX_EXPONENT
        ):
            raise ClaimError(f"{_segment(text, node)}: an exponent is at most {MAX_EXPONENT}")
        return
    if isinstance(node, ast.UnaryOp):
        if not isinstance(node.op, ast.UAdd | ast.USub | ast.Not):
            raise ClaimError(f"{_segment(text, node)}: only +, - and not may come before a value")
        return
    if isinstance(node, ast.Compare):
        for op in node.ops:
            if type(op) not in _COMPARE:
                raise ClaimError(
                    f"{_segment(text, node)}: compare with == != < <= > >= (not in or is)"
                )
        return
    if isinstance(node, ast.BoolOp):
        return
    if isinstance(node, ast.expr_context | ast.cmpop | ast.operator | ast.unaryop | ast.boolop):
        return
    what = _REFUSED.get(type(node), type(node).__name__)
    raise ClaimError(f"{_segment(text, node)}: {what} are not allowed in a claim")


# -- evaluation ----------------------------------------------------------------------------------

# The values of a second run, given the arguments its at(...) replaces (already evaluated).
# It raises ClaimError when that run failed, NotRunHere where no second run is made.
SecondRuns = Callable[[Mapping[str, object]], Mapping[str, object]]


@dataclass(frozen=True)
class Scope:
    """What a claim is evaluated on: the result's values, the variant's placeholders, and
    where at(...) finds the values of a second run (None: nowhere, NotRunHere)."""

    values: Mapping[str, object]
    placeholders: Mapping[str, object] = field(default_factory=dict)
    runs: SecondRuns | None = None


def _scope(values: Mapping[str, object] | Scope) -> Scope:
    return values if isinstance(values, Scope) else Scope(values)


def evaluate(parsed: ParsedClaim, values: Mapping[str, object] | Scope) -> bool:
    """Whether the claim holds for these values. Raises ClaimError when it cannot be decided."""
    result = _eval(parsed.tree, _scope(values))
    if not isinstance(result, bool):
        raise ClaimError(f"the claim gives {format_number(result)}, not true or false")
    return result


def evaluate_number(parsed: ParsedClaim, values: Mapping[str, object] | Scope) -> Number:
    """The number an expression gives. Raises ClaimError when it is not a number."""
    result = _eval(parsed.tree, _scope(values))
    if isinstance(result, bool):
        raise ClaimError("the expression gives true or false, not a number")
    return result


def _number(value: object, what: str) -> Number:
    if isinstance(value, bool | int | float):
        return value
    if isinstance(value, complex):
        raise ClaimError(f"{what} is not a real number")
    if isinstance(value, str):
        raise ClaimError(f"{what} is text ({value[:40]!r}), which a claim cannot compute with")
    raise ClaimError(f"{what} is not a number")


def _checked(value: Number) -> Number:
    if isinstance(value, complex):
        raise ClaimError(
            "the claim leads to a complex number (a negative number to a fractional power)"
        )
    if isinstance(value, int) and value.bit_length() > MAX_INT_BITS:
        raise ClaimError("a number in the claim grows too large to compute")
    return value


def run_arguments(run: SecondRun, placeholders: Mapping[str, object]) -> dict[str, object]:
    """The arguments a second run replaces, evaluated for this variant. Raises ClaimError."""
    scope = Scope({}, placeholders)
    return {name: _argument(value, scope) for name, value in run.arguments}


def _argument(node: ast.expr, scope: Scope) -> object:
    """An at() argument: a bare {placeholder} keeps its value as it is (text, too)."""
    name = placeholder_name(node)
    return _placeholder(name, scope) if name is not None else _eval(node, scope)


def _placeholder(name: str, scope: Scope) -> object:
    if name not in scope.placeholders:
        raise ClaimError(f"{{{name}}} is not listed under the question's vary")
    return scope.placeholders[name]


def _second_value(node: ast.Attribute, scope: Scope) -> Number:
    run = _second_run("", node)
    if scope.runs is None:
        raise NotRunHere(f"{AT}(...) reads a second run; quizapp lint checks it")
    values = scope.runs(run_arguments(run, scope.placeholders))
    if run.value not in values:
        raise ClaimError(f"'{run.value}' is not a value of this result")
    return _number(values[run.value], run.value)


def _eval(node: ast.expr, scope: Scope) -> Number:
    values = scope.values
    if isinstance(node, ast.Constant):
        return node.value  # checked at parse: bool, int or float
    if isinstance(node, ast.Name):
        if node.id in LOWERCASE_BOOLEANS:
            return LOWERCASE_BOOLEANS[node.id]
        if node.id not in values:
            raise ClaimError(f"'{node.id}' is not a value of this result")
        return _number(values[node.id], node.id)
    if (name := placeholder_name(node)) is not None:
        return _number(_placeholder(name, scope), f"{{{name}}}")
    if isinstance(node, ast.Attribute):
        return _second_value(node, scope)
    if isinstance(node, ast.UnaryOp):
        operand = _eval(node.operand, scope)
        if isinstance(node.op, ast.Not):
            return not _truth(operand, "not")
        if isinstance(operand, bool):
            raise ClaimError("+ and - apply to numbers, not to true or false")
        return _checked(-operand if isinstance(node.op, ast.USub) else +operand)
    if isinstance(node, ast.BoolOp):
        is_and = isinstance(node.op, ast.And)
        for operand in node.values:
            truth = _truth(_eval(operand, scope), "and" if is_and else "or")
            if truth != is_and:  # short-circuit, as Python does
                return truth
        return is_and
    if isinstance(node, ast.BinOp):
        left, right = _eval(node.left, scope), _eval(node.right, scope)
        if isinstance(left, bool) or isinstance(right, bool):
            raise ClaimError("arithmetic applies to numbers, not to true or false")
        if isinstance(node.op, ast.Pow):
            if abs(right) > MAX_EXPONENT:
                raise ClaimError(
                    f"an exponent is at most {MAX_EXPONENT} in size, not {format_number(right)}"
                )
            grows = isinstance(left, int) and isinstance(right, int) and right > 0
            if grows and left.bit_length() * right > MAX_INT_BITS:
                raise ClaimError("a number in the claim grows too large to compute")
        try:
            return _checked(_ARITHMETIC[type(node.op)](left, right))
        except ZeroDivisionError:
            raise ClaimError("division by zero") from None
        except (OverflowError, ValueError) as exc:
            raise ClaimError(f"arithmetic failed: {exc}") from None
    if isinstance(node, ast.Compare):
        left = _eval(node.left, scope)
        for op, comparator in zip(node.ops, node.comparators, strict=True):
            right = _eval(comparator, scope)
            if isinstance(op, _ORDERING) and (isinstance(left, bool) or isinstance(right, bool)):
                raise ClaimError("< <= > >= compare numbers, not true or false")
            if not _COMPARE[type(op)](left, right):
                return False
            left = right
        return True
    if isinstance(node, ast.Call):
        assert isinstance(node.func, ast.Name)
        args = [_eval(arg, scope) for arg in node.args]
        if any(isinstance(a, bool) for a in args):
            raise ClaimError(f"{node.func.id}() applies to numbers, not to true or false")
        if node.func.id == "abs":
            return _checked(abs(args[0]))
        return (min if node.func.id == "min" else max)(args)
    raise ClaimError(f"{type(node).__name__} is not allowed in a claim")  # parse refuses it first


def _truth(value: Number, where: str) -> bool:
    if not isinstance(value, bool):
        raise ClaimError(f"'{where}' needs true or false, not {format_number(value)}")
    return value


# -- showing claims ------------------------------------------------------------------------------


def format_number(value: object) -> str:
    """A value as a claim's message shows it: true/false, integers whole, floats to 6 figures."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        digits = str(abs(value))
        if len(digits) <= MAX_WHOLE_DIGITS:
            return str(value)
        # A claim may build a number of 4,096 bits (over 1,200 digits): shown whole, it would
        # fill a screen. Cut to six figures from its digits: it may be too large for a float.
        sign = "-" if value < 0 else ""
        return f"{sign}{digits[0]}.{digits[1:6]}e+{len(digits) - 1}"
    if isinstance(value, float):
        return f"{value:.6g}"
    return repr(value)[:60]


def quoted(text: str) -> str:
    """A claim as a one-line message quotes it: whitespace flattened, at most 60 characters."""
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= 60 else flat[:57] + "...")


__all__ = [
    "FUNCTIONS",
    "MAX_CLAIMS",
    "MAX_CLAIM_LENGTH",
    "MAX_SAYS_LENGTH",
    "ClaimError",
    "NotRunHere",
    "ParsedClaim",
    "Scope",
    "SecondRun",
    "SecondRuns",
    "evaluate",
    "evaluate_number",
    "format_number",
    "parse_claim",
    "parse_expression",
    "placeholder_name",
    "quoted",
    "run_arguments",
]
