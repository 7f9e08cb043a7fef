"""Moodle XML, the question format Moodle exports by default (question/format/xml).

    <quiz>
      <question type="category"><category><text>$course$/top/Attention/Heads</text>...
      <question type="multichoice"><name>..</name><questiontext format="html">..
    </quiz>

Categories: the first level of a category path after its context (`$course$`, `$module$`,
`$system$`, `$cat1$`...), Moodle 4's `top` and Moodle 3's `Default for COURSE` is the deck;
each deeper level is a tag on the questions after it. `$course$/top/Attention/Heads` puts them in the deck `Attention`
with the tag `heads`. The category's `<idnumber>` is the deck id when it gives one (quizapp's
own export writes it), else the id comes from the name; its `<info>` is the deck description.
Questions before any category form one deck named after the file.

    multichoice   single_choice (<single>true</single>) or multiple_choice. A single choice's
                  100% option is its key; a multi-select's options with a positive fraction
                  are its keys. quizapp scores both all or nothing, so partial credit (a
                  single choice's 50% option, a multi-select's uneven weights) and penalties
                  (negative fractions) are dropped, each named in a note
    truefalse     true_false: the answers' feedback become why_true and why_false
    numerical     numeric: the first 100% answer is the key, with its tolerance; a 0% answer
                  with feedback and no tolerance is a trap; others are named in a note. The
                  unit of multiplier 1 is the answer's unit; other units are named in a note
    shortanswer   numeric when its 100% answer is a number (tolerance 0); else skipped
    ordering      ordering: the answers in their order (their fractions number them), each
                  answer's feedback the step's why
    description   skipped: text shown between questions, with nothing to answer

Every other type (essay, matching, cloze, calculated*, ddwtos, gapselect, ddmarker...) is
skipped with the reason (Moodle exports `match` as `matching` and `multianswer` as `cloze`;
both spellings are read). `<generalfeedback>` is the explanation; each answer's `<feedback>`
its option's why. `<idnumber>` (slugified) is the question id, else one is made from `<name>`.
`<tags>` are tags. HTML texts become Markdown (quizapp.authoring.importers.html_text);
`markdown`, `plain_text` and `wiki_like` texts are kept as written. Images, media and
`@@PLUGINFILE@@` files (`<file>` elements) are left out, and so are hints and the combined
correct/incorrect feedback; each is named in a note.

The file is untrusted: quizapp.authoring.importers.safe_xml bounds its size, nesting and
element count and parses it with defusedxml, a DOCTYPE refused outright (so no entity is
ever expanded and nothing external is fetched: no billion laughs, no XXE).
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from quizapp.authoring.importers.common import (
    MAX_ITEMS,
    Draft,
    ImportInputError,
    Skipped,
    SourceResult,
    no_explanation,
    slugify,
    tag_of,
)
from quizapp.authoring.importers.html_text import html_to_markdown, looks_like_html
from quizapp.authoring.importers.safe_xml import MAX_XML_BYTES, parse_xml
from quizapp.bank import fields as F

_UNREPRESENTABLE = {
    "essay": "an essay question: quizapp has no free-text type",
    "matching": "a matching question: quizapp has no matching type",  # `match`, as exported
    "match": "a matching question: quizapp has no matching type",
    "randomsamatch": "a random short-answer matching question: quizapp has no matching type",
    "cloze": "a cloze (embedded answers) question: quizapp has no cloze type",  # multianswer
    "multianswer": "a cloze (embedded answers) question: quizapp has no cloze type",
    "calculated": "a calculated question: quizapp has no Moodle formulas "
    "(a compute: question is quizapp's way)",
    "calculatedsimple": "a simple calculated question: quizapp has no Moodle formulas "
    "(a compute: question is quizapp's way)",
    "calculatedmulti": "a calculated multichoice question: quizapp has no Moodle formulas "
    "(a compute: question is quizapp's way)",
    "ddwtos": "a drag-and-drop into text question: quizapp has no drag-and-drop type",
    "ddimageortext": "a drag-and-drop onto image question: quizapp has no drag-and-drop type",
    "ddmarker": "a drag-and-drop markers question: quizapp has no drag-and-drop type",
    "gapselect": "a select missing words question: quizapp has no gap-fill type",
    "random": "a random question (Moodle draws it from a category): nothing to import",
    "description": "a description (text shown between questions), not a question",
}
_MEDIA = re.compile(
    r"<(img|audio|video|source|embed|object|iframe)\b[^>]*?(?:src|data)\s*=\s*[\"']([^\"']*)",
    re.IGNORECASE,
)
_LINK = re.compile(r"<a\b[^>]*?href\s*=\s*[\"']([^\"']*)", re.IGNORECASE)
_NUMBER = re.compile(r"^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$")


class _Skip(Exception):
    """This question is skipped; the message says why."""


# -- texts ------------------------------------------------------------------------------------


@dataclass
class _Reader:
    """Reads one question's texts, collecting notes on what they lose."""

    default_format: str = "html"
    notes: list[str] = field(default_factory=list)

    def text(self, element: ET.Element | None, what: str, default_format: str | None = None) -> str:
        """The `<text>` of `element` as bank Markdown ('' when absent)."""
        if element is None:
            return ""
        fmt = element.get("format", default_format or self.default_format).strip()
        raw = (element.findtext("text") or "").strip()
        html = fmt not in ("markdown", "plain_text", "wiki_like")
        referenced: set[str] = set()
        if html:
            for tag, src in _MEDIA.findall(raw):
                referenced.add(src.rpartition("/")[2])
                self.notes.append(f"the {what}'s {tag.lower()} {src} is left out")
            for href in _LINK.findall(raw):
                referenced.add(href.rpartition("/")[2])
                self.notes.append(f"the {what}'s link to {href} is left out (its text is kept)")
        if "@@PLUGINFILE@@" in raw and not referenced:
            self.notes.append(f"the {what} refers to @@PLUGINFILE@@ files, which are left out")
        for file in element.findall("file"):
            name = file.get("name") or "unnamed"
            if name not in referenced:  # else named above already
                self.notes.append(f"the file {name} embedded in the {what} is left out")
        if html and (fmt == "html" or looks_like_html(raw)):
            return html_to_markdown(raw).strip()
        return raw


