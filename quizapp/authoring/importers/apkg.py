"""Anki packages (.apkg): the notes of the collection inside, as quizapp questions.

An .apkg is a zip holding the collection as an SQLite database: `collection.anki21b` (Anki
2.1.50 and later: the database compressed with zstd, beside a stub `collection.anki2` that
only says "please update"), `collection.anki21` (Anki 2.1 to 2.1.49, and newer Anki with
"Support older Anki versions" ticked) or `collection.anki2` (older Anki, genanki,
`quizapp export --format anki`). The newest one present is read.

The package is untrusted: the zip may claim any size and hold any number of members, a zstd
frame may expand a thousandfold, and the database may be built to make queries slow. So the
file, the member count and the collection's size are bounded: zipfile never unpacks more
than a member declares, and a zstd collection is decompressed as a stream that stops at
MAX_COLLECTION_BYTES (a frame that declares more is refused before any of it is unpacked).
Only the collection is extracted (into a private temporary folder, never media: the media
map, itself zstd and protobuf in the newer format, is not read, and every image and sound
a note names is reported as left out), the database is opened read-only and immutable, its
tables must be plain tables, and every query runs under an SQLite progress budget.

Note types and decks come from the `col` table's JSON (schema 11, every package before
2.1.50 and the legacy export) or from the `notetypes`, `fields`, `templates` and `decks`
tables (schema 18, `collection.anki21b`; the protobuf blobs there are read by
quizapp.authoring.importers.anki_proto). Notes come from `notes`, the deck of a note from its
first card, and whether the note has a reverse card from its cards' templates. See
quizapp.authoring.importers.anki_notes for how a note becomes a question.
"""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
import tempfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from quizapp.authoring.importers.anki_notes import AnkiNote
from quizapp.authoring.importers.anki_proto import notetype_is_cloze, template_question_format
from quizapp.authoring.importers.anki_text import notes_result
from quizapp.authoring.importers.common import MAX_ITEMS, ImportInputError, SourceResult

MAX_PACKAGE_BYTES = 1024 * 1024 * 1024  # media make packages large; only the collection is read
MAX_MEMBERS = 100_000
# The collection, unpacked: also the bound on a zstd collection's decompressed size.
MAX_COLLECTION_BYTES = 256 * 1024 * 1024
# SQLite virtual-machine steps (in units of 1,000) allowed for reading the collection.
_QUERY_BUDGET = 200_000
_ZSTD_COLLECTION = "collection.anki21b"
_COLLECTIONS = (_ZSTD_COLLECTION, "collection.anki21", "collection.anki2")
_FIELD_SEPARATOR = "\x1f"


def _collection_member(archive: zipfile.ZipFile, source: str) -> zipfile.ZipInfo:
    members = {info.filename: info for info in archive.infolist()}
    for name in _COLLECTIONS:
        if name in members:
            return members[name]
    raise ImportInputError(
        f"{source} holds no Anki collection (collection.anki21b, .anki21 or .anki2)"
    )


def _too_large(source: str, size: int | str) -> ImportInputError:
    shown = f"{size:,} bytes" if isinstance(size, int) else size
    return ImportInputError(
        f"{source}: the collection is {shown} unpacked; quizapp reads at most "
        f"{MAX_COLLECTION_BYTES:,}"
    )


def _extract(archive: zipfile.ZipFile, member: zipfile.ZipInfo, target: Path, source: str) -> None:
    # The declared size is the bound: zipfile reads a member no further than it declares (a
    # member that holds more fails its CRC check), so a forged header cannot get past it.
    if member.file_size > MAX_COLLECTION_BYTES:
        raise _too_large(source, member.file_size)
    with archive.open(member) as stream, target.open("wb") as out:
        if member.filename == _ZSTD_COLLECTION:
            _unzstd(stream, out, source)
        else:
            shutil.copyfileobj(stream, out, 1024 * 1024)


