"""Every argument change reruns the lab, and output that no longer matches the form says so.

A tick or a pick reruns at once; a typed number once typing settles (Enter, leaving the box,
or a pause), never per keystroke. Until the new result lands, and after a bad argument or a
cancel, the old output stays dimmed under "results for …", naming what it was computed with.
Real computations on the CPU; a gate holds a run open where a test needs to look at it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping

import pytest
from textual.pilot import Pilot
from textual.widgets import Checkbox, Input, Select, Static

from quizapp.experiments.context import Cancelled
from quizapp.experiments.result import Result
from quizapp.tui.components.lab_service import LabService
from quizapp.tui.widgets.args_form import ArgsForm
from quizapp.tui.widgets.lab_panel import FIX_ARGUMENT, TYPING
from quizapp.tui.widgets.stale_note import StaleNote
from tests.tui.test_lab_panel import Harness, compute, drive, status, value, wait_until

SIZES = [(80, 24), (120, 40)]


@pytest.fixture(scope="module")
def lab() -> LabService:
    service = LabService(device="cpu")
    service.warm_up()
    assert service.failed is None, service.failed
    return service


class GatedRuns:
    """Records every run's arguments; while the gate is shut, a run waits (cancellably)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.args: list[dict[str, object]] = []
        self.gate = threading.Event()
        self.gate.set()
        real_run = LabService.run

        def run(
            service: LabService,
            name: str,
            args: Mapping[str, object],
            *,
            on_progress: Callable[[float, str], None] | None = None,
            is_cancelled: Callable[[], bool] | None = None,
        ) -> Result:
            self.args.append(dict(args))
            while not self.gate.wait(timeout=0.01):
                if is_cancelled and is_cancelled():
                    raise Cancelled
            return real_run(service, name, args, on_progress=on_progress, is_cancelled=is_cancelled)

        monkeypatch.setattr(LabService, "run", run)


def note(app: Harness) -> StaleNote:
    return app.query_one(StaleNote)


def note_text(app: Harness) -> str:
    shown = note(app)
    return str(shown.content) if shown.display else ""


def looks_current(app: Harness) -> bool:
    return not app.panel.has_class("-stale") and note_text(app) == ""


