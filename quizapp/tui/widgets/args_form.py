"""The lab's argument form: one compact input per argument of a computation's spec.

The form only reads and writes widget values; validation stays with `ComputationSpec.bind`, so
the panel, the CLI and the bank's linter all reject the same arguments with the same words.

It says when the student has changed something (`Edited`): a checkbox or a select at once, a
typed number once typing settles (Enter, leaving the box, or a pause), never per keystroke.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal
from textual.css.query import NoMatches
from textual.message import Message
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Checkbox, Input, Label, Select

from quizapp.experiments.spec import Arg, ArgValue, ComputationSpec
from quizapp.tui.widgets.field_focus import LEAVE_FIELD, leave_field
from quizapp.tui.widgets.ordered_input import OrderedInput
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
            /* A name longer than the column ends in "…" (the tooltip has it whole); the space
               after it keeps "high_freq_factor" from running into its value. */
            width: 17;
            padding-right: 1;
            text-wrap: nowrap;
            text-overflow: ellipsis;
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

    BINDINGS: ClassVar[list[BindingType]] = [LEAVE_FIELD]

    # How long typing must pause before a typed value counts: long enough not to run every
    # keystroke's number (8 on the way to 80), short enough to feel live.
    SETTLE_SECONDS: ClassVar[float] = 0.6

    class Edited(Message):
        """The student changed a field. `settled`: done changing it (rerun now); otherwise
        still typing, and a settled Edited follows."""

        def __init__(self, form: ArgsForm, *, settled: bool) -> None:
            super().__init__()
            self.form = form
            self.settled = settled

        @property
        def control(self) -> ArgsForm:
            return self.form

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
        # Each field's state as last seen, so only the student's changes count as edits (a
        # Select announces its first value as it mounts; set_values changes fields too).
        self._seen: dict[str, object] = {}
        self._settle_timer: Timer | None = None

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
        state = self._seen[arg.name] = _field_state(arg, value)
        if arg.kind == "choice":
            return Select(
                [(choice, choice) for choice in arg.choices],
                value=state,
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
                value=state,
                allow_blank=True,
                prompt="default",
                compact=True,
                id=widget_id,
                tooltip=tooltip,
            )
        if arg.kind == "bool":
            # The doc as the label: the name is already on the left, and a bare box says little.
            return MarkedCheckbox(
                arg.doc, value=bool(state), compact=True, id=widget_id, tooltip=tooltip
            )
        input_type = {"int": "integer", "float": "number"}.get(arg.kind, "text")
        placeholder = "blank: default" if arg.default is None else f"default {arg.default}"
        return OrderedInput(
            value=str(state),
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
            if isinstance(widget, Select | Checkbox | Input):
                state = self._seen[arg.name] = _field_state(arg, value)
                widget.value = state  # seen first, so the widget's Changed is not an edit

    # -- edits ---------------------------------------------------------------------------------

    @on(Checkbox.Changed)
    @on(Select.Changed)
    def _picked(self, event: Checkbox.Changed | Select.Changed) -> None:
        if self._changed(event.control):
            self._settle()

    @on(Input.Changed)
    def _typed(self, event: Input.Changed) -> None:
        if not self._changed(event.input):
            return
        if self._settle_timer is not None:
            self._settle_timer.stop()
        self._settle_timer = self.set_timer(self.SETTLE_SECONDS, self._settle, name="settle")
        self.post_message(self.Edited(self, settled=False))

    @on(Input.Blurred)
    def _left_box(self, _event: Input.Blurred) -> None:
        if self._settle_timer is not None:  # typed and left before the pause: settle now
            self._settle()

    @on(Input.Submitted)
    def _submitted(self, _event: Input.Submitted) -> None:
        # Enter reruns by itself (the panel handles it): the pending settle has nothing to add.
        if self._settle_timer is not None:
            self._settle_timer.stop()
            self._settle_timer = None

    def _changed(self, widget: Widget) -> bool:
        name = (widget.id or "").removeprefix("arg-")
        if name not in self._seen:
            return False
        state = _state(widget)
        if state == self._seen[name]:
            return False
        self._seen[name] = state
        return True

    def _settle(self) -> None:
        if self._settle_timer is not None:
            self._settle_timer.stop()
            self._settle_timer = None
        self.post_message(self.Edited(self, settled=True))

    def action_leave_field(self) -> None:
        leave_field(self)

    def mark_invalid(self, argument: str | None) -> None:
        """Highlight the culprit's label; None clears every highlight."""
        self._invalid = argument  # remembered for compose, if the inputs are not there yet
        for field in self.query(".arg-field"):
            field.set_class(field.id == f"field-{argument}", "-invalid")


def _field_state(arg: Arg, value: object) -> object:
    """The `value` of the widget that shows `value` for `arg`: a Select's option (NULL when
    blank), a Checkbox's tick, an Input's text."""
    if arg.kind == "choice":
        if value in arg.choices:
            return value
        # A Select that cannot be blank picks its first option as it mounts: say so up front,
        # so that its mounting is not taken for the student's edit.
        return Select.NULL if arg.optional else arg.choices[0]
    if arg.kind == "bool" and arg.optional:
        return value if isinstance(value, bool) else Select.NULL
    if arg.kind == "bool":
        return bool(value)
    return "" if value is None else str(value)


def _state(widget: Widget) -> object:
    """What a field shows now (see _field_state)."""
    return widget.value if isinstance(widget, Select | Checkbox | Input) else None


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
