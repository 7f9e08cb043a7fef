"""The loader's messages, reworded for whoever fills in the spreadsheet.

Each row is checked by the bank loader itself, whose messages speak of YAML keys ("a question
is missing required key 'explanation'"). A teacher sees cells and columns: "the explanation
cell is empty". Messages with no rewrite here pass through; they already name the column.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from quizapp.bank.model import Difficulty, QuestionType

_ALLOWED = {
    "type": " (" + ", ".join(t.value for t in QuestionType) + ")",
    "difficulty": " (" + ", ".join(d.value for d in Difficulty) + ")",
}


def _empty_cell(match: re.Match[str]) -> str:
    column = match["key"]
    return f"the {column} cell is empty{_ALLOWED.get(column, '')}"


def _a(word: str) -> str:
    return f"{'an' if word[:1] in 'aeiou' else 'a'} {word}"


def _type_needs(match: re.Match[str]) -> str:
    qtype, column = match["type"], match["key"]
    if qtype == QuestionType.NUMERIC.value and column == "answer":
        return "the answer cell is empty (a numeric question needs answer, or answer_from)"
    return f"the {column} cell is empty ({_a(qtype)} question needs it)"


def _not_for_type(match: re.Match[str]) -> str:
    return (
        f"the {match['key']} cell is for {match['owners']} questions only; "
        f"leave it empty for {_a(match['type'])} question"
    )


_REWRITES: tuple[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]], ...] = (
    # Lines of the YAML the row became mean nothing in the spreadsheet.
    (re.compile(r" \((?:first at |first defined at )?line \d+\)"), ""),
    (re.compile(r"^a trap is missing required key 'why'$"), "each trap needs its why in trap_whys"),
    (re.compile(r"^a question is missing required key '(?P<key>\w+)'$"), _empty_cell),
    (re.compile(r"^an? (?P<type>\w+) question is missing '(?P<key>\w+)'$"), _type_needs),
    (
        re.compile(
            r"^'(?P<key>\w+)' does not apply to (?P<type>\w+) questions \(it belongs to "
            r"(?P<owners>[\w, ]+)\)$"
        ),
        _not_for_type,
    ),
    (re.compile(r"^value must be"), "answer must be"),
    (re.compile(r"^value: "), "answer: "),
    (re.compile(r"'value' and 'from'"), "answer and answer_from"),
    (re.compile(r"^'from' names"), "answer_from names"),
    (re.compile(r"'why'"), "why (whys)"),
)


def sheet_message(message: str) -> str:
    """The loader's `message`, as the spreadsheet's author would put it."""
    for pattern, replacement in _REWRITES:
        message = pattern.sub(replacement, message)
    return message


__all__ = ["sheet_message"]
