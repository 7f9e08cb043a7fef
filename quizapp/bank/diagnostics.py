"""Located problems found while loading a bank: the one shape every error and warning takes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from quizapp.bank.literal import terminal_safe
from quizapp.bank.text_checks import shown_visibly

Severity = Literal["error", "warning"]


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem at one place. Lines and columns are 1-based, as editors count them."""

    path: str
    line: int
    column: int
    severity: Severity
    code: str
    message: str

    def format(self) -> str:
        """The problem as one line for a terminal or a log.

        The `path:line:col: severity: message` shape is what editors and CI annotators parse.
        The path and the message may quote a hostile file, so control characters in them are
        shown as escapes, and so are invisible characters, which would hide what a message
        quotes (`as_dict` keeps them as they are, for JSON to escape).
        """
        path, message = (terminal_safe(shown_visibly(t, None)) for t in (self.path, self.message))
        return f"{path}:{self.line}:{self.column}: {self.severity}: {message} [{self.code}]"

    def as_dict(self) -> dict[str, object]:
        return {
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
        }

    def promoted(self) -> Diagnostic:
        """The same problem as an error (for `--strict`)."""
        if self.severity == "error":
            return self
        return Diagnostic(self.path, self.line, self.column, "error", self.code, self.message)


class BankError(Exception):
    """A problem that keeps a file (or a question) out of the bank. Carries its diagnostic."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.format())
        self.diagnostic = diagnostic
