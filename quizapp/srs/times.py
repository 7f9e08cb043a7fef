"""Moments as the history stores them and the memory model counts them: whole milliseconds
since the Unix epoch, UTC. Shared by both stores (SQLite, PostgreSQL), the memory model and
the readiness report, so it belongs to none of them."""

from __future__ import annotations

from datetime import UTC, datetime

from quizapp.srs.memory.scheduling import require_aware


def to_ms(moment: datetime) -> int:
    return int(require_aware(moment).timestamp() * 1000)


def from_ms(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, tz=UTC)
