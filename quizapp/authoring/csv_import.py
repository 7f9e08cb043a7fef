"""`quizapp import`: turn a spreadsheet (CSV) of questions into a deck file.

The CSV is UTF-8 (a byte-order mark is fine), comma-separated, with a header row naming its
columns. Column names are case-insensitive; spaces and `-` read as `_`. Columns may come in
any order and may be left out unless required. One row is one question; blank rows are
skipped. Cells may span lines (quote them, as every spreadsheet does). The values of
`type` and `difficulty` are case-insensitive too.

    column              meaning
    id *                the question id (lowercase letters, digits, - _ .)
    type *              single_choice, multiple_choice, true_false, numeric, ordering, flashcard
    prompt *            the question, Markdown (a flashcard's front)
    explanation *       Markdown shown after answering
    difficulty *        easy, medium or hard
    tags *              one or more tags, separated by ;  e.g.  exam-trap;rope
    topic               overrides the deck's topic
    source              the lesson section the question comes from
    choices             choice questions: the options, separated by |  e.g.  A|B|C
    correct             choice questions: the correct option numbers, 1-based, separated
                        by ;  e.g.  2  or  1;3  (letters A-I work too)
    whys                why each option is right or which trap it is, |-separated in the
                        order of `choices`; for ordering questions, in the order of `steps`
    answer              true_false: true or false (yes/no); numeric: the key, a number
    answer_from         numeric: take the key from this value of the computation instead
    tolerance           numeric: absolute tolerance
    relative_tolerance  numeric: relative tolerance (e.g. 0.01)
    unit                numeric: the unit shown beside the answer box
    traps               numeric: common wrong answers, |-separated numbers
    trap_whys           numeric: the mistake behind each trap, |-separated, same order
    steps               ordering: the steps in the correct order, |-separated
    back                flashcard: the answer side, Markdown
    compute             the live computation: its name, then key=value arguments, e.g.
                        mha_params d_model=512 n_heads=8   (quote values with spaces:
                        sentence="dog bites man"; values read as YAML 1.2 scalars)
    why_true            true_false: why answering "true" is right, or which trap it is
    why_false           true_false: why answering "false" is right, or which trap it is
    shuffle             choice questions: false keeps the options in the written order
    vary                a parameterized question: each name and the values a showing
                        picks from, as YAML, e.g.  d_model: [256, 512], n_heads: [4, 8]
                        (write {d_model} in the texts, "{d_model}" as a compute value)
    expect              claims the computation must bear out, separated by ; or line
                        breaks, each optionally followed by ` -- ` and what it says, e.g.
                        head_dim == 64 -- Each head is 64 wide; params_single_head ==
                        params_multi_head   (write \\; for a ; in the words)

    (* = required column)

In a |-separated cell, write a literal | as \\| and a literal backslash before | as \\\\.
An empty item in `whys` means that option has no why.

A cell that starts with `'` followed by = + - @, a tab or a carriage return loses that one
`'`: it is the guard `quizapp export` puts on cells a spreadsheet would run as formulas
(see `quizapp.authoring.csv_cells`). A prompt `=x` may be written `=x` or `'=x`; a prompt
that really starts with `'=` is written `''=x`.

Every row is turned into bank YAML and checked by quizapp's own loader and lint registry
checks, so the rules cannot drift from `quizapp lint`. A row that fails is reported as
`FILE.csv:LINE: reason` (LINE is the line the row starts on: the spreadsheet row number
unless a cell above spans lines) and left out; the other rows are still written, and the
command exits 1. An id used twice in the CSV, or already used in the bank the questions
will join (the bundled bank and any --bank paths), rejects the row. Input that cannot be
read at all (not UTF-8, no header, unknown or missing columns) is a usage error (exit 2)
and nothing is written.
"""

from __future__ import annotations

import csv
import difflib
import io
import math
import re
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from quizapp.authoring.cells import split_escaped
from quizapp.authoring.csv_cells import unguard_cell
from quizapp.authoring.expect_cell import parse_expect_cell
from quizapp.bank import fields as F
from quizapp.bank.diagnostics import Diagnostic
from quizapp.bank.model import Deck, QuestionType
from quizapp.bank.yaml12 import (
    MappingNode,
    ScalarNode,
    SequenceNode,
    Yaml12Resolver,
    compose,
    parse_scalar,
    scalar_value,
)

