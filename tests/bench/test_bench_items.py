"""bench/bench_items.py, the test-wise student: a bank whose keys sit first and longest gives
its strategies points far above chance, and is flagged; a balanced one gives them chance."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from quizapp.bank import load_bank

REPO = Path(__file__).resolve().parents[2]
BENCH_DIR = REPO / "bench"
HEADER = "deck: {id: h, title: H, topic: h, domain: D, exam_weight: 1}\nquestions:\n"
DISTRACTORS = ("No", "Nah", "Nope")


@pytest.fixture(scope="module")
def bench_items():
    """The module, imported as bench/run.py imports it (bench/ on the path)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(BENCH_DIR))
        yield importlib.import_module("bench_items")


def question(qid: str, kind: str, body: str) -> str:
    return (
        f"  - id: {qid}\n    type: {kind}\n    prompt: Which?\n    explanation: Because.\n"
        f"    difficulty: easy\n    tags: [h]\n{body}"
    )


def choices(options: list[tuple[str, bool]]) -> str:
    lines = "".join(
        f'      - {{text: "{text}", correct: {str(right).lower()}, why: w}}\n'
        for text, right in options
    )
    return "    choices:\n" + lines


def hostile_bank(tmp_path: Path) -> Path:
    """Keys first and longest; multiple-choice keys the first options, one question all
    keys; every statement true; every numeric key the median of its traps."""
    parts = []
    for i in range(8):
        key = f"The right answer number {i}, clearly the longest"
        parts.append(
            question(
                f"h-s{i}",
                "single_choice",
                choices([(key, True)] + [(d, False) for d in DISTRACTORS]),
            )
        )
    for i in range(4):
        options = [(f"A long right option {i}", True), (f"Another long right one {i}", True)]
        parts.append(
            question(
                f"h-m{i}", "multiple_choice", choices([*options, ("No", False), ("Nah", False)])
            )
        )
    parts.append(
        question(
            "h-all", "multiple_choice", choices([("Yes", True), ("Also", True), ("Too", True)])
        )
    )
    for i in range(4):
        parts.append(question(f"h-t{i}", "true_false", "    answer: true\n"))
    for i in range(3):
        body = f"    answer: {10 + i}\n    traps: [{{value: 1, why: w}}, {{value: 100, why: w}}]\n"
        parts.append(question(f"h-n{i}", "numeric", body))
    path = tmp_path / "hostile.yaml"
    path.write_text(HEADER + "".join(parts))
    return path


def balanced_bank(tmp_path: Path) -> Path:
    """16 single-choice questions whose key takes each position and each length rank four
    times (position i % 4, rank (i + i // 4) % 4), and true/false half true."""
    lengths = (40, 30, 20, 10)  # by rank: the longest first
    parts = []
    for i in range(16):
        position, rank = i % 4, (i + i // 4) % 4
        others = [length for r, length in enumerate(lengths) if r != rank]
        texts = [
            f"o{i}{j}".ljust(others.pop(0) if j != position else lengths[rank], "x")
            for j in range(4)
        ]
        options = [(text, j == position) for j, text in enumerate(texts)]
        parts.append(question(f"b-s{i}", "single_choice", choices(options)))
    for i in range(4):
        parts.append(question(f"b-t{i}", "true_false", f"    answer: {str(i % 2 == 0).lower()}\n"))
    path = tmp_path / "balanced.yaml"
    path.write_text(HEADER + "".join(parts))
    return path


def figures(bench_items, path: Path):
    bank = load_bank([path])
    assert not bank.errors, bank.errors
    analysis = bench_items.analyse(bank, path.name, key_of=lambda q: None)
    return analysis, {f.strategy.name: f for f in analysis.figures}


def test_a_hostile_bank_gives_first_option_and_longest_far_above_chance(
    bench_items, tmp_path
) -> None:
    analysis, by_name = figures(bench_items, hostile_bank(tmp_path))
    for name in ("first option", "longest option", "tick all", "middle numeric trap"):
        assert by_name[name].above_target, name
    for name in ("first option", "longest option"):
        assert by_name[name].points_above > 50, (name, by_name[name].points_above)
    single = by_name["first option"].by_kind["single choice"]
    assert single[1] == 1.0 and single[2] == 0.25  # always right, where chance is 1 in 4
    assert by_name["longest option"].by_kind["single choice"][1] == 1.0
    assert by_name["shortest option"].by_kind["single choice"][1] == 0.0
    assert abs(by_name["random"].points_above) < 3  # a random student is just chance
    assert not analysis.met
    text = "\n".join(bench_items.report(analysis))
    assert "target: no strategy beats chance by more than 5 points: MISSED" in text
    for name in ("first option", "longest option"):
        [row] = [line for line in text.splitlines() if line.strip().startswith(name)]
        assert "ABOVE chance + 5" in row
    assert "every option correct: 1: h-all: met" in text
    assert "key position at most chance + 10 at any position: worst +75.0: MISSED" in text


def test_a_balanced_bank_gives_every_strategy_chance(bench_items, tmp_path) -> None:
    analysis, by_name = figures(bench_items, balanced_bank(tmp_path))
    for name in ("first option", "longest option", "shortest option"):
        assert abs(by_name[name].points_above) <= 1e-9, (name, by_name[name].points_above)
        assert not by_name[name].above_target
    assert by_name["first option"].by_kind["single choice"][1:] == (0.25, 0.25)
    assert analysis.met
    text = "\n".join(bench_items.report(analysis))
    assert "ABOVE" not in text and "MISSED" not in text
    assert "target: no strategy beats chance by more than 5 points: met" in text


def test_bench_run_items_measures_a_bank_given_on_its_command_line(tmp_path) -> None:
    hostile = hostile_bank(tmp_path)
    run = subprocess.run(
        [sys.executable, str(BENCH_DIR / "run.py"), "items", str(hostile)],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=REPO,
    )
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "shipped bank (" in out and f"{hostile} ({hostile})" in out
    hostile_part = out.split(f"{hostile} ({hostile})")[1]
    assert "first option" in hostile_part and "ABOVE chance + 5" in hostile_part
    [result] = [line for line in out.splitlines() if line.startswith("items: test-wise student")]
    assert result.endswith("MISSED")  # the hostile bank misses the target
