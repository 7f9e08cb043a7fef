"""The claim evaluator: what it accepts, what it refuses, and that it never runs code."""

from __future__ import annotations

import ast
import builtins
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quizapp.bank.claim_checks import check, describe_values, unknown_names
from quizapp.bank.claims import (
    MAX_CLAIM_LENGTH,
    ClaimError,
    evaluate,
    format_number,
    parse_claim,
)

VALUES = {
    "plain_final": 1.05,
    "residual_final": 1_106_686.3,
    "post_ln_final": 0.99999,
    "params_single_head": 1_048_576,
    "params_multi_head": 1_048_576,
    "head_dim": 64,
    "zero": 0,
    "sinusoidal_defined": True,
    "learned_defined": False,
    "learned_message": "position 1000 is outside the table",
    "pooled_difference": 2.2e-16,
}

# (claim, whether it holds for VALUES)
ACCEPTED = [
    ("params_single_head == params_multi_head", True),
    ("residual_final > 1000 * plain_final", True),
    ("residual_final < 1000 * plain_final", False),
    ("abs(pooled_difference) < 1e-6", True),
    ("abs(post_ln_final - 1) < 0.01", True),
    ("120e6 < params_multi_head * 120 < 130e6", True),
    ("1 < head_dim <= 64 < 65", True),
    ("1 < head_dim < 64", False),
    ("head_dim ** 2 == 4096", True),
    ("head_dim // 3 == 21 and head_dim % 3 == 1", True),
    ("head_dim / 128 == 0.5", True),
    ("-head_dim < +head_dim", True),
    ("min(head_dim, plain_final) == plain_final", True),
    ("max(head_dim, plain_final, 100) == 100", True),
    ("sinusoidal_defined", True),
    ("not learned_defined", True),
    ("sinusoidal_defined and learned_defined", False),
    ("learned_defined or sinusoidal_defined", True),
    ("sinusoidal_defined == true and learned_defined == False", True),
    ("learned_defined != sinusoidal_defined", True),
    ("True", True),
    ("false", False),
    ("2 ** -64 > 0", True),
    ("1_000 == 1000", True),
    ("  head_dim == 64  ", True),  # surrounding spaces are not part of the claim
]

REJECTED = [
    "().__class__ == 1",
    "().__class__.__bases__[0].__subclasses__() == 1",
    "__import__('os').system('true') == 0",
    "open('/etc/passwd') == 1",
    "eval('1') == 1",
    "exec('x = 1') == None",
    "compile('1', 'f', 'eval') == 1",
    "getattr(head_dim, 'real') == 64",
    "head_dim.bit_length() == 7",
    "[1, 2][0] == 1",
    "head_dim[0] == 1",
    "(lambda: 1)() == 1",
    "[x for x in (1, 2)] == 1",
    "{x for x in (1,)} == 1",
    "(x := 1) == 1",
    "f'{head_dim}' == '64'",
    "'64' == head_dim",
    "b'x' == 1",
    "head_dim if True else 0",
    "(1, 2) == (1, 2)",
    "{1: 2} == 1",
    "None == None",
    "... == 1",
    "1j == 1",
    "head_dim in (64,)",
    "head_dim is 64",
    "head_dim << 2 == 256",
    "head_dim & 1 == 0",
    "~head_dim == 1",
    "head_dim @ head_dim == 1",
    "2 ** 100000 > 1",
    "2 ** -65 > 0",
    "abs == abs",
    "abs(head_dim, 1) == 64",
    "min(head_dim) == 64",
    "max(*[1, 2]) == 2",
    "abs(x=1) == 1",
    "head_dim + 1",
    "abs(head_dim)",
    "64",
    "head_dim == 64  # a comment",
    "head_dim ==",
    "head_dim = 64",
    "import os",
    "",
    "   ",
    "head_dim == 64\nhead_dim == 64",
    "head_dim == \x00 64",
    "x" * (MAX_CLAIM_LENGTH + 1),
    " + ".join(["head_dim"] * 60) + " > 0",  # too many parts
    "(" * 150 + "1" + ")" * 150 + " == 1",
    "-" * 290 + "head_dim > 0",
]


@pytest.mark.parametrize(("claim", "holds"), ACCEPTED)
def test_accepted_claims_evaluate(claim: str, holds: bool) -> None:
    assert evaluate(parse_claim(claim), VALUES) is holds


@pytest.mark.parametrize("claim", REJECTED)
def test_rejected_claims_raise_the_typed_error(claim: str) -> None:
    with pytest.raises(ClaimError) as caught:
        parse_claim(claim)
    message = str(caught.value)
    assert message and "\n" not in message


def test_a_refused_construct_is_named_in_the_message() -> None:
    with pytest.raises(ClaimError, match=r"attributes"):
        parse_claim("().__class__ == 1")
    with pytest.raises(ClaimError, match=r"only abs, min, max may be called"):
        parse_claim("__import__('os') == 1")
    with pytest.raises(ClaimError, match=r"numbers, not text"):
        parse_claim("'64' == head_dim")
    with pytest.raises(ClaimError, match=r"true or false"):
        parse_claim("head_dim + 1")


