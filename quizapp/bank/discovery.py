"""Which files make up a bank: folders expanded, paths checked, the bundled bank located.

Light on purpose (no YAML): the app and the bank cache use it before deciding to parse.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from quizapp.bank.diagnostics import Diagnostic

BANK_SUFFIXES = (".yaml", ".yml")


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
                problems.append(file_problem(path, "no-files", "no .yaml files in this folder"))
            files.extend(found)
        elif path.is_file():
            files.append(path)
        else:
            problems.append(file_problem(path, "not-found", "no such file or folder"))
    unique = list(dict.fromkeys(p.resolve() for p in files))
    by_resolved = {p.resolve(): p for p in files}
    return [by_resolved[p] for p in unique], problems


def file_problem(path: Path, code: str, message: str) -> Diagnostic:
    return Diagnostic(str(path), 1, 1, "error", code, message)
