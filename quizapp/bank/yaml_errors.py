"""A YAML syntax error in words an author can act on, at the line the author must change.

libyaml reports where it *noticed* the problem and what its grammar expected there ("while
parsing a block mapping; did not find expected key"). That place is often not where the
mistake is: the first line of a block sets its indentation, so an over-indented first line is
accepted and the correct line after it is blamed; a key without its `:` is noticed on the next
line; an unclosed quote or bracket is noticed at the end of the file. `explain` reads the
parser's problem and context marks together with the source lines, works out the line to
change, and says what is wrong there in plain words.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

import yaml

_COMMENT = re.compile(r"\s+#.*$")
# A line that opens a block below it: `key:`, `key: |`, `key: >-`, a bare `-`, `- key:`.
_OPENS_BLOCK = re.compile(r"(?::|:\s+[|>][-+0-9]*|^-|\s-)$")
_KEY = re.compile(r"^(?:-\s+)*([^\s:#][^:#]*?)\s*:(?:\s|$)")
MAX_LINES_LOOKED_AT = 400  # looking up for a line's parent; a deck's blocks are short


@dataclass(frozen=True, slots=True)
class Explained:
    """Where the author must change the file (1-based) and what to do there."""

    line: int
    column: int
    message: str


@dataclass(frozen=True, slots=True)
class _Line:
    number: int  # 0-based
    indent: int  # leading spaces
    content: int  # where its key starts, past any `- ` item markers
    text: str  # without its comment and trailing spaces

    @property
    def key(self) -> str:
        found = _KEY.match(self.text[self.indent :])
        return found.group(1) if found else self.text[self.content :].strip()

    @property
    def shown(self) -> str:
        """How a message quotes the line: `type:`, `- id:`, or its start."""
        body = self.text[self.indent :]
        found = _KEY.match(body)
        return _clip(body[: found.end()].rstrip() if found else body)

    @property
    def opens_block(self) -> bool:
        return bool(_OPENS_BLOCK.search(self.text))

    @property
    def is_item(self) -> bool:
        return self.content > self.indent


def explain(error: yaml.MarkedYAMLError, lines: list[str], offset: int = 0) -> Explained:
    """The error at the line to change, in words. `lines` are the file's lines; `offset` is
    the line of the file the parsed text began on (when a piece of the file was parsed)."""
    problem = (error.problem or "").strip()
    context = (error.context or "").strip()
    mark = error.problem_mark or error.context_mark
    where = (mark.line + offset, mark.column) if mark else (offset, 0)
    context_mark = error.context_mark
    context_at = (context_mark.line + offset, context_mark.column) if context_mark else where
    found = (
        _tab(lines, where, context_at, problem)
        or _by_problem(problem, context, lines, where, context_at)
        or Explained(where[0] + 1, where[1] + 1, _raw(context, problem))
    )
    return Explained(found.line, found.column, f"YAML syntax: {found.message}")


def _raw(context: str, problem: str) -> str:
    return " ".join("; ".join(p for p in (context, problem) if p).split()) or "not valid YAML"


def _line(lines: list[str], number: int) -> str:
    return lines[number].rstrip("\r") if 0 <= number < len(lines) else ""


def _tab(
    lines: list[str], where: tuple[int, int], context_at: tuple[int, int], problem: str
) -> Explained | None:
    """A tab in the indentation of the line the parser stopped on (or began the construct on)."""
    for number in dict.fromkeys((where[0], context_at[0])):
        text = _line(lines, number)
        leading = text[: len(text) - len(text.lstrip(" \t"))]
        at = where[1] if number == where[0] and text[where[1] : where[1] + 1] == "\t" else -1
        if at < 0 and "\t" in leading and ("tab" in problem or number == where[0]):
            at = leading.index("\t")
        if at >= 0:
            return Explained(
                number + 1,
                at + 1,
                f"a tab character at col {at + 1}: YAML indents with spaces "
                "(replace the tab with spaces)",
            )
    return None


def _by_problem(
    problem: str,
    context: str,
    lines: list[str],
    where: tuple[int, int],
    context_at: tuple[int, int],
) -> Explained | None:
    row, col = where
    text = _line(lines, row)
    here = text[col : col + 1]
    if problem == "found undefined alias":
        name = re.match(r"\*[^\s,\[\]{}]*", text[col:])
        alias = name.group(0) if name else "*"
        return Explained(
            row + 1,
            col + 1,
            f"{alias} is an alias, and no anchor &{alias[1:]} is defined above it; "
            "a value that starts with '*' must be in quotes",
        )
    if "cannot start any token" in problem:
        return Explained(
            row + 1,
            col + 1,
            f"a value cannot start with '{here}' unless it is in quotes "
            f'(write it as "{text[col:].strip()}")',
        )
    if problem == "found unknown escape character":
        escape = text[col : col + 2] if here == "\\" else text[max(0, col - 1) : col + 1]
        return Explained(
            row + 1,
            col + 1,
            f"'{escape}' is not an escape in a double-quoted string; write '\\\\' for a "
            "backslash, or put the text in single quotes",
        )
    if "quoted scalar" in context and (
        "end of stream" in problem or "document indicator" in problem
    ):
        quote = _line(lines, context_at[0])[context_at[1] : context_at[1] + 1] or '"'
        return Explained(
            context_at[0] + 1,
            context_at[1] + 1,
            f"the quote {quote} that starts here is never closed; end the text with {quote}",
        )
    if context.startswith("while parsing a flow") and problem.startswith("did not find expected"):
        return _flow(problem, context, lines, where, context_at)
    if problem == "could not find expected ':'" and "simple key" in context:
        line = _line(lines, context_at[0]).strip()
        return Explained(
            context_at[0] + 1,
            context_at[1] + 1,
            f"'{_clip(line)}' has no ':' after its key; write 'key: value' "
            "(or indent the line under the key it belongs to)",
        )
    if "single document" in context or "another document" in problem:
        return Explained(
            row + 1,
            col + 1,
            "a second YAML document starts here ('---'); a bank file holds a single document",
        )
    if ("alias" in context or "anchor" in context) and "alphabetic" in problem:
        sign = "*" if "alias" in context else "&"
        return Explained(
            context_at[0] + 1,
            context_at[1] + 1,
            f"'{sign}' starts an {'alias' if sign == '*' else 'anchor'} in YAML; "
            "a value that starts with it must be in quotes",
        )
    if "block scalar" in context:
        sign = _line(lines, context_at[0])[context_at[1] : context_at[1] + 1] or "|"
        return Explained(
            context_at[0] + 1,
            context_at[1] + 1,
            f"'{sign}' starts a block of text on the lines below it, so nothing but a comment "
            f"may follow it on this line; quote a value that starts with '{sign}'",
        )
    if "tag" in context or "directive" in context:
        sign = "!" if "tag" in context else "%"
        return Explained(
            context_at[0] + 1,
            context_at[1] + 1,
            f"'{sign}' starts a YAML {'tag' if sign == '!' else 'directive'}; "
            f"a value that starts with '{sign}' must be in quotes",
        )
    if problem == "found unexpected ':'":
        return Explained(
            row + 1,
            col + 1,
            "a ':' with no space after it inside [ ] or { }; write 'key: value' with a space, "
            "or quote the value",
        )
    if problem == "did not find expected <document start>":
        return _misplaced(lines, row, col)
    if problem == "mapping values are not allowed in this context":
        return _colon(lines, row, col)
    if problem in ("did not find expected key", "did not find expected '-' indicator"):
        return _misplaced(lines, row, col)
    if problem == "did not find expected node content":
        return Explained(row + 1, col + 1, f"a value is missing before '{here or 'the end'}'")
    return None


def _spaces(count: int) -> str:
    return f"{count} space" if count == 1 else f"{count} spaces"


def _clip(text: str, width: int = 40) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _flow(
    problem: str,
    context: str,
    lines: list[str],
    where: tuple[int, int],
    context_at: tuple[int, int],
) -> Explained:
    closer = "]" if "sequence" in context else "}"
    opener = "[" if closer == "]" else "{"
    if where[0] != context_at[0]:
        # Noticed on a later line: the bracket opened here was never closed on its own line.
        return Explained(
            context_at[0] + 1,
            context_at[1] + 1,
            f"the '{opener}' that starts here is never closed; end it with '{closer}'",
        )
    return Explained(
        where[0] + 1,
        where[1] + 1,
        f"expected ',' or '{closer}' here, in the {'list' if closer == ']' else 'mapping'} "
        f"that starts at col {context_at[1] + 1}; quote an item that holds ': ' or ','",
    )


def _significant(lines: list[str], number: int) -> _Line | None:
    raw = _line(lines, number)
    text = _COMMENT.sub("", raw).rstrip()
    stripped = text.lstrip(" ")
    if not stripped or stripped.startswith("#"):
        return None
    indent = len(text) - len(stripped)
    content = indent
    while text[content : content + 2] == "- " or text[content:] == "-":
        content += 1
        while text[content : content + 1] == " ":
            content += 1
    return _Line(number, indent, content, text)


def _above(lines: list[str], row: int) -> list[_Line]:
    """The significant lines above `row`, nearest first (a bounded number of them)."""
    found = []
    for number in range(row - 1, max(-1, row - 1 - MAX_LINES_LOOKED_AT), -1):
        line = _significant(lines, number)
        if line is not None:
            found.append(line)
    return found


def _parent(line: _Line, above: list[_Line]) -> tuple[_Line | None, list[_Line]]:
    """The nearest line above that is less indented than `line`, and the lines in between."""
    between = []
    for candidate in above:
        if candidate.indent < line.indent:
            return candidate, between
        between.append(candidate)
    return None, between


def _step(lines: list[str], row: int) -> int:
    """The file's usual indentation step (how much deeper a block sits than its key), as the
    lines above `row` use it: a bounded window, so many errors in a big file stay cheap."""
    steps: Counter[int] = Counter()
    previous: _Line | None = None
    for number in range(max(0, row - MAX_LINES_LOOKED_AT), row):
        line = _significant(lines, number)
        if line is None:
            continue
        if previous is not None and previous.opens_block and line.indent > previous.content:
            steps[line.indent - previous.content] += 1
        previous = line
    return steps.most_common(1)[0][0] if steps else 2


def _colon(lines: list[str], row: int, col: int) -> Explained:
    line = _significant(lines, row)
    text = _line(lines, row)
    first_colon = text.find(": ") if text.find(": ") != -1 else text.rfind(":")
    if line is not None and first_colon == col:
        parent, _between = _parent(line, _above(lines, row))
        if parent is not None and not parent.opens_block:
            # The line's own key is read as more of the value on the line above it.
            return Explained(
                row + 1,
                line.indent + 1,
                f"this line is indented {_spaces(line.indent)}, more than '{parent.shown}' on "
                f"line {parent.number + 1} (indented {parent.content}), so YAML reads it as "
                f"more of that value; indent '{line.shown}' {_spaces(parent.content)}, "
                f"like '{parent.shown}'",
            )
    key, _, value = text.partition(": ")
    value = value.strip()
    quoted = f"'{value}'" if '"' in value else f'"{value}"'
    return Explained(
        row + 1,
        col + 1,
        f"a ': ' inside a value that is not in quotes; write {key.strip()}: {_clip(quoted)}",
    )


def _misplaced(lines: list[str], row: int, col: int) -> Explained:
    """`did not find expected key` / `'-' indicator`: most often a line indented wrongly."""
    line = _significant(lines, row)
    if line is None or col != line.indent:
        return _mid_line(lines, row, col)
    parent, between = _parent(line, _above(lines, row))
    if parent is None:
        return _mid_line(lines, row, col)
    what = f"'{line.shown}'"
    if parent.content > line.indent:
        # Between a `- ` and the keys of that item.
        if line.is_item:
            return Explained(
                row + 1,
                col + 1,
                f"{what} is indented {_spaces(line.indent)}, but the list item before it, "
                f"'{parent.shown}' on line {parent.number + 1}, is indented {parent.indent}: "
                f"indent it {_spaces(parent.indent)} like that",
            )
        return Explained(
            row + 1,
            col + 1,
            f"{what} is indented {_spaces(line.indent)}, but the keys of the item it belongs "
            f"to ('{parent.shown}' on line {parent.number + 1}) are indented {parent.content}: "
            f"indent it {_spaces(parent.content)} like them",
        )
    if parent.content == line.indent:
        if line.is_item:
            return Explained(
                row + 1,
                col + 1,
                "a list item ('- ') where a key of the mapping belongs (the keys above are "
                f"indented {line.indent}); put the list under a key, indented, or remove the '-'",
            )
        return _mid_line(lines, row, col)
    if not parent.opens_block or not between:
        return Explained(
            row + 1,
            col + 1,
            f"this line is indented {_spaces(line.indent)}, more than '{parent.shown}' on "
            f"line {parent.number + 1} (indented {parent.content}), whose value is already on "
            f"its line; indent {what} {_spaces(parent.content)}, like '{parent.shown}'",
        )
    block = min(between, key=lambda b: b.indent)
    first = between[-1]  # nearest first: the last of them is the block's first line
    at_first = [b for b in between if b.indent == first.indent]
    step = _step(lines, row)
    if (
        first.indent > line.indent
        and len(at_first) == 1
        and line.indent - parent.content == step
        and first.indent - parent.content != step
    ):
        # The first line under a key sets the block's indentation, so an over-indented
        # first line is accepted and its correctly indented sibling is blamed.
        return Explained(
            first.number + 1,
            first.indent + 1,
            f"this line is {_spaces(first.indent - parent.content)} deeper than "
            f"'{parent.shown}' above it, and line {row + 1} below it only {step}: the first "
            f"line under a key sets the indentation of the lines after it, so indent this "
            f"one {_spaces(line.indent)}, as line {row + 1} is",
        )
    return Explained(
        row + 1,
        col + 1,
        f"{what} is indented {_spaces(line.indent)}, which lines up with nothing above it: "
        f"'{parent.shown}' on line {parent.number + 1} is indented {parent.content}, and "
        f"'{block.shown}' on line {block.number + 1} is indented {block.indent}; indent it "
        "like one of them",
    )


def _mid_line(lines: list[str], row: int, col: int) -> Explained:
    text = _line(lines, row)
    here = text[col : col + 1]
    before = text[:col].rstrip()
    if before.endswith(('"', "'")) and here not in ("", "#"):
        return Explained(
            row + 1,
            col + 1,
            "text after the closing quote; put the whole value inside the quotes",
        )
    if before.endswith(("]", "}")) and here not in ("", "#"):
        closer = before[-1]
        return Explained(
            row + 1,
            col + 1,
            f"text after the '{closer}' that closes the {'list' if closer == ']' else 'mapping'}"
            f"; move the '{closer}' after it, or remove what follows",
        )
    if here in ("]", "}"):
        return Explained(row + 1, col + 1, f"a '{here}' that closes nothing")
    if here == "-":
        return Explained(
            row + 1,
            col + 1,
            "a list item ('- ') where a key of the mapping belongs; put the list under a "
            "key, indented, or remove the '-'",
        )
    shown = _clip(text[col:].strip()) or "the end of the file"
    return Explained(row + 1, col + 1, f"expected a 'key: value' line here, found '{shown}'")


__all__ = ["Explained", "explain"]
