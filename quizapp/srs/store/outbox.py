"""The outbox: answers kept on this machine while the class's PostgreSQL server is away.

When a write to a PostgreSQL history fails (the server stopped, the network went), the
`HistoryWriter` (quizapp/srs/store/writer.py) keeps every write still waiting in a small SQLite file
under the user's data folder, in the order given. It goes on retrying, in order; each write
leaves the file once the server has committed it. A write still there when the app quits is
sent first at the next start, before anything new.

One file per process. Two apps of the same student on one machine (two terminals, a terminal
and `quizapp serve`) each keep their own file, `<identity>.<pid>-<token>.sqlite3`, and hold an
exclusive lock (flock) on its `.lock` beside it for as long as they run. A file is only ever
changed by the process that holds its lock: so one process can never send, forget or rewrite
what another still holds (a re-rating it makes of an answer that waits would be lost). At its
start, a process takes over the files whose owners have gone (their lock is free): it copies
their writes into its own file, in their order, then removes them. A file holding nothing is
removed when its process closes it.

Sending twice is harmless: every answer carries a UUID made when it was given, stored in the
PostgreSQL row under a unique index (pg_schema migration 3), and `record_answer` leaves an
answer already stored alone. So an answer whose commit reached the server but whose
acknowledgment was lost is stored once, and scheduling ends as if it had been given online;
likewise a file taken over whose removal a crash interrupted.

The identity in the file's name is a hash of where the answers go: host, port, database, user,
schema and student. Never the password: changing it must not orphan the outbox, and a secret
has no place in a file name. Files are 0600, their folder 0700.

Only the writer's thread uses an `Outbox`. Pure Python and SQLite: no psycopg here.
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import hashlib
import json
import os
import re
import secrets
import sqlite3
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, unquote, urlsplit

from quizapp.srs.store.private_files import (
    PRIVATE_FILE_MODE,
    SQLITE_SIDE_FILES,
    create_private_file,
    make_private_folder,
    tighten_database,
)
from quizapp.srs.store.writes import (
    AnswerWrite,
    ExamWrite,
    FlagWrite,
    RerateWrite,
    UndoWrite,
    Write,
)

if TYPE_CHECKING:
    from quizapp.srs.memory.scheduling import Rating, Scheduler
    from quizapp.srs.store.history import HistoryStore, PostgresLocation
    from quizapp.srs.store.writes import Ticket

FORMAT = 1  # the outbox file's own version (PRAGMA user_version)
SUFFIX = ".sqlite3"
LOCK_SUFFIX = ".lock"
_SEARCH_PATH = re.compile(r"search_path\s*=\s*([^\s]+)")


def outbox_path(location: PostgresLocation, folder: Path | None = None) -> Path:
    """The name this server, database, user, schema and student's outbox files share: each
    process keeps its own file beside it (`Outbox.own_path`). An outbox kept by an older
    quizapp under exactly this name is taken over too."""
    if folder is None:
        folder = default_folder()
    digest = hashlib.sha256(identity(location).encode("utf-8")).hexdigest()[:24]
    shared = folder / f"{digest}{SUFFIX}"
    older = legacy_path(location, folder)
    if older != shared and older.is_file() and not shared.exists():
        # Kept under the older name (whose hash held the whole query, a password too): moved
        # to this name, where the next `Outbox` takes it over and sends it.
        with contextlib.suppress(OSError):
            os.rename(older, shared)
            for side in SQLITE_SIDE_FILES:
                with contextlib.suppress(FileNotFoundError):
                    os.rename(
                        older.with_name(older.name + side), shared.with_name(shared.name + side)
                    )
    return shared


def default_folder() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("quizapp", appauthor=False)) / "outbox"


def identity(location: PostgresLocation) -> str:
    """Where the answers go, as libpq reads the URL (a query parameter wins over the URL's
    own part): host, port, database, user, schema and student. Nothing else of the query
    (a password, SSL settings) and never the password in the URL."""
    parts = urlsplit(location.url.strip())
    query = {key: values[-1] for key, values in parse_qs(parts.query).items()}
    host = query.get("host") or parts.hostname or ""
    port = query.get("port") or (str(parts.port) if _has_port(parts) else "")
    database = query.get("dbname") or unquote(parts.path.lstrip("/"))
    user = query.get("user") or unquote(parts.username or "")
    found = _SEARCH_PATH.search(unquote(query.get("options", "")))
    schema = found.group(1) if found else ""
    return "\n".join([host.lower(), port, database, user, schema, location.student])


def _has_port(parts: Any) -> bool:
    try:
        return parts.port is not None
    except ValueError:  # not a number: libpq refuses the URL before anything is kept
        return False


def legacy_path(location: PostgresLocation, folder: Path) -> Path:
    """Where a quizapp before per-process outboxes kept this student's one outbox."""
    parts = urlsplit(location.url.strip())
    key = "\n".join(
        [
            (parts.hostname or "").lower(),
            str(parts.port if _has_port(parts) else ""),
            parts.path.lstrip("/"),
            parts.query,
            location.student,
        ]
    )
    return folder / f"{hashlib.sha256(key.encode('utf-8')).hexdigest()[:24]}{SUFFIX}"


