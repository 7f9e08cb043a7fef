"""Turn one file's YAML node tree into a Deck, reporting every problem with its place.

The walk reads the node tree directly (never a constructed Python structure), descends
only where the format expects something, and counts every node it looks at, so an
alias-bombed file is cut off after a bounded amount of work.

This module reads the file, its deck and each question's common fields; the shapes they are
read with are validate_nodes.py, and each question type's own fields have a module:
validate_choices.py, validate_numeric.py, validate_ordering.py; a compute block is
validate_compute.py (its claims, expect.py) and a vary block validate_vary.py.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Collection
from dataclasses import replace

from quizapp.bank import fields as F
from quizapp.bank.bounded import EXAM_WEIGHT, shown
from quizapp.bank.diagnostics import Diagnostic
from quizapp.bank.model import (
    ChoiceQuestion,
    Deck,
    Difficulty,
    Flashcard,
    Location,
    NumericQuestion,
    OrderingQuestion,
    Question,
    QuestionType,
    TrueFalseQuestion,
)
from quizapp.bank.validate_choices import read_choice_fields, read_true_false_fields
from quizapp.bank.validate_compute import read_compute
from quizapp.bank.validate_keys import check_ties_have_compute
from quizapp.bank.validate_nodes import (
    BAD,
    EXPANSION_MESSAGE,
    MAX_ERRORS_PER_FILE,
    TAG_RE,
    NodeReader,
    TooMuchWork,
)
from quizapp.bank.validate_numeric import read_numeric_answer, read_traps
from quizapp.bank.validate_ordering import BadOrder, read_order_by_value, read_steps
from quizapp.bank.validate_vary import check_placeholders, read_vary
from quizapp.bank.yaml12 import Node

# Read from here by the loader and the tests.
__all__ = ["EXPANSION_MESSAGE", "MAX_ERRORS_PER_FILE", "FileValidator", "TooMuchWork"]


class FileValidator(NodeReader):
    """Validates one parsed file. Diagnostics accumulate in `self.diagnostics`.

    With `computations` (the registry's names, which the bank may not import), a question
    whose `compute.name` is none of them is an error and is left out: the app could show it,
    but its computation would fail in the lab after the student answered.
    """

    def __init__(
        self,
        path: str,
        visit_budget: int,
        source: str = "",
        computations: Collection[str] | None = None,
        unknown_hint: Callable[[str], str] | None = None,
    ) -> None:
        super().__init__(path, visit_budget, source)
        self.computations = computations
        self.unknown_hint = unknown_hint  # the registry's suggestions; else by spelling

    def file(self, root: Node | None) -> Deck | None:
        if root is None:
            self.diagnostics.append(
                Diagnostic(self.path, 1, 1, "error", "empty-file", "the file has no deck in it")
            )
            self.error_count += 1
            return None
        top = self.mapping(root, F.FILE_FIELDS, "the file")
        if top is None:
            return None
        if "format" in top:
            version = self.scalar(top["format"][1], "format")
            if version is not BAD and version != F.FORMAT_VERSION:
                self.report(
                    top["format"][1],
                    "bad-value",
                    f"format {version!r} is not supported; this quizapp reads format {F.FORMAT_VERSION}",
                )
        deck_fields = self.deck_fields(top["deck"][1]) if "deck" in top else None
        if deck_fields is None or "questions" not in top:
            return None
        errors_before = self.error_count
        deck = Deck(**deck_fields, path=self.path)
        if self.error_count > errors_before:
            return None
        items = self.sequence(top["questions"][1], "questions")
        if items is None:
            return None
        if not items:
            self.report(top["questions"][1], "bad-value", "questions must not be empty")
        if len(items) > F.MAX_DECK_QUESTIONS:
            message = f"{len(items):,} questions; a deck has at most {F.MAX_DECK_QUESTIONS:,}"
            self.report(top["questions"][1], "bad-value", message + " (split it into decks)")
            return None
        questions: list[Question] = []
        seen: dict[str, Location] = {}
        for item in items:
            question = self.question(item, deck)
            if question is None:
                continue
            if question.id in seen:
                first = seen[question.id]
                self.report(
                    item,
                    "duplicate-id",
                    f"duplicate question id '{question.id}' (first at line {first.line})",
                )
                continue
            seen[question.id] = question.location
            questions.append(question)
        return replace(deck, questions=tuple(questions))

    def deck_fields(self, node: Node) -> dict[str, object] | None:
        found = self.mapping(node, F.DECK_FIELDS, "deck")
        if found is None:
            return None
        errors_before = self.error_count
        values: dict[str, object] = {
            "id": self.identifier(found["id"][1], "deck id") if "id" in found else None,
            "title": self.text(found["title"][1], "title") if "title" in found else None,
            "topic": self.identifier(found["topic"][1], "topic") if "topic" in found else None,
            "domain": self.text(found["domain"][1], "domain") if "domain" in found else None,
            "exam_weight": None,
            "description": None,
        }
        if "exam_weight" in found:
            node_w = found["exam_weight"][1]
            weight = self.number(node_w, "exam_weight")
            if weight is not None and weight <= 0:
                self.report(node_w, "bad-value", "exam_weight must be greater than 0")
                weight = None
            elif weight is not None and not EXAM_WEIGHT.contains(weight):
                message = f"exam_weight must be {EXAM_WEIGHT.describe()}, not {shown(weight)}"
                self.report(node_w, "bad-value", message)
                weight = None
            values["exam_weight"] = weight
        if "description" in found:
            values["description"] = self.text(found["description"][1], "description")
        if self.error_count > errors_before or any(
            values[k] is None for k, spec in F.DECK_FIELDS.items() if spec.required
        ):
            return None
        return values

    # -- questions --------------------------------------------------------------------------

    def question(self, node: Node, deck: Deck) -> Question | None:
        errors_before = self.error_count
        found = self.mapping(node, F.ALL_QUESTION_FIELDS, "a question")
        if found is None:
            return None
        qtype: QuestionType | None = None
        if "type" in found:
            raw = self.choice_of(found["type"][1], "type", [t.value for t in QuestionType])
            qtype = QuestionType(raw) if raw else None
        allowed = dict(F.COMMON_QUESTION_FIELDS)
        if qtype is not None:
            allowed.update(F.TYPE_FIELDS[qtype])
            for key, (key_node, _) in found.items():
                if key not in allowed:
                    owners = [t.value for t, fs in F.TYPE_FIELDS.items() if key in fs]
                    self.report(
                        key_node,
                        "unknown-key",
                        f"'{key}' does not apply to {qtype.value} questions "
                        f"(it belongs to {', '.join(owners)})",
                    )
            for key, spec in F.TYPE_FIELDS[qtype].items():
                if spec.required and key not in found:
                    self.report(node, "missing-key", f"a {qtype.value} question is missing '{key}'")

        def get(key: str) -> Node | None:
            entry = found.get(key)
            return entry[1] if entry else None

        qid = self.identifier(get("id"), "question id") if get("id") is not None else None
        prompt = self.text(get("prompt"), "prompt") if get("prompt") is not None else None
        explanation = (
            self.text(get("explanation"), "explanation") if get("explanation") is not None else None
        )
        difficulty = None
        if get("difficulty") is not None:
            raw = self.choice_of(get("difficulty"), "difficulty", [d.value for d in Difficulty])
            difficulty = Difficulty(raw) if raw else None
        tags = self.tags(get("tags")) if get("tags") is not None else None
        topic = deck.topic
        if get("topic") is not None:
            topic = self.identifier(get("topic"), "topic") or deck.topic
        source = self.text(get("source"), "source") if get("source") is not None else None
        pairs_with = self.pairs_with(get("pairs_with")) if get("pairs_with") is not None else ()
        field_locations = {
            key: self.location(entry[0])
            for key in ("source", "pairs_with")
            if (entry := found.get(key))
        }
        compute = read_compute(self, get("compute")) if get("compute") is not None else None
        known = self.computations
        if compute is not None and known is not None and compute.name not in known:
            self.report_at(compute.location, "unknown-computation", self._unknown(compute.name))
        vary = read_vary(self, get("vary")) if get("vary") is not None else {}
        if get("compute") is None:
            self.report(
                node,
                "no-compute",
                "question has no live computation behind its explanation",
                severity="warning",
            )

        typed: dict[str, object] | None = None
        if qtype is not None:
            # Whether a compute block is written, not whether it read cleanly: a claim it
            # refused is reported at the claim, and `from:` must not add that it is missing.
            typed = self.typed_fields(qtype, node, get, get("compute") is not None)
        if self.error_count > errors_before or typed is None:
            return None
        assert qid and prompt and explanation and difficulty and tags is not None
        common = {
            "id": qid,
            "type": qtype,
            "prompt": prompt,
            "explanation": explanation,
            "topic": topic,
            "tags": tags,
            "difficulty": difficulty,
            "deck_id": deck.id,
            "location": self.location(node),
            "source": source,
            "pairs_with": pairs_with or (),
            "field_locations": field_locations,
            "compute": compute,
            "vary": vary or {},
        }
        cls = {
            QuestionType.SINGLE_CHOICE: ChoiceQuestion,
            QuestionType.MULTIPLE_CHOICE: ChoiceQuestion,
            QuestionType.TRUE_FALSE: TrueFalseQuestion,
            QuestionType.NUMERIC: NumericQuestion,
            QuestionType.ORDERING: OrderingQuestion,
            QuestionType.FLASHCARD: Flashcard,
        }[qtype]
        question = cls(**common, **typed)
        if not check_ties_have_compute(self, question, get("compute") is not None):
            return None
        return check_placeholders(self, question, node)

    def _unknown(self, name: str) -> str:
        if self.unknown_hint is not None:
            hint = self.unknown_hint(name)
        else:
            close = difflib.get_close_matches(name, sorted(self.computations or ()), n=1)
            hint = f"did you mean '{close[0]}'?" if close else "see 'quizapp compute --list'"
        return f"unknown computation '{name}' ({hint}); the question is left out"

    def tags(self, node: Node) -> tuple[str, ...] | None:
        items = self.sequence(node, "tags")
        if items is None:
            return None
        if not items:
            self.report(node, "bad-value", "tags must list at least one tag")
            return None
        if len(items) > F.MAX_TAGS:
            # Refused by its length, before any tag is read: 10**5 tags cost no more than 65.
            self.report(
                node, "bad-value", f"{len(items)} tags; a question has at most {F.MAX_TAGS}"
            )
            return None
        tags: dict[str, None] = {}  # ordered, and a repeated tag is found in constant time
        for item in items:
            tag = self.identifier(item, "tag", TAG_RE)
            if tag is not None:
                tags.setdefault(tag)
        return tuple(tags)

    def pairs_with(self, node: Node) -> tuple[str, ...] | None:
        items = self.sequence(node, "pairs_with")
        if items is None:
            return None
        if not items:
            self.report(node, "bad-value", "pairs_with must list at least one question id")
            return None
        ids = [self.identifier(item, "pairs_with id") for item in items]
        return tuple(dict.fromkeys(i for i in ids if i is not None))

    def typed_fields(
        self,
        qtype: QuestionType,
        node: Node,
        get: Callable[[str], Node | None],
        has_compute: bool,
    ) -> dict[str, object] | None:
        if qtype in (QuestionType.SINGLE_CHOICE, QuestionType.MULTIPLE_CHOICE):
            return read_choice_fields(self, qtype, node, get)
        if qtype is QuestionType.TRUE_FALSE:
            return read_true_false_fields(self, node, get)
        if qtype is QuestionType.NUMERIC:
            answer = (
                read_numeric_answer(self, get("answer"), has_compute)
                if get("answer") is not None
                else None
            )
            traps = read_traps(self, get("traps"), answer) if get("traps") is not None else ()
            return None if answer is None or traps is None else {"answer": answer, "traps": traps}
        if qtype is QuestionType.ORDERING:
            steps = read_steps(self, get("steps")) if get("steps") is not None else None
            if steps is None:
                return None
            order = read_order_by_value(self, node, get("order_by_value"), steps)
            return (
                None if isinstance(order, BadOrder) else {"steps": steps, "order_by_value": order}
            )
        back = self.text(get("back"), "back") if get("back") is not None else None
        return None if back is None else {"back": back}
