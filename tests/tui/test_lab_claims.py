"""The lab panel's claims, through Pilot with real computations: ✓ on the question's own
arguments, re-checked live on the student's, and a real ✗ only for the question's own."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Input

from quizapp.bank import load_file
from quizapp.bank.claim_checks import Outcome
from quizapp.bank.model import ComputeSpec
from quizapp.tui.components.lab_service import LabService
from quizapp.tui.widgets.claims_view import ClaimsView, changed_arguments, claim_lines
from tests.tui.test_lab_panel import Harness, compute, drive, lab, value, wait_until

__all__ = ["lab"]  # the module-scoped, warmed LabService fixture

FIXTURE = Path(__file__).parent / "data" / "claims.yaml"


def fixture_compute(question_id: str) -> ComputeSpec:
    deck, _ = load_file(FIXTURE)
    assert deck is not None
    question = next(q for q in deck.questions if q.id == question_id)
    assert question.compute is not None and question.compute.expect
    return question.compute


def claims_text(app: Harness) -> list[str]:
    view = app.query_one("#lab-claims", ClaimsView)
    return str(view.content).splitlines() if view.display else []


def test_claims_hold_on_the_default_run_and_are_rechecked_on_the_students_arguments(
    lab: LabService,
) -> None:
    app = Harness(lab, fixture_compute("mha-purpose-subspaces"))

    async def scenario(pilot: Pilot[None]) -> None:
        await wait_until(pilot, lambda: len(app.completed) == 1)
        assert claims_text(app) == [
            "What the computation shows",
            "✓ One wide head and eight narrow heads have exactly the same parameter count",
            "✓ [b]Each head[/b] works in 64 of the 512 dimensions",  # literal, not markup
        ]

        heads = app.query_one("#arg-n_heads", Input)
        heads.focus()
        await pilot.pause()
        await pilot.press("1", "6", "enter")
        await wait_until(pilot, lambda: len(app.completed) == 2)
        assert value(app, "head_dim") == "32"
        assert claims_text(app) == [
            "What the computation shows",
            # A ✓ below is for the student's arguments: the panel says whose they are.
            "checked on n_heads=16; the question's claims are about n_heads=8",
            "✓ One wide head and eight narrow heads have exactly the same parameter count",
            "○ [b]Each head[/b] works in 64 of the 512 dimensions",
            "  does not hold for n_heads=16, as expected for those arguments (head_dim = 32)",
        ]
        assert not any("✗" in line for line in claims_text(app))

        app.query_one("#arg-d_model", Input).focus()
        await pilot.pause()
        heads.focus()  # focusing selects the value, so typing replaces it
        await pilot.pause()
        await pilot.press("8", "enter")  # back to the question's own arguments
        await wait_until(pilot, lambda: len(app.completed) == 3)
        assert [line[0] for line in claims_text(app)[1:]] == ["✓", "✓"]

    drive(app, scenario)


def test_a_claim_failing_for_the_questions_own_arguments_is_a_real_cross(lab: LabService) -> None:
    app = Harness(lab, fixture_compute("claims-fixture-wrong"))

    async def scenario(pilot: Pilot[None]) -> None:
        await wait_until(pilot, lambda: len(app.completed) == 1)
        assert claims_text(app) == [
            "What the computation shows",
            "✗ Each head works in 32 dimensions",
            "  does not hold: head_dim == 32 (head_dim = 64)",
            "✓ params_single_head == params_multi_head",  # no `says`: the claim itself
        ]
        view = app.query_one("#lab-claims", ClaimsView)
        assert [o.holds for o in view.outcomes] == [False, True]
        assert view.changed is None

    drive(app, scenario)


def test_no_claims_no_list_and_switching_clears_it(lab: LabService) -> None:
    app = Harness(lab, fixture_compute("claims-fixture-wrong"))

    async def scenario(pilot: Pilot[None]) -> None:
        await wait_until(pilot, lambda: len(app.completed) == 1)
        assert claims_text(app)
        app.panel.show(compute("mha_params"))  # a computation without claims
        await pilot.pause()
        assert claims_text(app) == []
        await wait_until(pilot, lambda: len(app.completed) == 2)
        assert claims_text(app) == []

    drive(app, scenario)


def test_claims_checked_on_unknown_own_arguments_say_so_without_expecting_anything() -> None:
    holds = Outcome("a > 1", "A is large", True, "a = 2")
    fails = Outcome("b > 1", None, False, "b = 0")
    lines = claim_lines([holds, fails], ("these arguments", "")).plain.splitlines()
    assert lines == [
        "What the computation shows",
        "checked on these arguments",
        "✓ A is large",
        "○ b > 1",
        "  does not hold for these arguments (b = 0)",
    ]
    own = claim_lines([holds, fails], None).plain.splitlines()
    assert own[1:] == ["✓ A is large", "✗ b > 1", "  does not hold: b > 1 (b = 0)"]


def test_changed_arguments_names_only_what_differs() -> None:
    own = {"d_model": 512, "n_heads": 8, "bias": False}
    assert changed_arguments(own, own) is None
    assert changed_arguments({**own, "n_heads": 16, "bias": True}, own) == (
        "n_heads=16, bias=true",
        "n_heads=8, bias=false",
    )
    assert changed_arguments(own, None) == ("these arguments", "")


def test_an_argument_the_question_leaves_unset_is_named_as_unset_not_none() -> None:
    """A question that leaves `n_kv_heads` to its preset: the note says so, never "None"."""
    own = {"preset": "llama2-70b", "n_kv_heads": None}
    assert changed_arguments({**own, "n_kv_heads": 1}, own) == ("n_kv_heads=1", "n_kv_heads unset")
    assert changed_arguments(own, {**own, "n_kv_heads": 4}) == ("n_kv_heads unset", "n_kv_heads=4")


def test_the_lab_binds_a_variants_placeholders_and_leaves_second_runs_to_lint() -> None:
    from quizapp.bank.claim_checks import check, claim_scope
    from quizapp.bank.model import Claim, Location
    from quizapp.bank.variants import bind

    where = Location("deck.yaml", 1, 1)
    varied = bind(Claim("flops == {seq_len} ** 2", where, "Quadratic"), {"seq_len": 8})
    second = bind(Claim("flops == 4 * at(seq_len={seq_len} // 2).flops", where), {"seq_len": 8})
    outcomes = [check(c.text, claim_scope(c, {"flops": 64}), c.says) for c in (varied, second)]
    lines = claim_lines(outcomes, None).plain.splitlines()
    assert lines[1:] == [
        "✓ Quadratic",
        "· flops == 4 * at(seq_len={seq_len} // 2).flops",
        "  compares a second run of the computation: quizapp lint checks it on the question's "
        "arguments",
    ]
