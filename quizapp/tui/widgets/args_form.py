"""The lab's argument form: one compact input per argument of a computation's spec.

The form only reads and writes widget values; validation stays with `ComputationSpec.bind`, so
the panel, the CLI and the bank's linter all reject the same arguments with the same words.
"""

from __future__ import annotations

from collections.abc import Mapping

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.css.query import NoMatches
from textual.widget import Widget
from textual.widgets import Checkbox, Input, Label, Select

from quizapp.experiments.spec import Arg, ArgValue, ComputationSpec
from quizapp.tui.widgets.toggles import MarkedCheckbox


class ArgsForm(Widget):
    """Inputs for a spec's arguments, prefilled; `read()` returns what the student typed."""

    DEFAULT_CSS = """
    ArgsForm {
        layout: grid;
        grid-size: 2;
        grid-columns: 1fr 1fr;
        grid-rows: 1;
        grid-gutter: 0 2;
        height: auto;

        .arg-field {
            height: 1;
            width: 1fr;
        }
        .arg-field > Label {
            width: 16;
            color: $text-muted;
        }
        .arg-field.-invalid > Label {
            color: $error;
            text-style: bold;
        }
        .arg-field > Input, .arg-field > Select, .arg-field > Checkbox {
            width: 1fr;
        }
    }
    """

    def __init__(
        self,
        spec: ComputationSpec,
        values: Mapping[str, object],
        *,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.spec = spec
        # Kept so `read()` answers even before the inputs are mounted (a rerun right after show).
        self._initial = dict(values)
        self._invalid: str | None = None

    def compose(self) -> ComposeResult:
        for arg in self.spec.args:
            invalid = " -invalid" if arg.name == self._invalid else ""
            with Horizontal(classes=f"arg-field{invalid}", id=f"field-{arg.name}"):
                label = Label(arg.name)
                label.tooltip = f"{arg.doc}\n{arg.describe()}"
                yield label
                yield self._input_for(arg, self._initial.get(arg.name))

    def _input_for(self, arg: Arg, value: object) -> Widget:
        widget_id = f"arg-{arg.name}"
        tooltip = f"{arg.doc} — {arg.describe()}"
        if arg.kind == "choice":
            return Select(
                [(choice, choice) for choice in arg.choices],
                value=value if value in arg.choices else Select.NULL,
                allow_blank=arg.optional,
                prompt="default",
                compact=True,
                id=widget_id,
                tooltip=tooltip,
            )
        if arg.kind == "bool" and arg.optional:
            # A checkbox cannot say "not set", and for optional flags unset means "the preset's".
            return Select(
                [("yes", True), ("no", False)],
                value=value if isinstance(value, bool) else Select.NULL,
                allow_blank=True,
                prompt="default",
                compact=True,
                id=widget_id,
                tooltip=tooltip,
            )
        if arg.kind == "bool":
            # The doc as the label: the name is already on the left, and a bare box says little.
            # Marked: on and off differ by more than colour (an empty box when off).
            return MarkedCheckbox(
                arg.doc, value=bool(value), compact=True, id=widget_id, tooltip=tooltip
            )
        input_type = {"int": "integer", "float": "number"}.get(arg.kind, "text")
        placeholder = "blank: default" if arg.default is None else f"default {arg.default}"
        return Input(
            value="" if value is None else str(value),
            placeholder=placeholder,
            type=input_type,  # type: ignore[arg-type]
            max_length=arg.max_length if arg.kind == "str" else 0,
            compact=True,
            select_on_focus=True,
            id=widget_id,
            tooltip=tooltip,
        )

    def read(self) -> dict[str, object]:
        """The form's values, roughly typed; blanks are None so `bind` fills the default.

        Text that does not parse is passed on as text, so `bind` rejects it with a message
        naming the argument rather than the form guessing.
        """
        values: dict[str, object] = {}
        for arg in self.spec.args:
            try:
                widget = self.query_one(f"#arg-{arg.name}")
            except NoMatches:
                values[arg.name] = self._initial.get(arg.name)
                continue
            if isinstance(widget, Select):
                values[arg.name] = None if widget.is_blank() else widget.value
            elif isinstance(widget, Checkbox):
                values[arg.name] = widget.value
            elif isinstance(widget, Input):
                values[arg.name] = _parse(arg, widget.value)
        return values

    def set_values(self, values: Mapping[str, ArgValue | None]) -> None:
        """Show new values (after a programmatic rerun) without rebuilding the inputs."""
        self._initial.update(values)
        for arg in self.spec.args:
            if arg.name not in values:
                continue
            value = values[arg.name]
            try:
                widget = self.query_one(f"#arg-{arg.name}")
            except NoMatches:
                continue
            if isinstance(widget, Select):
                allowed = arg.choices if arg.kind == "choice" else (True, False)
                widget.value = value if value in allowed else Select.NULL
            elif isinstance(widget, Checkbox):
                widget.value = bool(value)
            elif isinstance(widget, Input):
                widget.value = "" if value is None else str(value)

    def mark_invalid(self, argument: str | None) -> None:
        """Highlight the culprit's label; None clears every highlight."""
        self._invalid = argument  # remembered for compose, if the inputs are not there yet
        for field in self.query(".arg-field"):
            field.set_class(field.id == f"field-{argument}", "-invalid")


def _parse(arg: Arg, text: str) -> object:
    text = text.strip()
    if not text:
        return None
    if arg.kind in ("int", "float"):
        cleaned = text.replace(",", "").replace("_", "")
        for convert in (int, float):
            try:
                return convert(cleaned)
            except ValueError:
                pass
    return text