@dataclasses.dataclass(frozen=True)
class UndoAnswer:
    """An undo kept in the outbox: takes back the answer stored under `answer_id`."""

    answer_id: str

    def apply(self, store: HistoryStore, ticket: Ticket) -> None:
        review_id = store.review_id_for_answer(self.answer_id)  # type: ignore[attr-defined]
        ticket.outcome = None if review_id is None else store.undo_review(review_id)


@dataclasses.dataclass(frozen=True)
class RerateAnswer:
    """A change of rating kept in the outbox, for the answer stored under `answer_id`."""

    answer_id: str
    rating: Rating
    scheduler: Scheduler

    def apply(self, store: HistoryStore, ticket: Ticket) -> None:
        review_id = store.review_id_for_answer(self.answer_id)  # type: ignore[attr-defined]
        if review_id is not None:
            ticket.outcome = store.rerate_review(review_id, self.rating, self.scheduler)


class OutboxUnreadable(Exception):
    """An outbox file (this process's or one taken over) cannot be read; it is left as it is."""


class Outbox:
    """This process's own outbox file beside `path` (outbox_path's shared name), locked for as
    long as it is open; what dead processes kept beside the same name is taken over when it
    opens. Raises OutboxUnreadable, naming the file, when one cannot be read."""

    def __init__(self, path: Path) -> None:
        self.path = path
        make_private_folder(path.parent)
        token = f"{os.getpid()}-{secrets.token_hex(4)}"
        self.own_path = path.with_name(f"{path.stem}.{token}{SUFFIX}")
        # The lock first: a file whose lock is free is a dead process's, to be taken over.
        lock = _locked(_lock_path(self.own_path), wait=False)
        if lock is None:  # a fresh token's lock is always free; this would be someone's doing
            raise OutboxUnreadable(f"{self.own_path} is locked by another process")
        self._lock = lock
        self._db: sqlite3.Connection | None = None
        try:
            self._db = _open(self.own_path)
            for orphan in _orphans(path, self.own_path):
                self._take_over(orphan)
        except BaseException:
            self._abandon()
            raise

    @staticmethod
    def exists(path: Path) -> bool:
        """Whether anything was kept beside `path`: by a process still running, or gone."""
        return any(_files(path))

    def _take_over(self, orphan: Path) -> None:
        """Copy a dead process's writes after this one's, in order; then remove its file."""
        lock = _locked(_lock_path(orphan), wait=False)
        if lock is None:
            return  # its process still runs (or another is taking it over): it is theirs
        try:
            if not orphan.is_file():
                return  # taken over meanwhile by a process that held the lock before us
            try:
                bodies = _waiting_bodies(orphan)
                for body in bodies:
                    decode(body)  # a body this app cannot read stops here, not at sending
            except (sqlite3.Error, ValueError, KeyError, TypeError) as exc:
                raise OutboxUnreadable(f"{orphan} cannot be read: {exc}") from exc
            db = self._connection()
            db.execute("BEGIN IMMEDIATE")
            for body in bodies:
                db.execute("INSERT INTO waiting (body) VALUES (?)", (body,))
            db.execute("COMMIT")
            _remove_database(orphan)
            _remove_lock_file(lock, _lock_path(orphan))
        finally:
            os.close(lock)

    def _connection(self) -> sqlite3.Connection:
        if self._db is None:
            raise ValueError("the outbox is closed")
        return self._db

    def add(self, write: Write) -> int | None:
        """Keep `write` after everything kept so far. None: a write that cannot be kept (an
        undo or rerating of an answer without an id)."""
        body = encode(write)
        if body is None:
            return None
        cursor = self._connection().execute("INSERT INTO waiting (body) VALUES (?)", (body,))
        return int(cursor.lastrowid or 0)

    def replace(self, seq: int, write: Write) -> None:
        body = encode(write)
        if body is not None:
            self._connection().execute("UPDATE waiting SET body = ? WHERE seq = ?", (body, seq))

    def remove(self, seq: int) -> None:
        self._connection().execute("DELETE FROM waiting WHERE seq = ?", (seq,))

    def entries(self) -> list[tuple[int, Write]]:
        """What waits in this process's file, oldest first."""
        rows = self._connection().execute("SELECT seq, body FROM waiting ORDER BY seq")
        return [(int(seq), decode(body)) for seq, body in rows.fetchall()]

    def __len__(self) -> int:
        return int(self._connection().execute("SELECT count(*) FROM waiting").fetchone()[0])

    def close(self) -> None:
        """Close the file, removing it when nothing waits in it; then free its lock."""
        if self._db is None:
            return
        empty = len(self) == 0
        self._db.close()
        self._db = None
        if empty:
            _remove_database(self.own_path)
            _remove_lock_file(self._lock, _lock_path(self.own_path))
        os.close(self._lock)

    def _abandon(self) -> None:
        """Opening failed: this process's file goes (nothing was kept in it yet)."""
        if self._db is not None:
            self._db.close()
            self._db = None
        _remove_database(self.own_path)
        _remove_lock_file(self._lock, _lock_path(self.own_path))
        os.close(self._lock)


