"""Real file systems for fault tests: a small tmpfs that fills up, a read-only bind mount,
special files made with mknod, a lock held by another connection. Mounting needs root on Linux (as in CI and containers);
elsewhere the tests that need it skip with the reason."""

from __future__ import annotations

import contextlib
import os
import socket
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from quizapp.srs.memory.scheduling import Rating, make_scheduler
from quizapp.srs.store.sqlite.store import ReviewStore

CAN_MOUNT = sys.platform.startswith("linux") and hasattr(os, "geteuid") and os.geteuid() == 0


def _mount(*args: str) -> None:
    result = subprocess.run(["mount", *args], capture_output=True, text=True, timeout=30)
    if result.returncode != 0:
        pytest.skip(f"cannot mount here: {result.stderr.strip() or result.returncode}")


def _unmount(point: Path) -> None:
    result = subprocess.run(["umount", str(point)], capture_output=True, timeout=30)
    if result.returncode != 0:  # something still holds it: detach it all the same
        subprocess.run(["umount", "-l", str(point)], capture_output=True, timeout=30)


@contextlib.contextmanager
def small_tmpfs(point: Path, size: str = "2m") -> Iterator[Path]:
    """A tmpfs of `size` at `point`, unmounted afterwards even when the test fails."""
    if not CAN_MOUNT:
        pytest.skip("mounting a tmpfs needs root on Linux")
    point.mkdir(parents=True, exist_ok=True)
    _mount("-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs", str(point))
    try:
        yield point
    finally:
        _unmount(point)


@contextlib.contextmanager
def read_only_view(source: Path, point: Path) -> Iterator[Path]:
    """`source` seen read-only at `point` (a bind mount remounted ro: root ignores permission
    bits, but not a read-only mount)."""
    if not CAN_MOUNT:
        pytest.skip("a read-only bind mount needs root on Linux")
    point.mkdir(parents=True, exist_ok=True)
    _mount("--bind", str(source), str(point))
    try:
        _mount("-o", "remount,bind,ro", str(point))
        yield point
    finally:
        _unmount(point)


class Lock:
    """BEGIN EXCLUSIVE from a second sqlite3 connection, as another program would hold it."""

    def __init__(self, path: Path) -> None:
        self.connection = sqlite3.connect(path, isolation_level=None)
        self.connection.execute("BEGIN EXCLUSIVE")
        self.held = True

    def release(self) -> None:
        if self.held:
            self.held = False
            self.connection.execute("COMMIT")
            self.connection.close()


def fill(folder: Path) -> Path:
    """Write a file until the file system is full; delete it to free the space again."""
    filler = folder / "filler"
    descriptor = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        block = b"\0" * 4096
        while True:
            os.write(descriptor, block)
    except OSError as exc:
        assert exc.errno == 28, exc  # ENOSPC
    finally:
        os.close(descriptor)
    return filler


def make_history(path: Path, answers: int, *, keep_open: bool = False) -> ReviewStore | None:
    """A healthy history with `answers` reviews (q0, q1, …). With `keep_open`, the store is
    returned still open, its latest pages still in the -wal, as a running app leaves it."""
    store = ReviewStore.open(path)
    if keep_open:
        store.connection.execute("PRAGMA wal_autocheckpoint = 0")
    for i in range(answers):
        answer(store, f"q{i}", i)
    if keep_open:
        return store
    store.close()
    return None


def answer(store: ReviewStore, question_id: str, duration_ms: int) -> None:
    from datetime import UTC, datetime, timedelta

    store.record_answer(
        question_id=question_id,
        deck_id="d",
        topic="t",
        rating=Rating.Good,
        correct=True,
        when=datetime(2025, 3, 10, 9, 0, tzinfo=UTC) + timedelta(seconds=duration_ms),
        duration_ms=duration_ms,
        kind="quiz",
        scheduler=make_scheduler(fuzz=False),
    )


def snapshot(folder: Path) -> dict[str, tuple[int, int, bytes | None]]:
    """Every entry in `folder`: its type, device number and (for files) its bytes."""
    entries = {}
    for entry in sorted(folder.iterdir()):
        status = entry.lstat()
        data = entry.read_bytes() if stat.S_ISREG(status.st_mode) else None
        entries[entry.name] = (stat.S_IFMT(status.st_mode), status.st_rdev, data)
    return entries


def make_special(kind: str, path: Path) -> contextlib.AbstractContextManager[object]:
    """A folder, FIFO, socket or character device (like /dev/null: 1, 3) at `path`. Returns
    a context that keeps a socket bound while the test runs."""
    if kind == "folder":
        path.mkdir()
        (path / "inside.txt").write_text("keep me")
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "character device":
        if not CAN_MOUNT:
            pytest.skip("mknod of a character device needs root")
        try:
            os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        except PermissionError as exc:
            pytest.skip(f"mknod refused: {exc}")
    elif kind == "socket":
        server = socket.socket(socket.AF_UNIX)
        server.bind(str(path))
        return contextlib.closing(server)
    else:
        raise ValueError(kind)
    return contextlib.nullcontext()


SPECIAL_KINDS = ("character device", "fifo", "folder", "socket")
KIND_WORDS = {
    "character device": "is a character device",
    "fifo": "is a FIFO",
    "folder": "is a folder",
    "socket": "is a socket",
}