COLUMNS: tuple[str, ...] = (
    "id",
    "type",
    "prompt",
    "explanation",
    "difficulty",
    "tags",
    "topic",
    "source",
    "choices",
    "correct",
    "whys",
    "answer",
    "tolerance",
    "relative_tolerance",
    "unit",
    "steps",
    "back",
    "compute",
    "why_true",
    "why_false",
    "answer_from",
    "traps",
    "trap_whys",
    "shuffle",
    "vary",
    "expect",
)
REQUIRED_COLUMNS: tuple[str, ...] = ("id", "type", "prompt", "explanation", "difficulty", "tags")

MODELINE = "# yaml-language-server: $schema=schema.json"
DEFAULT_DOMAIN = "General"
# The bundled decks' weights sum to 1; an imported deck joins them at a modest share.
DEFAULT_WEIGHT = 0.1
_CHOICE_TYPES = {QuestionType.SINGLE_CHOICE.value, QuestionType.MULTIPLE_CHOICE.value}
_NUMERIC_ONLY = ("answer_from", "tolerance", "relative_tolerance", "unit", "traps", "trap_whys")


class CsvInputError(Exception):
    """The CSV cannot be used at all (exit 2). The message is one line."""


class RowError(Exception):
    """One row cannot become a question. The message is one line."""


@dataclass(frozen=True)
class DeckInfo:
    id: str
    title: str
    topic: str
    domain: str = DEFAULT_DOMAIN
    exam_weight: float = DEFAULT_WEIGHT
    description: str | None = None


@dataclass(frozen=True)
class RowProblem:
    line: int
    message: str

    def format(self, path: str) -> str:
        message = self.message.replace("\r", "\\r").replace("\n", "\\n")  # one line each
        return f"{path}:{self.line}: {message}"


@dataclass
class ImportResult:
    text: str | None  # the deck file; None when no row survived
    imported: list[str] = field(default_factory=list)  # question ids, in CSV order
    problems: list[RowProblem] = field(default_factory=list)
    rows: int = 0  # non-blank data rows read


# -- reading the file -------------------------------------------------------------------------


def read_csv_text(path: str | Path) -> str:
    """The CSV's text. Raises CsvInputError when it cannot be read as UTF-8 text."""
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise CsvInputError(f"cannot read {path}: {exc.strerror or exc}") from None
    if b"\x00" in raw:
        raise CsvInputError(f"{path} is a binary file, not CSV text")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise CsvInputError(
            f"{path} is not UTF-8 text (byte 0x{raw[exc.start]:02x} on line {line}); "
            "save it as 'CSV UTF-8'"
        ) from None


def normalize_column(name: str) -> str:
    return re.sub(r"[\s\-]+", "_", name.strip().lower())


def _records(text: str) -> list[tuple[int, list[str]]]:
    """(line the record starts on, cells) for every record."""
    reader = csv.reader(io.StringIO(text, newline=""))
    out: list[tuple[int, list[str]]] = []
    line = 1
    try:
        for record in reader:
            out.append((line, record))
            line = reader.line_num + 1
    except csv.Error as exc:
        raise CsvInputError(f"line {reader.line_num}: not valid CSV: {exc}") from None
    return out


def read_header(cells: list[str], path: str) -> list[str | None]:
    """The header's column names (None for an empty header cell). Raises CsvInputError."""
    names = [normalize_column(c) or None for c in cells]
    present = [n for n in names if n]
    if not present:
        raise CsvInputError(
            f"{path} has no header row (expected columns like {', '.join(REQUIRED_COLUMNS)})"
        )
    if len(present) == 1 and re.search(r"[;\t]", cells[0]):
        raise CsvInputError(
            f"{path}: the header has a single column {cells[0][:40]!r}; "
            "quizapp reads comma-separated files (save as 'CSV UTF-8 (comma delimited)')"
        )
    unknown = [n for n in present if n not in COLUMNS]
    if unknown and len(unknown) == len(present):
        raise CsvInputError(
            f"{path}: the first row is not a header: it names no known column "
            f"(expected columns like {', '.join(REQUIRED_COLUMNS)})"
        )
    if unknown:
        described = []
        for name in unknown:
            close = difflib.get_close_matches(name, COLUMNS, n=1, cutoff=0.6)
            described.append(f"'{name}'" + (f" (did you mean '{close[0]}'?)" if close else ""))
        raise CsvInputError(
            f"{path}: unknown column{'s' if len(unknown) > 1 else ''} {', '.join(described)}; "
            f"the columns are: {', '.join(COLUMNS)}"
        )
    seen: set[str] = set()
    for name in present:
        if name in seen:
            raise CsvInputError(f"{path}: column '{name}' appears twice in the header")
        seen.add(name)
    missing = [c for c in REQUIRED_COLUMNS if c not in seen]
    if missing:
        raise CsvInputError(
            f"{path}: missing required column{'s' if len(missing) > 1 else ''}: {', '.join(missing)}"
        )
    return names


