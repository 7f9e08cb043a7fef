"""The question's claims beside the lab's result: ✓ or ✗, in words, checked on the values shown.

A claim is about the question's own arguments. When the student reruns with arguments of
their own (a preset included), the claims are checked again on the new values, and a claim
whose sentence states a figure the new values do not give (quizapp/bank/says_figures.py) gets
no tick: it is marked as about the question's arguments, since its words are false here; one that stops holding then is
the point of the experiment, not a fault, so it is shown as expected for those arguments.
Only a claim that fails for the question's own arguments is a real ✗. A claim's {placeholders}
are the variant's values. A claim that compares a second run (`at(seq_len=64).flops`) is not
run again here: it is marked as checked by `quizapp lint` on the question's arguments. Every
text here comes from a bank file and is shown literally (rich Text, never markup).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.text import Text
from textual.widgets import Static

from quizapp.bank.claim_checks import Outcome, check, claim_scope
from quizapp.bank.claims import ClaimError, parse_claim
from quizapp.bank.model import Claim
from quizapp.bank.says_figures import figures_hold

HOLDS = "✓"
FAILS = "✗"
NOT_HERE = "○"  # does not hold for the student's arguments, as expected
ABOUT_OWN = "·"  # holds, but its sentence states figures of the question's arguments
BY_LINT = "·"  # reads a second run (at(...)), which the lab does not make
BY_LINT_NOTE = (
    "compares a second run of the computation: quizapp lint checks it on the question's arguments"
)
TITLE = "What the computation shows"
MAX_SHOWN_ARG = 40


def format_arg(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}"
    text = str(value)
    return text if len(text) <= MAX_SHOWN_ARG else text[: MAX_SHOWN_ARG - 1] + "…"


def changed_arguments(
    run: Mapping[str, object], own: Mapping[str, object] | None
) -> tuple[str, str] | None:
    """("n_layers=1", "n_layers=20"): where this run's arguments leave the question's own.
    None when they are the question's own. With `own` unknown, ("these arguments", "")."""
    if own is None:
        return ("these arguments", "")
    names = [name for name in run if run.get(name) != own.get(name)]
    if not names:
        return None
    this = ", ".join(_setting(name, run[name]) for name in names)
    theirs = ", ".join(_setting(name, own.get(name)) for name in names)
    return this, theirs


def _setting(name: str, value: object) -> str:
    """`n_heads=32`; an argument left unset takes its value from the others (a preset's)."""
    return f"{name} unset" if value is None else f"{name}={format_arg(value)}"


def claim_lines(
    outcomes: Sequence[Outcome],
    changed: tuple[str, str] | None,
    stale: frozenset[int] | None = None,
) -> Text:
    """The claims as literal text: a mark and the words, then a note on any that do not hold.
    `stale`: the outcomes (by index) whose sentence states figures this run does not give."""
    text = Text()
    text.append(TITLE, style="bold")
    if changed is not None:  # a ✓ here is for the student's arguments, not the question's
        this, theirs = changed
        about = f"; the question's claims are about {theirs}" if theirs else ""
        text.append(f"\nchecked on {this}{about}", style="dim")
    for index, outcome in enumerate(outcomes):
        text.append("\n")
        if outcome.elsewhere:
            text.append(f"{BY_LINT} ", style="bold")
            text.append(outcome.label)
            text.append(f"\n  {BY_LINT_NOTE}", style="dim")
            continue
        if outcome.holds and stale is not None and index in stale:
            # It holds, but its sentence's figures are the question's: no tick beside them.
            this, theirs = changed or ("", "")
            text.append(f"{ABOUT_OWN} ", style="bold")
            text.append(outcome.label)
            about = f" ({theirs})" if theirs else ""
            text.append(
                f"\n  about the question's arguments{about}: its figures are not those of {this}",
                style="dim",
            )
            continue
        if outcome.holds:
            text.append(f"{HOLDS} ", style="bold green")
            text.append(outcome.label)
            continue
        text.append(f"{FAILS if changed is None else NOT_HERE} ", style=_mark_style(changed))
        text.append(outcome.label)
        text.append("\n  ")
        text.append(_note(outcome, changed), style="dim" if changed is not None else "")
    return text


def _mark_style(changed: tuple[str, str] | None) -> str:
    return "bold red" if changed is None else "bold yellow"


def _note(outcome: Outcome, changed: tuple[str, str] | None) -> str:
    read = f" ({outcome.values})" if outcome.values else ""
    if changed is None:  # the question's own arguments: a real failure
        if outcome.error is not None:
            return f"cannot be checked: {outcome.error}{read}"
        return f"does not hold: {outcome.text}{read}"
    this, theirs = changed
    if outcome.error is not None:
        return f"cannot be checked for {this}: {outcome.error}"
    expected = ", as expected for those arguments" if theirs else ""
    return f"does not hold for {this}{expected}{read}"


def stale_sentences(claims: Sequence[Claim], values: Mapping[str, object]) -> frozenset[int]:
    """The claims (by index) whose sentence states a figure these values do not give."""
    return frozenset(i for i, claim in enumerate(claims) if not _figures_hold(claim, values))


def _figures_hold(claim: Claim, values: Mapping[str, object]) -> bool:
    try:
        parsed = parse_claim(claim.text)
    except ClaimError:
        return True  # shown as a claim that cannot be checked anyway
    return figures_hold(claim.says, parsed, claim_scope(claim, values))


class ClaimsView(Static):
    """Each claim of the shown computation with ✓ or ✗ (hidden when there are none)."""

    DEFAULT_CSS = """
    ClaimsView {
        height: auto;
        margin-top: 1;
        display: none;
        &.-shown { display: block; }
    }
    """

    outcomes: list[Outcome]

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__("", id=id, classes=classes, markup=False)
        self.outcomes = []
        self.changed: tuple[str, str] | None = None

    def show_claims(
        self,
        claims: Sequence[Claim],
        values: Mapping[str, object],
        run_args: Mapping[str, object],
        own_args: Mapping[str, object] | None,
    ) -> None:
        """Check `claims` on a result's values; `own_args` are the question's (None: unknown)."""
        self.outcomes = [check(c.text, claim_scope(c, values), c.says) for c in claims]
        self.changed = changed_arguments(run_args, own_args)
        # Other arguments than the question's: a sentence's figures may be the question's.
        stale = stale_sentences(claims, values) if self.changed is not None else None
        self.update(claim_lines(self.outcomes, self.changed, stale) if claims else "")
        self.set_class(bool(claims), "-shown")

    def clear_claims(self) -> None:
        self.outcomes = []
        self.changed = None
        self.update("")
        self.remove_class("-shown")
