"""Escape leaves a form field, whatever kind it is: a text box, a select, a checkbox.

A field keeps the keys while it has focus: a text box types `u`, `b`, `!` and `q` instead of
undoing, burying or quitting (Textual drops the bindings an Input consumes, so the footer does
not offer them either). Escape is the way out. The widgets that hold fields (the lab's form,
the number box) bind it as "Leave field", so the footer says what it does there, and focus
goes back to the page the field is on, where single keys are commands again.
"""

from __future__ import annotations

from textual.binding import Binding
from textual.dom import DOMNode
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Checkbox, Input, Select, Switch

FORM_FIELDS: tuple[type[Widget], ...] = (Input, Select, Checkbox, Switch)

LEAVE_FIELD = Binding("escape", "leave_field", "Leave field")


def in_form_field(node: DOMNode | None) -> bool:
    """True for a field, or a part of one (an open Select's list belongs to its Select)."""
    while node is not None and not isinstance(node, Screen):
        if isinstance(node, FORM_FIELDS):
            return True
        node = node.parent
    return False


def leave_field(field: Widget) -> None:
    """Hand the keys to the nearest focusable container around `field` (the page it is on),
    or to the screen itself when there is none."""
    for node in field.ancestors:
        if isinstance(node, Screen):
            break
        if isinstance(node, Widget) and node.focusable:
            node.focus()
            return
    field.screen.set_focus(None)


def release_focus(screen: Screen, home: Widget) -> bool:
    """If a form field has focus, move it to `home` and say so (True): a screen's Escape
    leaves the field before it leaves the screen."""
    if in_form_field(screen.focused):
        home.focus()
        return True
    return False


__all__ = ["FORM_FIELDS", "LEAVE_FIELD", "in_form_field", "leave_field", "release_focus"]
