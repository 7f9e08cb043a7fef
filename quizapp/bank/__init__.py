"""Question banks: the YAML format, its strict loader and the question model.

Pure Python: nothing here imports torch or textual (an import-linter contract and a
subprocess test hold this).
"""

from quizapp.bank.diagnostics import BankError, Diagnostic
from quizapp.bank.loader import Bank, bundled_bank_path, load_bank, load_file
from quizapp.bank.model import (
    Choice,
    ChoiceQuestion,
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

__all__ = [
    "Bank",
    "BankError",
    "Choice",
    "ChoiceQuestion",
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
    "load_bank",
    "load_file",
]
