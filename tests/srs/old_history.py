"""Histories as older quizapps left them: written through today's store, then taken back to
an older schema step by undoing the later steps (SQLite's DROP COLUMN rewrites the table as
the older step made it). Every migration step after the first has its undo here, so a new
step cannot land without an old-history test."""

from __future__ import annotations

import sqlite3
from pathlib import Path

UNDO_STEP: dict[int, tuple[str, ...]] = {
    2: ("DROP TABLE fsrs_fits",),
    3: ("ALTER TABLE reviews DROP COLUMN response",),
    4: ("ALTER TABLE reviews DROP COLUMN attempt",),
}


def take_back_to(path: Path, version: int) -> None:
    """Undo the schema steps after `version` in the closed history at `path`."""
    db = sqlite3.connect(path, isolation_level=None)
    try:
        current = db.execute("PRAGMA user_version").fetchone()[0]
        db.execute("BEGIN IMMEDIATE")
        for step in range(current, version, -1):
            for statement in UNDO_STEP[step]:
                db.execute(statement)
        db.execute(f"PRAGMA user_version = {int(version)}")
        db.execute("COMMIT")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        db.close()