def kept_writes(path: Path) -> list[Write]:
    """Everything kept beside `path`, by every process, file by file: a look that changes
    nothing and takes no lock (for tests and diagnostics)."""
    return [decode(body) for file in _files(path) for body in _waiting_bodies(file)]


# -- files and locks ------------------------------------------------------------------------


def _files(path: Path) -> list[Path]:
    """The outbox files kept beside `path`: an older app's under the name itself first, then
    each process's (`<name>.<pid>-<token>.sqlite3`), the least recently written first."""
    try:
        own = [f for f in path.parent.glob(f"{glob_escape(path.stem)}.*{SUFFIX}") if f.is_file()]
        own.sort(key=_last_written)
    except OSError:
        own = []
    return ([path] if path.is_file() else []) + own


def _last_written(file: Path) -> float:
    with contextlib.suppress(OSError):
        return file.stat().st_mtime
    return 0.0


def glob_escape(text: str) -> str:
    return re.sub(r"([*?\[])", r"[\1]", text)


def _orphans(path: Path, own: Path) -> list[Path]:
    return [file for file in _files(path) if file != own]


def _lock_path(database: Path) -> Path:
    return database.with_name(database.name + LOCK_SUFFIX)


def _locked(path: Path, *, wait: bool) -> int | None:
    """A descriptor holding an exclusive flock on `path` (made 0600 if missing), or None
    when another holds it. flock, not fcntl's record locks: SQLite's own are those, and
    closing any descriptor of a file drops every record lock the process holds on it."""
    descriptor = os.open(
        path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), PRIVATE_FILE_MODE
    )
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
    except BlockingIOError:
        os.close(descriptor)
        return None
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor


