"""Checks shared by every command that opens the app (quizapp, drill, exam, preview)."""

from __future__ import annotations

from pathlib import Path

# Kept equal to quizapp.experiments.spec.DEVICES by a test; written here because importing
# that module loads the whole computation registry, and this check runs before the first frame.
DEVICES = ("auto", "cpu", "cuda", "mps")

NO_SHUFFLE_HELP = (
    "authoring aid: show questions and options in the bank's file order; never use it for study"
)
# The commands whose sessions are always a student's: --no-shuffle would make the file order
# (where the key may sit in one position) every student's, so it is refused, not ignored.
_ALWAYS_SHUFFLED = {
    "exam": "a mock exam always shuffles its questions and options",
    "serve": "the sessions `quizapp serve` runs are students' and always shuffle their options",
}


def computation_names() -> frozenset[str]:
    """The registry's computation names: a bank the app serves from is held to them, so a
    question whose computation cannot run is reported and left out, not shown."""
    from quizapp.experiments.registry import REGISTRY

    return frozenset(REGISTRY)


def display_option_problem(device: str, theme: str | None) -> str | None:
    """Why --device or --theme cannot be used, or None. Checked before any screen is drawn."""
    if device not in DEVICES:
        return f"--device must be one of {', '.join(DEVICES)}, not {device!r}"
    return _theme_problem(theme)


def no_shuffle_problem(command: str | None, no_shuffle: bool) -> str | None:
    """Why --no-shuffle cannot be given to `command`, or None."""
    if not no_shuffle or command not in _ALWAYS_SHUFFLED:
        return None
    return (
        f"--no-shuffle is an authoring aid (a preview in file order): {_ALWAYS_SHUFFLED[command]}"
    )


def config_theme_problem(theme: str | None, path: Path) -> str | None:
    """Why config.toml's `theme` cannot be used, or None. The file is named, as for any other
    broken setting: the app refuses to start on it."""
    problem = _theme_problem(theme)
    return f"{path}: {problem}" if problem else None


def _theme_problem(theme: str | None) -> str | None:
    if theme is None:
        return None
    from textual.theme import BUILTIN_THEMES

    if theme not in BUILTIN_THEMES:
        return f"unknown theme {theme!r} (one of: {', '.join(sorted(BUILTIN_THEMES))})"
    return None