def _unzstd(stream: Any, out: Any, source: str) -> None:
    """Decompress a zstd stream into `out`, refusing past MAX_COLLECTION_BYTES: a frame that
    declares a larger size at once, one that does not say by the time it reaches it."""
    try:
        import zstandard
    except ImportError:  # a dependency, but an install can lack it: say what to do
        raise ImportInputError(
            f"{source} is in the newer Anki package format (collection.anki21b, zstd); "
            "reading it needs the zstandard package (pip install zstandard)"
        ) from None

    head = stream.read(18)  # a frame header is at most 18 bytes
    try:
        declared = zstandard.frame_content_size(head)
    except zstandard.ZstdError:
        raise ImportInputError(f"{source}: collection.anki21b is not zstd data") from None
    if declared > MAX_COLLECTION_BYTES:
        raise _too_large(source, declared)
    rest = _Prefixed(head, stream)
    written = 0
    try:
        reader = zstandard.ZstdDecompressor().stream_reader(rest, read_across_frames=True)
        with reader:
            while chunk := reader.read(1024 * 1024):
                written += len(chunk)
                if written > MAX_COLLECTION_BYTES:
                    raise _too_large(source, f"more than {MAX_COLLECTION_BYTES:,} bytes")
                out.write(chunk)
    except zstandard.ZstdError as exc:
        raise ImportInputError(f"{source}: collection.anki21b does not decompress: {exc}") from None


class _Prefixed:
    """A readable stream: `head`, then the rest of `stream` (the header already read)."""

    def __init__(self, head: bytes, stream: Any) -> None:
        self._head, self._stream = head, stream

    def read(self, size: int = -1) -> bytes:
        if self._head:
            part = self._head if size < 0 else self._head[:size]
            self._head = self._head[len(part) :]
            return part
        return self._stream.read(size)


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


@dataclass
class _NoteType:
    name: str | None
    is_cloze: bool
    field_names: list[str]
    question_formats: dict[int, str] = field(default_factory=dict)  # template ord -> qfmt
    template_names: dict[int, str] = field(default_factory=dict)  # template ord -> name

    def _asks_back(self, ord_: int) -> bool:
        names = self.field_names
        back = "Back" if "Back" in names else (names[1] if len(names) > 1 else None)
        if back is None:
            return False
        asks_back = re.compile(r"\{\{[^{}]*?\b" + re.escape(back) + r"\}\}")
        return bool(asks_back.search(self.question_formats.get(ord_, "")))

    def shows_back_first(self, ords: set[int]) -> bool:
        """Whether a card of one of these templates asks with the note's Back field (the
        reverse card of "Basic (and reversed card)", whatever the note type is called)."""
        return any(ord_ > 0 and self._asks_back(ord_) for ord_ in ords)

    def other_cards(self, ords: set[int]) -> list[str]:
        """The names of the note's cards that are neither its first nor its reverse: quizapp
        makes no question of them. None for a cloze type, whose cards are its deletions."""
        if self.is_cloze:
            return []
        return [
            self.template_names.get(ord_) or f"card {ord_ + 1}"
            for ord_ in sorted(ords)
            if ord_ > 0 and not self._asks_back(ord_)
        ]


def _tables(connection: sqlite3.Connection) -> dict[str, str]:
    return dict(connection.execute("SELECT name, type FROM sqlite_master"))


