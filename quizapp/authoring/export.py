"""`quizapp export`: a bank as CSV, JSON or an Anki package.

Every format lists a choice question's options shuffled (`ExportOrder`,
quizapp/bank/display_order.py): a file read in written order would put the key where the
author wrote it, a cue a student learns. The order is seeded by the question id (and
`--seed N`), so exporting again writes the same file; `--no-shuffle` keeps the file's order
for authoring round trips. Steps stay in the key's order in CSV and JSON (there the order IS
the key) and are shuffled, never solved, on an Anki card's front.

CSV
    The columns `quizapp import` reads (see `quizapp.authoring.csv_import`), one row per
    question, so an export imports back to the same questions. A cell a spreadsheet would run
    as a formula (starting with = + - @, tab or CR) gets a leading `'`, which the importer
    takes off again (`quizapp.authoring.csv_cells`). Every row carries its deck's settings
    in the `deck_*` columns (`quizapp.authoring.csv_import.settings`), so a deck imports back
    whole. The `topic` column always holds the question's effective topic; `vary` every
    value of every name. The file starts with a UTF-8
    byte-order mark (`CSV_BOM`, left out with `--no-bom`): without one, Excel reads UTF-8 as
    its legacy code page and shows `×` as `Ã—`. The importer takes it off again.

JSON
    One object, `{"format": 1, "decks": [...], "questions": [...]}`: `format` the version of
    this shape (JSON_FORMAT_VERSION), `decks` each exported deck's metadata (id, title, topic,
    domain, exam_weight, description), and `questions` the question objects, in bank order,
    so that `quizapp import` gives back the same decks and questions. Every question object
    has every key of its type, with `null` for an absent optional value, so the shape is
    stable:

        id, type, deck (the deck id), topic (effective), difficulty, tags (list),
        source, pairs_with (list), prompt, explanation, compute ({name, args, expect: [{claim, says}]} or null),
        vary ({name: [values]}, {} when the question is not parameterized), and
        single_choice / multiple_choice: choices [{text, correct, why, holds}], shuffle
        true_false:   answer (bool), why_true, why_false, holds
        numeric:      answer {value, from, tolerance, relative_tolerance, unit},
                      traps [{value, why}]
        ordering:     steps [{text, why, value}] (in the correct order), order_by_value
        flashcard:    back

    `holds`, `value` and `order_by_value` are the claims that prove a key (docs/authoring.md),
    `null` where the author judges it. Strings are the bank's Markdown, unchanged. Drop the `null`s and `deck` and an object is a
    valid bank question again.

Anki (.apkg, written with genanki)
    One Anki deck per quizapp deck (named `quizapp::<deck id>`, its title in the description),
    one note per question with the fields Front, Back and QuizappId (the question id), tagged
    with the question's tags; `quizapp.authoring.anki_cards` lays out the card and
    `quizapp.authoring.anki_package` writes the package so that re-importing it updates only
    the notes that changed. A numeric key written as `from:` is computed at export time (on
    the CPU); if that fails, the back names the computation instead. A parameterized question
    (`vary:`) becomes one note per variant (QuizappId `id@name=value,...`), up to
    anki_cards.MAX_NOTES_PER_QUESTION; the variants past that are named on stderr.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from quizapp.authoring.anki_cards import anki_variant, card_back, card_front
from quizapp.authoring.anki_html import inline_html, markdown_to_html
from quizapp.authoring.anki_package import (
    ANKI_CSS,
    ANKI_MODEL_ID,
    ANKI_MODEL_NAME,
    anki_deck_id,
    anki_guid,
    write_anki,
)
from quizapp.authoring.csv_cells import guard_cell
from quizapp.authoring.expect_cell import format_expect_cell
from quizapp.bank.display_order import DEFAULT_EXPORT_ORDER, ExportOrder
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
# Tells Excel the CSV is UTF-8 (it reads a CSV without one in the legacy code page).
CSV_BOM = "\ufeff"


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
    if question.pairs_with:
        out["pairs_with"] = list(question.pairs_with)
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
                **({"holds": c.holds.text} if c.holds is not None else {}),
            }
            for c in question.choices
        ]
    elif isinstance(question, TrueFalseQuestion):
        out["answer"] = question.answer
        if question.holds is not None:
            out["holds"] = question.holds.text
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
        if question.order_by_value is not None:
            out["order_by_value"] = question.order_by_value.value
        out["steps"] = [
            s.text
            if s.why is None and s.value is None
            else {
                "text": s.text,
                **({"why": s.why} if s.why is not None else {}),
                **({"value": s.value.text} if s.value is not None else {}),
            }
            for s in question.steps
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


def question_json(question: Question, order: ExportOrder = DEFAULT_EXPORT_ORDER) -> dict[str, Any]:
    """The stable JSON object of one question (see the module docstring); its options in
    `order`'s order, each with its `correct`, its steps in the key's order."""
    out: dict[str, Any] = {
        "id": question.id,
        "type": question.type.value,
        "deck": question.deck_id,
        "topic": question.topic,
        "difficulty": question.difficulty.value,
        "tags": list(question.tags),
        "source": question.source,
        "pairs_with": list(question.pairs_with),
        "prompt": question.prompt,
        "explanation": question.explanation,
        "compute": None if question.compute is None else _compute_json(question.compute),
        "vary": {name: list(values) for name, values in question.vary.items()},
    }
    if isinstance(question, ChoiceQuestion):
        choices = [question.choices[i] for i in order.of_choices(question)]
        out["choices"] = [
            {"text": c.text, "correct": c.correct, "why": c.why, "holds": _claim_text(c.holds)}
            for c in choices
        ]
        out["shuffle"] = question.shuffle
    elif isinstance(question, TrueFalseQuestion):
        out |= {"answer": question.answer, "why_true": question.why_true}
        out["why_false"] = question.why_false
        out["holds"] = _claim_text(question.holds)
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
        out["steps"] = [
            {"text": s.text, "why": s.why, "value": _claim_text(s.value)} for s in question.steps
        ]
        by_value = question.order_by_value
        out["order_by_value"] = None if by_value is None else by_value.value
    elif isinstance(question, Flashcard):
        out["back"] = question.back
    return out


def _claim_text(claim: Any) -> str | None:
    """A key's claim (`holds:`) as written, or None: JSON carries it so a round trip keeps
    the key proven."""
    return None if claim is None else claim.text


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
        if key in ("traps", "vary", "pairs_with") and not value:
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
            value = [
                s["text"]
                if s.get("why") is None and s.get("value") is None
                else {k: v for k, v in s.items() if v is not None}
                for s in value
            ]
        out[key] = value
    return out


JSON_FORMAT_VERSION = 1  # the version of the JSON document's shape (see the module docstring)


def deck_json(deck: Deck) -> dict[str, Any]:
    """A deck's metadata as the JSON export writes it."""
    return {
        "id": deck.id,
        "title": deck.title,
        "topic": deck.topic,
        "domain": deck.domain,
        "exam_weight": deck.exam_weight,
        "description": deck.description,
    }