# -- one row to one question mapping ----------------------------------------------------------


def split_items(cell: str) -> list[str]:
    """A |-separated cell's items, trimmed. `\\|` is a literal pipe, `\\\\` a backslash."""
    return [_trim(item) for item in split_escaped(cell, "|")]


def _trim(item: str) -> str:
    """Surrounding whitespace goes, but multi-line text keeps its final newline, as a YAML
    `|` block has it (so an exported why written as a block imports back unchanged)."""
    trimmed = item.strip()
    if "\n" in trimmed and item.rstrip(" \t").endswith("\n"):
        return trimmed + "\n"
    return trimmed


def _scalar(text: str) -> Any:
    """A cell read as a YAML 1.2 plain scalar (`1e-5` is a number, `no` a string)."""
    try:
        return parse_scalar(text.strip())
    except ValueError:
        return text.strip()


def _tokens(cell: str) -> list[str]:
    """Whitespace-separated tokens; quotes (kept in the token) protect spaces."""
    tokens: list[str] = []
    buf: list[str] = []
    quote: str | None = None
    i = 0
    while i < len(cell):
        char = cell[i]
        if quote:
            buf.append(char)
            if char == "\\" and quote == '"' and i + 1 < len(cell):
                buf.append(cell[i + 1])
                i += 1
            elif char == quote:
                quote = None
        elif char in "\"'":
            quote = char
            buf.append(char)
        elif char.isspace():
            if buf:
                tokens.append("".join(buf))
                buf = []
        else:
            buf.append(char)
        i += 1
    if quote:
        raise RowError(f"compute: a {quote} quote is not closed")
    if buf:
        tokens.append("".join(buf))
    return tokens


def parse_compute(cell: str) -> dict[str, Any]:
    """`name key=value ...` as a compute mapping. Values are YAML 1.2 scalars."""
    tokens = _tokens(cell)
    name, assignments = tokens[0], tokens[1:]
    if "=" in name:
        raise RowError("compute: start with the computation's name, then key=value arguments")
    args: dict[str, Any] = {}
    for token in assignments:
        key, sep, raw = token.partition("=")
        if not sep or not key:
            raise RowError(f"compute: arguments are written key=value, not {token!r}")
        if key in args:
            raise RowError(f"compute: argument '{key}' is given twice")
        if not raw:
            raise RowError(f"compute: argument '{key}' has no value")
        try:
            node = compose(raw)
        except (yaml.YAMLError, ValueError) as exc:
            raise RowError(
                f"compute: cannot read the value of '{key}': {' '.join(str(exc).split())}"
            ) from None
        if not isinstance(node, ScalarNode):
            raise RowError(f"compute: the value of '{key}' must be a single value (quote it)")
        try:
            args[key] = scalar_value(node)
        except ValueError as exc:
            raise RowError(f"compute: argument '{key}': {exc}") from None
    return {"name": name, "args": args} if args else {"name": name}


def parse_vary(cell: str) -> dict[str, Any]:
    """`name: [v1, v2], other: [v3]` (braces optional) as a vary mapping of flow lists."""
    source = cell.strip()
    if not source.startswith("{"):
        source = "{" + source + "}"
    try:
        node = compose(source)
    except (yaml.YAMLError, ValueError) as exc:
        raise RowError(
            f"vary: not readable as 'name: [values], ...': {' '.join(str(exc).split())}"
        ) from None
    if not isinstance(node, MappingNode):
        raise RowError("vary: write it as 'name: [values], ...'")
    vary = _FlowMap()
    for key_node, value_node in node.value:
        if not isinstance(key_node, ScalarNode):
            raise RowError("vary: the names must be plain words")
        if not isinstance(value_node, SequenceNode) or not all(
            isinstance(item, ScalarNode) for item in value_node.value
        ):
            raise RowError(f"vary: list the values of '{key_node.value}' in [ ], comma-separated")
        if key_node.value in vary:
            raise RowError(f"vary: '{key_node.value}' is given twice")
        try:
            vary[key_node.value] = _Flow(scalar_value(item) for item in value_node.value)
        except ValueError as exc:
            raise RowError(f"vary: {exc}") from None
    return vary


