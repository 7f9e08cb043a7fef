"""What a student answered, as the history keeps it (the `response` column, schema step 3).

The JSON forms, with choice and step indices counted in the bank's written order (the
`Answer` types already count that way; the shuffled display order never reaches here):

- single and multiple choice: `{"chosen": [1, 3]}`
- true/false: `{"chosen": true}`
- numeric: `{"value": 5.0, "text": "5", "trap": 0}`: `value` null when unreadable, `trap`
  the index of the matched trap in `question.traps`, or null
- ordering: `{"order": [2, 0, 1, 3]}`
- flashcard: `{"grade": 3}`
- on any of them, `"variant": {"name": value, ...}` for a varied question's assignment.

A response read back from a history is untrusted (another program may have written the file):
`decode` and `fallen_traps` check every field and drop what does not fit the question as the
bank now stands. Pure: no I/O, no UI.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass

from quizapp.bank.answers import (
    Answer,
    ChoiceAnswer,
    FlashcardRating,
    NumberFormatError,
    NumericAnswerText,
    OrderingAnswer,
    TrueFalseAnswer,
    matching_trap,
    parse_number,
)
from quizapp.bank.model import (
    ChoiceQuestion,
    NumericQuestion,
    Question,
    Scalar,
    TrueFalseQuestion,
)
from quizapp.wording import format_number

Response = dict[str, object]

# Longest stored response text read back; anything longer is not one of ours.
MAX_RESPONSE_CHARS = 20_000


def encode(question: Question, answer: Answer) -> Response:
    """The response for `answer` (indices in the bank's order) to `question` as shown."""
    response: Response
    if isinstance(answer, ChoiceAnswer):
        response = {"chosen": sorted(answer.selected)}
    elif isinstance(answer, TrueFalseAnswer):
        response = {"chosen": bool(answer.value)}
    elif isinstance(answer, NumericAnswerText):
        value: float | None
        try:
            unit = question.answer.unit if isinstance(question, NumericQuestion) else None
            value = parse_number(answer.text, unit)
        except NumberFormatError:
            value = None
        trap = None
        if value is not None and isinstance(question, NumericQuestion):
            trap = matching_trap(question, value)
        response = {"value": value, "text": answer.text, "trap": trap}
    elif isinstance(answer, OrderingAnswer):
        response = {"order": list(answer.order)}
    elif isinstance(answer, FlashcardRating):
        response = {"grade": int(answer.rating)}
    else:  # pragma: no cover - Answer is a closed union
        raise TypeError(f"cannot encode {type(answer).__name__}")
    if question.assignment:
        response["variant"] = dict(question.assignment)
    return response


def to_json(response: Mapping[str, object] | None) -> str | None:
    return None if response is None else json.dumps(dict(response), allow_nan=False)


def from_json(text: object) -> Response | None:
    """A stored response, or None when there is none or it is not a JSON object."""
    if not isinstance(text, str) or len(text) > MAX_RESPONSE_CHARS:
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _index_list(value: object, size: int) -> list[int] | None:
    if not isinstance(value, list):
        return None
    if not all(isinstance(i, int) and not isinstance(i, bool) and 0 <= i < size for i in value):
        return None
    return value


def decode(question: Question, response: Mapping[str, object]) -> Answer | None:
    """The answer a stored response stands for, or None when it does not fit `question`."""
    from quizapp.bank.model import Flashcard, OrderingQuestion

    if isinstance(question, ChoiceQuestion):
        chosen = _index_list(response.get("chosen"), len(question.choices))
        return None if chosen is None else ChoiceAnswer(frozenset(chosen))
    if isinstance(question, TrueFalseQuestion):
        chosen = response.get("chosen")
        return TrueFalseAnswer(chosen) if isinstance(chosen, bool) else None
    if isinstance(question, NumericQuestion):
        text = response.get("text")
        return NumericAnswerText(text) if isinstance(text, str) else None
    if isinstance(question, OrderingQuestion):
        order = _index_list(response.get("order"), len(question.steps))
        if order is None or sorted(order) != list(range(len(question.steps))):
            return None
        return OrderingAnswer(tuple(order))
    if isinstance(question, Flashcard):
        rating = response.get("grade")
        ok = isinstance(rating, int) and not isinstance(rating, bool) and 1 <= rating <= 4
        return FlashcardRating(rating) if ok else None  # type: ignore[arg-type]
    return None


def variant(response: Mapping[str, object]) -> dict[str, Scalar]:
    """The varied question's assignment a response was given under ({} if none)."""
    found = response.get("variant")
    if not isinstance(found, dict):
        return {}
    return {
        str(k): v for k, v in found.items() if v is None or isinstance(v, str | int | float | bool)
    }


@dataclass(frozen=True)
class FallenTrap:
    """One known wrong answer a student gave: a wrong choice, the wrong truth value, or a
    numeric trap. `key` identifies it within its question, stable across sessions."""

    question_id: str
    key: str  # "choice:2", "true_false:true", "numeric:0"
    answer: str  # what they picked, as the bank writes it
    why: str | None  # the bank's why for it


def fallen_traps(question: Question, response: Mapping[str, object]) -> list[FallenTrap]:
    """The distractors and numeric traps a stored response fell for (none for a right answer,
    an ordering or a flashcard)."""
    if isinstance(question, ChoiceQuestion):
        chosen = _index_list(response.get("chosen"), len(question.choices)) or []
        return [
            FallenTrap(
                question.id, f"choice:{i}", question.choices[i].text, question.choices[i].why
            )
            for i in sorted(set(chosen))
            if not question.choices[i].correct
        ]
    if isinstance(question, TrueFalseQuestion):
        chosen = response.get("chosen")
        if not isinstance(chosen, bool) or chosen == question.answer:
            return []
        why = question.why_true if chosen else question.why_false
        shown = "True" if chosen else "False"
        return [FallenTrap(question.id, f"true_false:{shown.lower()}", shown, why)]
    if isinstance(question, NumericQuestion):
        trap = response.get("trap")
        if isinstance(trap, bool) or not isinstance(trap, int):
            return []
        if not 0 <= trap < len(question.traps):
            return []
        value = question.traps[trap].value
        unit = f" {question.answer.unit}" if question.answer.unit else ""
        shown = format_number(value) + unit if math.isfinite(value) else str(value)
        return [FallenTrap(question.id, f"numeric:{trap}", shown, question.traps[trap].why)]
    return []