def export_json(
    questions: Iterable[Question],
    decks: Iterable[Deck] = (),
    order: ExportOrder = DEFAULT_EXPORT_ORDER,
) -> str:
    """The JSON document: the version, the metadata of the `decks` the questions belong to
    (in the order given), and the questions."""
    objects = [question_json(q, order) for q in questions]
    used = {obj["deck"] for obj in objects}
    document = {
        "format": JSON_FORMAT_VERSION,
        "decks": [deck_json(d) for d in decks if d.id in used],
        "questions": objects,
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


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


def question_row(question: Question, order: ExportOrder = DEFAULT_EXPORT_ORDER) -> dict[str, str]:
    """The CSV cells of one question (the importer's columns; empty cells left out); its
    options in `order`'s order, `correct` numbering them as written, its steps as the key."""
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
        "pairs_with": ";".join(question.pairs_with),
        "compute": format_compute(question.compute),
        "vary": format_vary(question.vary),
        "expect": format_expect_cell(question.compute.expect) if question.compute else "",
    }
    if isinstance(question, ChoiceQuestion):
        choices = [question.choices[i] for i in order.of_choices(question)]
        row["choices"] = join_items([c.text for c in choices])
        row["correct"] = ";".join(str(n) for n, c in enumerate(choices, 1) if c.correct)
        if any(c.why is not None for c in choices):
            row["whys"] = join_items([c.why or "" for c in choices])
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


def deck_cells(deck: Deck) -> dict[str, str]:
    """The `deck_*` cells every row of the deck's questions carries (csv_import.settings)."""
    # The JSON export's fields, one list of them: a new deck setting reaches both formats.
    cells = {f"deck_{key}": value for key, value in deck_json(deck).items()}
    cells["deck_exam_weight"] = format_csv_number(deck.exam_weight)
    cells["deck_description"] = deck.description or ""
    return cells


def export_csv(
    questions: Iterable[Question],
    order: ExportOrder = DEFAULT_EXPORT_ORDER,
    decks: Iterable[Deck] = (),
) -> str:
    """The questions as CSV, every cell a spreadsheet could run as a formula guarded with a
    leading `'` (see `quizapp.authoring.csv_cells`; the importer takes it off again). A
    question of one of `decks` carries that deck's settings in its `deck_*` cells."""
    from quizapp.authoring.csv_import import COLUMNS

    settings = {deck.id: deck_cells(deck) for deck in decks}
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(COLUMNS), lineterminator="\n")
    writer.writeheader()
    for question in questions:
        row = question_row(question, order) | settings.get(question.deck_id, {})
        writer.writerow({k: guard_cell(v) for k, v in row.items()})
    return buffer.getvalue()


def csv_file_bytes(text: str, *, bom: bool = True) -> bytes:
    """The CSV file as written: UTF-8, after a byte-order mark unless `bom` is False."""
    return ((CSV_BOM if bom else "") + text).encode("utf-8")


# -- the whole bank ---------------------------------------------------------------------------


def bank_questions(bank: Bank) -> list[Question]:
    return [q for deck in bank.decks for q in deck.questions]


__all__ = [
    "ANKI_CSS",
    "ANKI_MODEL_ID",
    "ANKI_MODEL_NAME",
    "CSV_BOM",
    "EXPORT_FORMATS",
    "JSON_FORMAT_VERSION",
    "anki_deck_id",
    "anki_guid",
    "anki_variant",
    "bank_questions",
    "card_back",
    "card_front",
    "csv_file_bytes",
    "deck_cells",
    "deck_json",
    "export_csv",
    "export_json",
    "inline_html",
    "json_to_mapping",
    "markdown_to_html",
    "question_json",
    "question_mapping",
    "question_row",
    "write_anki",
]
