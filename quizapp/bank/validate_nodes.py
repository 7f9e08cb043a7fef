"""Reading a bank file's YAML nodes: the shapes every part of the format is built from.

Mappings with their allowed keys, lists, single values, text, booleans, numbers and ids, each
checked where it is written and reported with its line. The per-part readers (the deck and
questions in validate.py, choices, numeric answers, ordering steps, compute blocks, vary) are
built from these. Every node looked at is counted, so an alias-bombed file is cut off after a
bounded amount of work.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Mapping

from quizapp.bank import fields as F
from quizapp.bank.bounded import ANY_NUMBER, Bound, OutOfRange, shown
from quizapp.bank.diagnostics import Diagnostic, Severity
from quizapp.bank.literal import BANK_TEXT_RULE, forbidden_character, named_character
from quizapp.bank.model import Location, Scalar
from quizapp.bank.number_text import number_hint
from quizapp.bank.text_checks import (
    code_point,
    invisible_characters,
    normal_text,
    shown_visibly,
)
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

ID_RE = re.compile(F.ID_PATTERN)
TAG_RE = re.compile(F.TAG_PATTERN)
NAME_RE = re.compile(r"^[a-z][a-z0-9_]*$")  # computation names, their arguments, vary names
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


def describe(node: Node) -> str:
    if isinstance(node, ScalarNode):
        kind = {STR: "a string", INT: "an integer", FLOAT: "a number", BOOL: "a boolean"}
        if node.tag == NULL:
            return "nothing (null)"
        return kind.get(node.tag, "a scalar")
    return _KIND_OF_NODE.get(type(node), "a node")


class _Bad:
    """Marks a scalar that was already reported as bad (distinct from a real None)."""


BAD = _Bad()
EXPANSION_MESSAGE = "the file's anchors and aliases expand too far; write the content out"


class NodeReader:
    """Reads the nodes of one parsed file, reporting each problem where it is written.

    Diagnostics accumulate in `self.diagnostics`. Every node looked at is counted against
    the visit budget, and past MAX_ERRORS_PER_FILE errors the walk stops (TooMuchWork).
    """

    def __init__(self, path: str, visit_budget: int, source: str = "") -> None:
        self.path = path
        self.source = source  # the file's text: places a character inside a value
        self.diagnostics: list[Diagnostic] = []
        self.error_count = 0
        self._visits_left = visit_budget

    # -- reporting -------------------------------------------------------------------------

    def location(self, node: Node) -> Location:
        mark = node.start_mark
        return Location(self.path, mark.line + 1, mark.column + 1)

    def report(self, node: Node, code: str, message: str, severity: Severity = "error") -> None:
        loc = self.location(node)
        self.report_at(loc, code, message, severity)

    def report_at(
        self, loc: Location, code: str, message: str, severity: Severity = "error"
    ) -> None:
        self.diagnostics.append(
            Diagnostic(self.path, loc.line, loc.column, severity, code, message)
        )
        if severity == "error":
            self.error_count += 1
            if self.error_count >= MAX_ERRORS_PER_FILE:
                raise TooMuchWork("too-many-errors", f"stopped after {MAX_ERRORS_PER_FILE} errors")

    def visit(self) -> None:
        self._visits_left -= 1
        if self._visits_left < 0:
            raise TooMuchWork("alias-expansion", EXPANSION_MESSAGE)

    def _enter(self, node: Node) -> bool:
        """Count a visit and refuse tags other than the plain ones. False if refused."""
        self.visit()
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
            self.report(node, "wrong-type", f"{what} must be a mapping, not {describe(node)}")
            return None
        found: dict[str, tuple[ScalarNode, Node]] = {}
        for key_node, value_node in node.value:
            self.visit()
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
        places = F.places_of(key, allowed)
        if places:
            # A real key at the wrong level, most often from an indent too deep or too shallow.
            belongs = " or ".join([", ".join(places[:-1]), places[-1]] if places[1:] else places)
            return f"'{key}' does not belong in {what}: it belongs {belongs}"
        message = f"unknown key '{shown_visibly(key)}' in {what}"
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
            self.report(node, "wrong-type", f"{what} must be a list, not {describe(node)}")
            return None
        return list(node.value)

    def character_location(self, node: Node, value: str, index: int) -> Location:
        """Where `value[index]` is written in the file, or the value's own start when it is
        written as an escape (`"\\u200b"`) or the file's text is not known."""
        start, end = node.start_mark, node.end_mark
        raw = self.source[start.index : end.index]
        character = value[index]
        at = -1
        for _ in range(value.count(character, 0, index) + 1):  # the same occurrence in the file
            at = raw.find(character, at + 1)
            if at == -1:
                return self.location(node)
        newline = raw.rfind("\n", 0, at)
        line = start.line + 1 + raw.count("\n", 0, at)
        column = start.column + at + 1 if newline == -1 else at - newline
        return Location(self.path, line, column)

    def scalar(self, node: Node, what: str, *, in_id: bool = False) -> Scalar | _Bad:
        """One value. A string comes back in NFC; an invisible character in it is refused in
        an id (`in_id`) and warned of in text (quizapp/bank/text_checks.py)."""
        if not self._enter(node):
            return BAD
        if not isinstance(node, ScalarNode):
            self.report(node, "wrong-type", f"{what} must be a single value, not {describe(node)}")
            return BAD
        try:
            value = scalar_value(node)
        except ValueError as exc:
            self.report(node, "bad-value", f"{what}: {exc}")
            return BAD
        if isinstance(value, str) and (found := forbidden_character(value)) is not None:
            # Every text and id passes here, so nothing from a bank can act on a terminal.
            index, character = found
            self.report_at(
                self.character_location(node, value, index),
                "control-character",
                f"{what} contains {named_character(character)} at character {index + 1}; "
                + BANK_TEXT_RULE,
            )
            return BAD
        if (
            isinstance(value, int | float)
            and not isinstance(value, bool)
            and (math.isfinite(value) if isinstance(value, float) else True)
            and not ANY_NUMBER.contains(value)
        ):
            # Every number from a bank passes here too: none reaches float() or arithmetic huge.
            message = f"{what} must be {ANY_NUMBER.describe()}, not {shown(value)}"
            self.report(node, "bad-value", message)
            return BAD
        if isinstance(value, str):
            if not self._visible(node, value, what, in_id):
                return BAD
            value = normal_text(value)
        return value

    def _visible(self, node: Node, value: str, what: str, in_id: bool) -> bool:
        """Report the invisible characters of `value`. False when that refuses it (an id)."""
        found = invisible_characters(value, in_id=in_id)
        if not found:
            return True
        index = found[0]
        where = self.character_location(node, value, index)
        character = f"an invisible character, {code_point(value[index])}, at character {index + 1}"
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        if in_id:
            self.report_at(
                where,
                "invisible-in-id",
                f"{what} '{shown_visibly(value)}' holds {character}{more}; "
                "an id must be spelled as it shows",
            )
            return False
        self.report_at(
            where,
            "invisible-character",
            f"{what} holds {character}{more}; it makes the text differ from what it shows",
            "warning",
        )
        return True

    def text(self, node: Node, what: str, *, in_id: bool = False) -> str | None:
        value = self.scalar(node, what, in_id=in_id)
        if value is BAD:
            return None
        if not isinstance(value, str):
            # A number or boolean where text belongs is almost always an unquoted value.
            self.report(
                node,
                "wrong-type",
                f"{what} must be text, not {describe(node)} (quote it: '{node.value}')",
            )
            return None
        if not value.strip():
            self.report(node, "bad-value", f"{what} must not be empty")
            return None
        if len(value) > F.MAX_TEXT_LENGTH:
            message = (
                f"{what} is {len(value):,} characters; a text is at most {F.MAX_TEXT_LENGTH:,}"
            )
            self.report(node, "bad-value", message)
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
        self.report(node, "wrong-type", f"{what} must be true or false, not {describe(node)}")
        return None

    def number(self, node: Node, what: str, bound: Bound = ANY_NUMBER) -> float | None:
        value = self.scalar(node, what)
        if value is BAD:
            return None
        if isinstance(value, bool) or not isinstance(value, int | float):
            fix = number_hint(value) if isinstance(value, str) else None
            hint = f" ({fix})" if fix else ""
            self.report(node, "wrong-type", f"{what} must be a number, not {describe(node)}{hint}")
            return None
        if not math.isfinite(value):
            self.report(node, "bad-value", f"{what} must be a finite number")
            return None
        try:
            return bound.check(value)
        except OutOfRange as exc:
            self.report(node, "bad-value", f"{what} {exc}")
            return None

    def identifier(self, node: Node, what: str, pattern: re.Pattern[str] = ID_RE) -> str | None:
        value = self.text(node, what, in_id=True)
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
            self.report(node, "bad-value", f"{what} '{shown_visibly(value)}' is not valid{hint}")
            return None
        return value
