"""Anki packages (.apkg): the notes of the collection inside, as quizapp questions.

An .apkg is a zip holding the collection as an SQLite database: `collection.anki21` (Anki
2.1 to 2.1.49, and newer Anki with "Support older Anki versions" ticked) or
`collection.anki2` (older Anki, genanki, `quizapp export --format anki`). Newer Anki writes
`collection.anki21b`, compressed with zstd, beside a stub `collection.anki2` that only says
"please update"; quizapp has no zstd reader, so such a file is refused with a message saying
how to export it readably.

The package is untrusted: the zip may claim any size and hold any number of members, and
the database may be built to make queries slow. So the file, the member count and the
collection's size are bounded (zipfile never unpacks more than a member declares), only
the collection is extracted (into a private temporary folder, never media), the database is
opened read-only and immutable, its tables must be plain tables, and every query runs under
an SQLite progress budget. Note types and decks come from the `col` table's JSON (the
schema every readable package uses); notes from `notes`, the deck of a note from its first
card. See quizapp.authoring.importers.anki_notes for how a note becomes a question.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import tempfile
import zipfile
from pathlib import Path
from typing import Any

from quizapp.authoring.importers.anki_notes import AnkiNote
from quizapp.authoring.importers.anki_text import notes_result
from quizapp.authoring.importers.common import MAX_ITEMS, ImportInputError, SourceResult

MAX_PACKAGE_BYTES = 1024 * 1024 * 1024  # media make packages large; only the collection is read
MAX_MEMBERS = 100_000
MAX_COLLECTION_BYTES = 256 * 1024 * 1024
# SQLite virtual-machine steps (in units of 1,000) allowed for reading the collection.
_QUERY_BUDGET = 200_000
_COLLECTIONS = ("collection.anki21", "collection.anki2")
_FIELD_SEPARATOR = "\x1f"


def _collection_member(archive: zipfile.ZipFile, source: str) -> zipfile.ZipInfo:
    members = {info.filename: info for info in archive.infolist()}
    for name in _COLLECTIONS:
        if name in members:
            if name == "collection.anki2" and "collection.anki21b" in members:
                break  # the stub beside a zstd collection: not the real notes
            return members[name]
    if "collection.anki21b" in members:
        raise ImportInputError(
            f"{source} is in the newer Anki package format (collection.anki21b, compressed "
            "with zstd), which quizapp cannot read; in Anki, export it again with "
            "'Support older Anki versions' ticked"
        )
    raise ImportInputError(f"{source} holds no Anki collection (collection.anki2 or .anki21)")


def _extract(archive: zipfile.ZipFile, member: zipfile.ZipInfo, target: Path, source: str) -> None:
    # The declared size is the bound: zipfile reads a member no further than it declares (a
    # member that holds more fails its CRC check), so a forged header cannot get past it.
    if member.file_size > MAX_COLLECTION_BYTES:
        raise ImportInputError(
            f"{source}: the collection is {member.file_size:,} bytes; quizapp reads at most "
            f"{MAX_COLLECTION_BYTES:,}"
        )
    with archive.open(member) as stream, target.open("wb") as out:
        shutil.copyfileobj(stream, out, 1024 * 1024)


def read_apkg(path: Path, source: str) -> SourceResult:
    """The notes of the .apkg at `path` as drafts. Raises ImportInputError."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise ImportInputError(f"cannot read {source}: {exc.strerror or exc}") from None
    if size > MAX_PACKAGE_BYTES:
        raise ImportInputError(f"{source} is larger than {MAX_PACKAGE_BYTES:,} bytes")
    try:
        with zipfile.ZipFile(path) as archive:
            if len(archive.infolist()) > MAX_MEMBERS:
                raise ImportInputError(f"{source} holds more than {MAX_MEMBERS:,} files")
            member = _collection_member(archive, source)
            with tempfile.TemporaryDirectory(prefix="quizapp-apkg-") as scratch:
                database = Path(scratch) / "collection.sqlite"
                _extract(archive, member, database, source)
                notes = _read_notes(database, source)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError) as exc:
        raise ImportInputError(f"{source} is not a readable .apkg (zip) file: {exc}") from None
    except NotImplementedError as exc:  # a compression method zipfile lacks
        raise ImportInputError(f"{source}: {exc}") from None
    except OSError as exc:
        raise ImportInputError(f"{source}: cannot unpack: {exc.strerror or exc}") from None
    return notes_result(notes)


