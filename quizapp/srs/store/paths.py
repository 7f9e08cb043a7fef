"""Where the review history lives: `--db`, else `QUIZAPP_DB`, else the user data folder."""

from __future__ import annotations

import os
from pathlib import Path


def default_db_path() -> Path:
    override = os.environ.get("QUIZAPP_DB")
    if override:
        return Path(override).expanduser()  # a quoted "~/…" in an env file is not expanded
    import platformdirs

    return Path(platformdirs.user_data_dir("quizapp", appauthor=False)) / "history.sqlite3"
