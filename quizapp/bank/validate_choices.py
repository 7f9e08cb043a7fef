"""Choice questions: single_choice and multiple_choice, and true_false's answer and whys."""

from __future__ import annotations

from collections.abc import Callable

from quizapp.bank import fields as F
from quizapp.bank.model import Choice, Location, QuestionType
from quizapp.bank.text_checks import comparison_key, without_invisible
from quizapp.bank.validate_keys import read_tie
from quizapp.bank.validate_nodes import NodeReader
from quizapp.bank.yaml12 import MappingNode, Node


def read_choice_fields(
    reader: NodeReader, qtype: QuestionType, node: Node, get: Callable[[str], Node | None]
) -> dict[str, object] | None:
    shuffle = True
    if get("shuffle") is not None:
        shuffle = reader.boolean(get("shuffle"), "shuffle")
    choices_node = get("choices")
    if choices_node is None:
        return None
    items = reader.sequence(choices_node, "choices")
    if items is None:
        return None
    if not F.MIN_CHOICES <= len(items) <= F.MAX_CHOICES:
        reader.report(
            choices_node,
            "choice-count",
            f"a question needs {F.MIN_CHOICES} to {F.MAX_CHOICES} choices, not {len(items)}",
        )
        return None
    choices: list[Choice] = []
    texts: dict[str, tuple[Location, str]] = {}
    for item in items:
        found = reader.mapping(item, F.CHOICE_FIELDS, "a choice")
        if found is None:
            continue
        text = reader.text(found["text"][1], "choice text") if "text" in found else None
        correct = reader.boolean(found["correct"][1], "correct") if "correct" in found else False
        why = reader.text(found["why"][1], "why") if "why" in found else None
        holds = read_tie(reader, found["holds"][1], "holds") if "holds" in found else None
        if "holds" in found and holds is None:
            continue
        if "why" not in found:
            reader.report(
                item,
                "no-why",
                "choice has no 'why' (why it is right, or which trap)",
                "warning",
            )
        if text is None or correct is None:
            continue
        key = comparison_key(text)
        if key in texts:
            first, first_text = texts[key]
            reader.report(
                item,
                "duplicate-choice",
                f"the same choice appears twice (first at line {first.line}, column "
                f"{first.column}){_hidden_difference(first_text, text)}",
            )
            continue
        texts[key] = (reader.location(item), text)
        choices.append(
            Choice(
                text=text,
                correct=correct,
                why=why,
                location=reader.location(item),
                holds=holds,
            )
        )
    if len(choices) != len(items):
        return None
    n_correct = sum(c.correct for c in choices)
    if qtype is QuestionType.SINGLE_CHOICE and n_correct != 1:
        reader.report(
            choices_node,
            "correct-count",
            f"a single_choice question needs exactly one correct choice, not {n_correct}"
            + (" (use multiple_choice for several)" if n_correct > 1 else ""),
        )
        return None
    if qtype is QuestionType.MULTIPLE_CHOICE and n_correct == 0:
        reader.report(
            choices_node, "correct-count", "a multiple_choice question needs a correct choice"
        )
        return None
    if shuffle is None:
        return None
    return {"choices": tuple(choices), "shuffle": shuffle}


def _hidden_difference(first: str, second: str) -> str:
    """Say so when invisible characters are why two choices that read alike differ."""
    if first == second or (without_invisible(first), without_invisible(second)) == (first, second):
        return ""
    return "; invisible characters are all that tell them apart"


def read_true_false_fields(
    reader: NodeReader, node: Node, get: Callable[[str], Node | None]
) -> dict[str, object] | None:
    answer_node = get("answer")
    answer = None
    if isinstance(answer_node, MappingNode):
        reader.report(
            answer_node,
            "wrong-type",
            "a true_false answer is true or false, not a mapping; to tie it to the "
            "computation, keep 'answer: true' (or false) and add 'holds: CLAIM' beside it",
        )
    elif answer_node is not None:
        answer = reader.boolean(answer_node, "answer")
    holds = read_tie(reader, get("holds"), "holds") if get("holds") is not None else None
    if get("holds") is not None and holds is None:
        return None
    why = {
        k: reader.text(get(k), k) if get(k) is not None else None for k in ("why_true", "why_false")
    }
    for key, text in why.items():
        if text is None and get(key) is None:
            reader.report(node, "no-why", f"true_false question has no '{key}'", severity="warning")
    return None if answer is None else {"answer": answer, **why, "holds": holds}
