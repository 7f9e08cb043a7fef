"""The lab shows a stored result at once while PyTorch loads, labelled as cached, and replaces
it with the live run; "done in" is only ever said of a result computed in this process."""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Static

from quizapp.experiments.result_cache import ResultCache
from quizapp.experiments.runner import run
from quizapp.tui.components.lab_service import LabService
from quizapp.tui.widgets.lab_panel import CACHED_CANCELLED, CACHED_RUNNING_LIVE, WARMING_UP
from quizapp.tui.widgets.result_view import CACHED_NOTE
from tests.tui.test_lab_panel import Harness, compute, drive, status, value, wait_until

MARKED = 999  # written into the stored entry, so the cached result is told from a live one


def stored_with_a_marked_value(folder: Path) -> ResultCache:
    """mha_params' defaults stored as a live run would store them, then edited so that the
    test can see which one is on show (the edit is valid data: it reads back)."""
    cache = ResultCache(folder)
    assert cache.put(run("mha_params", {}, device="cpu"), {})
    [entry] = folder.glob("*.json")
    data = json.loads(entry.read_text())
    data["result"]["values"]["head_dim"] = MARKED
    entry.write_text(json.dumps(data))
    return cache


def notes(app: Harness) -> list[str]:
    return [str(note.content) for note in app.query(".lab-cached-note").results(Static)]


def test_a_cached_result_shows_at_once_labelled_then_the_live_run_replaces_it(
    tmp_path: Path,
) -> None:
    cache = stored_with_a_marked_value(tmp_path)
    cold = LabService(device="cpu", results=cache)  # torch not loaded for this service yet
    app = Harness(cold, compute("mha_params"))

    async def scenario(pilot: Pilot[None]) -> None:
        await wait_until(pilot, lambda: status(app) == CACHED_RUNNING_LIVE)
        assert value(app, "head_dim") == f"{MARKED:,}"
        assert notes(app) == [CACHED_NOTE]
        assert app.panel.showing_cached and app.panel.has_class("-cached")
        assert app.panel.running and not app.completed, "a cached result completes nothing"
        assert "done" not in status(app)

        threading.Thread(target=cold.warm_up, daemon=True).start()
        await wait_until(pilot, lambda: bool(app.completed))
        assert re.fullmatch(r"done in \d+ ms on cpu", status(app)), status(app)
        assert value(app, "head_dim") == "64"  # computed now, not read back
        assert notes(app) == []
        assert not app.panel.showing_cached and not app.panel.has_class("-cached")
        assert not app.completed[0].result.cached
        # The live run is stored in turn, replacing the edited entry.
        stored = cache.get("mha_params", {})
        assert stored is not None and stored.values["head_dim"] == 64

    drive(app, scenario)


def test_cancelling_leaves_the_cached_result_labelled(tmp_path: Path) -> None:
    cold = LabService(device="cpu", results=stored_with_a_marked_value(tmp_path))
    app = Harness(cold, compute("mha_params"))

    async def scenario(pilot: Pilot[None]) -> None:
        await wait_until(pilot, lambda: status(app) == CACHED_RUNNING_LIVE)
        app.query_one("#lab-rerun").focus()  # off the form's inputs, where x is typed
        await pilot.press("x")
        assert status(app) == CACHED_CANCELLED and not app.panel.running
        await app.workers.wait_for_complete()  # the worker saw the cancel and stopped
        await pilot.pause(0.05)
        assert status(app) == CACHED_CANCELLED
        assert notes(app) == [CACHED_NOTE] and value(app, "head_dim") == f"{MARKED:,}"
        assert not app.completed

    drive(app, scenario)


def test_without_a_stored_result_the_lab_just_warms_up(tmp_path: Path) -> None:
    cold = LabService(device="cpu", results=ResultCache(tmp_path))
    app = Harness(cold, compute("mha_params", n_heads=4))

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.pause()
        assert status(app) == WARMING_UP
        assert notes(app) == [] and not app.panel.showing_cached
        threading.Thread(target=cold.warm_up, daemon=True).start()
        await wait_until(pilot, lambda: bool(app.completed))
        assert value(app, "head_dim") == "128" and notes(app) == []

    drive(app, scenario)


def test_a_ready_lab_runs_live_without_showing_the_stored_result(tmp_path: Path) -> None:
    warm = LabService(device="cpu", results=stored_with_a_marked_value(tmp_path))
    warm.warm_up()
    app = Harness(warm, compute("mha_params"))

    async def scenario(pilot: Pilot[None]) -> None:
        await wait_until(pilot, lambda: bool(app.completed))
        assert value(app, "head_dim") == "64" and notes(app) == []
        assert re.fullmatch(r"done in \d+ ms on cpu", status(app)), status(app)

    drive(app, scenario)
