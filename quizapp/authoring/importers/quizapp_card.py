"""quizapp's own Anki cards read back as the questions they were made from.

`quizapp export --format anki` (quizapp.authoring.export) writes one note per question with
the fields Front, Back and QuizappId. The front is the prompt, then what the type needs: the
options (`<ol class="options">`, shuffled), a "Select all that apply." line for multiple
choice, "True or false?", "Answer in UNIT.", or the steps to order. The back is the answer
(`class="correct"` marks the right options, the true/false answer and the numeric key; each
`class="why"` holds a why), then `<hr>`, the explanation, and the source in
`<div class="source">`.

This reads that structure back, as fully as the card keeps it: the id, the type, the
prompt, every option with the right ones marked and every why the back shows, the
true/false answer and its why, the numeric key with its unit, tolerance and traps, the
steps in order, a flashcard's back, the explanation and the source. What the card does not
keep cannot come back: the difficulty (imported as medium), a topic other than the deck's,
the computation, `shuffle: false` and the option order (the front shows the options
shuffled), the why of the true/false answer that is wrong, and the digits of a non-integer
key beyond the six the card shows.
"""

from __future__ import annotations

import re
from typing import Any

from quizapp.authoring.importers.html_text import Element, has_class, parse_html, to_markdown

SELECT_ALL = "Select all that apply."
TRUE_OR_FALSE = "True or false?"
PUT_IN_ORDER = "Put these in order:"
_ANSWER_IN = re.compile(r"^Answer in (?P<unit>.+)\.$", re.DOTALL)
_TOLERANCE = re.compile(r" \((?:± (?P<tol>[^()]+)|within (?P<rel>[^()%]+)%)\)$")
_NUMBER = re.compile(r"^[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:e[-+]?\d+)?$")


class CardError(Exception):
    """The note is not a quizapp card this can read; the message says why."""


def _nodes(root: Element) -> list[Element | str]:
    return [c for c in root.children if not (isinstance(c, str) and not c.strip())]


def _marker(node: Element | str) -> str | None:
    """A line the export adds after the prompt, as its text; None for prompt content."""
    if not isinstance(node, Element):
        return None
    if node.tag == "ol" and "options" in node.classes:
        return "options"
    if node.tag == "ul" and "steps" in node.classes:
        return "steps"
    if node.tag == "p":
        inner = _nodes(node)
        if len(inner) == 1 and isinstance(inner[0], Element) and inner[0].tag == "em":
            text = inner[0].text().strip()
            if text in (SELECT_ALL, TRUE_OR_FALSE, PUT_IN_ORDER) or _ANSWER_IN.match(text):
                return text
    return None


def _items(list_element: Element) -> list[Element]:
    return [c for c in list_element.children if isinstance(c, Element) and c.tag == "li"]


def _without_why(item: Element) -> tuple[str, str | None]:
    """A list item's own text and the why inside it."""
    why = next((c for c in item.children if isinstance(c, Element) and "why" in c.classes), None)
    own = [c for c in item.children if c is not why]
    return to_markdown(own), (to_markdown(why) or None) if why is not None else None


def _number(text: str, what: str) -> int | float:
    cleaned = text.strip()
    if not _NUMBER.match(cleaned):
        raise CardError(f"the {what} '{text}' is not a number")
    value = float(cleaned.replace(",", ""))
    return int(value) if value.is_integer() and abs(value) < 2**53 else value


