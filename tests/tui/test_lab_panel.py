"""LabPanel driven through Pilot, with real computations on the CPU.

No pytest-asyncio in the dev dependencies, so each test runs its coroutine with asyncio.run.
"""

from __future__ import annotations

import asyncio
import re
import threading
import time
from collections.abc import Awaitable, Callable, Mapping

import pytest
from textual.app import App, ComposeResult
from textual.containers import VerticalScroll
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Static
from textual_plot import NumericAxisFormatter, PlotWidget

from quizapp.bank.model import ComputeSpec, Location
from quizapp.experiments.context import Cancelled
from quizapp.experiments.result import Result
from quizapp.tui.components.lab_service import LabService
from quizapp.tui.widgets.lab_panel import NO_COMPUTATION, WARMING_UP, LabPanel
from quizapp.tui.widgets.result_view import (
    CompactAxisFormatter,
    LogAxisFormatter,
    compact_number,
    format_value,
)

SIZE = (80, 24)


def compute(name: str, **args: object) -> ComputeSpec:
    return ComputeSpec(name, args, Location("test.yaml", 1, 1))  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def lab() -> LabService:
    """Warmed once: importing torch is the slow part, and it happens once per process anyway."""
    service = LabService(device="cpu")
    service.warm_up()
    assert service.failed is None, service.failed
    return service


class Harness(App[None]):
    def __init__(self, lab: LabService, spec: ComputeSpec | None, *, autorun: bool = True) -> None:
        super().__init__()
        self.lab = lab
        self.spec = spec
        self.autorun = autorun
        self.completed: list[LabPanel.Completed] = []
        self.failed: list[LabPanel.Failed] = []

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield LabPanel(self.lab, self.spec, autorun=self.autorun, id="lab")

    def on_lab_panel_completed(self, message: LabPanel.Completed) -> None:
        self.completed.append(message)

    def on_lab_panel_failed(self, message: LabPanel.Failed) -> None:
        self.failed.append(message)

    @property
    def panel(self) -> LabPanel:
        return self.query_one("#lab", LabPanel)


def drive(
    app: Harness,
    scenario: Callable[[Pilot[None]], Awaitable[None]],
    size: tuple[int, int] = SIZE,
) -> None:
    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await scenario(pilot)

    asyncio.run(main())


async def wait_until(
    pilot: Pilot[None], predicate: Callable[[], bool], timeout: float = 30
) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out waiting for the lab panel"
        await pilot.pause(0.02)


def status(app: App[None]) -> str:
    return str(app.query_one("#lab-status", Static).content)


def value(app: App[None], name: str) -> str:
    table = app.query_one(".lab-values", DataTable)
    return str(table.get_cell(name, "result"))


def test_warming_up_then_values() -> None:
    cold = LabService(device="cpu")  # warm_up not called yet
    app = Harness(cold, compute("mha_params"))

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.pause()
        assert status(app) == WARMING_UP
        assert not app.completed
        threading.Thread(target=cold.warm_up, daemon=True).start()
        await wait_until(pilot, lambda: bool(app.completed))
        assert re.fullmatch(r"done in \d+ ms on cpu", status(app)), status(app)
        assert value(app, "params_multi_head") == "1,048,576"

    drive(app, scenario)


def test_each_value_shows_its_unit_and_meaning_not_its_identifier(lab: LabService) -> None:
    from quizapp.experiments.value_docs import VALUE_DOCS

    app = Harness(lab, compute("mha_params"))

    async def scenario(pilot: Pilot[None]) -> None:
        await wait_until(pilot, lambda: len(app.completed) == 1)
        table = app.query_one(".lab-values", DataTable)
        assert [str(c.label) for c in table.columns.values()] == ["result", "unit", "what it is"]
        docs = VALUE_DOCS["mha_params"]
        for name in app.completed[0].result.values:
            unit, meaning = docs[name]
            cells = [str(cell) for cell in table.get_row(name)]
            assert cells[2] == meaning, name
            assert cells[1] in (unit, "", "×"), name
            assert name not in cells[1:] or name == meaning, name  # words, not the identifier
        assert str(table.get_cell("params_multi_head", "unit")) == "parameters"

    drive(app, scenario)


