"""Opening the review history file, and telling damage from trouble.

A history is moved aside only when it is *proved* damaged or foreign:

- a regular file whose header is not SQLite's, is cut short, or carries another
  application's `application_id`;
- a SQLite database of another application (unmarked, with tables of its own);
- a file SQLite itself reports as bad: SQLITE_CORRUPT, SQLITE_NOTADB, or a
  `PRAGMA quick_check` that is not "ok".

Nothing else moves it. A full disk, an I/O error, a permission error, a lock, a read-only
folder, or a folder, device, FIFO or socket at the path raise `HistoryError`, whose one-line
message names the path and the cause; the file is left exactly as it was. SQLite errors are
told apart by their result code, never by their wording.

Reading (`open_for_reading`, for `quizapp stats`) creates, migrates and moves nothing.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

from quizapp.srs.store.private_files import create_private_file, make_private_folder
from quizapp.srs.store.schema import APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION
from quizapp.wording import plural

BUSY_TIMEOUT_MS = 10_000
SQLITE_MAGIC = b"SQLite format 3\x00"
LEFT_ALONE = "it was left as it is"
MOVED_ON_NEXT_OPEN = "the app moves it aside the next time it opens it"
MEMORY = Path(":memory:")


class HistoryError(Exception):
    """The history cannot be used. The message is one line naming the path and the cause."""


# -- damage or trouble ------------------------------------------------------------------------


def _primary_code(exc: BaseException) -> int | None:
    code = getattr(exc, "sqlite_errorcode", None)
    return None if code is None else code & 0xFF


def is_damage(exc: BaseException) -> bool:
    """SQLite says the file itself is bad: the only errors that prove damage."""
    return _primary_code(exc) in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)


def is_busy(exc: BaseException) -> bool:
    """Another connection holds a lock: the file is in use, not damaged."""
    code = _primary_code(exc)
    if code is None:
        text = str(exc)
        return isinstance(exc, sqlite3.OperationalError) and ("locked" in text or "busy" in text)
    return code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


def cause(exc: BaseException) -> str:
    """What went wrong, in one line: SQLite's message and its error name, or the OS's."""
    if isinstance(exc, HistoryError):
        return str(exc)
    if isinstance(exc, sqlite3.Error):
        name = getattr(exc, "sqlite_errorname", None)
        return f"{exc} ({name})" if name else str(exc)
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    return f"{type(exc).__name__}: {' '.join(str(exc).split())}"  # one line (PostgreSQL's span several)


def trouble(path: Path, exc: BaseException) -> HistoryError:
    """A HistoryError for a file that is not proved damaged: it stays where it is."""
    hint = "" if _is_damage_or_busy(exc) else _folder_hint(path.parent)
    return HistoryError(f"{path} cannot be used: {cause(exc)}{hint}; {LEFT_ALONE}")


def _folder_hint(folder: Path) -> str:
    """SQLite reports a full disk under a -shm as an I/O error, and a read-only folder as
    "unable to open": name the likely reason when the folder shows it."""
    try:
        if not folder.is_dir():
            return ""
        if not os.access(folder, os.W_OK):
            return f" (the folder {folder} is read-only)"
        statvfs = getattr(os, "statvfs", None)  # POSIX only
        space = statvfs(folder) if statvfs else None
    except OSError:
        return ""
    if space is not None and space.f_bavail == 0:
        return f" (the disk holding {folder} is full)"
    return ""


def _is_damage_or_busy(exc: BaseException) -> bool:
    return is_damage(exc) or is_busy(exc)


# -- the file itself --------------------------------------------------------------------------

_KINDS: tuple[tuple[Callable[[int], bool], str], ...] = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISSOCK, "a socket"),
)


def _not_a_file(path: Path, mode: int) -> HistoryError:
    kind = next((name for test, name in _KINDS if test(mode)), "a special file")
    return HistoryError(
        f"{path} is {kind}, not a history file; {LEFT_ALONE} (give --db or QUIZAPP_DB the path of a file)"
    )


def stat_history(path: Path) -> os.stat_result | None:
    """The file's status, or None when there is no file. Anything but a regular file (or a
    link to one) is refused: a device, FIFO or folder is never renamed or written."""
    try:
        status = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        raise trouble(path, exc) from exc
    if not stat.S_ISREG(status.st_mode):
        raise _not_a_file(path, status.st_mode)
    return status


def read_header(path: Path) -> bytes | None:
    """The first 100 bytes, or None when the file is gone. Opened without blocking and checked
    again on the open descriptor, so a FIFO swapped in after `stat_history` is not waited on."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0)
    try:
        descriptor = os.open(path, flags)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        raise trouble(path, exc) from exc
    try:
        mode = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(mode):
            raise _not_a_file(path, mode)
        return os.read(descriptor, 100)
    except OSError as exc:
        raise trouble(path, exc) from exc
    finally:
        os.close(descriptor)