def test_nothing_is_executed_and_nothing_is_compiled_to_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    marker = tmp_path / "pwned"
    calls: list[str] = []
    real_compile = builtins.compile

    def only_to_ast(source, filename, mode, flags=0, *args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append("compile")
        assert flags & ast.PyCF_ONLY_AST, "a claim was compiled to code"
        return real_compile(source, filename, mode, flags, *args, **kwargs)

    def forbidden(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise AssertionError("eval or exec was called")

    monkeypatch.setattr(builtins, "compile", only_to_ast)
    monkeypatch.setattr(builtins, "eval", forbidden)
    monkeypatch.setattr(builtins, "exec", forbidden)
    parse_claim.cache_clear()
    hostile = f"__import__('pathlib').Path({str(marker)!r}).touch() == None"
    with pytest.raises(ClaimError):
        parse_claim(hostile)
    outcome = check(hostile, VALUES)
    assert outcome.holds is None and outcome.error
    assert not marker.exists()
    assert evaluate(parse_claim("head_dim * 2 == 128"), VALUES) is True
    assert calls  # the parse did go through the (patched) compile, with PyCF_ONLY_AST


@pytest.mark.parametrize(
    ("claim", "fragment"),
    [
        ("head_dim / zero > 1", "division by zero"),
        ("head_dim // zero > 1", "division by zero"),
        ("head_dim % zero > 1", "division by zero"),
        ("zero ** -1 > 1", "division by zero"),
        ("learned_message == 1", "is text"),
        ("missing_value > 1", "not a value"),
        ("plain_final", "not true or false"),
        ("not head_dim", "needs true or false"),
        ("head_dim and sinusoidal_defined", "needs true or false"),
        ("sinusoidal_defined + 1 > 1", "not to true or false"),
        ("sinusoidal_defined < 2", "compare numbers"),
        ("abs(sinusoidal_defined) > 0", "not to true or false"),
        ("(-plain_final) ** 0.5 > 0", "complex"),
        ("residual_final ** 64 ** 1 > 0", "arithmetic failed"),
        ("(head_dim ** 64) ** 64 > 0", "too large"),
        ("(10 ** 60) ** 30 > 0", "too large"),
        ("head_dim ** (head_dim + 1) > 0", "exponent"),
    ],
)
def test_claims_that_cannot_be_decided_raise_the_typed_error(claim: str, fragment: str) -> None:
    parsed = parse_claim(claim)
    with pytest.raises(ClaimError, match=fragment):
        evaluate(parsed, VALUES)
    outcome = check(claim, VALUES)
    assert outcome.holds is None and fragment in (outcome.error or "")


def test_big_numbers_stay_cheap() -> None:
    start = time.perf_counter()
    claim = " * ".join(["(head_dim ** 64)"] * 11) + " > 1"  # each factor is 2**384
    with pytest.raises(ClaimError, match="too large"):
        evaluate(parse_claim(claim), VALUES)
    assert time.perf_counter() - start < 1


def test_a_huge_number_is_named_in_a_short_message() -> None:
    outcome = check("head_dim ** (head_dim ** 20) > 1", VALUES)  # 64 ** 20 is 121 bits
    assert outcome.holds is None and "not 1.32922e+36" in (outcome.error or "")
    assert len(outcome.error or "") < 120
    assert format_number(-(10**1000) * 7) == "-7.00000e+1000"
    assert format_number(10**15) == "1000000000000000"


def test_names_are_reported_in_order_of_use() -> None:
    parsed = parse_claim("residual_final > 1000 * plain_final and abs(residual_final) > 0")
    assert parsed.names == ("residual_final", "plain_final")
    assert parse_claim("min(head_dim, 1) == true").names == ("head_dim",)
    assert unknown_names(parse_claim("plain_fnal > head_dim"), VALUES) == ["plain_fnal"]


def test_the_values_a_claim_read_are_described() -> None:
    parsed = parse_claim("residual_final > 1000 * plain_final")
    assert describe_values(parsed, VALUES) == "residual_final = 1.10669e+06, plain_final = 1.05"
    assert describe_values(parse_claim("sinusoidal_defined"), VALUES) == "sinusoidal_defined = true"


def test_check_never_raises_and_reports_what_it_read() -> None:
    held = check("residual_final > 1000 * plain_final", VALUES, says="Residuals compound")
    assert (held.holds, held.error, held.label) == (True, None, "Residuals compound")
    failed = check("residual_final < plain_final", VALUES)
    assert failed.holds is False and failed.label == "residual_final < plain_final"
    assert failed.values == "residual_final = 1.10669e+06, plain_final = 1.05"
    unreadable = check("head_dim.real == 64", VALUES)
    assert unreadable.holds is None and "attributes" in (unreadable.error or "")


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=MAX_CLAIM_LENGTH + 20))
def test_arbitrary_text_raises_nothing_but_the_typed_error(text: str) -> None:
    try:
        parsed = parse_claim(text)
    except ClaimError:
        return
    try:
        result = evaluate(parsed, VALUES)
    except ClaimError:
        return
    assert isinstance(result, bool)


_ATOMS = st.sampled_from(
    ["head_dim", "plain_final", "zero", "sinusoidal_defined", "1", "0", "2.5", "1e300", "-3"]
)
_OPS = st.sampled_from(
    [" + ", " - ", " * ", " / ", " // ", " % ", " ** ", " == ", " < ", " and ", " or "]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(_OPS, _ATOMS), max_size=12), _ATOMS, st.sampled_from(["", "not ", "-"]))
def test_arbitrary_expressions_raise_nothing_but_the_typed_error(
    parts: list[tuple[str, str]], first: str, prefix: str
) -> None:
    # Expressions built from allowed pieces get past the parser far more often than random
    # text, so this reaches the evaluator's arithmetic corners (overflow, zero, booleans).
    text = prefix + first + "".join(op + atom for op, atom in parts)
    try:
        result = evaluate(parse_claim(text), VALUES)
    except ClaimError:
        return
    assert isinstance(result, bool)
