"""A lab that loads torch at its first computation (`--load-torch first-use`, what each of
`quizapp serve`'s tabs runs): nothing loads before a computation is asked for, the first one
loads torch and runs, and two asked for at once load it once."""

from __future__ import annotations

import threading

import pytest

from quizapp.tui.components.lab_service import LabService


def test_nothing_loads_until_the_first_computation_which_loads_and_runs() -> None:
    lab = LabService(device="cpu", results=None, load_on_first_use=True)
    assert lab.status == "the lab loads PyTorch for its first computation"
    assert not lab.ready.is_set()
    results = []
    computing = threading.Thread(
        target=lambda: results.append(lab.run("mha_params", {"d_model": 64, "n_heads": 4})),
        daemon=True,
    )
    computing.start()
    computing.join(timeout=120)  # a lab that waited for a warm-up nobody starts: no result
    assert [result.values["head_dim"] for result in results] == [16]
    assert lab.ready.is_set() and lab.failed is None
    assert lab.status == "lab ready on cpu"


def test_two_first_computations_at_once_load_torch_once(monkeypatch: pytest.MonkeyPatch) -> None:
    lab = LabService(device="cpu", results=None, load_on_first_use=True)
    loads = []
    real_load = LabService._load_torch

    def counted(self: LabService) -> None:
        loads.append(threading.current_thread().name)
        real_load(self)

    monkeypatch.setattr(LabService, "_load_torch", counted)
    results = []
    runs = [
        threading.Thread(
            target=lambda: results.append(lab.run("mha_params", {"d_model": 64, "n_heads": 8})),
            daemon=True,
        )
        for _ in range(2)
    ]
    for run in runs:
        run.start()
    for run in runs:
        run.join(timeout=120)
    assert len(loads) == 1
    assert [result.values["head_dim"] for result in results] == [8, 8]


def test_by_default_a_computation_waits_for_the_apps_warm_up() -> None:
    """The terminal app's way: the warm-up worker loads torch after the first frame, and a
    computation asked for before then waits for it rather than loading it a second time."""
    lab = LabService(device="cpu", results=None)
    assert lab.status == "warming up the lab (loading PyTorch)…"
    done = threading.Event()

    def compute() -> None:
        lab.run("mha_params", {"d_model": 64, "n_heads": 4})
        done.set()

    threading.Thread(target=compute, daemon=True).start()
    assert not done.wait(0.3), "it ran without the warm-up"
    lab.warm_up()
    assert done.wait(120)