def _notes(connection: sqlite3.Connection, source: str) -> list[AnkiNote]:
    kinds = _tables(connection)
    for table in ("col", "notes", "cards"):
        if kinds.get(table) != "table":
            raise ImportInputError(f"{source}: not an Anki collection (no '{table}' table)")
    row = connection.execute("SELECT models, decks FROM col LIMIT 1").fetchone()
    if row is None:
        raise ImportInputError(f"{source}: not an Anki collection (the 'col' table is empty)")
    models = _json_object(row[0], "note types", source)
    if models:
        note_types = _legacy_note_types(models)
        decks = _json_object(row[1], "decks", source)
        deck_names = {
            key: str(deck["name"])
            for key, deck in decks.items()
            if isinstance(deck, dict) and deck.get("name")
        }
    elif all(kinds.get(t) == "table" for t in ("notetypes", "fields", "templates", "decks")):
        note_types = _schema18_note_types(connection)
        # Schema 18 separates a deck name's parts with U+001F where the JSON had "::".
        deck_names = {
            str(did): str(name).replace(_FIELD_SEPARATOR, "::")
            for did, name in connection.execute("SELECT id, name FROM decks")
        }
    else:
        raise ImportInputError(
            f"{source}: the collection keeps its note types in a layout quizapp cannot read"
        )
    (count,) = connection.execute("SELECT count(*) FROM notes").fetchone()
    if count > MAX_ITEMS:
        raise ImportInputError(
            f"{source} has {count:,} notes; quizapp imports at most {MAX_ITEMS:,}"
        )
    deck_of: dict[int, int] = {}
    card_ords: dict[int, set[int]] = {}
    for nid, did, ord_ in connection.execute("SELECT nid, did, ord FROM cards ORDER BY nid, ord"):
        deck_of.setdefault(nid, did)
        card_ords.setdefault(nid, set()).add(ord_)
    notes: list[AnkiNote] = []
    unknown = _NoteType(None, False, [])
    for nid, mid, tags, flds in connection.execute(
        "SELECT id, mid, tags, flds FROM notes ORDER BY id"
    ):
        note_type = note_types.get(str(mid), unknown)
        notes.append(
            AnkiNote(
                where=f"{source}: note {nid}",
                fields=str(flds).split(_FIELD_SEPARATOR),
                field_names=note_type.field_names,
                notetype=note_type.name,
                is_cloze=note_type.is_cloze,
                tags=str(tags or "").split(),
                deck=deck_names.get(str(deck_of.get(nid))),
                html=True,
                has_reverse_card=note_type.shows_back_first(card_ords.get(nid, set())),
                other_cards=note_type.other_cards(card_ords.get(nid, set())),
            )
        )
    return notes


def _legacy_note_types(models: dict[str, Any]) -> dict[str, _NoteType]:
    """Note types from the `col` table's JSON (schema 11)."""

    def ord_of(spec: dict[str, Any]) -> int:
        return spec["ord"] if isinstance(spec.get("ord"), int) else 0

    note_types: dict[str, _NoteType] = {}
    for key, model in models.items():
        if not isinstance(model, dict):
            continue
        field_specs = [f for f in model.get("flds", []) if isinstance(f, dict)]
        templates = [t for t in model.get("tmpls", []) if isinstance(t, dict)]
        note_types[key] = _NoteType(
            name=str(model.get("name") or "") or None,
            is_cloze=model.get("type") == 1,
            field_names=[str(f.get("name")) for f in sorted(field_specs, key=ord_of)],
            question_formats={ord_of(t): str(t.get("qfmt") or "") for t in templates},
            template_names={ord_of(t): str(t.get("name") or "") for t in templates},
        )
    return note_types


def _schema18_note_types(connection: sqlite3.Connection) -> dict[str, _NoteType]:
    """Note types from the tables of a newer collection (schema 18, collection.anki21b)."""
    note_types: dict[str, _NoteType] = {}
    for ntid, name, config in connection.execute("SELECT id, name, config FROM notetypes"):
        blob = config if isinstance(config, bytes) else b""
        note_types[str(ntid)] = _NoteType(str(name or "") or None, notetype_is_cloze(blob), [])
    for ntid, name in connection.execute("SELECT ntid, name FROM fields ORDER BY ntid, ord"):
        if str(ntid) in note_types:
            note_types[str(ntid)].field_names.append(str(name))
    for ntid, ord_, name, config in connection.execute(
        "SELECT ntid, ord, name, config FROM templates"
    ):
        if str(ntid) in note_types and isinstance(ord_, int):
            blob = config if isinstance(config, bytes) else b""
            note_types[str(ntid)].question_formats[ord_] = template_question_format(blob)
            note_types[str(ntid)].template_names[ord_] = str(name or "")
    return note_types


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
