"""Keys that arrive together (a fast typist, a terminal that sends a burst) act in the order
they were typed: Textual's Input runs its bound keys (Backspace, the arrows, Enter) only once
they have bubbled up to the App, so the characters behind them used to land first. Seen in
tmux: head_dim 64, then Backspace Backspace 3 2 Enter, ran on a blank field."""

from __future__ import annotations

import pytest
from textual import events
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Input

from quizapp.tui.components.lab_service import LabService
from quizapp.tui.widgets.ordered_input import OrderedInput
from tests.tui.test_lab_panel import Harness, compute, drive, wait_until

BURSTS = [
    # (keys typed at the end of "64", the field's text afterwards)
    (("backspace", "backspace", "1", "6"), "16"),
    (("backspace", "1", "left", "3"), "631"),
    (("backspace", "backspace", "home", "9", "end", "backspace", "2"), "2"),
    (("left", "left", "delete", "7"), "74"),
]


def burst(app: App[object], *keys: str) -> None:
    """Post the keys to the app at once, as the terminal driver does with a burst: nothing is
    processed between them (Pilot.press would wait for each)."""
    for key in keys:
        character = key if len(key) == 1 else None
        app.post_message(events.Key(key, character))


@pytest.fixture(scope="module")
def lab() -> LabService:
    service = LabService(device="cpu", results=None)
    service.warm_up()
    return service


async def typed(pilot: Pilot[None], field: Input, keys: tuple[str, ...], text: str) -> None:
    """From "64" with the cursor at its end, the burst leaves `text` in the field."""
    field.value = "64"  # as if typed earlier
    field.cursor_position = 2
    burst(pilot.app, *keys)
    await wait_until(pilot, lambda: field.value == text, timeout=5)


@pytest.mark.parametrize(("keys", "text"), BURSTS)
def test_a_burst_of_edits_in_a_lab_field_leaves_what_was_typed(
    lab: LabService, keys: tuple[str, ...], text: str
) -> None:
    app = Harness(lab, compute("mha_params", d_model=64))

    async def scenario(pilot: Pilot[None]) -> None:
        await wait_until(pilot, lambda: len(app.completed) == 1)
        heads = app.query_one("#arg-n_heads", Input)
        assert isinstance(heads, OrderedInput)
        heads.focus()
        await pilot.pause()
        await typed(pilot, heads, keys, text)

    drive(app, scenario)


def test_enter_at_the_end_of_a_burst_reruns_with_what_was_typed(lab: LabService) -> None:
    app = Harness(lab, compute("mha_params", d_model=64))

    async def scenario(pilot: Pilot[None]) -> None:
        await wait_until(pilot, lambda: len(app.completed) == 1)
        heads = app.query_one("#arg-n_heads", Input)
        heads.focus()
        await pilot.pause()
        await typed(pilot, heads, ("backspace", "backspace", "1", "6", "enter"), "16")
        await wait_until(pilot, lambda: len(app.completed) == 2)
        assert app.completed[1].args["n_heads"] == 16
        assert app.completed[1].result.values["head_dim"] == 4

    drive(app, scenario)
