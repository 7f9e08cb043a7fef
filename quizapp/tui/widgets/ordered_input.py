"""An Input whose editing keys act in the order they were typed.

Textual's Input inserts a printable key in its own key handler, but its bound keys (Backspace,
Delete, the arrows, Home, End, Enter…) run only once the key has bubbled up to the App. In a
burst (a fast typist, a paste of keys, a terminal that sends them together) the characters
behind a Backspace reach the Input first: "64", Backspace Backspace 1 6 became "64", not "16".
Here the Input's own bindings run in its key handler, in the order the keys came; every other
key bubbles up as before.
"""

from __future__ import annotations

from textual import events
from textual.widgets import Input


class OrderedInput(Input):
    async def _on_key(self, event: events.Key) -> None:
        # Textual calls each class's _on_key down the MRO until one prevents the default:
        # a key not bound here goes on to Input's own handler (which types it) as before.
        if event.is_printable:
            return
        for binding in self._bindings.key_to_bindings.get(event.key, ()):
            if not binding.priority and await self.app.run_action(binding.action, self):
                event.stop()
                event.prevent_default()
                return


__all__ = ["OrderedInput"]
