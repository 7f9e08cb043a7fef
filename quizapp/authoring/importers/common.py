"""What every importer shares: reading a bounded file, ids, and writing a deck that lints.

A reader (`gift`, `anki_text`, `apkg`, `quizapp_json`) turns its file into `Draft`s (a
question in bank form, not yet checked) and `Skipped` items (what it could not turn into a
question, with the reason). `build_deck` then does the rest the same way for all of them:

- every text is put in Unicode normal form C, as the loader reads it, and checked for
  control characters (a carriage return becomes a line break; any other C0 or C1 control
  character but tab and newline rejects the question: the bank format would keep it, and
  it must not reach a terminal);
- a question without an id gets one from its title or its first words, prefixed by the deck
  id and unique across the deck and the bank it joins; a given id that is taken, or repeated,
  rejects the question;
- the deck is loaded and linted as `quizapp lint --no-eval` would; a question with an error
  is reported with the error and left out, and the rest are linted again, so the deck that
  is written passes `quizapp lint` (warnings are allowed).
"""

from __future__ import annotations

import re
import tempfile
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from quizapp.authoring.csv_import import (
    CsvInputError,
    DeckInfo,
    check_deck,
    deck_header,
    default_deck_info,
    dump_question,
    lint_text,
)
from quizapp.bank import fields as F
from quizapp.bank.loader import MAX_FILE_BYTES
from quizapp.bank.text_checks import normal_text

# Bounds on untrusted input. A text source larger than this is not a quiz file; the deck it
# makes must also stay under the loader's own limit (quizapp.bank.loader.MAX_FILE_BYTES).
MAX_TEXT_BYTES = 16 * 1024 * 1024
MAX_ITEMS = 20_000
DEFAULT_DIFFICULTY = "medium"

__all__ = [
    "MAX_ITEMS",
    "MAX_TEXT_BYTES",
    "BuiltDeck",
    "CsvInputError",
    "DeckInfo",
    "Draft",
    "ImportInputError",
    "Skipped",
    "SourceResult",
    "build_deck",
    "check_deck",
    "count_line",
    "default_deck_info",
    "no_explanation",
    "read_text_file",
    "slugify",
    "tag_of",
]


class ImportInputError(Exception):
    """The file cannot be imported at all (exit 2, nothing written). One line."""


@dataclass(frozen=True)
class Skipped:
    """An item of the source that did not become a question, and why."""

    where: str  # "FILE:LINE" or "FILE: note 1234"
    reason: str

    def format(self, kind: str = "skipped") -> str:
        reason = " ".join(self.reason.replace("\r", " ").split("\n"))
        return f"{self.where}: {kind}: {reason}"


@dataclass
class Draft:
    """One question in bank form, not yet checked. Without an `id` key one is made from
    `id_hint` (a title or the first words of the prompt)."""

    where: str
    question: dict[str, Any]
    id_hint: str = ""


@dataclass
class SourceResult:
    """What a reader made of its file."""

    drafts: list[Draft] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    # Lossy conversions that still made a question (partial credit dropped, ...): warnings.
    notes: list[Skipped] = field(default_factory=list)
    title: str | None = None  # the deck title the source suggests
    description: str | None = None


@dataclass
class BuiltDeck:
    deck: DeckInfo
    text: str | None  # the deck file; None when no question survived
    imported: list[str] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)


def count_line(imported: int, skipped: int, notes: int) -> str:
    """The line every import report ends with, whatever the format: how many questions were
    imported, how many items skipped, and how many notes name content that was dropped
    ("38 imported, 3 skipped, 5 notes about dropped content"). Zeros are written too, so a
    reader (or a script) finds all three counts on every report."""
    about = "note" if notes == 1 else "notes"
    return f"{imported} imported, {skipped} skipped, {notes} {about} about dropped content"


# -- reading ----------------------------------------------------------------------------------


