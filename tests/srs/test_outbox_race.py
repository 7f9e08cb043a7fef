"""Two app processes of one student share a machine and its outbox folder while the class's
server is away for them, answering and re-rating; then each gets its server back, or one
quits and the next start sends what it kept. Every answer and every re-rating arrives exactly
once (issue 20: "Two processes sharing one outbox lose a re-rating").

Real processes (tests/srs/outbox_racer.py), a real PostgreSQL; the outage is a gate file per
process, so each process's outage starts and ends exactly where the test says."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytest.importorskip("psycopg")

from quizapp.srs.memory.scheduling import Rating
from quizapp.srs.store.history import PostgresLocation
from quizapp.srs.store.open_history import open_readonly, open_writer
from quizapp.srs.store.outbox import Outbox, outbox_path
from quizapp.srs.store.writer import HistoryWriter
from tests.conftest import REPO

STUDENT = "ada"
GOOD, HARD, EASY = int(Rating.Good), int(Rating.Hard), int(Rating.Easy)


class Racer:
    """One app process, driven command by command; each reply means the command is done."""

    def __init__(self, url: str, folder: Path, gate: Path) -> None:
        env = dict(os.environ, PYTHONPATH=str(REPO))
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.srs.outbox_racer", url, STUDENT, str(folder), str(gate)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=REPO,
            env=env,
        )

    def says(self, command: str) -> str:
        assert self.process.stdin and self.process.stdout
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        reply = self.process.stdout.readline().strip()
        if not reply:  # it died: say why
            self.process.wait(10)
            pytest.fail(f"{command!r}: the racer ended: {self.process.stderr.read()}")  # type: ignore[union-attr]
        return reply

    def do(self, *commands: str) -> None:
        for command in commands:
            assert self.says(command) == "ok", command

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(10)


@pytest.fixture
def racers(pg_url: str, tmp_path: Path) -> Iterator[Callable[[Path], Racer]]:
    with open_writer(PostgresLocation(pg_url, STUDENT)):
        pass  # the tables, made once before the processes race
    started: list[Racer] = []

    def start(gate: Path) -> Racer:
        started.append(Racer(pg_url, tmp_path / "outbox", gate))
        return started[-1]

    yield start
    for racer in started:
        racer.stop()


def stored(url: str) -> list[tuple[str, int]]:
    """Every answer the history holds, with the rating in effect, as the app reads it."""
    with open_readonly(PostgresLocation(url, STUDENT)) as store:
        return sorted((row.question_id, row.rating) for row in store.reviews())


def send_what_was_kept(url: str, folder: Path) -> None:
    """The next start of the app: it takes over what a gone process kept, and sends it."""
    location = PostgresLocation(url, STUDENT)
    writer = HistoryWriter(lambda: open_writer(location), outbox_path=outbox_path(location, folder))  # type: ignore[arg-type,return-value]
    writer.start()
    deadline = time.monotonic() + 60
    while writer.status().state != "open" or writer.status().pending:
        assert time.monotonic() < deadline, writer.status()
        time.sleep(0.01)
    assert writer.close(5) == 0


@pytest.mark.parametrize("first_ends", ["sending", "quitting"])
def test_two_processes_lose_no_answer_and_no_rerating(
    first_ends: str, racers, pg_url: str, tmp_path: Path
) -> None:
    gate_1, gate_2 = tmp_path / "gate-1", tmp_path / "gate-2"
    first = racers(gate_1)
    first.do("answer a1 0", "answer a2 1", "answer a3 2", "wait kept 3")
    # The second starts while the first keeps answers it could not send: they are not its to
    # send, and it keeps its own beside them.
    second = racers(gate_2)
    second.do("answer b1 10", "answer b2 11", "wait kept 2")
    second.do("rerate 1 4")  # b2 waits untried: rewritten where it waits
    gate_2.touch()
    second.do("wait sent")  # its server is back: it sends its own, and only its own
    # Now the first re-rates: a3 where it waits, a1 (tried) by a re-rating of its own.
    first.do("rerate 2 4", "rerate 0 2", "wait kept 4")
    if first_ends == "sending":
        gate_1.touch()
        first.do("wait sent")
        assert first.says("quit") == "unsaved 0"
    else:
        assert first.says("quit") == "unsaved 4"  # kept in its file for the next start
        assert Outbox.exists(outbox_path(PostgresLocation(pg_url, STUDENT), tmp_path / "outbox"))
        send_what_was_kept(pg_url, tmp_path / "outbox")
    assert second.says("quit") == "unsaved 0"

    assert stored(pg_url) == [
        ("a1", HARD),
        ("a2", GOOD),
        ("a3", EASY),
        ("b1", GOOD),
        ("b2", EASY),
    ]
    left = sorted(p.name for p in (tmp_path / "outbox").iterdir())
    assert left == []  # every file sent, emptied and removed, and its lock with it
