"""`quizapp export`: a bank as CSV, JSON or an Anki package.

CSV
    The columns `quizapp import` reads (see `quizapp.authoring.csv_import`), one row per
    question, so an export imports back to the same questions. A cell a spreadsheet would run
    as a formula (starting with = + - @, tab or CR) gets a leading `'`, which the importer
    takes off again (`quizapp.authoring.csv_cells`). A CSV carries no deck
    metadata: import it with `--deck-id/--title/--topic/--domain/--weight`. The `topic`
    column always holds the question's effective topic.

JSON
    A list of question objects, in bank order. Every object has every key of its type, with
    `null` for an absent optional value, so the shape is stable:

        id, type, deck (the deck id), topic (effective), difficulty, tags (list),
        source, prompt, explanation, compute ({name, args, expect: [{claim, says}]} or null),
        vary ({name: [values]}, {} when the question is not parameterized), and
        single_choice / multiple_choice: choices [{text, correct, why}], shuffle
        true_false:   answer (bool), why_true, why_false
        numeric:      answer {value, from, tolerance, relative_tolerance, unit},
                      traps [{value, why}]
        ordering:     steps [{text, why}] (in the correct order)
        flashcard:    back

    Strings are the bank's Markdown, unchanged. Drop the `null`s and `deck` and an object is a
    valid bank question again.

Anki (.apkg, written with genanki)
    One Anki deck per quizapp deck (named `quizapp::<title>`), one note per question with
    the fields Front, Back and QuizappId (the question id). Deck ids are derived from a hash
    of the quizapp deck id and the note type's id is fixed, note guids come from the question
    ids, so importing a re-export into Anki updates the notes instead of duplicating them.
    Tags are the question's tags. Markdown becomes simple HTML (paragraphs, lists, `code`,
    **bold**, *italic*, fenced code); everything else is escaped. An ordering question shows
    its steps in a fixed shuffled order on the front and in the correct order on the back.
    A numeric key written as `from:` is computed at export time (on the CPU); if that fails,
    the back names the computation instead. A parameterized question (`vary:`) becomes one
    fixed variant, chosen by its id.
"""

from __future__ import annotations

import csv
import hashlib
import html
import io
import itertools
import json
import random
import re
import sqlite3
import tempfile
import time
import zipfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from quizapp.authoring.csv_cells import guard_cell
from quizapp.authoring.expect_cell import format_expect_cell
from quizapp.authoring.output_file import check_output, write_output
from quizapp.bank.grading import format_number
from quizapp.bank.model import (
    Bank,
    ChoiceQuestion,
    ComputeSpec,
    Deck,
    Flashcard,
    NumericQuestion,
    OrderingQuestion,
    Question,
    TrueFalseQuestion,
)
from quizapp.bank.yaml12 import compose, scalar_value

EXPORT_FORMATS = ("csv", "json", "anki")


# -- the bank format, as plain data ---------------------------------------------------------


def question_mapping(question: Question, deck_topic: str | None = None) -> dict[str, Any]:
    """The question as the bank writes it: key order as in the bundled files, absent and
    default values left out. `topic` is written only when it differs from `deck_topic`."""
    out: dict[str, Any] = {
        "id": question.id,
        "type": question.type.value,
        "difficulty": question.difficulty.value,
        "tags": list(question.tags),
    }
    if question.topic != deck_topic:
        out["topic"] = question.topic
    if question.source is not None:
        out["source"] = question.source
    out["prompt"] = question.prompt
    if question.vary:
        out["vary"] = {name: list(values) for name, values in question.vary.items()}
    if isinstance(question, ChoiceQuestion):
        if not question.shuffle:
            out["shuffle"] = False
        out["choices"] = [
            {
                "text": c.text,
                **({"correct": True} if c.correct else {}),
                **({"why": c.why} if c.why is not None else {}),
            }
            for c in question.choices
        ]
    elif isinstance(question, TrueFalseQuestion):
        out["answer"] = question.answer
        for key in ("why_true", "why_false"):
            if getattr(question, key) is not None:
                out[key] = getattr(question, key)
    elif isinstance(question, NumericQuestion):
        a = question.answer
        answer = {"value": a.value, "from": a.from_value, "tolerance": a.tolerance}
        answer |= {"relative_tolerance": a.relative_tolerance, "unit": a.unit}
        out["answer"] = {k: v for k, v in answer.items() if v is not None}
        if question.traps:
            out["traps"] = [{"value": t.value, "why": t.why} for t in question.traps]
    elif isinstance(question, OrderingQuestion):
        out["steps"] = [
            s.text if s.why is None else {"text": s.text, "why": s.why} for s in question.steps
        ]
    elif isinstance(question, Flashcard):
        out["back"] = question.back
    out["explanation"] = question.explanation
    if question.compute is not None:
        out["compute"] = _compute_mapping(question.compute)
    return out


