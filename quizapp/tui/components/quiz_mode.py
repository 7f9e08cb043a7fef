"""Whether a quiz reschedules, and what the home screen says about sessions.

Drills always reschedule. A quiz (a deck, everything, some tags, the missed ones again) is
practice unless `quiz_reschedules = true` in config.toml: its answers are recorded as reviews
of kind `practice` and leave every card's schedule as the drills set it. The switch on the
home screen (key `r`) changes it and writes it back to config.toml. docs/scheduling.md says
why practice is the default.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from quizapp.srs.config import Settings
    from quizapp.srs.study.counts import HomeCounts
    from quizapp.tui.components.host import AppHost


def quiz_kind(settings: Settings) -> str:
    """The kind of review a quiz's answers are recorded as."""
    from quizapp.srs.store.history import PRACTICE

    return "quiz" if settings.quiz_reschedules else PRACTICE


def quiz_mode_text(reschedules: bool) -> str:
    if reschedules:
        return "On (r): a quiz reschedules the cards it asks, as a drill does."
    return "Off (r): a quiz is practice; the schedule stays as drills set it."


def set_quiz_reschedules(app: AppHost, on: bool) -> None:
    """Switch the mode for the quizzes to come, and remember it in config.toml."""
    from quizapp.srs.config import ConfigError
    from quizapp.srs.config_file import set_config_value

    if app.settings.quiz_reschedules == on:
        return
    app.settings = replace(app.settings, quiz_reschedules=on)
    path = app.options.config_path
    if path is None:
        return
    try:
        set_config_value(path, "quiz_reschedules", on)
    except ConfigError as exc:
        app.notify(
            f"Not remembered for next time: {exc}",
            title="Settings",
            severity="warning",
            timeout=8,
            markup=False,
        )


def drill_note(counts: HomeCounts | None, deck_ids: Sequence[str]) -> str:
    """What `d` would drill on the highlighted deck, why it may take fewer new cards than the
    New column counts, and what sessions leave out."""
    if counts is None:
        return ""
    if deck_ids:
        due, unseen = counts.decks.get(deck_ids[0], (0, 0))
    else:
        due, unseen = counts.due, counts.new
    new = counts.drill_new(deck_ids)
    lines = [f"Drill (d): {due} due + {new} new"]
    if new < unseen:
        # Not "unseen": a question answered only in practice quizzes is seen, yet unscheduled.
        lines[0] += f" of {unseen} not yet scheduled"
        lines.append(f"New cards: {counts.new_per_day} a day, {counts.started_today} started today")
    put_away = [
        f"{n} {what}"
        for n, what in ((counts.suspended, "suspended"), (counts.buried, "buried"))
        if n
    ]
    if put_away:
        lines.append(f"Left out of sessions: {', '.join(put_away)}")
    if counts.missed:
        lines.append(f"Missed in practice (m): {len(counts.missed)}, not answered right since")
    return "\n".join(lines)
