"""Turn one file's YAML node tree into a Deck, reporting every problem with its place.

The walk reads the node tree directly (never a constructed Python structure), descends
only where the format expects something, and counts every node it looks at, so an
alias-bombed file is cut off after a bounded amount of work.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import replace

from quizapp.bank import fields as F
from quizapp.bank.diagnostics import Diagnostic, Severity
from quizapp.bank.literal import BANK_TEXT_RULE, forbidden_character, named_character
from quizapp.bank.model import (
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
    Scalar,
    Step,
    Trap,
    TrueFalseQuestion,
)
from quizapp.bank.number_text import number_hint
from quizapp.bank.yaml12 import (
    BOOL,
    FLOAT,
    INT,
    KNOWN_TAGS,
    NULL,
    STR,
    MappingNode,
    Node,
    ScalarNode,
    SequenceNode,
    scalar_value,
)

_ID_RE = re.compile(F.ID_PATTERN)
_TAG_RE = re.compile(F.TAG_PATTERN)
_NAME_RE = re.compile(r"^[a-z][a-z0-9_]*$")
# Quoted booleans read as what they say: an instructor who writes "true" means true.
_YES_NO = {"yes": True, "no": False, "true": True, "false": False}
_KIND_OF_NODE = {MappingNode: "a mapping", SequenceNode: "a list", ScalarNode: "a scalar"}


# Past this many errors a file is hopeless; more lines would only bury the first ones.
MAX_ERRORS_PER_FILE = 100


class TooMuchWork(Exception):
    """The walk was cut short: aliases expand too far, or the file has too many errors."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _describe(node: Node) -> str:
    if isinstance(node, ScalarNode):
        kind = {STR: "a string", INT: "an integer", FLOAT: "a number", BOOL: "a boolean"}
        if node.tag == NULL:
            return "nothing (null)"
        return kind.get(node.tag, "a scalar")
    return _KIND_OF_NODE.get(type(node), "a node")


