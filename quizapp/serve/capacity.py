"""How many sessions one machine holds: the default of `quizapp serve --max-sessions`."""

from __future__ import annotations

import os

# A session's memory once torch is loaded and the lab has run a computation live, in MiB, as
# `python bench/run.py serve` measures it: 330 MiB resident, of which 245 MiB is the session's
# own (the rest is torch's and Python's libraries, shared by every session). The resident size,
# rounded up, leaves room for a session that runs more of the lab.
SESSION_MB_WITH_TORCH = 360
# Left for the system, the server, and the shared pages of torch and Python's libraries.
RESERVED_MB = 1024


def physical_memory_mb() -> int:
    """The machine's memory in MiB (0 where the system does not say)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // (1024 * 1024)
    except (ValueError, OSError, AttributeError):
        return 0


def default_max_sessions(memory_mb: int | None = None) -> int:
    """As many sessions with torch loaded as the memory holds after the reserve; at least 1."""
    memory = physical_memory_mb() if memory_mb is None else memory_mb
    return max(1, (memory - RESERVED_MB) // SESSION_MB_WITH_TORCH)