def _read_notes(database: Path, source: str) -> list[AnkiNote]:
    uri = database.resolve().as_uri() + "?mode=ro&immutable=1"
    try:
        connection = sqlite3.connect(uri, uri=True)
    except sqlite3.Error as exc:
        raise ImportInputError(f"{source}: the collection cannot be opened: {exc}") from None
    steps = 0

    def budget() -> int:
        nonlocal steps
        steps += 1
        return 1 if steps > _QUERY_BUDGET else 0  # non-zero aborts the query

    connection.set_progress_handler(budget, 1000)
    try:
        return _notes(connection, source)
    except sqlite3.OperationalError as exc:
        if "interrupted" in str(exc):
            raise ImportInputError(f"{source}: reading the collection took too long") from None
        raise ImportInputError(f"{source}: not an Anki collection: {exc}") from None
    except sqlite3.Error as exc:
        raise ImportInputError(f"{source}: not an Anki collection: {exc}") from None
    finally:
        connection.close()


def _notes(connection: sqlite3.Connection, source: str) -> list[AnkiNote]:
    kinds = dict(
        connection.execute(
            "SELECT name, type FROM sqlite_master WHERE name IN ('col', 'notes', 'cards')"
        )
    )
    for table in ("col", "notes", "cards"):
        if kinds.get(table) != "table":
            raise ImportInputError(f"{source}: not an Anki collection (no '{table}' table)")
    row = connection.execute("SELECT models, decks FROM col LIMIT 1").fetchone()
    if row is None:
        raise ImportInputError(f"{source}: not an Anki collection (the 'col' table is empty)")
    models, decks = (
        _json_object(row[0], "note types", source),
        _json_object(row[1], "decks", source),
    )
    if not models:
        raise ImportInputError(
            f"{source}: the collection keeps its note types in a newer layout quizapp cannot read"
        )
    (count,) = connection.execute("SELECT count(*) FROM notes").fetchone()
    if count > MAX_ITEMS:
        raise ImportInputError(
            f"{source} has {count:,} notes; quizapp imports at most {MAX_ITEMS:,}"
        )
    deck_of: dict[int, int] = {}
    for nid, did in connection.execute("SELECT nid, did FROM cards ORDER BY nid, ord"):
        deck_of.setdefault(nid, did)
    notes: list[AnkiNote] = []
    for nid, mid, tags, flds in connection.execute(
        "SELECT id, mid, tags, flds FROM notes ORDER BY id"
    ):
        model = models.get(str(mid))
        model = model if isinstance(model, dict) else {}
        field_specs = [f for f in model.get("flds", []) if isinstance(f, dict)]
        names = [
            str(f.get("name"))
            for f in sorted(
                field_specs, key=lambda f: f.get("ord", 0) if isinstance(f.get("ord"), int) else 0
            )
        ]
        deck = decks.get(str(deck_of.get(nid)))
        notes.append(
            AnkiNote(
                where=f"{source}: note {nid}",
                fields=str(flds).split(_FIELD_SEPARATOR),
                field_names=names,
                notetype=str(model.get("name") or "") or None,
                is_cloze=model.get("type") == 1,
                tags=str(tags or "").split(),
                deck=str(deck.get("name")) if isinstance(deck, dict) and deck.get("name") else None,
                html=True,
            )
        )
    return notes


def _json_object(raw: Any, what: str, source: str) -> dict[str, Any]:
    if raw in (None, "", b""):
        return {}
    try:
        value = json.loads(raw)
    except (ValueError, TypeError, RecursionError):
        raise ImportInputError(f"{source}: the collection's {what} are not readable JSON") from None
    if not isinstance(value, dict):
        raise ImportInputError(f"{source}: the collection's {what} are not a JSON object")
    return value
