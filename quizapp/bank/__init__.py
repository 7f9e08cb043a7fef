"""Question banks: the YAML format, its strict loader and the question model.

Pure Python: nothing here imports torch or textual (an import-linter contract and a
subprocess test hold this). The YAML loader is imported on first use, so code that only
needs the model (or a cached bank) does not pay for it.
"""

from typing import TYPE_CHECKING

from quizapp.bank.diagnostics import BankError, Diagnostic
from quizapp.bank.discovery import bundled_bank_path, discover
from quizapp.bank.model import (
    Bank,
    Choice,
    ChoiceQuestion,
    Claim,
    ComputeSpec,
    Deck,
    Difficulty,
    Flashcard,
    Location,
    NumericAnswer,
    NumericQuestion,
    OrderingQuestion,
    Question,
    QuestionType,
    Step,
    Trap,
    TrueFalseQuestion,
)

if TYPE_CHECKING:
    from quizapp.bank.cache import load_bank_cached
    from quizapp.bank.loader import load_bank, load_file

_LAZY = {
    "load_bank": "quizapp.bank.loader",
    "load_file": "quizapp.bank.loader",
    "load_bank_cached": "quizapp.bank.cache",
}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'quizapp.bank' has no attribute {name!r}")


__all__ = [
    "Bank",
    "BankError",
    "Choice",
    "ChoiceQuestion",
    "Claim",
    "ComputeSpec",
    "Deck",
    "Diagnostic",
    "Difficulty",
    "Flashcard",
    "Location",
    "NumericAnswer",
    "NumericQuestion",
    "OrderingQuestion",
    "Question",
    "QuestionType",
    "Step",
    "Trap",
    "TrueFalseQuestion",
    "bundled_bank_path",
    "discover",
    "load_bank",
    "load_bank_cached",
    "load_file",
]