def test_mha_defaults_then_rerun_with_sixteen_heads(lab: LabService) -> None:
    app = Harness(lab, compute("mha_params"))

    async def scenario(pilot: Pilot[None]) -> None:
        await wait_until(pilot, lambda: len(app.completed) == 1)
        assert value(app, "params_multi_head") == "1,048,576"
        assert value(app, "head_dim") == "64"
        assert app.completed[0].args == {"d_model": 512, "n_heads": 8, "bias": False}

        heads = app.query_one("#arg-n_heads", Input)
        heads.focus()
        await pilot.pause()
        await pilot.press("1", "6")  # the value is selected on focus, so typing replaces it
        assert heads.value == "16"
        await pilot.press("tab")  # leaving the box reruns with what it says
        await wait_until(pilot, lambda: len(app.completed) == 2)
        assert value(app, "head_dim") == "32"
        assert value(app, "params_multi_head") == "1,048,576"
        assert app.completed[1].args["n_heads"] == 16
        assert app.completed[1].result.values["head_dim"] == 32
        await pilot.press("r")  # r from the bias checkbox: the panel's binding, a plain rerun
        await wait_until(pilot, lambda: len(app.completed) == 3)
        assert app.completed[2].args == app.completed[1].args

        # Enter in an input reruns too.
        width = app.query_one("#arg-d_model", Input)
        width.focus()
        await pilot.pause()
        await pilot.press("2", "5", "6", "enter")
        await wait_until(pilot, lambda: len(app.completed) == 4)
        assert value(app, "head_dim") == "16"

    drive(app, scenario)


def test_bad_argument_is_shown_inline_and_nothing_runs(lab: LabService) -> None:
    app = Harness(lab, compute("mha_params"))

    async def scenario(pilot: Pilot[None]) -> None:
        await wait_until(pilot, lambda: len(app.completed) == 1)
        app.query_one("#arg-n_heads", Input).focus()
        await pilot.pause()
        await pilot.press("7")
        await pilot.click("#lab-rerun")
        await pilot.pause()
        error = str(app.query_one("#lab-arg-error", Static).content)
        assert error.startswith("n_heads:"), error
        assert "not divisible by n_heads (7)" in error
        assert app.query_one("#field-n_heads").has_class("-invalid")
        assert not app.panel.running
        await app.workers.wait_for_complete()  # had a run started, it would be over now
        await pilot.pause()
        assert len(app.completed) == 1 and not app.failed
        assert value(app, "head_dim") == "64"  # the last good result stays

        # The same check guards the programmatic API; a good value clears the mark.
        assert app.panel.rerun({"n_heads": 7}) is False
        assert app.panel.rerun({"n_heads": 4}) is True
        await wait_until(pilot, lambda: len(app.completed) == 2)
        assert value(app, "head_dim") == "128"
        assert app.query_one("#arg-n_heads", Input).value == "4"
        assert str(app.query_one("#lab-arg-error", Static).content) == ""
        assert not app.query_one("#field-n_heads").has_class("-invalid")

    drive(app, scenario)


def test_series_is_plotted(lab: LabService) -> None:
    app = Harness(lab, compute("variance_drift", n_layers=4, d_model=16, n_tokens=16))

    async def scenario(pilot: Pilot[None]) -> None:
        await wait_until(pilot, lambda: len(app.completed) == 1)
        plot = app.query_one(PlotWidget)
        lines = app.completed[0].result.series.lines  # type: ignore[union-attr]
        # One line plot a series line (each also has its markers, drawn as a scatter).
        await wait_until(
            pilot,
            lambda: sum(type(d).__name__ == "LinePlot" for d in plot._datasets) == len(lines),
        )
        assert plot.styles.height is not None and plot.styles.height.value == 12
        caption = str(app.query_one(".lab-plot-caption", Static).content)
        assert "(log scale)" in caption  # variance_drift asks for a log y axis
        assert all(label in caption for label in lines)
        assert app.query(".lab-table")  # the per-layer table is shown too

    drive(app, scenario)


def test_a_computation_that_raises_is_shown_and_the_app_carries_on(
    lab: LabService, monkeypatch: pytest.MonkeyPatch
) -> None:
    def boom(self: LabService, name: str, args: Mapping[str, object], **_: object) -> Result:
        raise RuntimeError("boom")

    monkeypatch.setattr(LabService, "run", boom)
    app = Harness(lab, compute("mha_params"))

    async def scenario(pilot: Pilot[None]) -> None:
        await wait_until(pilot, lambda: len(app.failed) == 1)
        assert status(app) == "failed"
        assert str(app.query_one("#lab-error", Static).content) == "RuntimeError: boom"
        assert isinstance(app.failed[0].error, RuntimeError)
        assert app.failed[0].name == "mha_params"
        assert not app.completed
        # Still alive and responsive: another run fails the same way.
        app.query_one("#lab-rerun").focus()
        await pilot.press("r")
        await wait_until(pilot, lambda: len(app.failed) == 2)
        assert app.is_running

    drive(app, scenario)