class FileValidator:
    """Validates one parsed file. Diagnostics accumulate in `self.diagnostics`."""

    def __init__(self, path: str, visit_budget: int) -> None:
        self.path = path
        self.diagnostics: list[Diagnostic] = []
        self._errors = 0
        self._visits_left = visit_budget

    # -- reporting -------------------------------------------------------------------------

    def location(self, node: Node) -> Location:
        mark = node.start_mark
        return Location(self.path, mark.line + 1, mark.column + 1)

    def report(self, node: Node, code: str, message: str, severity: Severity = "error") -> None:
        loc = self.location(node)
        self.diagnostics.append(
            Diagnostic(self.path, loc.line, loc.column, severity, code, message)
        )
        if severity == "error":
            self._errors += 1
            if self._errors >= MAX_ERRORS_PER_FILE:
                raise TooMuchWork("too-many-errors", f"stopped after {MAX_ERRORS_PER_FILE} errors")

    def _visit(self) -> None:
        self._visits_left -= 1
        if self._visits_left < 0:
            raise TooMuchWork("alias-expansion", EXPANSION_MESSAGE)

    def _enter(self, node: Node) -> bool:
        """Count a visit and refuse tags other than the plain ones. False if refused."""
        self._visit()
        if node.tag not in KNOWN_TAGS:
            shown = node.tag.replace("tag:yaml.org,2002:", "!!")
            self.report(node, "unsupported-tag", f"tag {shown} is not allowed in a bank file")
            return False
        return True

    # -- generic shapes ---------------------------------------------------------------------

    def mapping(
        self,
        node: Node,
        allowed: Mapping[str, F.Field],
        what: str,
        elsewhere: Mapping[str, str] | None = None,
    ) -> dict[str, tuple[ScalarNode, Node]] | None:
        """Check a mapping's keys; return {key: (key_node, value_node)} or None if not a mapping.

        `elsewhere` names keys that exist in the format but not here, for a better message.
        """
        if not self._enter(node):
            return None
        if not isinstance(node, MappingNode):
            self.report(node, "wrong-type", f"{what} must be a mapping, not {_describe(node)}")
            return None
        found: dict[str, tuple[ScalarNode, Node]] = {}
        for key_node, value_node in node.value:
            self._visit()
            if not isinstance(key_node, ScalarNode):
                self.report(key_node, "wrong-type", f"keys in {what} must be plain strings")
                continue
            key = key_node.value
            if key == "<<":
                self.report(
                    key_node, "merge-key", "merge keys (<<) are not supported; write the keys out"
                )
                continue
            if key in found:
                first = self.location(found[key][0])
                self.report(
                    key_node,
                    "duplicate-key",
                    f"duplicate key '{key}' in {what} (first at line {first.line})",
                )
                continue
            if key not in allowed:
                self.report(
                    key_node,
                    "unknown-key",
                    self._unknown_key_message(key, allowed, what, elsewhere),
                )
                continue
            found[key] = (key_node, value_node)
        for key, spec in allowed.items():
            if spec.required and key not in found:
                self.report(node, "missing-key", f"{what} is missing required key '{key}'")
        return found

    @staticmethod
    def _unknown_key_message(
        key: str, allowed: Mapping[str, F.Field], what: str, elsewhere: Mapping[str, str] | None
    ) -> str:
        if elsewhere and key in elsewhere:
            return f"'{key}' does not belong in {what}: {elsewhere[key]}"
        message = f"unknown key '{key}' in {what}"
        close = difflib.get_close_matches(key, list(allowed), n=1, cutoff=0.6)
        if close:
            message += f"; did you mean '{close[0]}'?"
        else:
            message += f" (expected one of: {', '.join(sorted(allowed))})"
        return message

    def sequence(self, node: Node, what: str) -> list[Node] | None:
        if not self._enter(node):
            return None
        if not isinstance(node, SequenceNode):
            self.report(node, "wrong-type", f"{what} must be a list, not {_describe(node)}")
            return None
        return list(node.value)

    def scalar(self, node: Node, what: str) -> Scalar | _Bad:
        if not self._enter(node):
            return BAD
        if not isinstance(node, ScalarNode):
            self.report(node, "wrong-type", f"{what} must be a single value, not {_describe(node)}")
            return BAD
        try:
            value = scalar_value(node)
        except ValueError as exc:
            self.report(node, "bad-value", f"{what}: {exc}")
            return BAD
        if isinstance(value, str) and (found := forbidden_character(value)) is not None:
            # Every text and id passes here, so nothing from a bank can act on a terminal.
            index, character = found
            self.report(
                node,
                "control-character",
                f"{what} contains {named_character(character)} at character {index + 1}; "
                + BANK_TEXT_RULE,
            )
            return BAD
        return value

    def text(self, node: Node, what: str) -> str | None:
        value = self.scalar(node, what)
        if value is BAD:
            return None
        if not isinstance(value, str):
            # A number or boolean where text belongs is almost always an unquoted value.
            self.report(
                node,
                "wrong-type",
                f"{what} must be text, not {_describe(node)} (quote it: '{node.value}')",
            )
            return None
        if not value.strip():
            self.report(node, "bad-value", f"{what} must not be empty")
            return None
        return value

    def boolean(self, node: Node, what: str) -> bool | None:
        value = self.scalar(node, what)
        if value is BAD:
            return None
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in _YES_NO:
            return _YES_NO[value.lower()]
        self.report(node, "wrong-type", f"{what} must be true or false, not {_describe(node)}")
        return None

    def number(self, node: Node, what: str, minimum: float | None = None) -> float | None:
        value = self.scalar(node, what)
        if value is BAD:
            return None
        if isinstance(value, bool) or not isinstance(value, int | float):
            fix = number_hint(value) if isinstance(value, str) else None
            hint = f" ({fix})" if fix else ""
            self.report(node, "wrong-type", f"{what} must be a number, not {_describe(node)}{hint}")
            return None
        if not math.isfinite(value):
            self.report(node, "bad-value", f"{what} must be a finite number")
            return None
        if minimum is not None and value < minimum:
            self.report(node, "bad-value", f"{what} must be at least {minimum:g}, not {value:g}")
            return None
        return value

    def identifier(self, node: Node, what: str, pattern: re.Pattern[str] = _ID_RE) -> str | None:
        value = self.text(node, what)
        if value is None:
            return None
        if len(value) > F.ID_MAX_LENGTH or not pattern.fullmatch(value):
            self.report(
                node,
                "bad-id",
                f"{what} '{value[:40]}' must be lowercase letters and digits joined by - _ or . "
                f"(at most {F.ID_MAX_LENGTH} characters)",
            )
            return None
        return value

    def choice_of(self, node: Node, what: str, options: list[str]) -> str | None:
        value = self.text(node, what)
        if value is None:
            return None
        if value not in options:
            close = difflib.get_close_matches(value, options, n=1, cutoff=0.6)
            hint = f"; did you mean '{close[0]}'?" if close else f" (one of: {', '.join(options)})"
            self.report(node, "bad-value", f"{what} '{value[:40]}' is not valid{hint}")
            return None
        return value

    # -- the file ---------------------------------------------------------------------------

    def file(self, root: Node | None) -> Deck | None:
        if root is None:
            self.diagnostics.append(
                Diagnostic(self.path, 1, 1, "error", "empty-file", "the file has no deck in it")
            )
            self._errors += 1
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
        errors_before = self._errors
        deck = Deck(**deck_fields, path=self.path)
        if self._errors > errors_before:
            return None
        items = self.sequence(top["questions"][1], "questions")
        if items is None:
            return None
        if not items:
            self.report(top["questions"][1], "bad-value", "questions must not be empty")
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
        errors_before = self._errors
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
            values["exam_weight"] = weight
        if "description" in found:
            values["description"] = self.text(found["description"][1], "description")
        if self._errors > errors_before or any(
            values[k] is None for k, spec in F.DECK_FIELDS.items() if spec.required
        ):
            return None
        return values

    # -- questions --------------------------------------------------------------------------

    def question(self, node: Node, deck: Deck) -> Question | None:
        errors_before = self._errors
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
        compute = self.compute(get("compute")) if get("compute") is not None else None
        vary = self.vary(get("vary")) if get("vary") is not None else {}
        if get("compute") is None:
            self.report(
                node,
                "no-compute",
                "question has no live computation behind its explanation",
                severity="warning",
            )

        typed: dict[str, object] | None = None
        if qtype is not None:
            typed = self.typed_fields(qtype, node, get, compute)
        if self._errors > errors_before or typed is None:
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
        return self.check_placeholders(question, node)

    def vary(self, node: Node) -> dict[str, tuple[Scalar, ...]] | None:
        self._visit()
        if not isinstance(node, MappingNode):
            self.report(
                node,
                "wrong-type",
                f"vary must be a mapping of names to lists, not {_describe(node)}",
            )
            return None
        result: dict[str, tuple[Scalar, ...]] = {}
        combinations = 1
        for key_node, value_node in node.value:
            self._visit()
            if not isinstance(key_node, ScalarNode) or not _NAME_RE.fullmatch(key_node.value):
                self.report(
                    key_node, "bad-value", "vary names are lowercase identifiers (d_model, n_heads)"
                )
                continue
            name = key_node.value
            if name in result:
                self.report(key_node, "duplicate-key", f"duplicate vary name '{name}'")
                continue
            items = self.sequence(value_node, f"vary '{name}'")
            if items is None:
                continue
            if not F.MIN_VARY_VALUES <= len(items) <= F.MAX_VARY_VALUES:
                self.report(
                    value_node,
                    "bad-value",
                    f"vary '{name}' needs {F.MIN_VARY_VALUES} to {F.MAX_VARY_VALUES} values, not {len(items)}",
                )
                continue
            values: list[Scalar] = []
            for item in items:
                value = self.scalar(item, f"a value of '{name}'")
                if value is BAD:
                    continue
                if value is None or (isinstance(value, float) and not math.isfinite(value)):
                    self.report(
                        item, "bad-value", f"a value of '{name}' must be a finite number or text"
                    )
                    continue
                if value in values:
                    self.report(item, "bad-value", f"'{name}' lists {value!r} twice")
                    continue
                values.append(value)
            result[name] = tuple(values)
            combinations *= len(values)
        if combinations > F.MAX_VARIANTS:
            self.report(
                node,
                "too-many-variants",
                f"vary allows {combinations:,} combinations; at most {F.MAX_VARIANTS:,}",
            )
            return None
        return result

    def check_placeholders(self, question: Question, node: Node) -> Question | None:
        """Every {name} must be varied; every varied name should be used somewhere."""
        from quizapp.bank.variants import placeholders, texts

        used: set[str] = set()
        for text in texts(question):
            if "{" in text:  # most texts have no braces at all: skip the regex for them
                used |= placeholders(text)
        unknown = sorted(used - set(question.vary))
        if unknown:
            self.report(
                node,
                "unknown-placeholder",
                f"{', '.join('{' + n + '}' for n in unknown)} used but not listed under vary",
            )
            return None
        unused = sorted(set(question.vary) - used)
        if unused:
            self.report(
                node,
                "unused-vary",
                f"vary lists {', '.join(unused)} but no text or argument uses it",
                severity="warning",
            )
        return question

    def tags(self, node: Node) -> tuple[str, ...] | None:
        items = self.sequence(node, "tags")
        if items is None:
            return None
        if not items:
            self.report(node, "bad-value", "tags must list at least one tag")
            return None
        tags: list[str] = []
        for item in items:
            tag = self.identifier(item, "tag", _TAG_RE)
            if tag is not None and tag not in tags:
                tags.append(tag)
        return tuple(tags)

    def compute(self, node: Node) -> ComputeSpec | None:
        found = self.mapping(node, F.COMPUTE_FIELDS, "compute")
        if found is None:
            return None
        name = (
            self.identifier(found["name"][1], "compute name", _NAME_RE) if "name" in found else None
        )
        args: dict[str, Scalar] = {}
        arg_locations: dict[str, Location] = {}
        if "args" in found:
            args_node = found["args"][1]
            if isinstance(args_node, ScalarNode) and args_node.tag == NULL:
                pass  # `args:` left empty means no arguments
            elif isinstance(args_node, MappingNode):
                seen: dict[str, ScalarNode] = {}
                for key_node, value_node in args_node.value:
                    self._visit()
                    if not isinstance(key_node, ScalarNode) or not _NAME_RE.fullmatch(
                        key_node.value
                    ):
                        self.report(
                            key_node, "bad-value", "argument names are lowercase identifiers"
                        )
                        continue
                    if key_node.value in seen:
                        self.report(
                            key_node,
                            "duplicate-key",
                            f"duplicate argument '{key_node.value}' "
                            f"(first at line {seen[key_node.value].start_mark.line + 1})",
                        )
                        continue
                    seen[key_node.value] = key_node
                    value = self.scalar(value_node, f"argument '{key_node.value}'")
                    if value is BAD:
                        continue
                    if value is None:
                        self.report(
                            value_node, "bad-value", f"argument '{key_node.value}' has no value"
                        )
                        continue
                    if isinstance(value, float) and not math.isfinite(value):
                        self.report(
                            value_node, "bad-value", f"argument '{key_node.value}' must be finite"
                        )
                        continue
                    args[key_node.value] = value
                    arg_locations[key_node.value] = self.location(value_node)
            else:
                self.report(
                    args_node,
                    "wrong-type",
                    f"compute args must be a mapping, not {_describe(args_node)}",
                )
        expect: tuple[Claim, ...] | None = ()
        if "expect" in found:
            from quizapp.bank.expect import read_expect

            expect = read_expect(self, found["expect"][1])
        if name is None or expect is None:
            return None
        return ComputeSpec(
            name=name,
            args=args,
            location=self.location(found["name"][1]),
            arg_locations=arg_locations,
            expect=expect,
        )

    def typed_fields(
        self,
        qtype: QuestionType,
        node: Node,
        get: Callable[[str], Node | None],
        compute: ComputeSpec | None,
    ) -> dict[str, object] | None:
        if qtype in (QuestionType.SINGLE_CHOICE, QuestionType.MULTIPLE_CHOICE):
            return self.choice_fields(qtype, node, get)
        if qtype is QuestionType.TRUE_FALSE:
            answer = self.boolean(get("answer"), "answer") if get("answer") is not None else None
            why = {
                k: self.text(get(k), k) if get(k) is not None else None
                for k in ("why_true", "why_false")
            }
            for key, text in why.items():
                if text is None and get(key) is None:
                    self.report(
                        node, "no-why", f"true_false question has no '{key}'", severity="warning"
                    )
            return None if answer is None else {"answer": answer, **why}
        if qtype is QuestionType.NUMERIC:
            answer = (
                self.numeric_answer(get("answer"), compute) if get("answer") is not None else None
            )
            traps = self.traps(get("traps"), answer) if get("traps") is not None else ()
            return None if answer is None or traps is None else {"answer": answer, "traps": traps}
        if qtype is QuestionType.ORDERING:
            steps = self.steps(get("steps")) if get("steps") is not None else None
            return None if steps is None else {"steps": steps}
        back = self.text(get("back"), "back") if get("back") is not None else None
        return None if back is None else {"back": back}

    def choice_fields(
        self, qtype: QuestionType, node: Node, get: Callable[[str], Node | None]
    ) -> dict[str, object] | None:
        shuffle = True
        if get("shuffle") is not None:
            shuffle = self.boolean(get("shuffle"), "shuffle")
        choices_node = get("choices")
        if choices_node is None:
            return None
        items = self.sequence(choices_node, "choices")
        if items is None:
            return None
        if not F.MIN_CHOICES <= len(items) <= F.MAX_CHOICES:
            self.report(
                choices_node,
                "choice-count",
                f"a question needs {F.MIN_CHOICES} to {F.MAX_CHOICES} choices, not {len(items)}",
            )
            return None
        choices: list[Choice] = []
        texts: dict[str, int] = {}
        for item in items:
            found = self.mapping(item, F.CHOICE_FIELDS, "a choice")
            if found is None:
                continue
            text = self.text(found["text"][1], "choice text") if "text" in found else None
            correct = self.boolean(found["correct"][1], "correct") if "correct" in found else False
            why = self.text(found["why"][1], "why") if "why" in found else None
            if "why" not in found:
                self.report(
                    item,
                    "no-why",
                    "choice has no 'why' (why it is right, or which trap)",
                    "warning",
                )
            if text is None or correct is None:
                continue
            key = " ".join(text.split()).lower()
            if key in texts:
                self.report(
                    item, "duplicate-choice", f"the same choice appears twice (line {texts[key]})"
                )
                continue
            texts[key] = item.start_mark.line + 1
            choices.append(
                Choice(text=text, correct=correct, why=why, location=self.location(item))
            )
        if len(choices) != len(items):
            return None
        n_correct = sum(c.correct for c in choices)
        if qtype is QuestionType.SINGLE_CHOICE and n_correct != 1:
            self.report(
                choices_node,
                "correct-count",
                f"a single_choice question needs exactly one correct choice, not {n_correct}"
                + (" (use multiple_choice for several)" if n_correct > 1 else ""),
            )
            return None
        if qtype is QuestionType.MULTIPLE_CHOICE and n_correct == 0:
            self.report(
                choices_node, "correct-count", "a multiple_choice question needs a correct choice"
            )
            return None
        if shuffle is None:
            return None
        return {"choices": tuple(choices), "shuffle": shuffle}

    def numeric_answer(self, node: Node, compute: ComputeSpec | None) -> NumericAnswer | None:
        if isinstance(node, ScalarNode):
            # `answer: 42` is the natural short form of `answer: {value: 42}`.
            value = self.number(node, "answer")
            return None if value is None else NumericAnswer(value=value, from_value=None)
        found = self.mapping(node, F.NUMERIC_ANSWER_FIELDS, "answer")
        if found is None:
            return None
        errors_before = self._errors
        value = self.number(found["value"][1], "value") if "value" in found else None
        from_value = (
            self.identifier(found["from"][1], "from", _NAME_RE) if "from" in found else None
        )
        tolerance = (
            self.number(found["tolerance"][1], "tolerance", minimum=0)
            if "tolerance" in found
            else None
        )
        relative = (
            self.number(found["relative_tolerance"][1], "relative_tolerance", minimum=0)
            if "relative_tolerance" in found
            else None
        )
        unit = self.text(found["unit"][1], "unit") if "unit" in found else None
        if ("value" in found) == ("from" in found):
            self.report(
                node, "bad-answer", "a numeric answer needs exactly one of 'value' and 'from'"
            )
        if "tolerance" in found and "relative_tolerance" in found:
            self.report(node, "bad-answer", "give 'tolerance' or 'relative_tolerance', not both")
        if "from" in found and compute is None:
            self.report(
                found["from"][1],
                "bad-answer",
                "'from' names a computation value, but the question has no 'compute' block",
            )
        if self._errors > errors_before:
            return None
        return NumericAnswer(
            value=value,
            from_value=from_value,
            tolerance=tolerance,
            relative_tolerance=relative,
            unit=unit,
        )

    def traps(self, node: Node, answer: NumericAnswer | None) -> tuple[Trap, ...] | None:
        items = self.sequence(node, "traps")
        if items is None:
            return None
        traps: list[Trap] = []
        for item in items:
            found = self.mapping(item, F.TRAP_FIELDS, "a trap")
            if found is None or "value" not in found or "why" not in found:
                return None
            value = self.number(found["value"][1], "trap value")
            why = self.text(found["why"][1], "why")
            if value is None or why is None:
                return None
            if answer is not None and answer.value is not None and value == answer.value:
                self.report(item, "bad-value", "a trap has the same value as the correct answer")
                return None
            traps.append(Trap(value=value, why=why))
        return tuple(traps)

    def steps(self, node: Node) -> tuple[Step, ...] | None:
        items = self.sequence(node, "steps")
        if items is None:
            return None
        if not F.MIN_STEPS <= len(items) <= F.MAX_STEPS:
            self.report(
                node,
                "ordering-steps",
                f"an ordering question needs {F.MIN_STEPS} to {F.MAX_STEPS} steps, not {len(items)}",
            )
            return None
        steps: list[Step] = []
        seen: dict[str, int] = {}
        for item in items:
            if isinstance(item, ScalarNode):
                text, why = self.text(item, "step"), None
            else:
                found = self.mapping(item, F.STEP_FIELDS, "a step")
                if found is None or "text" not in found:
                    return None
                text = self.text(found["text"][1], "step text")
                why = self.text(found["why"][1], "why") if "why" in found else None
            if text is None:
                return None
            key = " ".join(text.split()).lower()
            if key in seen:
                self.report(
                    item,
                    "ordering-steps",
                    f"two steps read the same (line {seen[key]}), so the order is not a full order",
                )
                return None
            seen[key] = item.start_mark.line + 1
            steps.append(Step(text=text, why=why))
        return tuple(steps)


class _Bad:
    """Marks a scalar that was already reported as bad (distinct from a real None)."""


BAD = _Bad()
EXPANSION_MESSAGE = "the file's anchors and aliases expand too far; write the content out"
