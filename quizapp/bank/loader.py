"""Load a bank from files and folders. A broken file is reported and skipped; the rest load.

Within a file, a question whose YAML is broken is reported and left out, and the other
questions still load (yaml_pieces.py); a syntax error outside the questions drops the file.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from pathlib import Path

import yaml

from quizapp.bank.diagnostics import Diagnostic
from quizapp.bank.discovery import discover, file_problem
from quizapp.bank.literal import BANK_TEXT_RULE, is_forbidden, named_character
from quizapp.bank.model import Bank, Deck
from quizapp.bank.validate import EXPANSION_MESSAGE, FileValidator, TooMuchWork
from quizapp.bank.yaml12 import NestingTooDeep, Node, compose, expanded_size
from quizapp.bank.yaml_errors import explain

MAX_FILE_BYTES = 4 * 1024 * 1024
# Visits allowed per byte of YAML: generous for real files, fatal for alias bombs,
# whose expansion grows exponentially while their text stays small.
VISITS_PER_BYTE = 1
MIN_VISIT_BUDGET = 200_000


def load_bank(
    paths: Iterable[str | Path],
    computations: Collection[str] | None = None,
    unknown_hint: Callable[[str], str] | None = None,
) -> Bank:
    """Every deck in `paths`. With `computations` (the registry's names: the app, a preview
    and lint pass them), a question naming another computation is an error and is left out;
    `unknown_hint(name)` says what the name may have meant (by default, by spelling)."""
    files, problems = discover(paths)
    names = None if computations is None else frozenset(computations)
    loaded = ((str(path), *load_file(path, names, unknown_hint)) for path in files)
    return Bank.combine(loaded, problems, computations=names)


def load_file(
    path: str | Path,
    computations: Collection[str] | None = None,
    unknown_hint: Callable[[str], str] | None = None,
) -> tuple[Deck | None, list[Diagnostic]]:
    """Load one deck file. Never raises for bad content: problems come back as diagnostics."""
    path = Path(path)
    name = str(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            return None, [
                file_problem(
                    path,
                    "file-too-large",
                    f"file is {size:,} bytes; bank files are limited to {MAX_FILE_BYTES:,}",
                )
            ]
        raw = path.read_bytes()[: MAX_FILE_BYTES + 1]
    except OSError as exc:
        return None, [file_problem(path, "unreadable", f"cannot read file: {exc.strerror or exc}")]
    text, problem = _decode(raw, name)
    if problem is not None:
        return None, [problem]
    broken: list[Diagnostic] = []  # questions left out for their YAML syntax
    try:
        root = compose(text)
    except yaml.MarkedYAMLError as exc:
        recovered = _recover(name, text, exc)
        if isinstance(recovered, Diagnostic):
            return None, [recovered]
        root, broken = recovered
    except yaml.reader.ReaderError as exc:
        return None, [_unreadable_character(name, text, exc)]
    except NestingTooDeep as exc:
        return None, [file_problem(path, "nesting-depth", str(exc))]
    except RecursionError:  # only the pure-Python parser recurses; our limit should come first
        return None, [file_problem(path, "nesting-depth", "the YAML nests too deeply")]
    except (yaml.YAMLError, ValueError) as exc:
        return None, [file_problem(path, "yaml-syntax", f"not valid YAML: {_one_line(str(exc))}")]
    budget = max(MIN_VISIT_BUDGET, VISITS_PER_BYTE * len(raw))
    # Without an anchor there can be no alias, so most files skip the expansion count.
    if root is not None and "&" in text and expanded_size(root, budget) > budget:
        return None, [file_problem(path, "alias-expansion", EXPANSION_MESSAGE)]
    validator = FileValidator(name, budget, text, computations, unknown_hint)
    try:
        deck = validator.file(root)
    except TooMuchWork as stop:
        kept = validator.diagnostics if stop.code == "too-many-errors" else []
        return None, [*broken, *kept, file_problem(path, stop.code, stop.message)]
    return deck, [*broken, *validator.diagnostics]


def _recover(
    name: str, text: str, error: yaml.MarkedYAMLError
) -> tuple[Node, list[Diagnostic]] | Diagnostic:
    """The file's tree without the questions whose YAML is broken, and their errors; or the
    one error that keeps the whole file out (it is outside the questions, or none parses)."""
    from quizapp.bank.yaml_pieces import recover  # only for a file with a syntax error

    lines = text.split("\n")
    problem = _yaml_problem(name, error, lines)
    if problem.code != "yaml-syntax":
        return problem
    try:
        recovered = recover(text, lines, error)
    except NestingTooDeep:
        recovered = None
    if recovered is None or not recovered.kept:
        return problem
    return recovered.root, [
        Diagnostic(name, found.line, found.column, "error", "yaml-syntax", found.message)
        for found in recovered.broken
    ]


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


def _unreadable_character(name: str, text: str, exc: yaml.reader.ReaderError) -> Diagnostic:
    line, column = _line_col(text, exc.position)
    character = chr(exc.character) if isinstance(exc.character, int) else str(exc.character)
    if is_forbidden(character):
        # Written raw into the file (an escape like "\e" is caught by the validator instead).
        message = f"the file holds a raw {named_character(character)}; {BANK_TEXT_RULE}"
        return Diagnostic(name, line, column, "error", "control-character", message)
    message = f"YAML cannot contain character #x{ord(character):04x}"
    return Diagnostic(name, line, column, "error", "yaml-syntax", message)


def _yaml_problem(name: str, exc: yaml.MarkedYAMLError, lines: list[str]) -> Diagnostic:
    parts = [p for p in (exc.context, exc.problem) if p]
    message = _one_line("; ".join(parts)) or "not valid YAML"
    if "nesting depth" in message:  # libyaml's own limit, met while scanning ahead
        mark = exc.problem_mark or exc.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        return Diagnostic(name, line, column, "error", "nesting-depth", f"YAML {message}")
    found = explain(exc, lines)
    return Diagnostic(name, found.line, found.column, "error", "yaml-syntax", found.message)


def _line_col(text: str, position: int) -> tuple[int, int]:
    line = text.count("\n", 0, position) + 1
    return line, position - (text.rfind("\n", 0, position) + 1) + 1


def _one_line(text: str) -> str:
    return " ".join(text.split())