def _number(text: str) -> int | float:
    text = text.strip()
    if not _NUMBER.match(text):
        raise _Skip(f"'{text}' is not a number")
    value = float(text)
    if not math.isfinite(value):
        raise _Skip(f"'{text}' is not a finite number")
    return int(value) if value.is_integer() and abs(value) < 2**53 else value


def _fraction(answer: ET.Element) -> float:
    raw = answer.get("fraction", answer.findtext("fraction") or "0")
    try:
        value = float(raw)
    except ValueError:
        raise _Skip(f"the answer's fraction '{raw}' is not a number") from None
    if not math.isfinite(value) or abs(value) > 1000:
        raise _Skip(f"the answer's fraction '{raw}' is out of range")
    return value


# -- questions --------------------------------------------------------------------------------


@dataclass
class MoodleDeck:
    """The questions of one top-level category."""

    title: str | None  # None: the questions before any category
    deck_id: str | None
    description: str | None
    source: SourceResult


def read_moodle_xml(path: Path, name: str) -> list[MoodleDeck]:
    """The decks in the file, in the order their categories first appear."""
    root, lines = parse_xml(path)
    decks: dict[str | None, MoodleDeck] = {}
    current: str | None = None
    subtags: list[str] = []
    used_ids: set[str] = set()
    count = 0
    for element in root.findall("question"):  # as Moodle: only <quiz>'s own children
        where = f"{name}:{lines.get(id(element), 0)}"
        qtype = (element.get("type") or "").strip()
        if qtype == "category":
            current, subtags = _category(element, decks)
            continue
        count += 1
        if count > MAX_ITEMS:
            raise ImportInputError(f"{name} has more than {MAX_ITEMS:,} questions")
        deck = decks.setdefault(current, MoodleDeck(None, None, None, SourceResult()))
        source = deck.source
        try:
            draft, notes = _question(element, qtype, where, subtags, used_ids)
        except _Skip as skip:
            source.skipped.append(Skipped(where, str(skip)))
            continue
        source.drafts.append(draft)
        source.notes.extend(Skipped(where, note) for note in notes)
    return list(decks.values())


