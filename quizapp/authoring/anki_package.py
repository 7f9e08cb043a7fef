"""`quizapp export --format anki`: an .apkg that Anki re-imports as an update, not a copy.

What Anki does with a package it has seen before (checked against Anki 26.9):

- A note is matched by its guid. It is updated when the package's note modification time is
  newer than the collection's, whatever the content, and skipped (counted as a duplicate)
  otherwise. Anki keeps the package's modification time on the notes it adds and updates.
- A deck is matched by name: a package deck under a new name becomes a new deck, and cards
  already imported stay where they are.
- New cards take the package's `due` as their new-card position.
- The note type is matched by id, and replaced only by a newer one.

So:

- Guids come from question ids, the note type's id is fixed, and deck ids come from deck ids.
  A parameterized question (`vary:`) is one note per variant, its guid from the id and the
  variant's values (`variant_id`), up to MAX_NOTES_PER_QUESTION; the rest are reported.
- A deck is named `quizapp::<deck id>`, with the title and description in Anki's deck
  description: retitling a deck in the bank renames nothing in Anki (see docs/authoring.md).
- New cards are positioned in bank order: deck by deck, question by question.
- A note's modification time is a function of the bank, not of the clock: the modification
  time of the file the question is in (never earlier than `CARD_FORMAT_MTIME`, when the card
  layout last changed). Exporting an unchanged bank again gives the same times, and Anki
  skips every note, keeping a student's own edits to them.
- Given the previous package (`--previous`, or the `--out` file that `--force` replaces), a
  note whose fields and tags are unchanged keeps the previous package's time exactly, and a
  changed one gets a later time. Only the questions that changed update in Anki, even when
  other questions in the same file were edited too.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import shutil
import sqlite3
import tempfile
import zipfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from quizapp.authoring.anki_cards import (
    anki_variants,
    card_back,
    card_front,
    variant_id,
    variants_note,
)
from quizapp.authoring.anki_html import markdown_to_html
from quizapp.authoring.output_file import check_output, write_output
from quizapp.bank.display_order import DEFAULT_EXPORT_ORDER, ExportOrder
from quizapp.bank.model import Deck, NumericQuestion, Question

ANKI_MODEL_ID = 1_607_392_319  # fixed forever: re-exports must reuse the same note type
ANKI_MODEL_NAME = "quizapp question"
ANKI_FIELDS = ("Front", "Back", "QuizappId")
ANKI_TEMPLATES = (
    {"name": "Card 1", "qfmt": "{{Front}}", "afmt": '{{FrontSide}}<hr id="answer">{{Back}}'},
)
ANKI_CSS = """\
.card { font-family: sans-serif; font-size: 18px; text-align: left; color: black; background: white; }
.options li, .steps li { margin: 0.2em 0; }
.correct { color: #137333; font-weight: bold; }
.why { color: #555; }
.source { color: #888; font-size: 0.8em; margin-top: 1em; }
code { font-family: monospace; background: #f2f2f2; padding: 0 0.2em; }
pre { background: #f2f2f2; padding: 0.5em; overflow-x: auto; }
pre code { padding: 0; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { border: 1px solid #bbb; padding: 0.2em 0.5em; vertical-align: top; }
blockquote { border-left: 3px solid #bbb; margin-left: 0; padding-left: 0.8em; color: #444; }
"""
# When the note type (ANKI_FIELDS, ANKI_TEMPLATES, ANKI_CSS) last changed. Anki replaces a
# collection's copy only with a newer one, so change this with them (a test holds the pair
# to ANKI_MODEL_DIGEST).
ANKI_MODEL_MTIME = 1_796_328_000  # 2026-12-03 20:00 UTC: tables, code blocks, quotes styled
ANKI_MODEL_DIGEST = "6116a83a8b3d3b43"
# When the card layout (quizapp.authoring.anki_cards) last changed: no note is dated earlier,
# so that a layout change reaches notes whose bank file is older. Change it with the layout.
# 2026-12-03 20:00 UTC: explanations rendered by markdown-it (tables, nested lists, code).
CARD_FORMAT_MTIME = 1_796_328_000
# A previous package is read only up to this size (its collection, uncompressed).
MAX_PREVIOUS_BYTES = 256 * 1024 * 1024


class PreviousPackageError(Exception):
    """The previous package cannot be read. The message is one line."""


@dataclass(frozen=True)
class NoteContent:
    """What Anki stores of a note, as compared between exports."""

    model_id: int
    fields: str  # the fields joined by U+001F, as in Anki's notes table
    tags: str  # space-separated, with a space at each end, as in Anki's notes table


@dataclass(frozen=True)
class PreviousNote:
    mtime: int
    content: NoteContent


@dataclass(frozen=True)
class AnkiSummary:
    notes: int
    decks: int
    new: int  # not in the previous package (all of them when there is none)
    changed: int  # in the previous package with other fields or tags
    previous: Path | None  # the previous package compared with
    # (question id, what was left out): the variants past MAX_NOTES_PER_QUESTION
    left_out: tuple[tuple[str, str], ...] = ()


def anki_deck_id(deck_id: str) -> int:
    """A stable Anki deck id from the quizapp deck id (in genanki's recommended range)."""
    digest = hashlib.sha256(f"quizapp-deck:{deck_id}".encode()).digest()
    return (1 << 30) + int.from_bytes(digest[:8], "big") % (1 << 30)


def anki_deck_name(deck: Deck) -> str:
    """The Anki deck's name: from the deck id, which never changes, not from its title."""
    return f"quizapp::{deck.id}"


def anki_deck_description(deck: Deck) -> str:
    title = markdown_to_html(f"**{deck.title}**")
    return title + (markdown_to_html(deck.description) if deck.description else "")


def anki_guid(question_id: str) -> str:
    import genanki

    return genanki.guid_for("quizapp", question_id)


def model_digest() -> str:
    """A digest of the note type, which ANKI_MODEL_DIGEST records (see ANKI_MODEL_MTIME)."""
    text = repr((ANKI_MODEL_ID, ANKI_MODEL_NAME, ANKI_FIELDS, ANKI_TEMPLATES, ANKI_CSS))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def note_content(fields: Sequence[str], tags: Iterable[str]) -> NoteContent:
    return NoteContent(ANKI_MODEL_ID, "\x1f".join(fields), " " + " ".join(tags) + " ")


def note_mtime(content: NoteContent, floor: int, previous: PreviousNote | None) -> int:
    """The note's modification time (see the module docstring): `floor` is the time its
    bank file was last changed; `previous` is the same note in the previous package."""
    floor = max(floor, CARD_FORMAT_MTIME)
    if previous is None:
        return floor
    if previous.content == content:
        return previous.mtime
    return max(floor, previous.mtime + 1)


def file_mtime(path: str, cache: dict[str, int]) -> int:
    """A bank file's modification time in whole seconds (0 when it cannot be read)."""
    if path not in cache:
        try:
            cache[path] = int(os.stat(path).st_mtime)
        except OSError:
            cache[path] = 0
    return cache[path]


# -- the previous package ---------------------------------------------------------------------


def read_previous_notes(path: str | Path) -> dict[str, PreviousNote]:
    """The notes of a package `quizapp export` wrote, by guid. Raises PreviousPackageError."""
    with tempfile.TemporaryDirectory(prefix="quizapp-anki-") as scratch:
        db_path = Path(scratch) / "collection.anki2"
        _extract_collection(Path(path), db_path)
        try:
            conn = sqlite3.connect(f"{db_path.as_uri()}?mode=ro", uri=True)
            try:
                rows = conn.execute("SELECT guid, mid, mod, flds, tags FROM notes").fetchall()
            finally:
                conn.close()
        except sqlite3.Error as exc:
            raise PreviousPackageError(f"{path}: not an Anki package ({exc})") from None
    notes: dict[str, PreviousNote] = {}
    for guid, mid, mod, flds, tags in rows:
        texts = all(isinstance(value, str) for value in (guid, flds, tags))
        if texts and isinstance(mid, int) and isinstance(mod, int):
            notes[guid] = PreviousNote(mod, NoteContent(mid, flds, tags))
    return notes


def _extract_collection(package: Path, target: Path) -> None:
    try:
        with zipfile.ZipFile(package) as archive:
            try:
                info = archive.getinfo("collection.anki2")
            except KeyError:
                raise PreviousPackageError(
                    f"{package}: not a package written by quizapp export (no collection.anki2)"
                ) from None
            if info.file_size > MAX_PREVIOUS_BYTES:
                raise PreviousPackageError(f"{package}: its collection is too large to compare")
            with archive.open(info) as source, target.open("wb") as sink:
                shutil.copyfileobj(source, sink)
    except (OSError, zipfile.BadZipFile, EOFError) as exc:
        reason = getattr(exc, "strerror", None) or exc
        raise PreviousPackageError(f"{package}: not a readable Anki package ({reason})") from None


# -- writing ----------------------------------------------------------------------------------


def derived_values(
    questions: Iterable[Question], *, use_cache: bool = True
) -> dict[str, dict[str, object]]:
    """Run the computations behind `from:` keys once each, within lint's default time budget
    (a hostile bank can ask for hundreds of slow runs), reusing results stored by earlier runs
    unless `use_cache` is False. Questions whose run fails, or does not fit in the budget, are
    left out: their key stays described rather than computed. Keyed by `variant_id`."""
    wanted = [
        q
        for q in questions
        if isinstance(q, NumericQuestion) and q.answer.from_value is not None and q.compute
    ]
    if not wanted:
        return {}
    from quizapp.authoring.evaluation import (
        DEFAULT_BUDGET_SECONDS,
        BudgetedRuns,
        BudgetSpent,
        stored_results,
    )

    runs = BudgetedRuns(DEFAULT_BUDGET_SECONDS, stored=stored_results(use_cache))
    out: dict[str, dict[str, object]] = {}
    for q in wanted:
        assert q.compute is not None
        try:
            outcome = runs.outcome(q.compute.name, q.compute.args)
        except BudgetSpent:
            continue  # cached runs are still used by the questions after this one
        if not isinstance(outcome, Exception):
            out[variant_id(q)] = dict(outcome)
    return out


@dataclass(frozen=True)
class _PlannedNote:
    deck_id: int
    note_id: str  # the question's id; a variant's adds its values (anki_cards.variant_id)
    fields: list[str]
    tags: list[str]
    position: int  # the new-card position: bank order, from 1
    mtime: int


def _plan(
    shown: Sequence[tuple[Deck, list[Question]]],
    derived: Mapping[str, Mapping[str, object]],
    previous: Mapping[str, PreviousNote],
    order: ExportOrder,
) -> tuple[list[_PlannedNote], int, int]:
    """Every note with its time and position; and how many are new and changed."""
    planned: list[_PlannedNote] = []
    mtimes: dict[str, int] = {}
    new = changed = 0
    position = itertools.count(1)
    for deck, questions in shown:
        for question in questions:
            note_id = variant_id(question)
            back = card_back(question, derived.get(note_id), order)
            fields = [card_front(question, order), back]
            fields.append(note_id)
            content = note_content(fields, question.tags)
            before = previous.get(anki_guid(note_id))
            new += before is None
            changed += before is not None and before.content != content
            mtime = note_mtime(content, file_mtime(question.location.path, mtimes), before)
            planned.append(
                _PlannedNote(
                    anki_deck_id(deck.id),
                    note_id,
                    fields,
                    list(question.tags),
                    next(position),
                    mtime,
                )
            )
    return planned, new, changed


def write_anki_package(
    decks: Sequence[Deck],
    out: str | Path,
    *,
    evaluate: bool = True,
    replace: bool = False,
    previous: str | Path | None = None,
    use_cache: bool = True,
    order: ExportOrder = DEFAULT_EXPORT_ORDER,
) -> AnkiSummary:
    """Write the decks' questions to an .apkg at `out`, by the rules of
    `quizapp.authoring.output_file` (`replace` allows replacing a regular file), comparing
    with the `previous` package if given. Keys taken `from:` a computation are computed unless
    `evaluate` is False, reusing stored results unless `use_cache` is False. Raises
    OutputError or PreviousPackageError. `order` fixes the options' order on the fronts.
    """
    import genanki

    check_output(out, replace=replace)  # before the work, not only after it
    earlier = read_previous_notes(previous) if previous is not None else {}
    model = genanki.Model(
        ANKI_MODEL_ID,
        ANKI_MODEL_NAME,
        fields=[{"name": name} for name in ANKI_FIELDS],
        templates=[dict(t) for t in ANKI_TEMPLATES],
        css=ANKI_CSS,
    )
    shown: list[tuple[Deck, list[Question]]] = []
    left_out: list[tuple[str, str]] = []
    for deck in decks:
        cards: list[Question] = []
        for question in deck.questions:
            variants, missing = anki_variants(question)
            cards += variants
            if missing:
                left_out.append((question.id, variants_note(variants, missing)))
        shown.append((deck, cards))
    every = [q for _, qs in shown for q in qs]
    derived = derived_values(every, use_cache=use_cache) if evaluate else {}
    planned, new, changed = _plan(shown, derived, earlier, order)
    anki_decks = []
    for deck in decks:
        anki_deck = genanki.Deck(
            anki_deck_id(deck.id), anki_deck_name(deck), description=anki_deck_description(deck)
        )
        anki_deck.add_model(model)
        anki_decks.append(anki_deck)
    # Ids (Anki's creation times, in ms) start from the newest note's time: deterministic too.
    ids = itertools.count(max((n.mtime for n in planned), default=CARD_FORMAT_MTIME) * 1000)
    # genanki's own write_to_file leaves its temporary database behind; this does not.
    with tempfile.TemporaryDirectory() as scratch:
        db_path = Path(scratch) / "collection.anki2"
        conn = sqlite3.connect(db_path)
        try:
            cursor = conn.cursor()
            # The decks and the note type (dated ANKI_MODEL_MTIME), then each note at its time.
            genanki.Package(anki_decks).write_to_db(cursor, ANKI_MODEL_MTIME, ids)
            for note in planned:
                genanki.Note(
                    model=model,
                    fields=note.fields,
                    guid=anki_guid(note.note_id),
                    tags=note.tags,
                    due=note.position,
                ).write_to_db(cursor, note.mtime, note.deck_id, ids)
            conn.commit()
        finally:
            conn.close()
        write_output(Path(out), lambda handle: _zip_collection(handle, db_path), replace=replace)
    return AnkiSummary(
        notes=len(planned),
        decks=len(decks),
        new=new,
        changed=changed,
        previous=Path(previous) if previous is not None else None,
        left_out=tuple(left_out),
    )


def write_anki(
    decks: Sequence[Deck],
    out: str | Path,
    *,
    evaluate: bool = True,
    replace: bool = False,
    previous: str | Path | None = None,
    use_cache: bool = True,
) -> int:
    """`write_anki_package`, returning the note count."""
    summary = write_anki_package(
        decks, out, evaluate=evaluate, replace=replace, previous=previous, use_cache=use_cache
    )
    return summary.notes


def _zip_collection(handle: Any, db_path: Path) -> None:
    # Entries dated 1980-01-01, not by the clock: the same bank gives the same bytes.
    with zipfile.ZipFile(handle, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in (("collection.anki2", db_path.read_bytes()), ("media", b"{}")):
            archive.writestr(zipfile.ZipInfo(name), data, compress_type=zipfile.ZIP_DEFLATED)


__all__ = [
    "ANKI_CSS",
    "ANKI_FIELDS",
    "ANKI_MODEL_ID",
    "ANKI_MODEL_NAME",
    "CARD_FORMAT_MTIME",
    "AnkiSummary",
    "PreviousPackageError",
    "anki_deck_id",
    "anki_deck_name",
    "anki_guid",
    "derived_values",
    "note_mtime",
    "read_previous_notes",
    "write_anki",
    "write_anki_package",
]
