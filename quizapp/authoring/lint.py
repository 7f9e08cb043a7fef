"""`quizapp lint`: check bank files and print every problem where editors and CI can read it."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from quizapp.bank import Bank, Diagnostic, load_bank


@dataclass(frozen=True)
class LintReport:
    bank: Bank
    diagnostics: list[Diagnostic]

    @property
    def error_count(self) -> int:
        return sum(d.severity == "error" for d in self.diagnostics)

    @property
    def warning_count(self) -> int:
        return sum(d.severity == "warning" for d in self.diagnostics)

    @property
    def exit_code(self) -> int:
        return 1 if self.error_count else 0


def lint(paths: Iterable[str | Path], *, strict: bool = False) -> LintReport:
    bank = load_bank(paths)
    diagnostics = list(bank.diagnostics)
    if strict:
        diagnostics = [d.promoted() for d in diagnostics]
    diagnostics.sort(key=lambda d: (d.path, d.line, d.column))
    return LintReport(bank=bank, diagnostics=diagnostics)


def render_text(report: LintReport) -> str:
    return "\n".join(d.format() for d in report.diagnostics)


def render_summary(report: LintReport) -> str:
    return (
        f"{len(report.bank.files)} file(s), {len(report.bank.questions)} question(s) loaded: "
        f"{report.error_count} error(s), {report.warning_count} warning(s)"
    )


def render_json(report: LintReport) -> str:
    payload = {
        "files": len(report.bank.files),
        "questions": len(report.bank.questions),
        "errors": report.error_count,
        "warnings": report.warning_count,
        "diagnostics": [d.as_dict() for d in report.diagnostics],
    }
    return json.dumps(payload, indent=2)
