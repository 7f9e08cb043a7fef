"""Writing a file the user named (`export --out`, `import --out`, `new --deck`), safely.

The rules, the same for every command that writes a named file:

- The path must be a new file, or an existing *regular* file when replacing is allowed
  (`--force`). A folder, device, FIFO or socket is refused outright, even with `--force`:
  writing "to" `/dev/full` through a temporary file and a rename would replace the device
  node itself with a regular file.
- A symbolic link at the path is refused, live or dangling: the rename would replace the
  link, not the file it points to, and following a dangling link would create a file wherever
  it points. Folders on the way may be links; only the last component of the path counts.
- The content goes to a temporary file in the same folder, is flushed and fsynced, takes the
  replaced file's permission bits (or what a plain `open()` would give a new file; a file of
  answers, `private=True`, is 0600), and is moved into place in one step: a reader sees the
  old file or the new one, never half of one.
  Without `--force` the move is a hard link, which fails rather than replace a file that
  appeared in the meantime. On any failure (a full disk, a check that vetoes the content) the
  temporary file is removed and the path is left as it was.

`OutputPathError` (the path is refused: a usage error) and `OutputWriteError` (the write
failed) both read as one line, `PATH: cause`; the caller puts the option name in front.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

PRIVATE_MODE = 0o600  # a file of answers: the student's alone


class OutputError(Exception):
    """`path` cannot be written. `str()` is one line: `PATH: cause`."""

    def __init__(self, path: Path | str, cause: str) -> None:
        super().__init__(f"{path}: {cause}")
        self.path = Path(path)
        self.cause = cause


class OutputPathError(OutputError):
    """The path is refused before anything is written (a usage error)."""


class OutputWriteError(OutputError):
    """Writing failed (a full disk, no permission); the path is left as it was."""


_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISSOCK, "a socket"),
)


def special_kind(mode: int) -> str | None:
    """What a non-regular file is ("a folder", "a character device", ...); None if regular."""
    if stat.S_ISREG(mode):
        return None
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def check_output(path: Path | str, *, replace: bool) -> os.stat_result | None:
    """Raise OutputPathError unless `path` may be written (see the module docstring).

    Returns the existing file's stat, or None when the path is new.
    """
    path = Path(path)
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise OutputPathError(path, f"cannot be checked: {exc.strerror or exc}") from None
    if info is None:
        _check_folder(path)
        return None
    if stat.S_ISLNK(info.st_mode):
        target = os.readlink(path) + ("" if path.exists() else ", which does not exist")
        raise OutputPathError(
            path,
            f"is a symbolic link (to {target}); quizapp does not write through links: "
            "give the file's own path",
        )
    kind = special_kind(info.st_mode)
    if kind is not None:
        raise OutputPathError(path, f"is {kind}; quizapp writes only regular files")
    if not replace:
        raise OutputPathError(path, "exists; add --force to replace it")
    return info


def _check_folder(path: Path) -> None:
    folder = path.parent
    if not folder.exists():
        raise OutputPathError(path, f"no such folder {folder}")
    if not folder.is_dir():
        raise OutputPathError(path, f"{folder} is not a folder")


def write_output(
    path: Path | str,
    content: bytes | Callable[[BinaryIO], None],
    *,
    replace: bool,
    before_replace: Callable[[Path], None] | None = None,
    private: bool = False,
) -> None:
    """Write `content` to `path` atomically, by the rules in the module docstring.

    `content` is the bytes, or a function that writes them to the binary file it is given.
    `before_replace(temporary path)` may raise to veto the result; `path` is then untouched
    and the exception propagates. `private`: the content is a student's answers or history,
    so the file is 0600 whatever the umask or the replaced file's mode. Raises
    OutputPathError or OutputWriteError.
    """
    path = Path(path)
    existing = check_output(path, replace=replace)
    if private:
        mode = PRIVATE_MODE
    elif existing is not None:
        mode = stat.S_IMODE(existing.st_mode)
    else:
        mode = _default_mode()
    try:
        fd, tmp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise OutputWriteError(path, f"cannot write: {exc.strerror or exc}") from None
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as handle:
            os.fchmod(handle.fileno(), mode)
            if isinstance(content, bytes):
                handle.write(content)
            else:
                content(handle)
            handle.flush()
            os.fsync(handle.fileno())
        if before_replace is not None:
            before_replace(tmp)
        _move_into_place(tmp, path, replace=replace)
        _sync_folder(path.parent)
    except OSError as exc:
        raise OutputWriteError(path, f"cannot write: {exc.strerror or exc}") from None
    finally:
        tmp.unlink(missing_ok=True)


def _move_into_place(tmp: Path, path: Path, *, replace: bool) -> None:
    if not replace:
        try:
            os.link(tmp, path)  # never replaces: fails if anything appeared at `path`
            return
        except FileExistsError:
            check_output(path, replace=False)  # says what is there now
            raise OutputPathError(path, "exists; add --force to replace it") from None
        except OSError as exc:
            if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK):
                raise
            # A filesystem without hard links (FAT, some network shares): check, then rename.
    check_output(path, replace=replace)  # what is there now, just before the rename
    os.replace(tmp, path)


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (POSIX); a no-op where folders cannot be opened."""
    if not hasattr(os, "O_DIRECTORY"):
        return
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _default_mode() -> int:
    """What a plain open() would give a new file (mkstemp's own file is private, 0600)."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


__all__ = [
    "OutputError",
    "OutputPathError",
    "OutputWriteError",
    "check_output",
    "special_kind",
    "write_output",
]
