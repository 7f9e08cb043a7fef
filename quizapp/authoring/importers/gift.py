r"""Moodle GIFT, the plain-text quiz format Moodle (and most LMSs) import and export.

The grammar, as Moodle documents it (the examples are quizapp's own):

    // A comment line. In a question's comments [tag:NAME] adds a tag, [id:NAME] names it.
    $CATEGORY: $course$/top/Attention

    ::Heads::[markdown]How many heads does the *base* model use?{
      =8     #Right: 512 / 64 = 8.
      ~4     #That is half of them.
      ~16
      ####The base model splits its 512 dimensions into 8 heads of 64.
    }

- Questions are separated by blank lines; a line starting with `//` is a comment.
  `$CATEGORY: a/b/c` puts the questions after it in a category; quizapp tags them `c`.
- `::title::` names a question. `[html]`, `[markdown]`, `[moodle]` or `[plain]` before a text
  gives its format; answers and feedback take the question text's format unless they give
  their own. HTML becomes text (quizapp.authoring.importers.html_text), and so does HTML in
  Moodle's auto-format (the default); plain text and Markdown are kept as written.
- The answer block `{...}` decides the type:

    {=right ~wrong ~wrong}          multiple choice, one answer: single_choice. A `~%50%`
                                    option gets partial credit in Moodle; quizapp has none,
                                    so it is wrong here (reported as a note)
    {~%50%a ~%50%b ~%-100%c}        multiple answers (weights, no `=`): multiple_choice, the
                                    options with a positive weight are the correct ones; a
                                    penalty (a negative weight) is a note, its option wrong
    {T} {TRUE} {F} {FALSE}          true/false; `{T#if answered wrongly#if answered rightly}`
    {#8:0.5} {#7.5..8.5}            numeric, with a tolerance or as a range
    {#=8:0 =%0%16#why ~#wrong}      numeric with several answers: the full-credit one is the
                                    key, a 0% one with feedback a trap (a known wrong answer)
    {=one =other}                   short answer: skipped (quizapp has no free-text type)
    {=a -> x =b -> y =c -> z}       matching: skipped
    {}                              essay: skipped. Text with no block is a description:
                                    skipped too.

- `#text` after an answer is its feedback (a choice's `why`); `####text` at the end of the
  block is the general feedback, which becomes the explanation.
- Text after the block makes a missing-word question: the block's place shows `_____`.
- `\~ \= \# \{ \} \:` and `\\` write the character itself, `\n` a line break.
- What does not make it into the bank is a note at the question's FILE:LINE: penalties, what
  HTML loses (importers.html_losses), Moodle's files, unknown [format]s, an invalid [id:].
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
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
    tag_of,
)
from quizapp.authoring.importers.html_losses import file_references, html_losses
from quizapp.authoring.importers.html_text import html_to_markdown, looks_like_html
from quizapp.bank import fields as F
from quizapp.bank.variants import PLACEHOLDER

# Escaped characters stand in as private-use characters while the block is parsed, so that
# `\{` can never open an answer block; `restore` turns them back afterwards.
_ESCAPABLE = "\\:#={}~"
_PLACEHOLDER = {char: chr(0xF0000 + n) for n, char in enumerate(_ESCAPABLE)}
_RESTORE = str.maketrans({v: k for k, v in _PLACEHOLDER.items()})
_ESCAPE = re.compile(r"\\([\\:#={}~n])")
_FORMATS = ("html", "markdown", "moodle", "plain")
_WEIGHT = re.compile(r"^%(-?\d{1,3}(?:\.\d*)?)%")
_NUMBER = re.compile(r"^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$")
_TRUE_FALSE = {"T": True, "TRUE": True, "F": False, "FALSE": False}
BLANK = "_____"
_ID = re.compile(F.ID_PATTERN)


class _Skip(Exception):
    """This question is skipped; the message says why."""


@dataclass
class _Block:
    line: int
    text: str
    comments: list[str] = field(default_factory=list)


def _escape(text: str) -> str:
    return _ESCAPE.sub(lambda m: "\n" if m.group(1) == "n" else _PLACEHOLDER[m.group(1)], text)


def restore(text: str) -> str:
    return text.translate(_RESTORE)


def _blocks(text: str) -> Iterator[_Block]:
    """The questions' texts: runs of lines between blank lines, comment lines set aside."""
    block: _Block | None = None
    comments: list[str] = []
    for number, line in enumerate(text.split("\n"), start=1):
        stripped = line.strip()
        if not stripped:
            if block is not None:
                yield block
            block, comments = None, []
            continue
        if stripped.startswith("//"):
            comments.append(stripped[2:])
            if block is not None:
                block.comments.append(stripped[2:])
            continue
        if block is None:
            block = _Block(number, line, list(comments))
        else:
            block.text += "\n" + line
    if block is not None:
        yield block