def _compute_mapping(compute: ComputeSpec) -> dict[str, Any]:
    out: dict[str, Any] = {"name": compute.name}
    if compute.args:
        out["args"] = dict(compute.args)
    if compute.expect:
        out["expect"] = [
            c.text if c.says is None else {"claim": c.text, "says": c.says} for c in compute.expect
        ]
    return out


# -- JSON -------------------------------------------------------------------------------------


def question_json(question: Question) -> dict[str, Any]:
    """The stable JSON object of one question (see the module docstring)."""
    out: dict[str, Any] = {
        "id": question.id,
        "type": question.type.value,
        "deck": question.deck_id,
        "topic": question.topic,
        "difficulty": question.difficulty.value,
        "tags": list(question.tags),
        "source": question.source,
        "prompt": question.prompt,
        "explanation": question.explanation,
        "compute": None if question.compute is None else _compute_json(question.compute),
        "vary": {name: list(values) for name, values in question.vary.items()},
    }
    if isinstance(question, ChoiceQuestion):
        out["choices"] = [
            {"text": c.text, "correct": c.correct, "why": c.why} for c in question.choices
        ]
        out["shuffle"] = question.shuffle
    elif isinstance(question, TrueFalseQuestion):
        out |= {"answer": question.answer, "why_true": question.why_true}
        out["why_false"] = question.why_false
    elif isinstance(question, NumericQuestion):
        a = question.answer
        out["answer"] = {
            "value": a.value,
            "from": a.from_value,
            "tolerance": a.tolerance,
            "relative_tolerance": a.relative_tolerance,
            "unit": a.unit,
        }
        out["traps"] = [{"value": t.value, "why": t.why} for t in question.traps]
    elif isinstance(question, OrderingQuestion):
        out["steps"] = [{"text": s.text, "why": s.why} for s in question.steps]
    elif isinstance(question, Flashcard):
        out["back"] = question.back
    return out


def _compute_json(compute: ComputeSpec) -> dict[str, Any]:
    return {
        "name": compute.name,
        "args": dict(compute.args),
        "expect": [{"claim": c.text, "says": c.says} for c in compute.expect],
    }


def json_to_mapping(obj: Mapping[str, Any]) -> dict[str, Any]:
    """A JSON question object back in bank form: `deck` and nulls dropped, defaults left out."""
    out: dict[str, Any] = {}
    for key, value in obj.items():
        if key == "deck" or value is None:
            continue
        if key == "shuffle" and value is True:
            continue
        if key in ("traps", "vary") and not value:
            continue
        if key == "compute":
            value = {k: v for k, v in value.items() if not (k in ("args", "expect") and not v)}
            if "expect" in value:
                value["expect"] = [
                    c["claim"] if c.get("says") is None else dict(c) for c in value["expect"]
                ]
        elif key == "answer" and isinstance(value, Mapping):
            value = {k: v for k, v in value.items() if v is not None}
        elif key == "choices":
            value = [
                {k: v for k, v in c.items() if v is not None and not (k == "correct" and not v)}
                for c in value
            ]
        elif key == "steps":
            value = [s["text"] if s.get("why") is None else dict(s) for s in value]
        out[key] = value
    return out


def export_json(questions: Iterable[Question]) -> str:
    return json.dumps([question_json(q) for q in questions], indent=2, ensure_ascii=False) + "\n"


# -- CSV --------------------------------------------------------------------------------------