def _option_numbers(cell: str, count: int) -> set[int]:
    numbers: set[int] = set()
    for item in re.split(r"[;,\s]+", cell.strip()):
        if not item:
            continue
        if re.fullmatch(r"[A-Ia-i]", item):
            number = ord(item.upper()) - ord("A") + 1
        elif item.isdigit():
            number = int(item)
        else:
            raise RowError(f"correct: '{item}' is not an option number (1 to {count})")
        if not 1 <= number <= count:
            raise RowError(f"correct: {item} is not an option number (1 to {count})")
        numbers.add(number)
    return numbers


def _aligned(cells: Mapping[str, str], column: str, to: str, count: int) -> list[str] | None:
    if not cells.get(column, "").strip():
        return None
    items = split_items(cells[column])
    if len(items) != count:
        raise RowError(
            f"{column} has {len(items)} item{'s' if len(items) != 1 else ''} "
            f"but {to} has {count} (separate them with |)"
        )
    return items


def row_mapping(cells: Mapping[str, str], deck_topic: str | None = None) -> dict[str, Any]:
    """One CSV row as a bank question mapping (not yet validated). Raises RowError."""

    def text(column: str, strip: bool = False) -> str | None:
        value = cells.get(column, "")
        if not value.strip():
            return None
        return value.strip() if strip else value

    qtype = (text("type", strip=True) or "").lower() or None
    q: dict[str, Any] = {}
    for key in ("id", "type", "difficulty"):
        if (value := text(key, strip=True)) is not None:
            q[key] = value.lower() if key != "id" else value
    if (tags := text("tags")) is not None:
        q["tags"] = _Flow(t for t in re.split(r"[;,\s]+", tags) if t)
    topic = text("topic", strip=True)
    if topic is not None and topic != deck_topic:
        q["topic"] = topic
    if (source := text("source", strip=True)) is not None:
        q["source"] = source
    if (prompt := text("prompt")) is not None:
        q["prompt"] = prompt
    if (vary := text("vary")) is not None:
        q["vary"] = parse_vary(vary)

    if qtype not in (QuestionType.NUMERIC.value, None):
        given = [c for c in _NUMERIC_ONLY if text(c) is not None]
        if given:
            raise RowError(
                f"{', '.join(given)} appl{'y' if len(given) > 1 else 'ies'} to numeric questions only"
            )
    if text("shuffle") is not None:
        q["shuffle"] = _scalar(cells["shuffle"])

    choices = split_items(cells["choices"]) if text("choices") is not None else None
    steps = split_items(cells["steps"]) if text("steps") is not None else None
    if text("correct") is not None and choices is None:
        raise RowError("correct is given but choices is empty")
    if choices is not None:
        correct = _option_numbers(cells.get("correct", ""), len(choices))
        whys = (
            None
            if qtype == QuestionType.ORDERING.value
            else _aligned(cells, "whys", "choices", len(choices))
        )
        options = []
        for n, option in enumerate(choices, start=1):
            if not option:
                raise RowError(f"choices: option {n} is empty")
            choice: dict[str, Any] = {"text": option}
            if n in correct:
                choice["correct"] = True
            if whys and whys[n - 1]:
                choice["why"] = whys[n - 1]
            options.append(choice)
        q["choices"] = options

    if qtype == QuestionType.NUMERIC.value:
        answer: dict[str, Any] = {}
        if (value := text("answer")) is not None:
            answer["value"] = _scalar(value)
        if (from_value := text("answer_from", strip=True)) is not None:
            answer["from"] = from_value
        for key in ("tolerance", "relative_tolerance"):
            if (value := text(key)) is not None:
                answer[key] = _scalar(value)
        if (unit := text("unit", strip=True)) is not None:
            answer["unit"] = unit
        if answer:
            q["answer"] = answer
        if text("traps") is not None:
            values = split_items(cells["traps"])
            trap_whys = _aligned(cells, "trap_whys", "traps", len(values))
            traps = []
            for n, value in enumerate(values, start=1):
                if not value:
                    raise RowError(f"traps: trap {n} is empty")
                trap: dict[str, Any] = {"value": _scalar(value)}
                if trap_whys and trap_whys[n - 1]:
                    trap["why"] = trap_whys[n - 1]
                traps.append(trap)
            q["traps"] = traps
        elif text("trap_whys") is not None:
            raise RowError("trap_whys is given but traps is empty")
    elif (value := text("answer")) is not None:
        q["answer"] = _scalar(value)

    for key in ("why_true", "why_false"):
        if (value := text(key)) is not None:
            q[key] = value

    if steps is not None:
        whys = _aligned(cells, "whys", "steps", len(steps)) if qtype == "ordering" else None
        items: list[Any] = []
        for n, step in enumerate(steps, start=1):
            if not step:
                raise RowError(f"steps: step {n} is empty")
            items.append({"text": step, "why": whys[n - 1]} if whys and whys[n - 1] else step)
        q["steps"] = items
    if text("whys") is not None:
        wants = "steps" if qtype == QuestionType.ORDERING.value else "choices"
        if (steps if wants == "steps" else choices) is None:
            raise RowError(f"whys is given but {wants} is empty")

    if (back := text("back")) is not None:
        q["back"] = back
    if (explanation := text("explanation")) is not None:
        q["explanation"] = explanation
    if (compute := text("compute")) is not None:
        spec = parse_compute(compute)
        if "args" in spec:
            spec["args"] = _FlowMap(spec["args"])
        q["compute"] = spec
    if (expect := text("expect")) is not None:
        if "compute" not in q:
            raise RowError("expect is given but compute is empty")
        q["compute"]["expect"] = parse_expect_cell(expect)
    return q


