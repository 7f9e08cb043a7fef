"""Fixtures for the history's tests: `location` runs a test on both stores."""

from __future__ import annotations

from pathlib import Path

import pytest

from quizapp.srs.store.history import PostgresLocation


@pytest.fixture(params=["sqlite", "postgresql"])
def location(request: pytest.FixtureRequest, tmp_path: Path) -> Path | PostgresLocation:
    """Where a fresh history lives: a SQLite file, or a fresh PostgreSQL schema (the
    PostgreSQL case skips, with one line, where the server binaries are missing)."""
    if request.param == "sqlite":
        return tmp_path / "history.sqlite3"
    return PostgresLocation(request.getfixturevalue("pg_url"), "ada")