def _remove_lock_file(descriptor: int, path: Path) -> None:
    """Remove the lock file we hold, if the name still stands for it (a process that opened it
    meanwhile finds, once it has the lock, that the database is gone)."""
    with contextlib.suppress(OSError):
        held, named = os.fstat(descriptor), os.stat(path)
        if (held.st_dev, held.st_ino) == (named.st_dev, named.st_ino):
            os.unlink(path)


def _remove_database(path: Path) -> None:
    for file in [path, *(path.with_name(path.name + side) for side in SQLITE_SIDE_FILES)]:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(file)


def _waiting_bodies(path: Path) -> list[str]:
    """The writes kept in an outbox file, oldest first, as stored (JSON text)."""
    db = sqlite3.connect(path, isolation_level=None)
    try:
        found = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'waiting'")
        if found.fetchone() is None:
            return []
        return [body for (body,) in db.execute("SELECT body FROM waiting ORDER BY seq")]
    finally:
        db.close()


def _open(path: Path) -> sqlite3.Connection:
    """This process's own file: private (0600 in a 0700 folder), WAL, synchronous."""
    if not create_private_file(path):
        tighten_database(path)
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")  # kept means on the disk
        if db.execute("PRAGMA user_version").fetchone()[0] < FORMAT:
            db.execute(
                "CREATE TABLE IF NOT EXISTS waiting"
                " (seq INTEGER PRIMARY KEY AUTOINCREMENT, body TEXT NOT NULL)"
            )
            db.execute(f"PRAGMA user_version = {FORMAT}")
    except BaseException:
        db.close()
        raise
    return db


# -- writes as JSON -------------------------------------------------------------------------


def encode(write: Write) -> str | None:
    if isinstance(write, AnswerWrite):
        fields = {f.name: getattr(write, f.name) for f in dataclasses.fields(write)}
        fields["rating"] = int(write.rating)
        fields["when"] = write.when.isoformat()
        fields["scheduler"] = write.scheduler.to_dict()
        return json.dumps({"type": "answer", **fields})
    if isinstance(write, FlagWrite):
        until = None if write.until is None else write.until.isoformat()
        return json.dumps(
            {
                "type": "flag",
                "question_id": write.question_id,
                "action": write.action,
                "until": until,
            }
        )
    if isinstance(write, ExamWrite):
        record = dict(write.record, taken=write.record["taken"].isoformat())
        return json.dumps({"type": "exam", "record": record})
    if isinstance(write, UndoWrite | RerateWrite):
        answer_id = getattr(write.target.write, "answer_id", None)
        if answer_id is None:
            return None
        if isinstance(write, UndoWrite):
            return encode(UndoAnswer(answer_id))
        return encode(RerateAnswer(answer_id, write.rating, write.scheduler))
    if isinstance(write, UndoAnswer):
        return json.dumps({"type": "undo", "answer_id": write.answer_id})
    if isinstance(write, RerateAnswer):
        return json.dumps(
            {
                "type": "rerate",
                "answer_id": write.answer_id,
                "rating": int(write.rating),
                "scheduler": write.scheduler.to_dict(),
            }
        )
    return None


def decode(body: str) -> Write:
    from quizapp.srs.memory.scheduling import Rating, Scheduler

    data: dict[str, Any] = json.loads(body)
    kind = data.pop("type")
    if kind == "answer":
        data["rating"] = Rating(data["rating"])
        data["when"] = datetime.fromisoformat(data["when"])
        data["scheduler"] = Scheduler.from_dict(data["scheduler"])
        return AnswerWrite(**data)
    if kind == "flag":
        until = data["until"]
        return FlagWrite(
            data["question_id"],
            data["action"],
            None if until is None else datetime.fromisoformat(until),
        )
    if kind == "exam":
        record = dict(data["record"], taken=datetime.fromisoformat(data["record"]["taken"]))
        return ExamWrite(record)
    if kind == "undo":
        return UndoAnswer(data["answer_id"])
    if kind == "rerate":
        return RerateAnswer(
            data["answer_id"], Rating(data["rating"]), Scheduler.from_dict(data["scheduler"])
        )
    raise ValueError(f"unknown kind of write in the outbox: {kind!r}")
