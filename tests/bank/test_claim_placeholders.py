"""A claim's {placeholders} are bound as values, never spliced into its text; at(...) reads a
second run through the lookup it is given, and nowhere else."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from quizapp.bank.claim_checks import check
from quizapp.bank.claims import ClaimError, Scope, evaluate, parse_claim, run_arguments

CLAIM = "flops == 4 * at(seq_len={seq_len} // 2).flops"


def quadratic(replaced: Mapping[str, object]) -> dict[str, object]:
    """A second run of a computation whose flops grow with the square of seq_len."""
    seq_len = replaced["seq_len"]
    assert isinstance(seq_len, int)
    return {"flops": seq_len**2}


def test_a_placeholder_is_read_as_a_name_bound_per_variant() -> None:
    parsed = parse_claim("flops == {seq_len} ** 2")
    assert (parsed.names, parsed.placeholders) == (("flops",), ("seq_len",))
    assert evaluate(parsed, Scope({"flops": 16384}, {"seq_len": 128}))
    assert not evaluate(parsed, Scope({"flops": 16384}, {"seq_len": 256}))


def test_a_placeholder_value_is_never_code() -> None:
    # Were the value written into the claim's text, this would call a function.
    parsed = parse_claim("flops > {seq_len}")
    with pytest.raises(ClaimError, match="is text"):
        evaluate(parsed, Scope({"flops": 1}, {"seq_len": "__import__('os').getcwd()"}))


def test_an_unbound_placeholder_cannot_be_decided() -> None:
    outcome = check("flops > {seq_len}", {"flops": 1})
    assert (
        outcome.holds is None
        and outcome.error == "{seq_len} is not listed under the question's vary"
    )


def test_a_second_run_is_read_through_its_lookup_with_the_arguments_replaced() -> None:
    parsed = parse_claim(CLAIM)
    [run] = parsed.second_runs
    assert (run.text, run.value) == ("at(seq_len={seq_len} // 2).flops", "flops")
    assert run_arguments(run, {"seq_len": 256}) == {"seq_len": 128}
    scope = Scope({"flops": 256**2}, {"seq_len": 256}, quadratic)
    assert evaluate(parsed, scope)
    assert not evaluate(parsed, Scope({"flops": 256**2 + 1}, {"seq_len": 256}, quadratic))
    shown = check(CLAIM, scope).values
    assert shown == "flops = 65536, at(seq_len={seq_len} // 2).flops = 16384"


def test_where_no_second_run_is_made_the_claim_is_left_to_lint() -> None:
    outcome = check(CLAIM, Scope({"flops": 1}, {"seq_len": 256}))
    assert outcome.holds is None and outcome.elsewhere
    assert "quizapp lint checks it" in (outcome.error or "")
    assert not check("flops > 0", {"flops": 1}).elsewhere


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("{a, b} > 0", "sets are not allowed"),
        ("{1} > 0", "sets are not allowed"),
        ("x.real > 0", "attributes (a.b) are not allowed"),
        ("at(n=1) > 0", "followed by a value"),
        ("at(1).x > 0", "arguments by name"),
        ("at(n=1, n=2).x > 0", "twice"),
        ("at(n=x).y > 0", "not a value"),
        ("at(n=at(m=1).y).x > 0", "attributes (a.b) are not allowed"),
        (" + ".join(["at(n=1).x"] * 5) + " > 0", "at most 4"),
    ],
)
def test_malformed_placeholders_and_second_runs_are_refused(text: str, says: str) -> None:
    with pytest.raises(ClaimError, match=says.replace("(", r"\(").replace(")", r"\)")):
        parse_claim(text)
