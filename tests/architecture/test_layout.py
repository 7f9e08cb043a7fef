"""The folders say where things are (issue 23): the TUI has screens/, widgets/, components/
(app-level behaviour) and text/, with nothing loose beside the app but its styles; the
scheduler is grouped into the memory model, storage, readiness and the student's study."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import REPO


def loose_modules(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir() if p.is_file() and p.suffix in {".py", ".tcss"}}


def folders(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir() if p.is_dir() and (p / "__init__.py").exists()}


def test_nothing_is_loose_beside_the_app_but_its_styles() -> None:
    tui = REPO / "quizapp" / "tui"
    assert loose_modules(tui) == {"__init__.py", "app.py", "app.tcss"}
    assert folders(tui) == {"screens", "widgets", "components", "text"}


def test_srs_is_grouped_by_concern() -> None:
    srs = REPO / "quizapp" / "srs"
    assert folders(srs) == {"memory", "store", "readiness", "study"}
    assert folders(srs / "store") == {"sqlite", "postgres"}
    # Settings and time are all that is shared by every part, so they stay at the top.
    assert loose_modules(srs) == {
        "__init__.py",
        "clock.py",
        "config.py",
        "config_file.py",
        "times.py",
    }


def test_the_memory_model_keeps_no_storage() -> None:
    """py-fsrs's shape: the model, fitting and simulation, with no database in them."""
    memory = REPO / "quizapp" / "srs" / "memory"
    for path in sorted(memory.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert "sqlite3" not in text and "psycopg" not in text, path.name
