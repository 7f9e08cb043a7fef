"""The outbox: answers kept on this machine while the class's PostgreSQL server is away.

When a write to a PostgreSQL history fails (the server stopped, the network went), the
`HistoryWriter` (quizapp/srs/writer.py) keeps every write still waiting in a small SQLite file
under the user's data folder, one file per server, database and student, in the order given.
It goes on retrying, in order; each write leaves the file once the server has committed it.
A write still there when the app quits is sent first at the next start, before anything new.

Sending twice is harmless: every answer carries a UUID made when it was given, stored in the
PostgreSQL row under a unique index (pg_schema migration 3), and `record_answer` leaves an
answer already stored alone. So an answer whose commit reached the server but whose
acknowledgment was lost is stored once, and scheduling ends as if it had been given online.

Only the writer's thread uses an `Outbox`. Pure Python and SQLite: no psycopg here.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import sqlite3
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from quizapp.srs.private_files import create_private_file, make_private_folder, tighten_database
from quizapp.srs.writer import AnswerWrite, ExamWrite, FlagWrite, RerateWrite, UndoWrite, Write

if TYPE_CHECKING:
    from quizapp.srs.history import HistoryStore, PostgresLocation
    from quizapp.srs.scheduling import Rating, Scheduler
    from quizapp.srs.writer import Ticket

FORMAT = 1  # the outbox file's own version (PRAGMA user_version)


def outbox_path(location: PostgresLocation, folder: Path | None = None) -> Path:
    """This server, database and student's outbox file. Who connects (the URL's user and
    password) is not part of it: the same student's answers go to the same place."""
    if folder is None:
        import platformdirs

        folder = Path(platformdirs.user_data_dir("quizapp", appauthor=False)) / "outbox"
    parts = urlsplit(location.url.strip())
    key = "\n".join(
        [
            (parts.hostname or "").lower(),
            str(parts.port or ""),
            parts.path.lstrip("/"),
            parts.query,
            location.student,
        ]
    )
    return folder / f"{hashlib.sha256(key.encode('utf-8')).hexdigest()[:24]}.sqlite3"


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


class Outbox:
    def __init__(self, path: Path) -> None:
        self.path = path
        # The outbox holds the student's answers and is the app's own file: private (0600 in a
        # 0700 folder), and an older outbox made with the umask's mode is tightened.
        make_private_folder(path.parent)
        if not create_private_file(path):
            tighten_database(path)
        self._db = sqlite3.connect(path, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")  # kept means on the disk
        if self._db.execute("PRAGMA user_version").fetchone()[0] < FORMAT:
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS waiting"
                " (seq INTEGER PRIMARY KEY AUTOINCREMENT, body TEXT NOT NULL)"
            )
            self._db.execute(f"PRAGMA user_version = {FORMAT}")

    @staticmethod
    def exists(path: Path) -> bool:
        return path.is_file()

    def add(self, write: Write) -> int | None:
        """Keep `write` after everything kept so far. None: a write that cannot be kept (an
        undo or rerating of an answer without an id)."""
        body = encode(write)
        if body is None:
            return None
        cursor = self._db.execute("INSERT INTO waiting (body) VALUES (?)", (body,))
        return int(cursor.lastrowid or 0)

    def replace(self, seq: int, write: Write) -> None:
        body = encode(write)
        if body is not None:
            self._db.execute("UPDATE waiting SET body = ? WHERE seq = ?", (body, seq))

    def remove(self, seq: int) -> None:
        self._db.execute("DELETE FROM waiting WHERE seq = ?", (seq,))

    def entries(self) -> list[tuple[int, Write]]:
        """What waits, oldest first."""
        rows = self._db.execute("SELECT seq, body FROM waiting ORDER BY seq").fetchall()
        return [(int(seq), decode(body)) for seq, body in rows]

    def __len__(self) -> int:
        return int(self._db.execute("SELECT count(*) FROM waiting").fetchone()[0])

    def close(self) -> None:
        self._db.close()


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
    from quizapp.srs.scheduling import Rating, Scheduler

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