def test_cancel_during_a_slow_run(lab: LabService, monkeypatch: pytest.MonkeyPatch) -> None:
    def slow(
        self: LabService,
        name: str,
        args: Mapping[str, object],
        *,
        on_progress: Callable[[float, str], None] | None = None,
        is_cancelled: Callable[[], bool] | None = None,
    ) -> Result:
        for step in range(500):  # five seconds unless cancelled
            if is_cancelled and is_cancelled():
                raise Cancelled
            if on_progress:
                on_progress(step / 500, "building heads")
            time.sleep(0.01)
        raise AssertionError("never cancelled")

    monkeypatch.setattr(LabService, "run", slow)
    app = Harness(lab, compute("mha_params"))

    async def scenario(pilot: Pilot[None]) -> None:
        await wait_until(pilot, lambda: "% building heads" in status(app))
        assert re.fullmatch(r"computing on cpu… \d+% building heads", status(app)), status(app)
        assert app.panel.running
        app.query_one("#lab-rerun").focus()
        await pilot.press("x")
        assert status(app) == "cancelled"
        await app.workers.wait_for_complete()  # the worker saw the cancel and stopped
        await pilot.pause()  # and what it posted before stopping has been handled
        assert status(app) == "cancelled"  # late progress from the stopped run is ignored
        assert not app.completed and not app.failed
        assert not app.panel.running

    drive(app, scenario)


def test_show_none_and_switching(lab: LabService) -> None:
    app = Harness(lab, compute("mha_params"))

    async def scenario(pilot: Pilot[None]) -> None:
        await wait_until(pilot, lambda: len(app.completed) == 1)
        app.panel.show(None)
        await pilot.pause()
        empty = app.query_one("#lab-empty", Static)
        assert str(empty.content) == NO_COMPUTATION and empty.display
        assert not app.query(".lab-values")
        assert not app.query(Input)

        app.panel.show(compute("head_split", d_model=512, n_heads=8), autorun=False)
        await pilot.pause()
        assert not empty.display
        assert app.query_one("#arg-d_model", Input).value == "512"
        assert len(app.completed) == 1  # autorun=False: waits for r
        app.panel.rerun()
        await wait_until(pilot, lambda: len(app.completed) == 2)
        assert app.completed[1].name == "head_split"
        assert value(app, "head_dim") == "64"

    drive(app, scenario)


def test_starts_empty_and_unknown_names_do_not_crash(lab: LabService) -> None:
    app = Harness(lab, None)

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.pause()
        assert app.query_one("#lab-empty", Static).display
        app.panel.show(compute("no_such_lab"))
        await pilot.pause()
        assert status(app) == "cannot run"
        assert "no_such_lab" in str(app.query_one("#lab-error", Static).content)

    drive(app, scenario)


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        (True, "yes"),
        (False, "no"),
        (1048576, "1,048,576"),
        (0.0, "0"),
        (21.435895553575094, "21.4359"),
        (1106686.32481426, "1,106,686"),
        (5.20407149851021e-06, "5.204e-06"),
        (float("inf"), "∞"),
        ("packed", "packed"),
    ],
)
def test_format_value(raw: bool | int | float | str, shown: str) -> None:
    assert format_value(raw) == shown


PLOT_MARGIN = 10  # textual-plot's left margin: a tick label and the axis character


def test_large_ticks_fit_the_margin_and_read_as_their_values() -> None:
    # Written whole, 500,000,000 lost its last digits: '50,000,00' read as five million.
    ticks, labels = CompactAxisFormatter().get_ticks_and_labels(0.0, 5.4e8)
    assert all(len(label) < PLOT_MARGIN for label in labels)
    for tick, label in zip(ticks, labels, strict=True):
        number, suffix = (label[:-1], label[-1]) if label[-1] in "kMGT" else (label, "")
        scale = {"": 1, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}[suffix]
        assert float(number.replace(",", "")) * scale == pytest.approx(tick, rel=5e-3)
    assert compact_number(99_999) == "99,999" and compact_number(123_456) == "123k"
    _, small = CompactAxisFormatter().get_ticks_and_labels(0.0, 1.0)
    assert small == NumericAxisFormatter().get_ticks_and_labels(0.0, 1.0)[1]  # as before
    _, logs = LogAxisFormatter().get_ticks_and_labels(8.1, 8.8)
    assert all(len(label) < PLOT_MARGIN for label in logs)


def test_log_axis_ticks_read_as_values() -> None:
    formatter = LogAxisFormatter()
    _, labels = formatter.get_ticks_and_labels(0.0, 6.2)
    assert labels == ["1", "10", "100", "1,000", "10⁴", "10⁵", "10⁶"]
    _, labels = formatter.get_ticks_and_labels(-0.2, 1.2)
    assert labels == ["1", "2", "5", "10"]
