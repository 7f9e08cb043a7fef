"""Files that hold a student's answers are the student's alone: created 0600, in folders 0700.

The modes are set whatever the user's umask says, but only on what the app itself creates: a
folder the user chose that already existed keeps its mode, and an existing file is opened as
it is (an old 0644 history keeps working). SQLite creates a database's -wal, -shm and
-journal files with the main file's mode, so a history or outbox created here private keeps
its side files private too.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from pathlib import Path

PRIVATE_FILE_MODE = 0o600
PRIVATE_FOLDER_MODE = 0o700
SQLITE_SIDE_FILES = ("-wal", "-shm", "-journal")


def make_private_folder(folder: Path) -> None:
    """Create `folder` and any missing folders above it, each 0700. Folders that already
    exist are left exactly as they are. Raises OSError as `mkdir` does."""
    missing: list[Path] = []
    probe = folder
    while not probe.exists():
        missing.append(probe)
        if probe.parent == probe:
            break
        probe = probe.parent
    for path in reversed(missing):
        try:
            os.mkdir(path, PRIVATE_FOLDER_MODE)
        except FileExistsError:
            continue  # made meanwhile by someone else: theirs, not ours to change
        # mkdir's mode passes through the umask; the chmod makes it exactly 0700.
        os.chmod(path, PRIVATE_FOLDER_MODE)
    if not folder.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(folder))


def create_private_file(path: Path) -> bool:
    """Create `path` empty and 0600 if nothing is there; True when it was created here.
    An existing file (or anything else at the path) is left alone for the caller to judge.
    SQLite starts a database in an empty file, so the caller may then connect to it."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        descriptor = os.open(path, flags, PRIVATE_FILE_MODE)
    except FileExistsError:
        return False
    try:
        os.fchmod(descriptor, PRIVATE_FILE_MODE)  # the umask may have taken bits away; never adds
    finally:
        os.close(descriptor)
    return True


def tighten_database(path: Path) -> None:
    """Make an existing database the app owns (and its SQLite side files) 0600. Only regular
    files of this user are changed; anything else, or a file that vanished, is left alone."""
    for candidate in [path, *(path.with_name(path.name + side) for side in SQLITE_SIDE_FILES)]:
        with contextlib.suppress(OSError):
            status = os.lstat(candidate)
            if not stat.S_ISREG(status.st_mode) or status.st_uid != os.getuid():
                continue
            if stat.S_IMODE(status.st_mode) != PRIVATE_FILE_MODE:
                os.chmod(candidate, PRIVATE_FILE_MODE)


__all__ = [
    "PRIVATE_FILE_MODE",
    "PRIVATE_FOLDER_MODE",
    "create_private_file",
    "make_private_folder",
    "tighten_database",
]