# -- writing YAML -----------------------------------------------------------------------------


class _Flow(list):
    """A list written in flow style: `tags: [a, b]`."""


class _FlowMap(dict):
    """A mapping written in flow style: `args: {d_model: 512}`."""


_YAML12 = Yaml12Resolver()


class BankDumper(yaml.SafeDumper):
    """A safe dumper whose output quizapp reads back exactly.

    A string is written plain only when both YAML 1.1 (PyYAML, most editors) and YAML 1.2
    (quizapp) read it as a string, so `1e5`, `yes` and `0o17` come out quoted. Sequences are
    indented under their key, as in the bundled files, and multi-line text uses `|` blocks.
    """

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        return super().increase_indent(flow, False)

    def resolve(self, kind: type, value: Any, implicit: tuple[bool, bool]) -> str:
        tag = super().resolve(kind, value, implicit)
        if kind is yaml.ScalarNode and implicit[0] and tag == "tag:yaml.org,2002:str":
            return _YAML12.resolve(kind, value, implicit)
        return tag


def _represent_str(dumper: yaml.SafeDumper, data: str) -> yaml.Node:
    # `|+` (text ending in blank lines) would swallow the blank line between questions.
    style = "|" if "\n" in data and not data.endswith("\n\n") else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=style)


def _represent_float(dumper: yaml.SafeDumper, data: float) -> yaml.Node:
    if math.isfinite(data):
        text = repr(data)  # exact; `1.0e-05` rather than `1e-05` so YAML 1.1 tools agree
        if "e" in text and "." not in text:
            text = text.replace("e", ".0e", 1)
        return dumper.represent_scalar("tag:yaml.org,2002:float", text)
    return yaml.SafeDumper.represent_float(dumper, data)


BankDumper.add_representer(str, _represent_str)
BankDumper.add_representer(float, _represent_float)
BankDumper.add_representer(
    _Flow, lambda d, data: d.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=True)
)
BankDumper.add_representer(
    _FlowMap, lambda d, data: d.represent_mapping("tag:yaml.org,2002:map", data, flow_style=True)
)


def dump_yaml(data: Any) -> str:
    return yaml.dump(
        data,
        Dumper=BankDumper,
        sort_keys=False,
        allow_unicode=True,
        width=1_000_000,
        default_flow_style=False,
    )


