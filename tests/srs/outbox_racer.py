"""One app process for the outbox race (tests/srs/test_outbox_race.py), driven line by line.

`python -m tests.srs.outbox_racer URL STUDENT FOLDER GATE` runs a HistoryWriter on the class's
PostgreSQL history with its outbox in FOLDER. The server is reachable for it only while the
file GATE exists: otherwise every write fails as a dropped connection would, and is kept in
the outbox. It reads commands on stdin and answers each with one line on stdout once done:

    answer QID N        give an answer (minute N, rated Good)      -> "ok"
    rerate INDEX R      re-rate the INDEXth answer given here to R -> "ok"
    wait kept K         until at least K writes are kept            -> "ok"
    wait sent           until nothing waits                         -> "ok"
    quit                close, keeping what waits                   -> "unsaved N"
"""

from __future__ import annotations

import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import psycopg

from quizapp.srs.memory.scheduling import Rating, make_scheduler
from quizapp.srs.store.history import PostgresLocation
from quizapp.srs.store.open_history import open_writer
from quizapp.srs.store.outbox import outbox_path
from quizapp.srs.store.writer import HistoryWriter
from quizapp.srs.store.writes import AnswerWrite, Ticket

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
SCHEDULER = make_scheduler(desired_retention=0.85)
WAIT_S = 60.0
# What the writer itself uses of a store: never "the server", so never gated.
PLUMBING = frozenset({"set_lock_timeout", "reopen", "close", "notice", "connection", "path"})


class GatedStore:
    """The real store while GATE exists; a dropped connection to every write while not."""

    def __init__(self, store: Any, gate: Path) -> None:
        self._store = store
        self._gate = gate

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._store, name)
        if name in PLUMBING or not callable(value):
            return value

        def gated(*args: Any, **kwargs: Any) -> Any:
            if not self._gate.exists():
                raise psycopg.OperationalError("server closed the connection unexpectedly")
            return value(*args, **kwargs)

        return gated


def answer(question_id: str, minute: int) -> AnswerWrite:
    return AnswerWrite(
        question_id=question_id,
        deck_id="deck",
        topic="attention",
        rating=Rating.Good,
        correct=True,
        when=T0 + timedelta(minutes=minute),
        duration_ms=1000 + minute,
        kind="drill",
        scheduler=SCHEDULER,
    )


def wait_for(condition: Any) -> None:
    deadline = time.monotonic() + WAIT_S
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("the writer never got there")
        time.sleep(0.01)


def main(url: str, student: str, folder: str, gate: str) -> None:
    location = PostgresLocation(url, student)
    writer = HistoryWriter(
        lambda: GatedStore(open_writer(location), Path(gate)),  # type: ignore[arg-type,return-value]
        first_retry=0.01,
        longest_retry=0.05,
        outbox_path=outbox_path(location, Path(folder)),
    )
    writer.start()
    wait_for(lambda: writer.status().state == "open")
    given: list[Ticket] = []
    for line in sys.stdin:
        command, *args = line.split()
        if command == "answer":
            given.append(writer.submit(answer(args[0], int(args[1]))))
        elif command == "rerate":
            writer.rerate(given[int(args[0])], Rating(int(args[1])), SCHEDULER)
        elif command == "wait" and args[0] == "kept":
            wait_for(lambda k=int(args[1]): writer.status().kept >= k)
        elif command == "wait":
            wait_for(lambda: not writer.status().pending)
        elif command == "quit":
            print(f"unsaved {writer.close(0.2)}", flush=True)
            return
        print("ok", flush=True)


if __name__ == "__main__":
    main(*sys.argv[1:5])