def escape_item(text: str) -> str:
    """One item of a `|`-separated cell: backslashes and pipes escaped."""
    return text.replace("\\", "\\\\").replace("|", "\\|")


def join_items(items: Sequence[str]) -> str:
    return "|".join(escape_item(item) for item in items)


def format_csv_number(value: float) -> str:
    """A number as the importer reads it back exactly (YAML 1.2 number syntax)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return repr(float(value))


def format_arg(value: object) -> str:
    """A scalar (a compute argument, a vary value) written so that the importer reads back the
    same value and type: plain when that is unambiguous, else a double-quoted string."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return format_csv_number(value)
    text = str(value)
    if text and not re.search(r"[\s\"'=\\,\[\]{}#&*!|>%@`]", text):
        try:
            node = compose(text)
        except Exception:
            node = None
        if node is not None and getattr(node, "tag", None) == "tag:yaml.org,2002:str":
            try:
                if scalar_value(node) == text:
                    return text
            except ValueError:
                pass
    # JSON's string syntax is valid YAML double-quoted syntax.
    return json.dumps(text, ensure_ascii=False)


def format_compute(compute: ComputeSpec | None) -> str:
    if compute is None:
        return ""
    args = " ".join(f"{k}={format_arg(v)}" for k, v in compute.args.items())
    return f"{compute.name} {args}".strip()


def format_vary(vary: Mapping[str, Sequence[object]]) -> str:
    """`d_model: [256, 512], n_heads: [4, 8]`: a YAML flow mapping without its braces."""
    return ", ".join(
        f"{name}: [{', '.join(format_arg(v) for v in values)}]" for name, values in vary.items()
    )


def question_row(question: Question) -> dict[str, str]:
    """The CSV cells of one question (the importer's columns; empty cells left out)."""
    from quizapp.authoring.csv_import import COLUMNS

    row = dict.fromkeys(COLUMNS, "")
    row |= {
        "id": question.id,
        "type": question.type.value,
        "prompt": question.prompt,
        "explanation": question.explanation,
        "difficulty": question.difficulty.value,
        "tags": ";".join(question.tags),
        "topic": question.topic,
        "source": question.source or "",
        "compute": format_compute(question.compute),
        "vary": format_vary(question.vary),
        "expect": format_expect_cell(question.compute.expect) if question.compute else "",
    }
    if isinstance(question, ChoiceQuestion):
        row["choices"] = join_items([c.text for c in question.choices])
        row["correct"] = ";".join(str(i + 1) for i in sorted(question.correct_indices))
        if any(c.why is not None for c in question.choices):
            row["whys"] = join_items([c.why or "" for c in question.choices])
        if not question.shuffle:
            row["shuffle"] = "false"
    elif isinstance(question, TrueFalseQuestion):
        row["answer"] = "true" if question.answer else "false"
        row["why_true"] = question.why_true or ""
        row["why_false"] = question.why_false or ""
    elif isinstance(question, NumericQuestion):
        a = question.answer
        row["answer"] = "" if a.value is None else format_csv_number(a.value)
        row["answer_from"] = a.from_value or ""
        row["tolerance"] = "" if a.tolerance is None else format_csv_number(a.tolerance)
        if a.relative_tolerance is not None:
            row["relative_tolerance"] = format_csv_number(a.relative_tolerance)
        row["unit"] = a.unit or ""
        if question.traps:
            row["traps"] = "|".join(format_csv_number(t.value) for t in question.traps)
            row["trap_whys"] = join_items([t.why for t in question.traps])
    elif isinstance(question, OrderingQuestion):
        row["steps"] = join_items([s.text for s in question.steps])
        if any(s.why is not None for s in question.steps):
            row["whys"] = join_items([s.why or "" for s in question.steps])
    elif isinstance(question, Flashcard):
        row["back"] = question.back
    return row


def export_csv(questions: Iterable[Question]) -> str:
    """The questions as CSV, every cell a spreadsheet could run as a formula guarded with a
    leading `'` (see `quizapp.authoring.csv_cells`; the importer takes it off again)."""
    from quizapp.authoring.csv_import import COLUMNS

    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(COLUMNS), lineterminator="\n")
    writer.writeheader()
    for question in questions:
        writer.writerow({k: guard_cell(v) for k, v in question_row(question).items()})
    return buffer.getvalue()


