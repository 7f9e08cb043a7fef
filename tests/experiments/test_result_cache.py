"""Computation results on disk: a hit gives back exactly what was computed, marked cached; any
change to the key misses; a damaged or tampered entry is a miss, never a crash or code run."""

from __future__ import annotations

import json
import math
import os
import pickle
from pathlib import Path

import pytest

from quizapp.experiments import result_cache
from quizapp.experiments.registry import COMPUTATIONS
from quizapp.experiments.result import Result
from quizapp.experiments.result_cache import ResultCache
from quizapp.experiments.runner import run

# The slowest computations at their smallest sizes: the shape of the result is what matters.
SMALL = {
    "gradient_flow": {"n_layers": 2, "d_model": 8},
    "variance_drift": {"n_layers": 2, "d_model": 8, "n_tokens": 8},
}


@pytest.fixture(scope="module")
def results() -> dict[str, Result]:
    """Every computation run live once (with its default arguments, or SMALL ones)."""
    return {
        spec.name: run(spec.name, SMALL.get(spec.name, {}), device="cpu") for spec in COMPUTATIONS
    }


def same(a: object, b: object) -> bool:
    """Equal, counting NaN equal to NaN (a computation may report one)."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def stored_entry(cache: ResultCache) -> Path:
    [path] = cache.folder.glob("*.json")
    return path


def test_every_computation_round_trips_unchanged_and_marked_cached(
    tmp_path: Path, results: dict[str, Result]
) -> None:
    cache = ResultCache(tmp_path)
    for name, live in results.items():
        args = SMALL.get(name, {})
        assert not live.cached
        assert cache.get(name, args, "cpu") is None
        assert cache.put(live, args), name
        back = cache.get(name, args, "cpu")
        assert back is not None and back.cached, name
        assert same(back.as_json(), live.as_json()), name
        # Types survive too: a bool stays a bool, an int an int, a tuple a tuple.
        assert [type(v) for v in back.values.values()] == [type(v) for v in live.values.values()]
        assert back.table == live.table and back.extra_tables == live.extra_tables
    assert not list(tmp_path.glob("*.tmp")), "a write leaves no temporary file behind"


def test_the_key_is_the_arguments_after_defaults(tmp_path: Path) -> None:
    cache = ResultCache(tmp_path)
    cache.put(run("mha_params", {"n_heads": 4}, device="cpu"), {"n_heads": 4})
    # The same run, however its arguments are written.
    hit = cache.get("mha_params", {"d_model": 512, "n_heads": 4, "bias": False})
    assert hit is not None and hit.values["head_dim"] == 128
    assert cache.get("mha_params", {"n_heads": 8}) is None
    assert cache.get("mha_params", {"n_heads": 4}, "cuda") is None  # another device
    assert cache.get("head_split", {"n_heads": 4}) is None
    assert cache.get("mha_params", {"n_heads": 7}) is None  # bad arguments: never cached


@pytest.mark.parametrize(
    ("attribute", "changed"),
    [("__version__", "99.0"), ("torch_version", lambda: "0.0.1"), ("code_fingerprint", str)],
)
def test_another_quizapp_torch_or_computation_code_misses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, attribute: str, changed: object
) -> None:
    cache = ResultCache(tmp_path)
    cache.put(run("head_split", {}, device="cpu"), {})
    assert cache.get("head_split", {}) is not None
    monkeypatch.setattr(result_cache, attribute, changed)
    assert cache.get("head_split", {}) is None


def test_editing_a_computation_module_changes_the_fingerprint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "quizapp"
    for sub in ("experiments/lab", "reference"):
        (package / sub).mkdir(parents=True)
    module = package / "experiments" / "lab" / "attention.py"
    module.write_text("x = 1\n")
    (package / "reference" / "attention.py").write_text("y = 2\n")
    monkeypatch.setattr(result_cache, "__file__", str(package / "experiments" / "result_cache.py"))
    fingerprint = result_cache.code_fingerprint.__wrapped__
    before = fingerprint()
    module.write_text("x = 22\n")
    assert fingerprint() != before


def test_no_torch_installed_means_no_caching(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = ResultCache(tmp_path)
    monkeypatch.setattr(result_cache, "torch_version", lambda: None)
    assert not cache.put(run("head_split", {}, device="cpu"), {})
    assert cache.get("head_split", {}) is None


def test_the_torch_version_is_read_without_importing_torch(tmp_path: Path) -> None:
    import subprocess
    import sys

    code = (
        "import sys; from quizapp.experiments.result_cache import torch_version; "
        "print(torch_version(), 'torch' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    import torch

    assert out.stdout.split() == [torch.__version__, "False"]


def test_only_live_results_are_stored(tmp_path: Path) -> None:
    cache = ResultCache(tmp_path)
    live = run("head_split", {}, device="cpu")
    cache.put(live, {})
    copy = cache.get("head_split", {})
    assert copy is not None
    os.unlink(stored_entry(cache))
    assert not cache.put(copy, {}), "a cached result is never stored again as if computed"
    assert not cache.put(object(), {})  # type: ignore[arg-type]
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda entry, text: text[: len(text) // 2], id="truncated"),
        pytest.param(lambda entry, text: "", id="empty"),
        pytest.param(lambda entry, text: "[" * 100_000 + "]" * 100_000, id="deeply-nested"),
        pytest.param(lambda entry, text: "\xff\xfe not utf-8", id="binary"),
        pytest.param(lambda entry, text: " " * 3_000_000 + text, id="oversized"),
        pytest.param(lambda entry, text: json.dumps(entry["result"]), id="no-key"),
    ],
)
def test_a_damaged_entry_is_a_miss(tmp_path: Path, damage) -> None:
    cache = ResultCache(tmp_path)
    cache.put(run("head_split", {}, device="cpu"), {})
    path = stored_entry(cache)
    text = path.read_text()
    path.write_bytes(damage(json.loads(text), text).encode("utf-8", "surrogateescape"))
    assert cache.get("head_split", {}) is None
    cache.put(run("head_split", {}, device="cpu"), {})  # a fresh run rewrites it
    assert cache.get("head_split", {}) is not None


def _tamper(path: Path, change) -> None:
    entry = json.loads(path.read_text())
    change(entry["result"])
    path.write_text(json.dumps(entry))


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda r: r["values"].pop("head_dim"), id="promised-value-missing"),
        pytest.param(lambda r: r["values"].update(head_dim=[1, 2]), id="value-not-scalar"),
        pytest.param(lambda r: r["values"].update(head_dim={"a": 1}), id="value-a-mapping"),
        pytest.param(lambda r: r.update(summary="\x1b]0;pwned\x07"), id="escape-in-summary"),
        pytest.param(lambda r: r.update(summary="\u202eevil"), id="bidi-override"),
        pytest.param(lambda r: r.update(summary="x" * 30_000), id="summary-too-long"),
        pytest.param(lambda r: r.update(extra=1), id="unknown-field"),
        pytest.param(lambda r: r.update(name="mha_params"), id="another-computation"),
        pytest.param(lambda r: r.update(device="cuda"), id="another-device"),
        pytest.param(lambda r: r.update(table={"rows": "x"}), id="table-malformed"),
        pytest.param(lambda r: r["table"]["rows"].append([["nested"]]), id="table-cell-not-scalar"),
        pytest.param(
            lambda r: r.update(
                series={"x_label": "", "y_label": "", "log_y": 1, "x": [], "lines": {}}
            ),
            id="series-malformed",
        ),
        pytest.param(lambda r: r.update(args=["d_model"]), id="args-not-a-mapping"),
        pytest.param(lambda r: r.update(extra_tables=None), id="extra-tables-not-a-list"),
    ],
)
def test_a_tampered_entry_is_a_miss(tmp_path: Path, change) -> None:
    cache = ResultCache(tmp_path)
    cache.put(run("head_split", {}, device="cpu"), {})
    _tamper(stored_entry(cache), change)
    assert cache.get("head_split", {}) is None


def test_a_valid_edit_reads_back_as_data_and_still_says_cached(tmp_path: Path) -> None:
    """Someone who can write the cache folder can change the numbers shown as cached, which
    is why a cached result is always labelled: but nothing read back is ever executed."""
    cache = ResultCache(tmp_path)
    cache.put(run("head_split", {}, device="cpu"), {})
    _tamper(stored_entry(cache), lambda r: r["values"].update(head_dim=999))
    back = cache.get("head_split", {})
    assert back is not None and back.cached and back.values["head_dim"] == 999


def test_a_pickle_in_the_cache_folder_is_never_unpickled(tmp_path: Path) -> None:
    cache = ResultCache(tmp_path)
    cache.put(run("head_split", {}, device="cpu"), {})
    marker = tmp_path / "pwned"

    class Payload:
        def __reduce__(self):
            return (Path.touch, (marker,))

    stored_entry(cache).write_bytes(pickle.dumps(Payload()))
    assert cache.get("head_split", {}) is None
    assert not marker.exists()


def test_the_folder_keeps_the_most_recently_used_entries(tmp_path: Path) -> None:
    cache = ResultCache(tmp_path, max_entries=3)
    widths = (64, 128, 256, 512)
    for index, width in enumerate(widths[:3]):
        cache.put(run("head_split", {"d_model": width}, device="cpu"), {"d_model": width})
        path = cache._path(cache.key("head_split", {"d_model": width}, "cpu"))
        os.utime(path, (1_000_000 + index, 1_000_000 + index))  # written in this order
    assert cache.get("head_split", {"d_model": 64}) is not None  # the oldest, now used
    cache.put(run("head_split", {"d_model": 512}, device="cpu"), {"d_model": 512})
    assert len(list(tmp_path.glob("*.json"))) == 3
    kept = [w for w in widths if cache.get("head_split", {"d_model": w}) is not None]
    assert kept == [64, 256, 512]  # 128 was the least recently used


def test_an_unusable_folder_is_simply_not_used(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    cache = ResultCache(blocker / "results")
    assert not cache.put(run("head_split", {}, device="cpu"), {})
    assert cache.get("head_split", {}) is None


def test_the_environment_picks_the_folder_or_turns_it_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("QUIZAPP_CACHE_DIR", str(tmp_path))
    cache = ResultCache.default()
    assert cache is not None and cache.folder == tmp_path / "results"
    monkeypatch.setenv("QUIZAPP_NO_CACHE", "1")
    assert ResultCache.default() is None


def test_the_guide_states_the_real_bound() -> None:
    from tests.conftest import REPO

    guide = (REPO / "docs" / "authoring.md").read_text(encoding="utf-8")
    assert f"keeps the {result_cache.MAX_ENTRIES} most recently used results" in guide