def header_problem(header: bytes) -> str | None:
    """Why these first bytes prove the file is not our history, or None if it may be."""
    if not header:
        return None  # an empty file: SQLite starts a database in it
    if not header.startswith(SQLITE_MAGIC):
        return "is not a SQLite database"
    if len(header) < 100:
        return "is a truncated SQLite database"
    application_id = int.from_bytes(header[68:72], "big")
    if application_id not in (0, APPLICATION_ID):
        return "belongs to another application"
    return None


def foreign_problem(connection: sqlite3.Connection) -> str | None:
    """Why SQLite's own view (which includes the WAL) says the database is another
    application's, or None. Call inside one read transaction."""
    application_id = connection.execute("PRAGMA application_id").fetchone()[0]
    if application_id not in (0, APPLICATION_ID):
        return "belongs to another application"
    tables = connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    if application_id == 0 and tables:
        # Our migration marks the file in the transaction that creates the tables.
        return "is a SQLite database of another application"
    return None


def move_aside(path: Path) -> Path:
    """Rename a damaged or foreign history (and its -wal and -shm) out of the way."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    target = path.with_name(f"{path.name}.unusable-{stamp}")
    counter = 1
    while target.exists():
        target = path.with_name(f"{path.name}.unusable-{stamp}-{counter}")
        counter += 1
    try:
        os.replace(path, target)
        for suffix in ("-wal", "-shm"):
            side = path.with_name(path.name + suffix)
            if side.exists():
                os.replace(side, target.with_name(target.name + suffix))
    except OSError as exc:
        raise HistoryError(
            f"{path} cannot be used and cannot be moved aside: {exc.strerror}"
        ) from exc
    return target


# -- connections ------------------------------------------------------------------------------


def _connect(
    target: str, *, uri: bool = False, busy_ms: int = BUSY_TIMEOUT_MS
) -> sqlite3.Connection:
    # isolation_level=None: we issue BEGIN/COMMIT ourselves, so nothing is left uncommitted.
    connection = sqlite3.connect(target, timeout=busy_ms / 1000, isolation_level=None, uri=uri)
    connection.execute(f"PRAGMA busy_timeout = {busy_ms}")
    return connection


def connect_uri(path: Path, query: str, *, busy_ms: int = BUSY_TIMEOUT_MS) -> sqlite3.Connection:
    # as_uri() percent-encodes the path: a bare `file:{path}` would stop at a `?` or `#`
    # in a folder name and open (and maybe create) some other file.
    return _connect(f"{path.absolute().as_uri()}?{query}", uri=True, busy_ms=busy_ms)


def configure(connection: sqlite3.Connection, path: Path) -> None:
    """WAL and full sync: a `kill -9` or a power cut loses nothing committed."""
    if path != MEMORY:
        connection.execute("PRAGMA journal_mode = WAL")
    connection.execute("PRAGMA synchronous = FULL")
    connection.execute("PRAGMA foreign_keys = ON")


def open_migrated(path: Path) -> sqlite3.Connection:
    # A connection that fails here is closed: it must not hold a file that is refused (a newer
    # schema) or about to be moved aside.
    connection = _connect(str(path))
    try:
        refuse_newer(connection, path)  # before the switch to WAL: a refused file stays as it was
        configure(connection, path)
        migrate(connection, path)
    except BaseException:
        connection.close()
        raise
    return connection


def refuse_newer(connection: sqlite3.Connection, path: Path) -> int:
    version = connection.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        where = "this history" if path == MEMORY else str(path)
        raise HistoryError(
            f"{where} was written by a newer quizapp (schema {version}; this one reads up to "
            f"{SCHEMA_VERSION}); upgrade quizapp to use it"
        )
    return version


def migrate(connection: sqlite3.Connection, path: Path) -> None:
    version = refuse_newer(connection, path)
    if version == SCHEMA_VERSION:
        return
    connection.execute("BEGIN IMMEDIATE")
    try:
        # Another instance may have migrated while we waited for the lock.
        version = connection.execute("PRAGMA user_version").fetchone()[0]
        for step in range(version + 1, SCHEMA_VERSION + 1):
            for statement in MIGRATIONS[step]:
                connection.execute(statement)
            connection.execute(f"PRAGMA user_version = {step}")
        connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        connection.execute("COMMIT")
    except BaseException:
        rollback(connection)
        raise


def rollback(connection: sqlite3.Connection) -> None:
    """Roll back if a transaction is still open. A failed COMMIT (a full disk, an I/O error)
    may already have ended it, and a second error must not hide the first."""
    if connection.in_transaction:
        with contextlib.suppress(sqlite3.Error):
            connection.execute("ROLLBACK")


_T = TypeVar("_T")


def while_busy(path: Path, attempt: Callable[[], _T]) -> _T:
    """Retry `attempt` while another instance holds a lock the busy timeout does not cover.

    Switching a new file to WAL needs an exclusive lock, and SQLite answers SQLITE_BUSY at
    once (without waiting) when two connections both try; so can a read-only probe racing
    that switch. Busy means "in use", never "damaged": nothing is moved aside for it."""
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    delay = 0.005
    while True:
        try:
            return attempt()
        except sqlite3.OperationalError as exc:
            if not is_busy(exc):
                raise
            if time.monotonic() > deadline:
                raise HistoryError(
                    f"{path} is in use by another program and stayed locked ({cause(exc)}); "
                    f"{LEFT_ALONE}"
                ) from exc
        time.sleep(delay)
        delay = min(delay * 2, 0.1)


# -- opening to write -------------------------------------------------------------------------


def _probe(path: Path) -> str | None:
    """Why SQLite says the file is damaged or foreign, or None. Busy errors propagate (the
    caller waits and looks again); any other trouble is a HistoryError."""
    try:
        probe = connect_uri(path, "mode=ro")
        try:
            # One read transaction: the id and the tables from the same snapshot, even while
            # another instance is migrating this file.
            probe.execute("BEGIN")
            problem = foreign_problem(probe)
            if problem:
                return problem
            verdict = "\n".join(row[0] for row in probe.execute("PRAGMA quick_check"))
            if verdict != "ok":
                return f"is damaged ({quick_check_problem(verdict)})"
        finally:
            probe.close()
    except sqlite3.Error as exc:
        if is_busy(exc):
            raise
        if is_damage(exc):
            return f"is damaged ({cause(exc)})"
        raise trouble(path, exc) from exc
    return None


def quick_check_problem(verdict: str) -> str:
    """`PRAGMA quick_check`'s verdict in one line: its first problem and how many more.

    SQLite lists up to 100 problems, one a line, under a `*** in database main ***` heading;
    all of them in a notice would fill the screen and push the moved file's name out of it."""
    problems = [line.strip() for line in verdict.splitlines() if line.strip()]
    problems = [line for line in problems if not line.startswith("***")] or ["not ok"]
    more = len(problems) - 1
    return f"quick_check: {problems[0]}" + (f", and {plural(more, 'more problem')}" if more else "")


