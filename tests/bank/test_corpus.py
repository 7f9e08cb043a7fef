"""Every file in corpus/bad declares the errors it must produce; the loader must produce exactly those."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from quizapp.bank import load_bank, load_file
from quizapp.experiments.registry import REGISTRY
from tests.conftest import CORPUS

EXPECT = re.compile(rb"^# expect: (\d+):(\d+) ([a-z-]+)(?: (.*))?$", re.MULTILINE)
# Optional: the questions that still load from the file (`nothing`: no deck at all).
LOADS = re.compile(rb"^# loads: (.*)$", re.MULTILINE)
# Optional: load as the app does, holding compute names to the registry.
WITH_REGISTRY = re.compile(rb"^# computations: registry", re.MULTILINE)
REGISTRY_NAMES = frozenset(REGISTRY)
BAD_FILES = sorted((CORPUS / "bad").glob("*.yaml"))


def expectations(path: Path) -> list[tuple[int, int, str, str]]:
    found = [
        (int(line), int(col), code.decode(), (fragment or b"").decode().strip())
        for line, col, code, fragment in EXPECT.findall(path.read_bytes())
    ]
    assert found, f"{path.name} declares no '# expect:' line"
    return found


def test_the_corpus_is_not_empty() -> None:
    assert len(BAD_FILES) >= 40


@pytest.mark.parametrize("path", BAD_FILES, ids=lambda p: p.stem)
def test_bad_file_reports_exactly_its_declared_errors(path: Path) -> None:
    names = REGISTRY_NAMES if WITH_REGISTRY.search(path.read_bytes()) else None
    deck, diagnostics = load_file(path, names)
    errors = [d for d in diagnostics if d.severity == "error"]
    expected = expectations(path)
    assert sorted((d.line, d.column, d.code) for d in errors) == sorted(
        (line, col, code) for line, col, code, _ in expected
    ), "\n".join(d.format() for d in errors)
    for line, col, code, fragment in expected:
        match = next(d for d in errors if (d.line, d.column, d.code) == (line, col, code))
        assert fragment.lower() in match.message.lower(), match.format()
        assert "\n" not in match.message
        assert match.path == str(path)
    # A bad question never slips through: the file yields no deck, or a deck without it.
    if deck is not None:
        assert all(q.location.line not in {e.line for e in errors} for q in deck.questions)
    if declared := LOADS.search(path.read_bytes()):
        loads = declared.group(1).decode().split()
        assert (deck is None) == (loads == ["nothing"])
        if deck is not None:
            assert [q.id for q in deck.questions] == loads


def test_one_broken_file_never_hides_the_good_ones() -> None:
    bank = load_bank([CORPUS / "good", CORPUS / "bad"], REGISTRY_NAMES)
    good_ids = {q.id for q in load_bank([CORPUS / "good"]).questions.values()}
    assert good_ids
    assert good_ids <= set(bank.questions)
    broken_files = {d.path for d in bank.errors}
    assert len(broken_files) >= len(BAD_FILES) - 1  # every bad file is reported