def question_from_card(front: str, back: str) -> dict[str, Any]:
    """The bank mapping (without id, tags and difficulty) of a quizapp card. Raises CardError."""
    front_nodes = _nodes(parse_html(front))
    markers: dict[str, Element] = {}
    while front_nodes and (kind := _marker(front_nodes[-1])) is not None:
        node = front_nodes.pop()
        assert isinstance(node, Element)
        markers[kind] = node
    prompt = to_markdown(front_nodes)
    if not prompt:
        raise CardError("the front has no prompt")

    back_nodes = _nodes(parse_html(back))
    rule = next(
        (i for i, n in enumerate(back_nodes) if isinstance(n, Element) and n.tag == "hr"), None
    )
    if rule is None:
        raise CardError("the back has no <hr> before the explanation: not a quizapp card")
    answer_nodes, rest = back_nodes[:rule], back_nodes[rule + 1 :]
    source_div = next((n for n in rest if isinstance(n, Element) and "source" in n.classes), None)
    explanation = to_markdown([n for n in rest if n is not source_div])
    if not explanation:
        raise CardError("the back has no explanation")
    answer = Element("#answer", children=list(answer_nodes))

    question: dict[str, Any] = {"prompt": prompt}
    unit = None
    for kind in markers:
        if match := _ANSWER_IN.match(kind):
            unit = match.group("unit").strip()
    if "options" in markers:
        question |= _choice(markers, answer)
    elif TRUE_OR_FALSE in markers:
        question |= _true_false(answer)
    elif (steps := answer.find(has_class("steps", "ol"))) is not None:
        question |= _ordering(steps)
    elif (key := answer.find(has_class("correct", "p"))) is not None:
        question |= _numeric(key, unit, answer)
    else:
        back_text = to_markdown(answer_nodes)
        if not back_text:
            raise CardError("the back is empty")
        question |= {"type": "flashcard", "back": back_text}
    question["explanation"] = explanation
    if source_div is not None and (source := " ".join(source_div.text().split())):
        question["source"] = source
    return question


def _choice(markers: dict[str, Element], answer: Element) -> dict[str, Any]:
    options = [to_markdown(li) for li in _items(markers["options"])]
    whys: dict[str, str] = {}
    right: list[str] = []
    for span in answer.find_all(has_class("correct", "span")):
        right.append(to_markdown(span))
    for item in answer.find_all(lambda e: e.tag == "li"):
        span = item.find(has_class("correct", "span"))
        why = item.find(has_class("why"))
        if why is None:
            continue
        text = to_markdown(span) if span is not None else _without_why(item)[0]
        whys[text] = to_markdown(why)
    unknown = [text for text in right if text not in options]
    if unknown:
        raise CardError(f"the back marks '{unknown[0]}' right, which the front does not offer")
    choices: list[dict[str, Any]] = []
    for text in options:
        choice: dict[str, Any] = {"text": text}
        if text in right:
            choice["correct"] = True
        if whys.get(text):
            choice["why"] = whys[text]
        choices.append(choice)
    qtype = "multiple_choice" if SELECT_ALL in markers else "single_choice"
    return {"type": qtype, "choices": choices}


def _true_false(answer: Element) -> dict[str, Any]:
    key = answer.find(has_class("correct", "p"))
    said = key.text().strip() if key is not None else ""
    if said not in ("True", "False"):
        raise CardError(f"the back says '{said}', not True or False")
    out: dict[str, Any] = {"type": "true_false", "answer": said == "True"}
    why = answer.find(has_class("why"))
    if why is not None and (text := to_markdown(why)):
        out["why_true" if said == "True" else "why_false"] = text
    return out


def _ordering(steps: Element) -> dict[str, Any]:
    items: list[Any] = []
    for li in _items(steps):
        text, why = _without_why(li)
        items.append({"text": text, "why": why} if why else text)
    return {"type": "ordering", "steps": items}


def _numeric(key: Element, unit: str | None, answer: Element) -> dict[str, Any]:
    text = " ".join(key.text().split())
    if "as computed by" in text:
        raise CardError(
            f"the key reads '{text}': the export could not compute it, so the card has no number"
        )
    value: dict[str, Any] = {}
    if match := _TOLERANCE.search(text):
        if match.group("tol"):
            value["tolerance"] = _number(match.group("tol"), "tolerance")
        else:
            value["relative_tolerance"] = round(_number(match.group("rel"), "tolerance") / 100, 12)
        text = text[: match.start()]
    if unit and text.endswith(" " + unit):
        text = text[: -len(unit) - 1]
    value = {"value": _number(text, "key"), **value}
    if unit:
        value["unit"] = unit
    out: dict[str, Any] = {"type": "numeric", "answer": value}
    traps = []
    for item in answer.find_all(lambda e: e.tag == "li"):
        number, sep, why = to_markdown(item).partition(": ")
        if sep:
            traps.append({"value": _number(number, "trap"), "why": why})
    if traps:
        out["traps"] = traps
    return out
