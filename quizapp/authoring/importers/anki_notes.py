"""Anki notes, from a text export or an .apkg, as quizapp questions.

- A note of quizapp's own note type (a `QuizappId` field, as `quizapp export --format anki`
  writes) comes back as the question it was made from (quizapp.authoring.importers.quizapp_card).
- A Cloze or Image Occlusion note is skipped: quizapp has no cloze type. So is any note whose
  fields hold cloze markup (`{{c1::...}}`), whatever its note type says: Anki's plain-text
  export without a note type column must not turn a cloze into a flashcard showing the markup.
- Any other note becomes a flashcard: the Front and Back fields (or the first two fields of a
  note type without them) are its two sides, and the note's other non-empty fields, each
  under its name, its explanation. A note with nothing else gets a line saying where it came
  from, since every quizapp question has an explanation.
- A reversed card ("Basic (and reversed card)", "Basic (optional reversed card)" with its
  Add Reverse field filled, or, in a package, any note whose second card asks for the Back)
  becomes a second flashcard with the sides swapped: the bank has no `reversed` field, and
  a second card is what Anki's reverse is. Any other card of a note (a note type's third
  template) makes no question, and a note says so.

HTML fields become Markdown text (quizapp.authoring.importers.html_text). What that leaves
out is named in a note of the report, with the note id, the field and the text that was kept:
images (by file name), `[sound:...]` references (by file name), link addresses (the link
text is kept), scripts, styles and other dropped HTML (quizapp.authoring.importers.html_losses).
A side that was only media is empty, so the note is skipped, naming the media. Non-empty
fields of a quizapp card that the card does not read are named too. Anki tags become quizapp
tags (`Chapter::One` → `chapter-one`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from html.parser import HTMLParser

from quizapp.authoring.importers.common import Draft, Skipped, no_explanation, tag_of
from quizapp.authoring.importers.html_losses import html_losses
from quizapp.authoring.importers.html_text import html_to_markdown
from quizapp.authoring.importers.quizapp_card import CardError, question_from_card
from quizapp.bank import fields as F

QUIZAPP_ID_FIELD = "QuizappId"
_SOUND = re.compile(r"\[sound:([^\]]*)\]")
_CLOZE = re.compile(r"\{\{c\d+::")
_ID = re.compile(F.ID_PATTERN)
_IMAGES = re.compile(r"^(?:an|\d+) images?$")  # html_losses' phrase; named here by file instead
# Fields that switch cards on or off rather than hold text.
_SWITCH_FIELDS = frozenset({"add reverse"})
_REVERSED = re.compile(r"(?i)^basic \(and reversed card\)")
_OPTIONAL_REVERSED = re.compile(r"(?i)^basic \(optional reversed card\)")
_KEPT_SHOWN = 60  # characters of the kept text quoted in a note


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
    # A package knows the note's cards: True when one of them shows the Back as its question.
    has_reverse_card: bool = False
    # ... and the names of its other cards (a third template, say), which become nothing.
    other_cards: Sequence[str] = ()


@dataclass
class NoteResult:
    """What one note became: its flashcards (two for a reversed card), or the reason it was
    skipped, and a note for each field that lost something on the way."""

    drafts: list[Draft] = field(default_factory=list)
    skipped: Skipped | None = None
    notes: list[Skipped] = field(default_factory=list)


def deck_title(name: str) -> str:
    """The last part of an Anki deck name: `quizapp::Multi-head attention` → its title."""
    return name.replace("\x1f", "::").split("::")[-1].strip() or name


class _ImageNames(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.names: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "img":
            self.names.append(dict(attrs).get("src") or "(no src)")


def _quoted(names: list[str]) -> str:
    return ", ".join(repr(name) for name in names)


def _counted(names: list[str], what: str) -> str:
    article = "an" if what[0] in "aeiou" else "a"
    count = f"{article} {what}" if len(names) == 1 else f"{len(names)} {what}s"
    return f"{count} ({_quoted(names)})"


def media_losses(raw: str, html: bool) -> list[str]:
    """What converting a field leaves out, one phrase per kind: images and sounds by file
    name, then what html_losses names (link addresses, scripts, ...)."""
    phrases: list[str] = []
    if html:
        finder = _ImageNames()
        finder.feed(raw)
        finder.close()
        if finder.names:
            phrases.append(_counted(finder.names, "image"))
    sounds = _SOUND.findall(raw)
    if sounds:
        phrases.append(_counted(sounds, "sound"))
    if html:
        phrases.extend(p for p in html_losses(raw) if not _IMAGES.match(p))
    return phrases


def _text(raw: str, html: bool) -> str:
    raw = _SOUND.sub("", raw)
    return html_to_markdown(raw) if html else raw.strip()


def _loss_note(where: str, name: str | None, raw: str, html: bool, kept: str) -> Skipped | None:
    phrases = media_losses(raw, html)
    if not phrases:
        return None
    shown = " ".join(kept.split())
    shown = shown if len(shown) <= _KEPT_SHOWN else shown[: _KEPT_SHOWN - 1] + "…"
    field_name = f"the {name} field" if name else "a field"
    kept_text = f"the text kept: {shown!r}" if shown else "no text kept"
    return Skipped(where, f"{field_name}: left out {', '.join(phrases)}; {kept_text}")


def _is_reversed(note: AnkiNote, notetype: str, by_name: dict[str, str]) -> bool:
    if note.has_reverse_card or _REVERSED.match(notetype):
        return True
    if _OPTIONAL_REVERSED.match(notetype):
        switch = next((v for k, v in by_name.items() if k.lower() in _SWITCH_FIELDS), "")
        return bool(_text(switch, note.html))
    return False


def note_result(note: AnkiNote) -> NoteResult:
    """The flashcards (or quizapp question) a note becomes, or why it is skipped."""
    names = list(note.field_names) + [None] * (len(note.fields) - len(note.field_names))
    by_name = {name: value for name, value in zip(names, note.fields, strict=False) if name}
    notetype = note.notetype or "Basic"
    tags = [t for t in (tag_of(tag) for tag in [*note.tags, *note.extra_tags]) if t]
    tags = list(dict.fromkeys(tags))
    if note.is_cloze or re.match(r"(?i)^(cloze|image occlusion)\b", notetype):
        return NoteResult(
            skipped=Skipped(note.where, f"a {notetype} note: quizapp has no cloze type")
        )
    if any(_CLOZE.search(value) for value in note.fields):
        return NoteResult(
            skipped=Skipped(
                note.where,
                "a cloze note (its text holds {{c1::...}} deletions): quizapp has no cloze type",
            )
        )

    if QUIZAPP_ID_FIELD in by_name or notetype.startswith("quizapp question"):
        return _quizapp_note(note, names, by_name, tags)

    if "Front" in by_name and "Back" in by_name:
        front_name: str | None = "Front"
        back_name: str | None = "Back"
        front, back = by_name["Front"], by_name["Back"]
        others = [
            (n, v) for n, v in zip(names, note.fields, strict=False) if n not in ("Front", "Back")
        ]
    elif len(note.fields) >= 2:
        front_name, back_name = names[0], names[1]
        front, back = note.fields[0], note.fields[1]
        others = list(zip(names[2:], note.fields[2:], strict=False))
    else:
        return NoteResult(
            skipped=Skipped(
                note.where, "the note has one field; a flashcard needs a front and a back"
            )
        )
    front_text, back_text = _text(front, note.html), _text(back, note.html)
    for side, raw, text in (("front", front, front_text), ("back", back, back_text)):
        if not text:
            lost = media_losses(raw, note.html)
            held = f" but {', '.join(lost)}" if lost else ""
            return NoteResult(
                skipped=Skipped(
                    note.where,
                    f"the {side} holds no text{held} (images and sounds are not imported)",
                )
            )
    result = NoteResult()
    for name, raw, text in ((front_name, front, front_text), (back_name, back, back_text)):
        if loss := _loss_note(note.where, name, raw, note.html, text):
            result.notes.append(loss)
    extras = []
    for name, value in others:
        if name and name.lower() in _SWITCH_FIELDS:
            continue
        text = _text(value, note.html)
        if loss := _loss_note(note.where, name, value, note.html, text):
            result.notes.append(loss)
        if text:
            extras.append(f"**{name}:** {text}" if name else text)
    where = f"note type '{notetype}'" + (f", deck '{note.deck}'" if note.deck else "")
    explanation = "\n\n".join(extras) or no_explanation(f"imported from Anki: {where}")
    if note.other_cards:
        cards = ", ".join(repr(name) for name in note.other_cards)
        result.notes.append(
            Skipped(
                note.where,
                f"the note's other cards ({cards}) are left out: quizapp makes one flashcard "
                "of a note, and a second of its reverse",
            )
        )
    sides = [(front_text, back_text)]
    if _is_reversed(note, notetype, by_name):
        sides.append((back_text, front_text))
    for prompt, answer in sides:
        question = {
            "type": "flashcard",
            "tags": tags,
            "prompt": prompt,
            "back": answer,
            "explanation": explanation,
        }
        result.drafts.append(Draft(note.where, question, prompt))
    return result


def _quizapp_note(
    note: AnkiNote, names: list[str | None], by_name: dict[str, str], tags: list[str]
) -> NoteResult:
    if not note.html:
        return NoteResult(
            skipped=Skipped(
                note.where,
                "a quizapp card exported without HTML, which holds its structure "
                "(export the notes again with HTML included)",
            )
        )
    fields = list(note.fields)
    front = by_name.get("Front", fields[0] if fields else "")
    back = by_name.get("Back", fields[1] if len(fields) > 1 else "")
    qid = _text(by_name.get(QUIZAPP_ID_FIELD, fields[2] if len(fields) > 2 else ""), True)
    try:
        question = question_from_card(front, back)
    except CardError as exc:
        return NoteResult(
            skipped=Skipped(note.where, f"a quizapp card that does not read back: {exc}")
        )
    if _ID.match(qid) and len(qid) <= F.ID_MAX_LENGTH:
        question["id"] = qid
    question["tags"] = tags
    result = NoteResult(drafts=[Draft(note.where, question, qid or question["prompt"])])
    read = {"Front", "Back", QUIZAPP_ID_FIELD}
    for n, (name, value) in enumerate(zip(names, fields, strict=False)):
        known = name in read if name else n < 3
        if not known and _text(value, True):
            label = f"the {name} field" if name else f"field {n + 1}"
            result.notes.append(
                Skipped(note.where, f"{label} is not part of a quizapp card and was left out")
            )
    return result


__all__ = [
    "QUIZAPP_ID_FIELD",
    "AnkiNote",
    "NoteResult",
    "deck_title",
    "media_losses",
    "note_result",
]