# -- Markdown to HTML (just enough for Anki) --------------------------------------------------

_LIST_ITEM = re.compile(r"^\s{0,3}(?:(?P<bullet>[-*+])|(?P<number>\d{1,9})[.)])\s+(?P<text>.*)$")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.DOTALL)
_BOLD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*|__(?=\S)(.+?)(?<=\S)__", re.DOTALL)
_ITALIC = re.compile(r"(?<![*\w])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![*\w])", re.DOTALL)


def inline_html(text: str) -> str:
    """Escape `text` for HTML and render `code`, **bold** and *italic*."""
    parts: list[str] = []
    last = 0
    for match in _CODE_SPAN.finditer(text):
        parts.append(_emphasis(html.escape(text[last : match.start()], quote=False)))
        parts.append(f"<code>{html.escape(match.group(2).strip(), quote=False)}</code>")
        last = match.end()
    parts.append(_emphasis(html.escape(text[last:], quote=False)))
    return "".join(parts)


def _emphasis(escaped: str) -> str:
    escaped = _BOLD.sub(lambda m: f"<strong>{m.group(1) or m.group(2)}</strong>", escaped)
    return _ITALIC.sub(r"<em>\1</em>", escaped)


def markdown_to_html(text: str) -> str:
    """A small Markdown subset as HTML: paragraphs, `-`/`1.` lists, fenced code, inline marks.

    Everything is HTML-escaped first, so no text can inject markup.
    """
    out: list[str] = []
    paragraph: list[str] = []
    items: list[str] = []
    list_kind: str | None = None
    lines = text.replace("\r\n", "\n").split("\n")

    def flush_paragraph() -> None:
        if paragraph:
            out.append(f"<p>{inline_html(chr(10).join(paragraph))}</p>")
            paragraph.clear()

    def flush_list() -> None:
        nonlocal list_kind
        if items:
            body = "".join(f"<li>{inline_html(item)}</li>" for item in items)
            out.append(f"<{list_kind}>{body}</{list_kind}>")
            items.clear()
        list_kind = None

    i = 0
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith("```"):
            flush_paragraph()
            flush_list()
            fence = line.lstrip()[:3]
            code: list[str] = []
            i += 1
            while i < len(lines) and not lines[i].lstrip().startswith(fence):
                code.append(lines[i])
                i += 1
            out.append(f"<pre><code>{html.escape(chr(10).join(code), quote=False)}</code></pre>")
            i += 1
            continue
        if not line.strip():
            flush_paragraph()
            flush_list()
        elif match := _LIST_ITEM.match(line):
            flush_paragraph()
            kind = "ul" if match.group("bullet") else "ol"
            if list_kind is not None and kind != list_kind:
                flush_list()
            list_kind = kind
            items.append(match.group("text"))
        elif items and line.startswith((" ", "\t")):
            items[-1] += "\n" + line.strip()  # a continuation of the list item
        else:
            flush_list()
            paragraph.append(line.strip())
        i += 1
    flush_paragraph()
    flush_list()
    return "".join(out)


# -- Anki -------------------------------------------------------------------------------------

ANKI_MODEL_ID = 1_607_392_319  # fixed forever: re-exports must reuse the same note type
ANKI_MODEL_NAME = "quizapp question"
ANKI_CSS = """\
.card { font-family: sans-serif; font-size: 18px; text-align: left; color: black; background: white; }
.options li, .steps li { margin: 0.2em 0; }
.correct { color: #137333; font-weight: bold; }
.why { color: #555; }
.source { color: #888; font-size: 0.8em; margin-top: 1em; }
code { font-family: monospace; background: #f2f2f2; padding: 0 0.2em; }
"""


def anki_deck_id(deck_id: str) -> int:
    """A stable Anki deck id from the quizapp deck id (in genanki's recommended range)."""
    digest = hashlib.sha256(f"quizapp-deck:{deck_id}".encode()).digest()
    return (1 << 30) + int.from_bytes(digest[:8], "big") % (1 << 30)


def anki_guid(question_id: str) -> str:
    import genanki

    return genanki.guid_for("quizapp", question_id)