def _category(
    element: ET.Element, decks: dict[str | None, MoodleDeck]
) -> tuple[str | None, list[str]]:
    """The key in `decks` of the category's deck (None: the file's own deck), made on first
    sight, and the tags its deeper levels give."""
    raw = (element.findtext("category/text") or "").strip()
    # Moodle writes a / inside a name as //.
    parts = [p.replace("\x00", "/").strip() for p in raw.replace("//", "\x00").split("/")]
    parts = [p for p in parts if p and not (p.startswith("$") and p.endswith("$"))]
    # Moodle's own containers: 4.x's `top`, then 3.x's automatic `Default for COURSE`.
    if parts and parts[0].lower() == "top":
        parts = parts[1:]
    if len(parts) > 1 and parts[0].lower().startswith("default for "):
        parts = parts[1:]
    if not parts:
        return None, []  # `$course$/top` itself: the questions join the file's own deck
    title, rest = parts[0], parts[1:]
    given = (element.findtext("idnumber") or "").strip()
    valid = re.match(F.ID_PATTERN, given) and len(given) <= F.ID_MAX_LENGTH
    # Keyed by the deck id, so that two spellings of one name cannot make two decks (files).
    key = (given if valid else slugify(title)) or None
    if key not in decks:
        info = _Reader().text(element.find("info"), "category description") or None
        decks[key] = MoodleDeck(title if key else None, key, info, SourceResult())
    tags = [tag for part in rest if (tag := tag_of(part))]
    return key, tags


def _question(
    element: ET.Element, qtype: str, where: str, subtags: list[str], used_ids: set[str]
) -> tuple[Draft, list[str]]:
    if qtype in _UNREPRESENTABLE:
        raise _Skip(_UNREPRESENTABLE[qtype])
    handlers = {
        "multichoice": _multichoice,
        "truefalse": _truefalse,
        "numerical": _numerical,
        "shortanswer": _shortanswer,
        "ordering": _ordering,
    }
    if qtype not in handlers:
        raise _Skip(f"a '{qtype}' question: quizapp does not read this Moodle type")
    question_text = element.find("questiontext")
    reader = _Reader(question_text.get("format", "html") if question_text is not None else "html")
    prompt = reader.text(question_text, "question text")
    if not prompt:
        raise _Skip("the question has no text")
    name = (element.findtext("name/text") or "").strip()
    mapping: dict[str, Any] = {"type": "", "prompt": prompt}
    handlers[qtype](element, mapping, reader)
    explanation = reader.text(element.find("generalfeedback"), "general feedback")
    key_feedback = mapping.pop("_key_feedback", None)
    explanation = "\n\n".join(p for p in (explanation, key_feedback) if p)
    # The file's name, not its path: the text goes into the deck.
    origin = f"{Path(where.rsplit(':', 1)[0]).name}:{where.rsplit(':', 1)[1]}"
    mapping["explanation"] = explanation or no_explanation(f"imported from Moodle XML, {origin}")
    tags = list(subtags)
    for tag_text in element.findall("tags/tag/text"):
        tag = tag_of(tag_text.text or "")
        if tag and tag not in tags:
            tags.append(tag)
    if tags:
        mapping["tags"] = tags
    _left_out(element, reader)
    given = slugify((element.findtext("idnumber") or "").strip(), F.ID_MAX_LENGTH)
    if given and given in used_ids:
        reader.notes.append(f"the idnumber '{given}' is used twice; this one gets a new id")
    elif given:
        mapping = {"id": given, **mapping}
        used_ids.add(given)
    return Draft(where, mapping, name or prompt), reader.notes


