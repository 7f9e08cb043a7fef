"""Load a bank from files and folders. A broken file is reported and skipped; the rest load."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from quizapp.bank.diagnostics import Diagnostic
from quizapp.bank.model import Deck, Question
from quizapp.bank.validate import EXPANSION_MESSAGE, FileValidator, TooMuchWork
from quizapp.bank.yaml12 import NestingTooDeep, compose, expanded_size

MAX_FILE_BYTES = 4 * 1024 * 1024
# Visits allowed per byte of YAML: generous for real files, fatal for alias bombs,
# whose expansion grows exponentially while their text stays small.
VISITS_PER_BYTE = 1
MIN_VISIT_BUDGET = 200_000
BANK_SUFFIXES = (".yaml", ".yml")


@dataclass
class Bank:
    """The questions that loaded, the decks they came in, and what went wrong on the way."""

    decks: list[Deck] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    files: list[str] = field(default_factory=list)

    @property
    def questions(self) -> dict[str, Question]:
        return {q.id: q for deck in self.decks for q in deck.questions}

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "warning"]

    def deck(self, deck_id: str) -> Deck | None:
        return next((d for d in self.decks if d.id == deck_id), None)


def bundled_bank_path() -> Path:
    """The bank that ships with quizapp: inside the installed package, or beside it in a checkout."""
    package_dir = Path(__file__).resolve().parent.parent
    for candidate in (package_dir / "question_bank", package_dir.parent / "question_bank"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("the bundled question bank is missing from this installation")


def discover(paths: Iterable[str | Path]) -> tuple[list[Path], list[Diagnostic]]:
    """Expand folders into their bank files (sorted, recursive); report paths that are not there."""
    files: list[Path] = []
    problems: list[Diagnostic] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.suffix in BANK_SUFFIXES and p.is_file())
            if not found:
                problems.append(_file_problem(path, "no-files", "no .yaml files in this folder"))
            files.extend(found)
        elif path.is_file():
            files.append(path)
        else:
            problems.append(_file_problem(path, "not-found", "no such file or folder"))
    unique = list(dict.fromkeys(p.resolve() for p in files))
    by_resolved = {p.resolve(): p for p in files}
    return [by_resolved[p] for p in unique], problems


def load_bank(paths: Iterable[str | Path]) -> Bank:
    files, problems = discover(paths)
    bank = Bank(diagnostics=problems)
    seen_questions: dict[str, Question] = {}
    seen_decks: dict[str, Deck] = {}
    for path in files:
        deck, diagnostics = load_file(path)
        bank.files.append(str(path))
        bank.diagnostics.extend(diagnostics)
        if deck is None:
            continue
        if deck.id in seen_decks:
            bank.diagnostics.append(
                _file_problem(
                    path,
                    "duplicate-id",
                    f"deck id '{deck.id}' is already used by {seen_decks[deck.id].path}",
                )
            )
            continue
        kept: list[Question] = []
        for question in deck.questions:
            first = seen_questions.get(question.id)
            if first is not None:
                loc = question.location
                bank.diagnostics.append(
                    Diagnostic(
                        loc.path,
                        loc.line,
                        loc.column,
                        "error",
                        "duplicate-id",
                        f"duplicate question id '{question.id}' (first defined at {first.location})",
                    )
                )
                continue
            seen_questions[question.id] = question
            kept.append(question)
        seen_decks[deck.id] = deck
        bank.decks.append(_with_questions(deck, kept))
    return bank


def load_file(path: str | Path) -> tuple[Deck | None, list[Diagnostic]]:
    """Load one deck file. Never raises for bad content: problems come back as diagnostics."""
    path = Path(path)
    name = str(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            return None, [
                _file_problem(
                    path,
                    "file-too-large",
                    f"file is {size:,} bytes; bank files are limited to {MAX_FILE_BYTES:,}",
                )
            ]
        raw = path.read_bytes()[: MAX_FILE_BYTES + 1]
    except OSError as exc:
        return None, [_file_problem(path, "unreadable", f"cannot read file: {exc.strerror or exc}")]
    text, problem = _decode(raw, name)
    if problem is not None:
        return None, [problem]
    try:
        root = compose(text)
    except yaml.MarkedYAMLError as exc:
        return None, [_yaml_problem(name, exc)]
    except yaml.reader.ReaderError as exc:
        line, column = _line_col(text, exc.position)
        message = f"YAML cannot contain character #x{exc.character:04x}"
        return None, [Diagnostic(name, line, column, "error", "yaml-syntax", message)]
    except NestingTooDeep as exc:
        return None, [_file_problem(path, "nesting-depth", str(exc))]
    except RecursionError:  # only the pure-Python parser recurses; our limit should come first
        return None, [_file_problem(path, "nesting-depth", "the YAML nests too deeply")]
    except (yaml.YAMLError, ValueError) as exc:
        return None, [_file_problem(path, "yaml-syntax", f"not valid YAML: {_one_line(str(exc))}")]
    budget = max(MIN_VISIT_BUDGET, VISITS_PER_BYTE * len(raw))
    # Without an anchor there can be no alias, so most files skip the expansion count.
    if root is not None and "&" in text and expanded_size(root, budget) > budget:
        return None, [_file_problem(path, "alias-expansion", EXPANSION_MESSAGE)]
    validator = FileValidator(name, budget)
    try:
        deck = validator.file(root)
    except TooMuchWork as stop:
        kept = validator.diagnostics if stop.code == "too-many-errors" else []
        return None, [*kept, _file_problem(path, stop.code, stop.message)]
    return deck, validator.diagnostics


def _decode(raw: bytes, name: str) -> tuple[str, Diagnostic | None]:
    nul = raw.find(b"\x00")
    if nul != -1 and not raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        line = raw.count(b"\n", 0, nul) + 1
        return "", Diagnostic(
            name, line, 1, "error", "binary-file", "this is a binary file, not YAML"
        )
    try:
        return raw.decode("utf-8-sig"), None
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        return "", Diagnostic(
            name,
            line,
            column,
            "error",
            "encoding",
            f"not UTF-8 text (byte 0x{raw[exc.start]:02x}); save the file as UTF-8",
        )


def _yaml_problem(name: str, exc: yaml.MarkedYAMLError) -> Diagnostic:
    mark = exc.problem_mark or exc.context_mark
    line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
    parts = [p for p in (exc.context, exc.problem) if p]
    message = _one_line("; ".join(parts)) or "not valid YAML"
    if "nesting depth" in message:  # libyaml's own limit, met while scanning ahead
        return Diagnostic(name, line, column, "error", "nesting-depth", f"YAML {message}")
    return Diagnostic(name, line, column, "error", "yaml-syntax", f"YAML syntax: {message}")


def _line_col(text: str, position: int) -> tuple[int, int]:
    line = text.count("\n", 0, position) + 1
    return line, position - (text.rfind("\n", 0, position) + 1) + 1


def _file_problem(path: Path, code: str, message: str) -> Diagnostic:
    return Diagnostic(str(path), 1, 1, "error", code, message)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _with_questions(deck: Deck, questions: list[Question]) -> Deck:
    from dataclasses import replace

    return replace(deck, questions=tuple(questions))


def iter_questions(bank: Bank) -> Iterator[Question]:
    for deck in bank.decks:
        yield from deck.questions