def _with_format(raw: str, default: str, lost: list[str], part: str) -> tuple[str, str]:
    """`[format]text` → (text as Markdown, format). Escapes are restored here, last. What the
    conversion leaves out is added to `lost`, each phrase starting with `part` ("option 2")."""
    raw = raw.strip()
    fmt = default
    match = re.match(r"\[([^\]]*)\]", raw)
    if match and match.group(1) in _FORMATS:
        fmt = match.group(1)
        raw = raw[match.end() :]
    elif match and re.fullmatch(r"[a-z]+", match.group(1)):
        lost.append(
            f"{part}: [{match.group(1)}] is not a GIFT text format (html, markdown, moodle, "
            "plain), so it stays in the text, as Moodle keeps it"
        )
    text = restore(raw)
    lost.extend(f"{part}: {phrase}" for phrase in file_references(text))
    # Moodle's own auto-format (the default) lets HTML through too; plain text never does.
    if fmt == "html" or (fmt == "moodle" and looks_like_html(text)):
        lost.extend(f"{part}: left out of the HTML: {phrase}" for phrase in html_losses(text))
        text = html_to_markdown(text)
    return text.strip(), fmt


def _number(text: str) -> int | float:
    text = text.strip()
    if not _NUMBER.match(text):
        raise _Skip(f"'{restore(text)}' is not a number")
    value = float(text)
    if not math.isfinite(value):
        raise _Skip(f"'{text}' is not a finite number")
    return int(value) if value.is_integer() and abs(value) < 2**53 else value


def _tidy(value: float) -> int | float:
    value = round(value, 12)  # (7.5 + 8.5) / 2 without binary noise
    return int(value) if float(value).is_integer() else value


@dataclass
class _Question:
    """What a block says, before it becomes a bank mapping."""

    origin: str  # FILE-NAME:LINE, for the deck's own text (the report names the path)
    title: str | None
    prompt: str
    fmt: str
    answers: str  # the block's content, escapes still standing in
    feedback: str | None  # the general feedback
    lost: list[str] = field(default_factory=list)  # what the texts' conversion left out