async def focus(pilot: Pilot[None], selector: str) -> None:
    pilot.app.query_one(selector).focus()
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES)
def test_ticking_a_checkbox_reruns_with_it(
    lab: LabService, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    runs = GatedRuns(monkeypatch)
    app = Harness(lab, compute("mha_params"))

    async def scenario(pilot: Pilot[None]) -> None:
        await wait_until(pilot, lambda: len(app.completed) == 1)
        without = app.completed[0].result.values["params_multi_head"]
        assert app.completed[0].args["bias"] is False

        runs.gate.clear()
        await focus(pilot, "#arg-bias")
        await pilot.press("space")  # no r: the tick alone reruns
        await wait_until(pilot, lambda: len(runs.args) == 2)
        assert runs.args[1]["bias"] is True
        # Pending: the old table is still there, dimmed, and labelled with its arguments.
        assert app.panel.has_class("-stale")
        assert note_text(app) == "results for d_model=512, n_heads=8, bias=false"
        assert status(app).startswith("computing on cpu")
        assert value(app, "params_multi_head") == f"{without:,}"

        runs.gate.set()
        await wait_until(pilot, lambda: len(app.completed) == 2)
        assert app.completed[1].args["bias"] is True
        with_bias = app.completed[1].result.values["params_multi_head"]
        assert with_bias == without + 4 * 512  # four projections, a bias of d_model each
        assert value(app, "params_multi_head") == f"{with_bias:,}"
        assert looks_current(app)
        assert status(app).startswith("done in")

    drive(app, scenario, size)


@pytest.mark.parametrize("size", SIZES)
def test_picking_a_preset_reruns_and_the_old_total_is_labelled_until_the_new_lands(
    lab: LabService, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    runs = GatedRuns(monkeypatch)
    app = Harness(lab, compute("model_params", preset="gpt2-small"))

    async def scenario(pilot: Pilot[None]) -> None:
        await wait_until(pilot, lambda: len(app.completed) == 1)
        small = app.completed[0].result.values["total"]
        assert value(app, "total") == f"{small:,}"

        runs.gate.clear()
        await focus(pilot, "#arg-preset")
        await pilot.press("enter")  # open the list, at gpt2-small
        choices = app.panel.spec.args[0].choices  # type: ignore[union-attr]
        await pilot.press(*["down"] * choices.index("llama2-70b"), "enter")
        assert app.query_one("#arg-preset", Select).value == "llama2-70b"
        await wait_until(pilot, lambda: len(runs.args) == 2)
        assert runs.args[1]["preset"] == "llama2-70b"
        assert note_text(app) == "results for preset=gpt2-small"
        assert app.panel.has_class("-stale")
        assert not status(app).startswith("done")  # the old "done in" is not shown as current

        runs.gate.set()
        await wait_until(pilot, lambda: len(app.completed) == 2)
        big = app.completed[1].result.values["total"]
        assert big != small and app.completed[1].args["preset"] == "llama2-70b"
        assert value(app, "total") == f"{big:,}"
        assert looks_current(app)

    drive(app, scenario, size)


def test_a_typed_number_waits_for_typing_to_settle(
    lab: LabService, monkeypatch: pytest.MonkeyPatch
) -> None:
    runs = GatedRuns(monkeypatch)
    # A pause this long never happens in the test: only leaving the box can settle it.
    monkeypatch.setattr(ArgsForm, "SETTLE_SECONDS", 60.0)
    app = Harness(lab, compute("mha_params"))

    async def scenario(pilot: Pilot[None]) -> None:
        await wait_until(pilot, lambda: len(app.completed) == 1)
        await focus(pilot, "#arg-n_heads")
        await pilot.press("1", "6")  # "1" on the way is a valid head count: it must not run
        await pilot.pause()
        assert len(runs.args) == 1 and not app.panel.running
        assert status(app) == TYPING
        assert note_text(app) == "results for d_model=512, n_heads=8, bias=false"

        await pilot.press("tab")  # leaving the box settles it
        await wait_until(pilot, lambda: len(app.completed) == 2)
        assert [run["n_heads"] for run in runs.args] == [8, 16]
        assert looks_current(app)

    drive(app, scenario)


def test_a_pause_in_typing_reruns_without_enter(
    lab: LabService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ArgsForm, "SETTLE_SECONDS", 0.05)
    app = Harness(lab, compute("mha_params"))

    async def scenario(pilot: Pilot[None]) -> None:
        await wait_until(pilot, lambda: len(app.completed) == 1)
        await focus(pilot, "#arg-n_heads")
        await pilot.press("4")
        await wait_until(pilot, lambda: len(app.completed) == 2)
        assert app.completed[1].args["n_heads"] == 4
        assert app.query_one("#arg-n_heads", Input).has_focus  # still typing there
        assert value(app, "head_dim") == str(512 // 4)
        assert looks_current(app)

    drive(app, scenario)


@pytest.mark.parametrize("size", SIZES)
def test_a_bad_value_leaves_the_old_result_labelled_and_fixing_it_clears_the_label(
    lab: LabService, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    runs = GatedRuns(monkeypatch)
    app = Harness(lab, compute("mha_params", d_model=64, n_heads=8))

    async def scenario(pilot: Pilot[None]) -> None:
        await wait_until(pilot, lambda: len(app.completed) == 1)
        await focus(pilot, "#arg-d_model")
        await pilot.press("5", "1", "0", "enter")  # 510 is not divisible by 8 heads
        await pilot.pause()
        assert "not divisible" in str(app.query_one("#lab-arg-error", Static).content)
        assert status(app) == FIX_ARGUMENT
        assert app.panel.has_class("-stale")
        assert note_text(app) == "results for d_model=64, n_heads=8, bias=false"
        assert value(app, "head_dim") == "8"  # still the old table, but labelled as the old one
        assert len(runs.args) == 1

        # Back to what the table was computed with: current again, with nothing to run.
        await pilot.press(*["backspace"] * 3, "6", "4", "tab")
        await wait_until(pilot, lambda: looks_current(app))
        assert status(app).startswith("done in")
        assert str(app.query_one("#lab-arg-error", Static).content) == ""
        assert len(runs.args) == 1

    drive(app, scenario, size)


def test_a_cancelled_run_leaves_the_old_result_labelled(
    lab: LabService, monkeypatch: pytest.MonkeyPatch
) -> None:
    runs = GatedRuns(monkeypatch)
    app = Harness(lab, compute("mha_params"))

    async def scenario(pilot: Pilot[None]) -> None:
        await wait_until(pilot, lambda: len(app.completed) == 1)
        runs.gate.clear()
        await focus(pilot, "#arg-bias")
        await pilot.press("space")
        await wait_until(pilot, lambda: app.panel.running and len(runs.args) == 2)
        await pilot.press("x")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert status(app) == "cancelled" and not app.panel.running
        assert app.query_one("#arg-bias", Checkbox).value is True
        assert note_text(app) == "results for d_model=512, n_heads=8, bias=false"
        assert app.panel.has_class("-stale")

        # Untick: the form says what the table was computed with again. Nothing needs running.
        await pilot.press("space")
        await wait_until(pilot, lambda: looks_current(app))
        assert status(app).startswith("done in")
        assert len(runs.args) == 2 and len(app.completed) == 1

    drive(app, scenario)


def test_the_programmatic_rerun_and_mounting_are_not_edits(
    lab: LabService, monkeypatch: pytest.MonkeyPatch
) -> None:
    runs = GatedRuns(monkeypatch)
    app = Harness(lab, compute("model_params", preset="bert-base"), autorun=False)

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.pause()
        await pilot.pause(0.1)
        assert runs.args == []  # the Select announcing its value as it mounts ran nothing
        assert app.panel.rerun({"preset": "gpt2-xl"})
        await wait_until(pilot, lambda: len(app.completed) == 1)
        assert app.query_one("#arg-preset", Select).value == "gpt2-xl"
        await pilot.pause(0.1)
        assert [run["preset"] for run in runs.args] == ["gpt2-xl"]  # one run, not two
        assert looks_current(app)

    drive(app, scenario)
