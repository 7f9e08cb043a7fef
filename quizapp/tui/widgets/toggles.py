"""Checkboxes that read on or off without colour.

Textual draws a Checkbox, and each line of a SelectionList, as `▐X▌` whether it is on or off,
told apart only by colour: a colour-blind student, a monochrome terminal or NO_COLOR sees
every box ticked. Here an unticked box is drawn empty, `▐ ▌`, so the X alone says "on".
"""

from __future__ import annotations

from typing import Generic, TypeVar

from rich.segment import Segment
from textual.strip import Strip
from textual.widgets import Checkbox, SelectionList
from textual.widgets.option_list import OptionDoesNotExist

Value = TypeVar("Value")
# Textual's inner glyph (the class attribute, before MarkedCheckbox turns it into a property).
ON, OFF = Checkbox.BUTTON_INNER, " "


class MarkedCheckbox(Checkbox):
    @property  # type: ignore[override]
    def BUTTON_INNER(self) -> str:  # Textual's name: ToggleButton._button reads it
        return ON if self.value else OFF


class MarkedSelectionList(SelectionList[Value], Generic[Value]):
    def render_line(self, y: int) -> Strip:
        line = super().render_line(y)
        try:
            selection = self.get_option_at_index(self.scroll_offset.y + y)
        except OptionDoesNotExist:
            return line
        segments = list(line)
        # SelectionList draws [left side, inner, right side, space, prompt…] on an option's
        # lines; only its first line has the box (the inner segment is then BUTTON_INNER).
        if selection.value in self.selected or len(segments) < 2 or segments[1].text != ON:
            return line
        segments[1] = Segment(OFF, segments[1].style, segments[1].control)
        return Strip(segments, line.cell_length)


__all__ = ["MarkedCheckbox", "MarkedSelectionList"]