def parse_gift(text: str, source: str) -> SourceResult:
    """Read GIFT text (`source` names the file in reports)."""
    result = SourceResult()
    category: str | None = None
    for count, block in enumerate(_blocks(text), start=1):
        if count > MAX_ITEMS:
            raise ImportInputError(f"{source} has more than {MAX_ITEMS:,} questions")
        where = f"{source}:{block.line}"
        if any(ch in block.text for ch in _PLACEHOLDER.values()):
            result.skipped.append(Skipped(where, "the text holds a private-use character"))
            continue
        body = _escape(block.text).strip()
        if body.startswith("$CATEGORY:"):
            first, _, rest = body.partition("\n")
            category = restore(first[len("$CATEGORY:") :]).strip()
            if not rest.strip():
                continue
            # Moodle would read the lines after it as part of the category's name; a question
            # written right under its category is meant as a question.
            block = _Block(block.line + 1, rest, block.comments)
            body, where = rest.strip(), f"{source}:{block.line}"
        try:
            question = _split(body, f"{Path(source).name}:{block.line}")
            mapping, notes = _mapping(question)
            _refuse_placeholders(mapping)
        except _Skip as skip:
            result.skipped.append(Skipped(where, str(skip)))
            continue
        mapping["tags"] = _tags(block.comments, category)
        given = _comment_value(block.comments, "id")
        if given and _ID.match(given) and len(given) <= F.ID_MAX_LENGTH:
            mapping = {"id": given, **mapping}
            if question.title and question.title != given:
                notes.append(f"the title '{question.title}' is left out: [id:{given}] names it")
        elif given:
            notes.append(
                f"[id:{given}] is not a quizapp id (lowercase letters, digits and hyphens, at "
                f"most {F.ID_MAX_LENGTH} characters), so the id is made from the "
                + ("title" if question.title else "text")
            )
        result.drafts.append(Draft(where, mapping, question.title or question.prompt))
        result.notes.extend(Skipped(where, note) for note in dict.fromkeys(notes))
    return result