def anki_variant(question: Question) -> Question:
    """A card is fixed text: a parameterized question becomes one variant, chosen by its id."""
    if not question.vary:
        return question
    from quizapp.bank.variants import pick

    return pick(question, random.Random(question.id))


def _shuffled_order(question_id: str, n: int) -> list[int]:
    """A fixed order, never the correct one, seeded by the question id."""
    seed = int.from_bytes(hashlib.sha256(question_id.encode()).digest()[:8], "big")
    order = list(range(n))
    rng = random.Random(seed)
    for _ in range(20):
        rng.shuffle(order)
        if order != sorted(order):
            return order
    return list(reversed(order))


def _choice_front(question: ChoiceQuestion) -> str:
    # Shuffled as the app shuffles them (unless the question says not to): written order would
    # put the correct option first on most cards, and Anki would teach the position.
    order = list(range(len(question.choices)))
    if question.shuffle:
        order = _shuffled_order(question.id, len(question.choices))
    options = "".join(f"<li>{inline_html(question.choices[i].text)}</li>" for i in order)
    hint = (
        "<p><em>Select all that apply.</em></p>" if question.type.value == "multiple_choice" else ""
    )
    return f'{hint}<ol class="options">{options}</ol>'


def card_front(question: Question) -> str:
    front = markdown_to_html(question.prompt)
    if isinstance(question, ChoiceQuestion):
        front += _choice_front(question)
    elif isinstance(question, TrueFalseQuestion):
        front += "<p><em>True or false?</em></p>"
    elif isinstance(question, NumericQuestion) and question.answer.unit:
        front += f"<p><em>Answer in {inline_html(question.answer.unit)}.</em></p>"
    elif isinstance(question, OrderingQuestion):
        order = _shuffled_order(question.id, len(question.steps))
        steps = "".join(f"<li>{inline_html(question.steps[i].text)}</li>" for i in order)
        front += f'<p><em>Put these in order:</em></p><ul class="steps">{steps}</ul>'
    return front


def _why(text: str | None) -> str:
    return f'<div class="why">{markdown_to_html(text)}</div>' if text else ""


def _numeric_key(question: NumericQuestion, derived: Mapping[str, object] | None) -> str:
    a = question.answer
    value: object = a.value
    if value is None and derived is not None:
        value = derived.get(a.from_value or "")
    if isinstance(value, int | float) and not isinstance(value, bool):
        key = format_number(value)
        if a.unit:
            key += f" {a.unit}"
        if a.tolerance:
            key += f" (± {format_number(a.tolerance)})"
        elif a.relative_tolerance:
            key += f" (within {a.relative_tolerance * 100:g}%)"
        return inline_html(key)
    compute = question.compute
    where = compute.name if compute is not None else "its computation"
    return inline_html(f"`{a.from_value}` as computed by `{where}`")


def card_back(question: Question, derived: Mapping[str, object] | None = None) -> str:
    parts: list[str] = []
    if isinstance(question, ChoiceQuestion):
        label = "Correct" if len(question.correct_indices) == 1 else "Correct (all of)"
        right = "".join(
            f'<li><span class="correct">{inline_html(c.text)}</span>{_why(c.why)}</li>'
            for c in question.choices
            if c.correct
        )
        parts.append(f"<p><strong>{label}:</strong></p><ol>{right}</ol>")
        wrong = "".join(
            f"<li>{inline_html(c.text)}{_why(c.why)}</li>"
            for c in question.choices
            if not c.correct and c.why
        )
        if wrong:
            parts.append(f"<p><strong>The others:</strong></p><ul>{wrong}</ul>")
    elif isinstance(question, TrueFalseQuestion):
        answer = "True" if question.answer else "False"
        parts.append(f'<p class="correct">{answer}</p>')
        parts.append(_why(question.why_true if question.answer else question.why_false))
    elif isinstance(question, NumericQuestion):
        parts.append(f'<p class="correct">{_numeric_key(question, derived)}</p>')
        if question.traps:
            traps = "".join(
                f"<li>{inline_html(format_number(t.value))}: {inline_html(t.why)}</li>"
                for t in question.traps
            )
            parts.append(f"<p><strong>Common wrong answers:</strong></p><ul>{traps}</ul>")
    elif isinstance(question, OrderingQuestion):
        steps = "".join(f"<li>{inline_html(s.text)}{_why(s.why)}</li>" for s in question.steps)
        parts.append(f'<ol class="steps correct-order">{steps}</ol>')
    elif isinstance(question, Flashcard):
        parts.append(markdown_to_html(question.back))
    parts.append("<hr>" + markdown_to_html(question.explanation))
    if question.source:
        parts.append(f'<div class="source">{inline_html(question.source)}</div>')
    return "".join(p for p in parts if p)


