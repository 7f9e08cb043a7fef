"""What the feedback says about scheduling: the rating an answer earned and when it comes back.

    Rated Good · back in 3 days
    Rated Again · back in 1 min, in this drill
    Rated Easy · practice, schedule unchanged (due in 12 days)

Pure text from a rating and two FSRS cards; the TUI shows it (quizapp/tui/widgets/feedback.py).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from quizapp.bank.answers import RATING_NAMES
from quizapp.srs.memory.scheduling import Card, Rating
from quizapp.srs.memory.steps import LEARN_AHEAD
from quizapp.srs.store.history import PRACTICE


def span_in_words(span: timedelta) -> str:
    """`1 min`, `10 min`, `5 h`, `3 days`, `2 months`, `1.4 years` (rounded, at least 1 min)."""
    minutes = max(1, round(span.total_seconds() / 60))
    if minutes < 60:
        return f"{minutes} min"
    hours = round(minutes / 60)
    if hours < 24:
        return f"{hours} h"
    days = round(hours / 24)
    if days < 31:
        return f"{days} day{'' if days == 1 else 's'}"
    if days < 365:
        months = round(days / 30.44)
        return f"{months} month{'' if months == 1 else 's'}"
    return f"{days / 365.25:.1f} years"


def rating_name(rating: Rating) -> str:
    return RATING_NAMES[int(rating)]


def schedule_note(
    rating: Rating,
    kind: str,
    before: Card | None,
    after: Card | None,
    now: datetime,
) -> str:
    """One line: the rating, and when the card is due next (or that practice changed nothing)."""
    rated = f"Rated {rating_name(rating)}"
    if kind == PRACTICE:
        if before is None:
            state = "still new"
        elif before.due <= now:
            state = "due now"
        else:
            state = f"due in {span_in_words(before.due - now)}"
        return f"{rated} · practice, schedule unchanged ({state})"
    if after is None:
        return rated
    wait = after.due - now
    again = ", in this drill" if kind == "drill" and wait <= LEARN_AHEAD else ""
    return f"{rated} · back in {span_in_words(wait)}{again}"
