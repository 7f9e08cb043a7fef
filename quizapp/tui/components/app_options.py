"""How the app was asked to start: the command line's choices, and what tests turn off."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from quizapp.srs.config import Settings
    from quizapp.srs.store.history import HistoryLocation, StudentToAsk
    from quizapp.tui.components.reload import PreviewTarget


@dataclass(frozen=True)
class AppOptions:
    db_path: HistoryLocation | StudentToAsk | None = None  # None: no history (tests, previews)
    settings: Settings | None = None  # None: the defaults
    config_path: Path | None = None  # where a setting changed on screen is saved; None: nowhere
    start: str = "home"  # home; drill, traps (the trap drill) or exam: go straight there
    exam: dict[str, object] = field(default_factory=dict)  # start_exam's arguments
    device: str = "auto"
    theme: str | None = None
    length: int | None = None
    # False: the authoring aid --no-shuffle, questions and options in the bank's file order.
    # The home screen's Shuffle switch starts from it and orders the questions only.
    shuffle: bool = True
    seed: int | None = None
    # Load torch after the first frame (True), or at the lab's first computation: a served
    # tab's way, and some tests'.
    warm_up: bool = True
    # The files and folders the bank was loaded from: watched, and reloaded as they are saved.
    bank_paths: tuple[Path, ...] = ()
    watch: bool = True  # live reload (needs bank_paths)
    watch_interval: float = 0.4  # seconds between looks at the files
    preview: tuple[PreviewTarget, ...] = ()  # start="preview": these ids (str) and files (Path)
    preview_variant: int | None = None  # --variant N: each vary: question starts on variant N
    default_parameters: bool = False  # schedule with py-fsrs's defaults, not a stored fit