def _left_out(element: ET.Element, reader: _Reader) -> None:
    hints = element.findall("hint")
    if hints:
        reader.notes.append(f"{len(hints)} hint(s) left out: quizapp has no hints")
    combined = [
        tag.replace("feedback", " feedback").replace("partially", "partially ")
        for tag in ("correctfeedback", "partiallycorrectfeedback", "incorrectfeedback")
        if (element.findtext(f"{tag}/text") or "").strip()
    ]
    if combined:
        verb = "is" if len(combined) == 1 else "are"
        reader.notes.append(f"the {', '.join(combined)} {verb} left out: quizapp has none")
    grade = (element.findtext("defaultgrade") or "1").strip()
    try:
        if float(grade) != 1 and float(grade) > 0:
            reader.notes.append(f"the default mark {grade} is left out: quizapp marks alike")
    except ValueError:
        pass


def _multichoice(element: ET.Element, mapping: dict[str, Any], reader: _Reader) -> None:
    single_text = (element.findtext("single") or "true").strip()
    single = single_text not in ("false", "0", "")
    choices: list[dict[str, Any]] = []
    fractions: list[float] = []
    for n, answer in enumerate(element.findall("answer"), start=1):
        text = reader.text(answer, f"option {n}")
        if not text:
            raise _Skip(f"option {n} is empty")
        fraction = _fraction(answer)
        why = reader.text(answer.find("feedback"), f"option {n}'s feedback")
        choice: dict[str, Any] = {"text": text}
        if fraction >= 100 if single else fraction > 0:
            choice["correct"] = True
        if why:
            choice["why"] = why
        choices.append(choice)
        fractions.append(fraction)
    if len(choices) < 2:
        raise _Skip(f"a multichoice question needs two options; it has {len(choices)}")
    right = sum(bool(c.get("correct")) for c in choices)
    partial = [f"option {n} {f:g}%" for n, f in enumerate(fractions, 1) if 0 < f < 100]
    penalties = [f"option {n} {f:g}%" for n, f in enumerate(fractions, 1) if f < 0]
    if single:
        if right == 0:
            raise _Skip("no option gets 100%, so none is the key")
        if right > 1:
            raise _Skip(f"{right} options get 100%; a single choice has one right option")
        if partial:
            reader.notes.append(
                f"partial credit ({', '.join(partial)}) is dropped: quizapp has no partial "
                "credit, so those options count as wrong"
            )
    else:
        if right == 0:
            raise _Skip("no option has a positive fraction, so none is correct")
        weights = {f for f in fractions if f > 0}
        if len(weights) > 1:
            reader.notes.append(
                f"the uneven weights ({', '.join(partial)}) are dropped: quizapp scores a "
                "multi-select all or nothing"
            )
    if penalties:
        reader.notes.append(
            f"the penalties ({', '.join(penalties)}) are dropped: quizapp scores a "
            f"{'single choice' if single else 'multi-select'} all or nothing"
        )
    mapping["type"] = "single_choice" if single else "multiple_choice"
    if (element.findtext("shuffleanswers") or "true").strip() in ("false", "0"):
        mapping["shuffle"] = False
    mapping["choices"] = choices


def _truefalse(element: ET.Element, mapping: dict[str, Any], reader: _Reader) -> None:
    answer: bool | None = None
    whys: dict[bool, str] = {}
    for n, item in enumerate(element.findall("answer")):
        word = (item.findtext("text") or "").strip().lower()
        value = {"true": True, "false": False}.get(word, n == 0)  # old files: true, then false
        why = reader.text(item.find("feedback"), f"'{word or value}' answer's feedback")
        if why:
            whys[value] = why
        if _fraction(item) >= 100:
            answer = value
    if answer is None:
        raise _Skip("neither true nor false gets 100%")
    mapping["type"] = "true_false"
    mapping["answer"] = answer
    for value, key in ((True, "why_true"), (False, "why_false")):
        if value in whys:
            mapping[key] = whys[value]