def read_text_file(path: Path, what: str) -> str:
    """A UTF-8 text file (a byte-order mark is fine), bounded. Raises ImportInputError."""
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_TEXT_BYTES + 1)
    except OSError as exc:
        raise ImportInputError(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(raw) > MAX_TEXT_BYTES:
        raise ImportInputError(
            f"{path} is larger than {MAX_TEXT_BYTES // (1024 * 1024)} MiB; "
            f"that is not a {what} file quizapp imports"
        )
    if b"\x00" in raw:
        raise ImportInputError(f"{path} is a binary file, not {what} text")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise ImportInputError(
            f"{path} is not UTF-8 text (byte 0x{raw[exc.start]:02x} on line {line}); "
            "save it as UTF-8"
        ) from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


# -- names ------------------------------------------------------------------------------------


def slugify(text: str, limit: int = F.ID_MAX_LENGTH) -> str:
    """Lowercase ASCII words joined by `-` (a valid id or tag), at most `limit` characters."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    slug = re.sub(r"[^a-z0-9]+", "-", folded.lower()).strip("-")
    return slug[:limit].strip("-")


def tag_of(text: str) -> str | None:
    """A tag made from a free-form name (an Anki tag `Chapter::One` → `chapter-one`)."""
    return slugify(text, 40) or None


def _words(text: str, count: int = 6) -> str:
    return " ".join(re.findall(r"[^\W_]+", text)[:count])


def no_explanation(what: str) -> str:
    """The explanation of a question whose source gave none (the field is required)."""
    return f"*No explanation came with this question ({what}).*"


# -- text safety ------------------------------------------------------------------------------

# C0 and C1 controls and DEL, but tab and line feed.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _clean(value: Any, path: str) -> Any:
    """`value` with CR/CRLF made LF and NFC in every string, as the loader keeps text. Raises
    ValueError naming the field of a string with another control character."""
    if isinstance(value, str):
        value = normal_text(value.replace("\r\n", "\n").replace("\r", "\n"))
        bad = _CONTROL.search(value)
        if bad:
            raise ValueError(
                f"the {path} contains the control character U+{ord(bad.group()):04X}, "
                "which quizapp does not import"
            )
        return value
    if isinstance(value, Mapping):
        return {k: _clean(v, k if isinstance(k, str) else path) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_clean(v, path) for v in value]
    return value


# -- building the deck ------------------------------------------------------------------------


def _unique_id(deck_id: str, hint: str, used: set[str], taken: Mapping[str, str]) -> str:
    words = slugify(_words(hint), 40)
    base = f"{deck_id}-{words}" if words else f"{deck_id}-q"
    base = base[: F.ID_MAX_LENGTH - 4].strip("-")
    candidate, n = base, 1
    while candidate in used or candidate in taken:
        n += 1
        candidate = f"{base}-{n}"
    return candidate


def build_deck(
    source: SourceResult,
    deck: DeckInfo,
    *,
    taken_ids: Mapping[str, str] | None = None,
) -> BuiltDeck:
    """Check every draft, give it an id, and render the deck that lints (module docstring)."""
    taken = taken_ids or {}
    built = BuiltDeck(deck=deck, text=None, skipped=list(source.skipped))
    used: set[str] = set()
    first_at: dict[str, str] = {}
    accepted: list[tuple[Draft, dict[str, Any]]] = []
    for draft in source.drafts:
        try:
            question = _clean(draft.question, "text")
        except ValueError as exc:
            built.skipped.append(Skipped(draft.where, str(exc)))
            continue
        qid = question.get("id")
        if qid is None:
            qid = _unique_id(deck.id, draft.id_hint or str(question.get("prompt", "")), used, taken)
            question = {"id": qid, **question}
        elif qid in first_at:
            built.skipped.append(
                Skipped(draft.where, f"duplicate id '{qid}' (first at {first_at[qid]})")
            )
            continue
        elif qid in taken:
            built.skipped.append(
                Skipped(
                    draft.where,
                    f"id '{qid}' is already used in {taken[qid]} "
                    "(import into another bank with --bank/--no-default-bank)",
                )
            )
            continue
        if not question.get("tags"):
            question["tags"] = [deck.topic]
        question.setdefault("difficulty", DEFAULT_DIFFICULTY)
        question = _in_bank_order(question)
        used.add(str(qid))
        first_at[str(qid)] = draft.where
        accepted.append((draft, question))

    with tempfile.TemporaryDirectory(prefix="quizapp-import-") as scratch:
        kept, rejected = _lint_until_clean(deck, accepted, Path(scratch))
    built.skipped.extend(rejected)
    built.skipped.sort(key=lambda s: report_order(s.where))
    if kept:
        built.text = _render(deck, [q for _, q in kept])
        built.imported = [str(q["id"]) for _, q in kept]
    return built


_KEY_ORDER = [
    "id",
    "type",
    "difficulty",
    "tags",
    "topic",
    "source",
    "prompt",
    "vary",
    "shuffle",
    "choices",
    "answer",
    "why_true",
    "why_false",
    "traps",
    "steps",
    "back",
    "explanation",
    "compute",
]


def _in_bank_order(question: Mapping[str, Any]) -> dict[str, Any]:
    """The keys in the order the bundled files write them (any others after)."""
    ordered = {key: question[key] for key in _KEY_ORDER if key in question}
    return ordered | {k: v for k, v in question.items() if k not in ordered}


def report_order(where: str) -> tuple[str, int]:
    """Sorts report lines by file, then line or note number."""
    match = re.search(r"(?::|: note |: question )(\d+)", where)
    return (where[: match.start()] if match else where, int(match.group(1)) if match else 0)


def _render(deck: DeckInfo, questions: Iterable[Mapping[str, Any]]) -> str:
    return deck_header(deck) + "questions:\n" + "\n".join(dump_question(q) for q in questions)


def _lint_until_clean(
    deck: DeckInfo, accepted: list[tuple[Draft, dict[str, Any]]], scratch: Path
) -> tuple[list[tuple[Draft, dict[str, Any]]], list[Skipped]]:
    """Lint the whole deck; leave out each question an error points into, and lint again.

    Each round removes at least one question or ends, so this stops; usually one round does.
    """
    rejected: list[Skipped] = []
    kept = list(accepted)
    header = deck_header(deck) + "questions:\n"
    while kept:
        chunks = [dump_question(q) for _, q in kept]
        size = len((header + "\n".join(chunks)).encode("utf-8"))
        if size > MAX_FILE_BYTES:
            raise ImportInputError(
                f"the deck would be {size:,} bytes, and a bank file holds at most "
                f"{MAX_FILE_BYTES:,}: split the source into smaller files"
            )
        starts: list[int] = []
        line = header.count("\n") + 1
        for chunk in chunks:
            starts.append(line)
            line += chunk.count("\n") + 1  # the blank line between questions
        loaded, errors = lint_text(header + "\n".join(chunks), scratch)
        if not errors:
            if loaded is None or len(loaded.questions) != len(kept):
                raise RuntimeError("the imported deck does not load all its questions")
            return kept, rejected
        by_question: dict[int, list[str]] = {}
        for error in errors:
            index = _chunk_at(starts, error.line)
            if index is None:
                raise ImportInputError(f"the deck metadata is not valid: {error.message}")
            by_question.setdefault(index, [])
            if error.message not in by_question[index]:
                by_question[index].append(error.message)
        for index in sorted(by_question, reverse=True):
            draft, _ = kept.pop(index)
            rejected.append(Skipped(draft.where, "; ".join(by_question[index])))
    return kept, rejected


def _chunk_at(starts: list[int], line: int) -> int | None:
    if not starts or line < starts[0]:
        return None
    index = 0
    for n, start in enumerate(starts):
        if start <= line:
            index = n
    return index