def dump_question(question: Mapping[str, Any]) -> str:
    """One question as an item of the `questions:` list (indented two spaces)."""
    q = dict(question)
    if isinstance(q.get("tags"), list) and not isinstance(q["tags"], _Flow):
        q["tags"] = _Flow(q["tags"])
    if isinstance(q.get("vary"), Mapping) and not isinstance(q["vary"], _FlowMap):
        q["vary"] = _FlowMap({k: list(v) for k, v in q["vary"].items()})
    compute = q.get("compute")
    if isinstance(compute, Mapping) and compute.get("args") is not None:
        q["compute"] = {**compute, "args": _FlowMap(compute["args"])}
    text = dump_yaml({"questions": [q]})
    assert text.startswith("questions:\n")
    return text[len("questions:\n") :]


def deck_header(deck: DeckInfo) -> str:
    meta: dict[str, Any] = {
        "id": deck.id,
        "title": deck.title,
        "topic": deck.topic,
        "domain": deck.domain,
        "exam_weight": deck.exam_weight,
    }
    if deck.description:
        meta["description"] = deck.description
    return f"{MODELINE}\n" + dump_yaml({"format": F.FORMAT_VERSION, "deck": meta})


def render_deck(deck: DeckInfo, questions: list[Mapping[str, Any]]) -> str:
    """A whole deck file: the modeline, the deck, and the questions a blank line apart."""
    return deck_header(deck) + "questions:\n" + "\n".join(dump_question(q) for q in questions)


def lint_text(text: str, scratch: Path) -> tuple[Deck | None, list[Diagnostic]]:
    """Load and lint deck-file text exactly as `quizapp lint --no-eval` would (through a file
    in `scratch`). Returns the deck that loaded and the errors."""
    from quizapp.authoring.lint import lint

    path = scratch / "deck.yaml"
    path.write_text(text, encoding="utf-8")
    report = lint([path], evaluate=False)
    errors = [d for d in report.diagnostics if d.severity == "error"]
    return (report.bank.decks[0] if report.bank.decks else None), errors


# -- the importer -----------------------------------------------------------------------------

_PROBE_QUESTION = {
    "id": "probe",
    "type": "flashcard",
    "difficulty": "easy",
    "tags": ["probe"],
    "prompt": "P",
    "back": "B",
    "explanation": "E",
}
_DECK_OPTIONS = {
    "id": "--deck-id",
    "title": "--title",
    "topic": "--topic",
    "domain": "--domain",
    "exam_weight": "--weight",
    "description": "the description",
}
_MESSAGE_REWRITES = (
    (re.compile(r" \((?:first at |first defined at )?line \d+\)"), ""),
    (re.compile(r"^value must be"), "answer must be"),
    (re.compile(r"^value: "), "answer: "),
    (re.compile(r"'value' and 'from'"), "answer and answer_from"),
    (re.compile(r"^'from' names"), "answer_from names"),
    (re.compile(r"'why'"), "why (whys)"),
)


def _csv_message(message: str) -> str:
    for pattern, replacement in _MESSAGE_REWRITES:
        message = pattern.sub(replacement, message)
    return message


def check_deck(deck: DeckInfo, scratch: Path, taken_decks: Mapping[str, str] | None = None) -> None:
    """Hold the deck metadata to the loader's rules. Raises CsvInputError naming the option."""
    header = deck_header(deck)
    _, errors = lint_text(header + "questions:\n" + dump_question(_PROBE_QUESTION), scratch)
    header_lines = header.count("\n")
    errors = [e for e in errors if e.line <= header_lines]
    if errors:
        root = compose(header)
        assert isinstance(root, MappingNode)
        deck_node = next(v for k, v in root.value if k.value == "deck")
        lines = [(k.start_mark.line + 1, k.value) for k, _ in deck_node.value]
        first = errors[0]
        key = next((k for line, k in reversed(lines) if line <= first.line), "id")
        raise CsvInputError(f"{_DECK_OPTIONS.get(key, key)}: {first.message}")
    if taken_decks and deck.id in taken_decks:
        raise CsvInputError(
            f"--deck-id: deck id '{deck.id}' is already used by {taken_decks[deck.id]}; "
            "choose another with --deck-id"
        )


def import_csv(
    text: str,
    *,
    deck: DeckInfo,
    path: str = "input.csv",
    taken_ids: Mapping[str, str] | None = None,
    taken_decks: Mapping[str, str] | None = None,
) -> ImportResult:
    """Turn CSV text into a deck file. Raises CsvInputError for unusable input.

    `taken_ids` maps question ids already in the bank to where they are; such rows are
    rejected, as are ids repeated within the CSV.
    """
    with tempfile.TemporaryDirectory(prefix="quizapp-import-") as scratch:
        return _import(text, deck, path, taken_ids or {}, taken_decks or {}, Path(scratch))


