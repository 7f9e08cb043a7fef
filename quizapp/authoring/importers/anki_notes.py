"""Anki notes, from a text export or an .apkg, as quizapp questions.

- A note of quizapp's own note type (a `QuizappId` field, as `quizapp export --format anki`
  writes) comes back as the question it was made from (quizapp.authoring.importers.quizapp_card).
- A Cloze or Image Occlusion note is skipped: quizapp has no cloze type.
- Any other note becomes a flashcard: the Front and Back fields (or the first two fields of a
  note type without them) are its two sides, and the note's other non-empty fields, each
  under its name, its explanation. A note with nothing else gets a line saying where it came
  from, since every quizapp question has an explanation.

HTML fields become Markdown text (quizapp.authoring.importers.html_text); images and
`[sound:...]` references are left out, so a side that was only media is empty and the note
is skipped. Anki tags become quizapp tags (`Chapter::One` → `chapter-one`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from quizapp.authoring.importers.common import Draft, Skipped, no_explanation, tag_of
from quizapp.authoring.importers.html_text import html_to_markdown
from quizapp.authoring.importers.quizapp_card import CardError, question_from_card
from quizapp.bank import fields as F

QUIZAPP_ID_FIELD = "QuizappId"
_SOUND = re.compile(r"\[sound:[^\]]*\]")
_ID = re.compile(F.ID_PATTERN)
# Fields that switch cards on or off rather than hold text.
_SWITCH_FIELDS = frozenset({"add reverse"})


@dataclass
class AnkiNote:
    where: str  # "FILE:LINE" or "FILE: note 1234"
    fields: Sequence[str]
    field_names: Sequence[str | None] = ()  # unknown for a text export without #columns
    notetype: str | None = None
    is_cloze: bool = False
    tags: Sequence[str] = ()
    deck: str | None = None
    html: bool = True
    extra_tags: list[str] = field(default_factory=list)


def deck_title(name: str) -> str:
    """The last part of an Anki deck name: `quizapp::Multi-head attention` → its title."""
    return name.replace("\x1f", "::").split("::")[-1].strip() or name


def _text(raw: str, html: bool) -> str:
    raw = _SOUND.sub("", raw)
    return html_to_markdown(raw) if html else raw.strip()


def note_draft(note: AnkiNote) -> Draft | Skipped:
    names = list(note.field_names) + [None] * (len(note.fields) - len(note.field_names))
    by_name = {name: value for name, value in zip(names, note.fields, strict=False) if name}
    notetype = note.notetype or "Basic"
    tags = [t for t in (tag_of(tag) for tag in [*note.tags, *note.extra_tags]) if t]
    tags = list(dict.fromkeys(tags))
    if note.is_cloze or re.match(r"(?i)^(cloze|image occlusion)\b", notetype):
        return Skipped(note.where, f"a {notetype} note: quizapp has no cloze type")

    if QUIZAPP_ID_FIELD in by_name or notetype.startswith("quizapp question"):
        return _quizapp_note(note, by_name, tags)

    if "Front" in by_name and "Back" in by_name:
        front, back = by_name["Front"], by_name["Back"]
        others = [
            (n, v) for n, v in zip(names, note.fields, strict=False) if n not in ("Front", "Back")
        ]
    elif len(note.fields) >= 2:
        front, back = note.fields[0], note.fields[1]
        others = list(zip(names[2:], note.fields[2:], strict=False))
    else:
        return Skipped(note.where, "the note has one field; a flashcard needs a front and a back")
    front_text, back_text = _text(front, note.html), _text(back, note.html)
    if not front_text:
        return Skipped(note.where, "the front is empty (images and sounds are not imported)")
    if not back_text:
        return Skipped(note.where, "the back is empty (images and sounds are not imported)")
    extras = []
    for name, value in others:
        if name and name.lower() in _SWITCH_FIELDS:
            continue
        text = _text(value, note.html)
        if text:
            extras.append(f"**{name}:** {text}" if name else text)
    where = f"note type '{notetype}'" + (f", deck '{note.deck}'" if note.deck else "")
    question = {
        "type": "flashcard",
        "tags": tags,
        "prompt": front_text,
        "back": back_text,
        "explanation": "\n\n".join(extras) or no_explanation(f"imported from Anki: {where}"),
    }
    return Draft(note.where, question, front_text)


def _quizapp_note(note: AnkiNote, by_name: dict[str, str], tags: list[str]) -> Draft | Skipped:
    if not note.html:
        return Skipped(
            note.where,
            "a quizapp card exported without HTML, which holds its structure "
            "(export the notes again with HTML included)",
        )
    fields = list(note.fields)
    front = by_name.get("Front", fields[0] if fields else "")
    back = by_name.get("Back", fields[1] if len(fields) > 1 else "")
    qid = _text(by_name.get(QUIZAPP_ID_FIELD, fields[2] if len(fields) > 2 else ""), True)
    try:
        question = question_from_card(front, back)
    except CardError as exc:
        return Skipped(note.where, f"a quizapp card that does not read back: {exc}")
    if _ID.match(qid) and len(qid) <= F.ID_MAX_LENGTH:
        question["id"] = qid
    question["tags"] = tags
    return Draft(note.where, question, qid or question["prompt"])


__all__ = ["QUIZAPP_ID_FIELD", "AnkiNote", "deck_title", "note_draft"]