def _derived_values(
    questions: Iterable[Question], *, use_cache: bool = True
) -> dict[str, dict[str, object]]:
    """Run the computations behind `from:` keys once each, within lint's default time budget
    (a hostile bank can ask for hundreds of slow runs), reusing results stored by earlier runs
    unless `use_cache` is False. Questions whose run fails, or does not fit in the budget, are
    left out: their key stays described rather than computed."""
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
            out[q.id] = dict(outcome)
    return out


def write_anki(
    decks: Sequence[Deck],
    out: str | Path,
    *,
    evaluate: bool = True,
    timestamp: float | None = None,
    replace: bool = False,
    use_cache: bool = True,
) -> int:
    """Write the decks' questions to an .apkg at `out`, by the rules of
    `quizapp.authoring.output_file` (`replace` allows replacing a regular file). Keys taken
    `from:` a computation are computed unless `evaluate` is False, reusing stored results
    unless `use_cache` is False. Returns the note count. Raises OutputError."""
    import genanki

    check_output(out, replace=replace)  # before the work, not only after it

    model = genanki.Model(
        ANKI_MODEL_ID,
        ANKI_MODEL_NAME,
        fields=[{"name": "Front"}, {"name": "Back"}, {"name": "QuizappId"}],
        templates=[
            {
                "name": "Card 1",
                "qfmt": "{{Front}}",
                "afmt": '{{FrontSide}}<hr id="answer">{{Back}}',
            }
        ],
        css=ANKI_CSS,
    )
    shown = {deck.id: [anki_variant(q) for q in deck.questions] for deck in decks}
    every = [q for qs in shown.values() for q in qs]
    derived = _derived_values(every, use_cache=use_cache) if evaluate else {}
    anki_decks = []
    count = 0
    for deck in decks:
        anki_deck = genanki.Deck(
            anki_deck_id(deck.id),
            f"quizapp::{deck.title}",
            description=markdown_to_html(deck.description or ""),
        )
        for q in shown[deck.id]:
            note = genanki.Note(
                model=model,
                fields=[card_front(q), card_back(q, derived.get(q.id)), q.id],
                guid=anki_guid(q.id),
                tags=list(q.tags),
            )
            anki_deck.add_note(note)
            count += 1
        anki_decks.append(anki_deck)
    package = genanki.Package(anki_decks)
    target = Path(out)
    stamp = time.time() if timestamp is None else timestamp
    # genanki's own write_to_file leaves its temporary database behind; this does not.
    with tempfile.TemporaryDirectory() as scratch:
        db_path = Path(scratch) / "collection.anki2"
        conn = sqlite3.connect(db_path)
        try:
            package.write_to_db(conn.cursor(), stamp, itertools.count(int(stamp * 1000)))
            conn.commit()
        finally:
            conn.close()
        write_output(target, lambda handle: _zip_collection(handle, db_path), replace=replace)
    return count


def _zip_collection(handle: Any, db_path: Path) -> None:
    with zipfile.ZipFile(handle, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.write(db_path, "collection.anki2")
        archive.writestr("media", "{}")


# -- the whole bank ---------------------------------------------------------------------------


def bank_questions(bank: Bank) -> list[Question]:
    return [q for deck in bank.decks for q in deck.questions]


__all__ = [
    "EXPORT_FORMATS",
    "anki_deck_id",
    "anki_guid",
    "bank_questions",
    "card_back",
    "card_front",
    "export_csv",
    "export_json",
    "json_to_mapping",
    "markdown_to_html",
    "question_json",
    "question_mapping",
    "question_row",
    "write_anki",
]