def _open_private(path: Path) -> sqlite3.Connection:
    """`open_migrated`, on a file created 0600 first when there is none: a student's answers
    are theirs alone, and SQLite gives the -wal and -shm files the main file's mode."""
    try:
        create_private_file(path)
    except OSError as exc:
        raise HistoryError(f"{path} cannot be created: {exc.strerror}") from exc
    return open_migrated(path)


def open_for_writing(path: Path) -> tuple[sqlite3.Connection, str | None]:
    """A connection to a migrated history, and a notice when a file had to be moved aside."""
    if path == MEMORY:
        return open_migrated(path), None
    if stat_history(path) is None:
        try:
            make_private_folder(path.parent)
        except OSError as exc:
            raise HistoryError(f"{path} cannot be created: {exc.strerror}") from exc
    notice = None
    header = read_header(path)
    problem = header_problem(header) if header else None
    if header and problem is None:
        problem = while_busy(path, lambda: _probe(path))
    if problem:
        moved = move_aside(path)
        notice = f"{path} {problem}; it was moved to {moved} and a fresh history started"
    try:
        connection = while_busy(path, lambda: _open_private(path))
    except sqlite3.Error as exc:
        if not is_damage(exc):
            raise trouble(path, exc) from exc
        # Damage that only shows once SQLite reads past the header.
        moved = move_aside(path)
        notice = f"{path} could not be read ({cause(exc)}); it was moved to {moved} and a fresh history started"
        try:
            connection = while_busy(path, lambda: _open_private(path))
        except sqlite3.Error as again:
            raise trouble(path, again) from again
    return connection, notice