def _numeric_answers(
    element: ET.Element, mapping: dict[str, Any], reader: _Reader, *, tolerances: bool
) -> None:
    key: tuple[int | float, int | float] | None = None
    traps: list[dict[str, Any]] = []
    for answer in element.findall("answer"):
        raw = (answer.findtext("text") or "").strip()
        fraction = _fraction(answer)
        feedback = reader.text(answer.find("feedback"), f"answer {raw}'s feedback")
        if raw == "*":
            if feedback:
                reader.notes.append("the feedback for any other answer (*) is left out")
            continue
        value = _number(raw)
        tolerance = _number(answer.findtext("tolerance") or "0") if tolerances else 0
        if tolerance < 0:
            raise _Skip(f"the tolerance of {raw} is negative")
        if fraction >= 100 and key is None:
            key = (value, tolerance)
            if feedback:  # joins the explanation, as GIFT import does
                mapping["_key_feedback"] = feedback
        elif fraction <= 0 and feedback and tolerance == 0:
            traps.append({"value": value, "why": feedback})
        else:
            reader.notes.append(
                f"the answer {raw} ({fraction:g}%) is left out: quizapp keeps one key, and a "
                "trap is an exact wrong value with feedback"
            )
    if key is None:
        raise _Skip("no numeric answer gets 100%, so there is no key")
    mapping["type"] = "numeric"
    mapping["answer"] = {"value": key[0]}
    if key[1]:
        mapping["answer"]["tolerance"] = key[1]
    if traps:
        mapping["traps"] = traps


def _numerical(element: ET.Element, mapping: dict[str, Any], reader: _Reader) -> None:
    _numeric_answers(element, mapping, reader, tolerances=True)
    unit_text: str | None = None
    for unit in element.findall("units/unit"):
        name = (unit.findtext("unit_name") or "").strip()
        multiplier = (unit.findtext("multiplier") or "1").strip()
        try:
            is_base = float(multiplier) == 1
        except ValueError:
            is_base = False
        if is_base and unit_text is None and name:
            unit_text = name
        elif name:
            reader.notes.append(f"the unit {name} (× {multiplier}) is left out: quizapp keeps one")
    if unit_text:
        mapping["answer"]["unit"] = unit_text


def _shortanswer(element: ET.Element, mapping: dict[str, Any], reader: _Reader) -> None:
    full = [a for a in element.findall("answer") if _fraction(a) >= 100]
    if not full or not _NUMBER.match((full[0].findtext("text") or "").strip()):
        raise _Skip("a short-answer question: quizapp has no free-text type")
    _numeric_answers(element, mapping, reader, tolerances=False)
    reader.notes.append("a short answer with a number is read as a numeric question")


def _ordering(element: ET.Element, mapping: dict[str, Any], reader: _Reader) -> None:
    answers = element.findall("answer")
    try:
        positions = [float(a.get("fraction", "")) for a in answers]
        by_position = sorted(zip(positions, range(len(answers)), strict=True))
        answers = [answers[index] for _, index in by_position]
    except ValueError:
        pass  # unnumbered: the file's order is the key
    steps: list[Any] = []
    for n, answer in enumerate(answers, start=1):
        text = reader.text(answer, f"step {n}")
        if not text:
            raise _Skip(f"step {n} is empty")
        why = reader.text(answer.find("feedback"), f"step {n}'s feedback")
        steps.append({"text": text, "why": why} if why else text)
    if len(steps) < 2:
        raise _Skip(f"an ordering question needs two steps; it has {len(steps)}")
    select = (element.findtext("selecttype") or "ALL").strip().upper()
    if select not in ("ALL", "0", ""):
        reader.notes.append(f"Moodle shows a subset of the steps ({select}); quizapp shows all")
    grading = (element.findtext("gradingtype") or "ALL_OR_NOTHING").strip().upper()
    if grading not in ("ALL_OR_NOTHING", "0", ""):
        reader.notes.append(
            f"Moodle's partial grading ({grading}) is dropped: quizapp grades the whole order"
        )
    mapping["type"] = "ordering"
    mapping["steps"] = steps


__all__ = ["MAX_XML_BYTES", "MoodleDeck", "read_moodle_xml"]
