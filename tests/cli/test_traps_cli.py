"""`quizapp stats` lists your traps (literal bank text, whole at 80 columns), and
`quizapp forecast` names the FSRS parameters it predicted with."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from quizapp.bank import load_bank
from quizapp.bank.answers import ChoiceAnswer
from quizapp.srs.memory.scheduling import make_scheduler
from quizapp.srs.store.fits import save_fit
from quizapp.srs.store.sqlite.store import ReviewStore
from tests.srs.readiness_helpers import answer_given
from tests.srs.test_fit_store import fit_record

HOSTILE_DECK = """\
format: 1
deck:
  id: hostile
  title: Hostile
  topic: hostile
  domain: Test
  exam_weight: 1
questions:
  - id: h-single
    type: single_choice
    prompt: "Which [bold]one[/bold]? [link=https://example.com]x[/link]"
    explanation: Because.
    difficulty: easy
    tags: [t]
    choices:
      - text: "The right one"
        correct: true
        why: Right.
      - text: "[red]The trap[/red] with a long tail of words that must wrap at eighty columns"
        why: "[@click=app.quit]Not this[/] because the trap is named in brackets, which stay literal"
"""
T0 = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


@pytest.fixture
def setup(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    bank_dir = tmp_path / "bank"
    bank_dir.mkdir()
    (bank_dir / "hostile.yaml").write_text(HOSTILE_DECK)
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("TZ", "UTC")
    monkeypatch.setenv("QUIZAPP_CONFIG", str(tmp_path / "config.toml"))
    return bank_dir, tmp_path / "history.sqlite3"


def record(db: Path, bank_dir: Path, picks: list[int]) -> None:
    question = load_bank([bank_dir]).questions["h-single"]
    with ReviewStore.open(db) as store:
        for i, pick in enumerate(picks):
            answer_given(store, question, ChoiceAnswer(frozenset({pick})), T0 + timedelta(hours=i))


def stats(run_cli, bank_dir: Path, db: Path, *extra: str):
    return run_cli("stats", "--no-default-bank", "--bank", str(bank_dir), "--db", str(db), *extra)


def test_stats_lists_the_traps_literally_and_whole_at_80_columns(run_cli, setup) -> None:
    bank_dir, db = setup
    record(db, bank_dir, [1, 0, 1])
    result = stats(run_cli, bank_dir, db)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Your traps" in out and "2×" in out
    flat = " ".join(line.strip("│ ") for line in out.splitlines())
    for literal in ("[red]The", "[@click=app.quit]Not", "[/]", "h-single: Which [bold]one[/bold]?"):
        assert literal in flat, literal
    assert "Drill them: quizapp drill --traps" in out
    assert max(len(line) for line in out.splitlines()) <= 80
    data = json.loads(stats(run_cli, bank_dir, db, "--json").stdout)
    [trap] = data["traps"]
    assert trap["answer"].startswith("[red]The trap[/red]")
    assert trap["why"].startswith("[@click=app.quit]") and trap["times"] == 2
    assert trap["last"] == (T0 + timedelta(hours=2)).isoformat()


def test_stats_says_when_there_are_no_traps_yet(run_cli, setup) -> None:
    bank_dir, db = setup
    record(db, bank_dir, [0])
    result = stats(run_cli, bank_dir, db)
    assert result.returncode == 0, result.stderr
    assert "No traps yet" in result.stdout


def test_forecast_names_the_parameters_it_used(run_cli, setup) -> None:
    bank_dir, db = setup
    record(db, bank_dir, [0, 1])
    forecast = ("forecast", "--no-default-bank", "--bank", str(bank_dir), "--db", str(db))
    plain = run_cli(*forecast)
    assert plain.returncode == 0, plain.stderr
    assert "Memory model: py-fsrs's default FSRS parameters." in plain.stdout
    with ReviewStore.open(db) as store:
        fit_id = save_fit(store, fit_record(make_scheduler().parameters, when=T0))
    fitted = run_cli(*forecast)
    assert "Memory model: FSRS parameters fitted to your history on 2026-12-01." in fitted.stdout
    data = json.loads(run_cli(*forecast, "--json").stdout)
    assert data["parameters"]["source"] == "fitted" and data["parameters"]["fit_id"] == fit_id
    back = json.loads(run_cli(*forecast, "--json", "--default-parameters").stdout)
    assert back["parameters"] == {"source": "default", "fitted_at": None, "fit_id": None}