# -- opening to read --------------------------------------------------------------------------


def open_for_reading(path: Path) -> sqlite3.Connection:
    """A read-only view of the history that creates, migrates and moves nothing.

    A missing (or empty) file reads as an empty history. A history of an older schema is
    copied into memory and migrated there. Everything else that stands in the way is a
    HistoryError, and the file stays as it was."""
    header = read_header(path) if stat_history(path) is not None else None
    if not header:
        return open_migrated(MEMORY)
    problem = header_problem(header)
    if problem:
        raise HistoryError(f"{path} {problem}; {LEFT_ALONE} ({MOVED_ON_NEXT_OPEN})")
    try:
        connection = while_busy(path, lambda: _connect_read_only(path))
    except sqlite3.Error as exc:
        raise reading_error(path, exc) from exc
    try:
        connection.execute("BEGIN")
        problem = foreign_problem(connection)
        version = refuse_newer(connection, path)
        connection.execute("COMMIT")
        if problem:
            raise HistoryError(f"{path} {problem}; {LEFT_ALONE} ({MOVED_ON_NEXT_OPEN})")
        if version < SCHEMA_VERSION:
            return _migrated_copy(connection)
    except sqlite3.Error as exc:
        connection.close()
        raise reading_error(path, exc) from exc
    except BaseException:
        connection.close()
        raise
    return connection


def reading_error(path: Path, exc: sqlite3.Error) -> HistoryError:
    if is_damage(exc):
        return HistoryError(
            f"{path} is damaged ({cause(exc)}); {LEFT_ALONE} ({MOVED_ON_NEXT_OPEN})"
        )
    return trouble(path, exc)


def _connect_read_only(path: Path) -> sqlite3.Connection:
    """`mode=ro` when another connection may be writing (a -wal or -journal is there);
    `immutable=1` otherwise. SQLite deletes the -wal when the last connection closes, so with
    none there nobody is writing, and an immutable read takes no lock and creates no -shm:
    it works in a read-only folder and on a full disk."""
    side_files = [Path(f"{path}{suffix}") for suffix in ("-wal", "-journal")]
    if not any(side.exists() for side in side_files):
        return _checked(connect_uri(path, "mode=ro&immutable=1"))
    try:
        return _checked(connect_uri(path, "mode=ro"))
    except sqlite3.OperationalError as exc:
        # A -wal left empty by a closed writer, in a folder where no -shm can be made.
        if _is_damage_or_busy(exc) or any(
            side.stat().st_size for side in side_files if side.exists()
        ):
            raise
        return _checked(connect_uri(path, "mode=ro&immutable=1"))


def _checked(connection: sqlite3.Connection) -> sqlite3.Connection:
    # SQLite opens files lazily: read once so an unreadable file fails here, not later.
    try:
        connection.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    except BaseException:
        connection.close()
        raise
    return connection


def _migrated_copy(connection: sqlite3.Connection) -> sqlite3.Connection:
    memory = _connect(":memory:")
    try:
        connection.backup(memory)
        migrate(memory, MEMORY)
    except BaseException:
        memory.close()
        raise
    finally:
        connection.close()
    return memory


def open_reader(path: Path, busy_ms: int = 2_000) -> sqlite3.Connection:
    """A read-only connection beside a writer that already opened (and checked) the file."""
    try:
        return _checked(connect_uri(path, "mode=ro", busy_ms=busy_ms))
    except sqlite3.Error as exc:
        raise trouble(path, exc) from exc


def reconnect(path: Path) -> sqlite3.Connection:
    """A fresh writing connection to a history already opened once: no inspection, no moving
    aside, no migration (a writer uses it after repeated I/O errors)."""
    connection = _connect(str(path))
    try:
        configure(connection, path)
    except BaseException:
        connection.close()
        raise
    return connection