def _texts(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from _texts(item)


def _refuse_placeholders(mapping: dict[str, Any]) -> None:
    """A literal `{name}` (written `\\{name\\}` in GIFT) would be read by quizapp as a
    placeholder of a parameterized question (`vary:`), which an import cannot make."""
    for text in _texts(mapping):
        match = next((m for m in PLACEHOLDER.finditer(text) if m.group(1)), None)
        if match:
            raise _Skip(
                f"the text holds the literal {match.group(0)}, which quizapp reads as a "
                "placeholder of a parameterized question (vary:), so it cannot be imported "
                "as written: reword it without the braces"
            )


def _comment_value(comments: list[str], key: str) -> str | None:
    for comment in comments:
        match = re.search(rf"\[{key}:((?:\\\]|[^\]])+)\]", comment)
        if match:
            return match.group(1).replace("\\]", "]")
    return None


def _tags(comments: list[str], category: str | None) -> list[str]:
    tags: list[str] = []
    for comment in comments:
        for match in re.finditer(r"\[tag:((?:\\\]|[^\]])+)\]", comment):
            tag = tag_of(match.group(1).replace("\\]", "]"))
            if tag and tag not in tags:
                tags.append(tag)
    if category:
        parts = [p for p in category.split("/") if p.strip() and not p.startswith("$")]
        if parts and parts[-1].strip().lower() != "top":
            tag = tag_of(parts[-1])
            if tag and tag not in tags:
                tags.append(tag)
    return tags


def _split(body: str, origin: str) -> _Question:
    title = None
    if body.startswith("::"):
        end = body.find("::", 2)
        if end == -1:
            raise _Skip("the title has no closing ::")
        title = restore(body[2:end]).strip() or None
        body = body[end + 2 :].strip()
    start, finish = body.find("{"), body.find("}")
    if start == -1 and finish == -1:
        raise _Skip("a description (text with no {answer block}), not a question")
    if finish == -1:
        raise _Skip("the answer block has no closing } (a question ends at a blank line)")
    if start == -1 or finish < start:
        raise _Skip("a } with no { before it (write \\} for a literal brace)")
    if body.find("{", start + 1, finish) != -1:
        raise _Skip("a { inside the answer block (write \\{ for a literal brace)")
    before, after = body[:start], body[finish + 1 :]
    answers = body[start + 1 : finish].strip()
    prompt_raw = before + BLANK + after if after.strip() else before  # missing word
    lost: list[str] = []
    prompt, fmt = _with_format(prompt_raw, "moodle", lost, "the question text")
    feedback = None
    split = answers.rfind("####")
    if split != -1:
        feedback, _ = _with_format(answers[split + 4 :], fmt, lost, "the general feedback")
        answers = answers[:split].strip()
    if not prompt:
        raise _Skip("the question has no text")
    return _Question(origin, title, prompt, fmt, answers, feedback or None, lost)


def _mapping(q: _Question) -> tuple[dict[str, Any], list[str]]:
    """The bank mapping of a question, and notes on what it could not keep."""
    mapping, notes = _typed(q)
    return mapping, [*q.lost, *notes]


def _typed(q: _Question) -> tuple[dict[str, Any], list[str]]:
    answers = q.answers
    if answers == "":
        raise _Skip("an essay question (an empty {}): quizapp has no free-text type")
    if answers.startswith("#"):
        return _numeric(q)
    if "~" in answers:
        return _choice(q)
    if "=" in answers and "->" in answers:
        raise _Skip("a matching question: quizapp has no matching type")
    head = answers.split("#", 1)[0].strip()
    if head in _TRUE_FALSE:
        return _true_false(q, _TRUE_FALSE[head]), []
    hint = ""
    if head.upper() in _TRUE_FALSE:
        hint = f" (GIFT reads only T, TRUE, F and FALSE as true/false, not '{head}')"
    raise _Skip(f"a short-answer question: quizapp has no free-text type{hint}")


def _base(q: _Question, qtype: str) -> dict[str, Any]:
    return {"type": qtype, "prompt": q.prompt}


def _explanation(q: _Question, extra: str | None = None) -> str:
    parts = [p for p in (q.feedback, extra) if p]
    if parts:
        return "\n\n".join(parts)
    return no_explanation(f"imported from GIFT, {q.origin}")


def _choice(q: _Question) -> tuple[dict[str, Any], list[str]]:
    single = "=" in q.answers
    items = q.answers.replace("=", "~=").split("~")
    if not items[0].strip():
        items = items[1:]
    notes: list[str] = []
    penalties: list[str] = []  # "option 3 (-100%)"
    choices: list[dict[str, Any]] = []
    for n, item in enumerate(items, start=1):
        item = item.strip()
        weight = 0.0
        if item.startswith("="):
            weight = 100.0
            item = item[1:].lstrip()
        if match := _WEIGHT.match(item):  # an explicit weight wins, after = too
            weight = float(match.group(1))
            item = item[match.end() :]
        text_raw, _, why_raw = item.partition("#")
        text, _ = _with_format(text_raw, q.fmt, q.lost, f"option {n}")
        why, _ = _with_format(why_raw, q.fmt, q.lost, f"option {n}'s feedback")
        if not text:
            raise _Skip(f"option {n} is empty")
        correct = weight >= 100 if single else weight > 0
        if single and 0 < weight < 100:
            notes.append(
                f"option {n} gets {weight:g}% partial credit in Moodle; quizapp has no "
                "partial credit, so it counts as wrong"
            )
        if weight < 0:
            penalties.append(f"option {n} ({weight:g}%)")
        choice: dict[str, Any] = {"text": text}
        if correct:
            choice["correct"] = True
        if why:
            choice["why"] = why
        choices.append(choice)
    right = sum(bool(c.get("correct")) for c in choices)
    if single and right > 1:
        raise _Skip(
            f"{right} options are marked = (right), but a single-choice question has one "
            "right option; for several, give weights instead (~%50%a ~%50%b ~c)"
        )
    if not single and right == 0:
        raise _Skip("no option has a positive weight, so none is correct")
    if penalties:
        notes.append(_penalty_note(penalties, single))
    question = _base(q, "single_choice" if single else "multiple_choice")
    question["choices"] = choices
    question["explanation"] = _explanation(q)
    return question, notes


def _penalty_note(penalties: list[str], single: bool) -> str:
    """What Moodle's negative weights become: quizapp has no partial credit, so a penalised
    option is simply a wrong one, and picking it makes the whole answer wrong."""
    which = ", ".join(penalties)
    if single:
        return (
            f"the penalty of {which} is left out: quizapp has no partial credit, and picking "
            "any wrong option of a single-choice question is simply wrong"
        )
    return (
        f"the penalty of {which}: quizapp scores a multiple-choice answer all or nothing, so "
        "picking a penalised option makes the answer wrong and picking only some right ones "
        "earns nothing (Moodle gives partial credit for both)"
    )


def _true_false(q: _Question, answer: bool) -> dict[str, Any]:
    parts = [*q.answers.split("#", 2), "", ""]
    wrong = _with_format(parts[1], q.fmt, q.lost, "the wrong answer's feedback")[0]
    right = _with_format(parts[2], q.fmt, q.lost, "the right answer's feedback")[0]
    question = _base(q, "true_false")
    question["answer"] = answer
    # Moodle shows the first feedback to a wrong answer and the second to a right one.
    why_true, why_false = (right, wrong) if answer else (wrong, right)
    if why_true:
        question["why_true"] = why_true
    if why_false:
        question["why_false"] = why_false
    question["explanation"] = _explanation(q)
    return question


@dataclass
class _NumericAnswer:
    weight: float
    value: int | float
    tolerance: int | float
    feedback: str


def _numeric_answer(item: str, fmt: str, lost: list[str], n: int) -> _NumericAnswer:
    weight = 100.0
    if match := _WEIGHT.match(item):
        weight = float(match.group(1))
        item = item[match.end() :]
    value_raw, _, feedback_raw = item.partition("#")
    feedback, _ = _with_format(feedback_raw, fmt, lost, f"answer {n}'s feedback")
    value_raw = restore(value_raw).strip()
    if value_raw == "*":
        raise _Skip("a numeric answer '*' (anything is right) has no key to check")
    low, dots, high = value_raw.partition("..")
    if dots and low.strip():
        lo, hi = _number(low), _number(high)
        if hi < lo:
            raise _Skip(f"the range {value_raw} ends below its start")
        value, tolerance = _tidy((lo + hi) / 2), _tidy((hi - lo) / 2)
    elif ":" in value_raw[1:]:
        key, _, margin = value_raw.rpartition(":")
        value, tolerance = _number(key), _number(margin)
        if tolerance < 0:
            raise _Skip(f"the tolerance in {value_raw} is negative")
    else:
        value, tolerance = _number(value_raw), 0
    return _NumericAnswer(weight, value, tolerance, feedback)


def _numeric(q: _Question) -> tuple[dict[str, Any], list[str]]:
    body = q.answers[1:]
    wrong_feedback = ""
    if "~" in body:
        body, _, rest = body.partition("~")
        wrong_feedback = _with_format(rest.partition("#")[2], q.fmt, [], "")[0]
    items = [i.strip() for i in body.split("=")]
    if items and not items[0]:
        items = items[1:]
    if not items:
        raise _Skip("the numeric question has no answer")
    answers = [_numeric_answer(item, q.fmt, q.lost, n) for n, item in enumerate(items, 1)]
    full = [a for a in answers if a.weight >= 100]
    if not full:
        raise _Skip("no numeric answer gets full credit, so there is no key")
    key = full[0]
    notes: list[str] = []
    traps: list[dict[str, Any]] = []
    for answer in answers:
        if answer is key:
            continue
        if answer.weight <= 0 and answer.feedback and answer.tolerance == 0:
            traps.append({"value": answer.value, "why": answer.feedback})
        elif answer.weight >= 100:
            notes.append(
                f"a second fully correct answer ({answer.value:g}) is left out: "
                "quizapp keeps one key"
            )
        else:
            notes.append(
                f"the answer {answer.value:g} ({answer.weight:g}% credit) is left out: "
                "quizapp has no partial credit, and a trap needs an exact value and feedback"
            )
    if wrong_feedback:
        notes.append("the feedback for any wrong answer (~#...) is left out")
    question = _base(q, "numeric")
    question["answer"] = {"value": key.value}
    if key.tolerance:
        question["answer"]["tolerance"] = key.tolerance
    if traps:
        question["traps"] = traps
    question["explanation"] = _explanation(q, key.feedback or None)
    return question, notes