def _import(
    text: str,
    deck: DeckInfo,
    path: str,
    taken: Mapping[str, str],
    taken_decks: Mapping[str, str],
    scratch: Path,
) -> ImportResult:
    check_deck(deck, scratch, taken_decks)
    records = _records(text.removeprefix("\ufeff"))
    while records and not any(cell.strip() for cell in records[0][1]):
        records.pop(0)
    if not records:
        raise CsvInputError(f"{path} is empty: it has no header row")
    _, header_cells = records[0]
    names = read_header(header_cells, path)
    header = deck_header(deck)
    result = ImportResult(text=None)
    chunks: list[str] = []
    first_line: dict[str, int] = {}
    for line, record in records[1:]:
        if not any(cell.strip() for cell in record):
            continue
        result.rows += 1
        problem = _row_problem(record, names)
        if problem is None:
            cells = {
                name: unguard_cell(cell).replace("\r\n", "\n").replace("\r", "\n")
                for name, cell in zip(names, record, strict=False)
                if name
            }
            qid = cells.get("id", "").strip()
            if qid in first_line:
                problem = f"duplicate id '{qid}' (first on line {first_line[qid]})"
            elif qid in taken:
                problem = f"id '{qid}' is already used in {taken[qid]}"
            elif qid:
                first_line[qid] = line
        if problem is None:
            try:
                chunk = dump_question(row_mapping(cells, deck.topic))
                problem = _check_chunk(header, chunk, scratch)
            except RowError as exc:
                problem = str(exc)
        if problem is not None:
            result.problems.append(RowProblem(line, problem))
            continue
        chunks.append(chunk)
        result.imported.append(qid)
    if chunks:
        result.text = header + "questions:\n" + "\n".join(chunks)
        loaded, errors = lint_text(result.text, scratch)
        ids = [q.id for q in loaded.questions] if loaded else []
        if errors or ids != result.imported:  # each row passed alone; together they must too
            raise RuntimeError(
                "the imported deck does not load: "
                + ("; ".join(d.message for d in errors) or "questions went missing")
            )
    return result


def _row_problem(record: list[str], names: list[str | None]) -> str | None:
    extra = [c for c in record[len(names) :] if c.strip()]
    if extra:
        return f"the row has {len(record)} cells but the header has {len(names)}"
    for name, cell in zip(names, record, strict=False):
        if name is None and cell.strip():
            return "a cell has a value under a column with no name in the header"
    return None


def _check_chunk(header: str, chunk: str, scratch: Path) -> str | None:
    deck, errors = lint_text(header + "questions:\n" + chunk, scratch)
    if not errors and (deck is None or not deck.questions):
        return "the row did not make a question"
    messages = list(dict.fromkeys(_csv_message(d.message) for d in errors))
    return "; ".join(messages) if messages else None


def default_deck_info(
    csv_path: str | Path,
    *,
    deck_id: str | None = None,
    title: str | None = None,
    topic: str | None = None,
    domain: str | None = None,
    weight: float | None = None,
) -> DeckInfo:
    """Deck metadata from the options, with defaults drawn from the CSV's file name."""
    stem = Path(csv_path).stem
    slug = re.sub(r"[^a-z0-9]+", "-", stem.lower()).strip("-")[: F.ID_MAX_LENGTH].strip("-")
    chosen_id = deck_id if deck_id is not None else (slug or "imported")
    if title is None:
        words = re.sub(r"[-_]+", " ", stem).strip() or chosen_id
        title = words[:1].upper() + words[1:]
    return DeckInfo(
        id=chosen_id,
        title=title,
        topic=topic if topic is not None else chosen_id,
        domain=domain if domain is not None else DEFAULT_DOMAIN,
        exam_weight=weight if weight is not None else DEFAULT_WEIGHT,
    )


def _column_help() -> str:
    lines = (__doc__ or "").splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("    column ")), 0)
    end = next((i for i, line in enumerate(lines) if "(* = required column)" in line), start)
    return "\n".join(line[4:] for line in lines[start : end + 1])


COLUMN_HELP = _column_help()
