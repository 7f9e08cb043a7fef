"""The lab's label over output that no longer matches its form: "results for d_model=64, …".

While a new run is on its way, after a bad argument, or after a cancel, the last result stays
on screen (dimmed) so the student can compare, but it must never pass for the answer to what
the form now says: this names the arguments it was computed with.
"""

from __future__ import annotations

from collections.abc import Mapping

from textual.widgets import Static

from quizapp.experiments.spec import ArgValue
from quizapp.tui.text.literal import literal


def describe_args(args: Mapping[str, ArgValue | None]) -> str:
    """`key=value` pairs as `quizapp compute` takes them; unset (default) arguments left out."""

    def shown(value: ArgValue) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        return str(value)

    return ", ".join(f"{name}={shown(value)}" for name, value in args.items() if value is not None)


class StaleNote(Static):
    DEFAULT_CSS = """
    StaleNote {
        color: $warning;
        text-style: italic;
        margin-top: 1;
        display: none;
        &.-shown { display: block; }
    }
    """

    def show_for(self, args: Mapping[str, ArgValue | None] | None) -> None:
        """Label the output as computed with `args`; None hides the label (it is current)."""
        if args is None:
            self.update("")
        else:
            described = describe_args(args) or "the default arguments"
            self.update(literal(f"results for {described}"))
        self.set_class(args is not None, "-shown")
