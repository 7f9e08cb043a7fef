"""A clock override for trying the app on other days: `--now` (a testing aid).

`quizapp --now 2026-12-02 drill` runs as if it were 09:00 local time on 2 December 2026, and
the clock moves on from there in real time, so answers keep their order and their spacing.
Everything that asks `quizapp.srs.memory.scheduling.utc_now()` sees the moved clock: the drill queue,
the times answers are recorded at, the statistics and the forecast. Nothing is moved unless
`set_now` is called (the command line does it for `--now`).
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

MORNING = time(9, 0)  # a date alone means 09:00 local time that day

_offset = timedelta(0)


def offset() -> timedelta:
    return _offset


def set_now(moment: datetime) -> None:
    """From now on the clock reads `moment`, then moves on in real time."""
    global _offset
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError("the moment must be timezone-aware")
    _offset = moment - datetime.now(UTC)


def reset() -> None:
    global _offset
    _offset = timedelta(0)


def local_today() -> date:
    """Today in the local time zone, on the moved clock (what an exam date is measured from)."""
    return (datetime.now(UTC) + _offset).astimezone().date()


def parse_moment(text: str) -> datetime:
    """`2026-12-02` (09:00 local time), `2026-12-02T18:30` (local) or with an offset/Z."""
    text = text.strip()
    try:
        day = date.fromisoformat(text)
    except ValueError:
        pass
    else:
        return datetime.combine(day, MORNING).astimezone()
    moment = datetime.fromisoformat(text)  # ValueError for anything else
    if moment.tzinfo is None:
        moment = moment.astimezone()  # the local time zone
    return moment


__all__ = ["MORNING", "local_today", "offset", "parse_moment", "reset", "set_now"]
