"""Keep the good questions of a file whose YAML is broken in one of them.

A YAML syntax error stops the parser, so one stray indent would drop a whole deck. When the
file's top level is the usual block mapping with a block list under `questions:`, the file is
parsed again in pieces: the deck header (everything but the list's items, which are blanked,
so every line keeps its number) and each `- ` item of the list on its own. The items that
parse go back under `questions:`; each one that does not is reported at its own line.

The split is one pass over the lines and each piece is parsed once, so recovering costs about
one more parse of the file. It is only trusted when it explains the error: the whole-file
error must lie in an item that also fails alone, and the header must parse.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from quizapp.bank.fields import MAX_DECK_QUESTIONS
from quizapp.bank.yaml12 import NULL, SEQ, compose
from quizapp.bank.yaml_errors import Explained, explain

# Past this many broken questions the file is reported as one error, as a file with too many
# errors is: each is explained from the lines around it, and more would bury the first ones.
MAX_BROKEN = 20
_QUESTIONS = re.compile(r"^questions[ \t]*:[ \t]*(?:#.*)?\r?$")
_ITEM = re.compile(r"^( *)-(?:[ \t\r]|$)")
# Line breaks YAML counts besides "\n": with them, our line numbers and the parser's differ.
_OTHER_BREAKS = re.compile("\r(?!\n)|[\x85\u2028\u2029]")


@dataclass(frozen=True, slots=True)
class Recovered:
    root: Node  # the file with only the questions that parse
    broken: list[Explained]  # one per question left out
    kept: int  # how many questions parsed


def recover(text: str, lines: list[str], error: yaml.MarkedYAMLError) -> Recovered | None:
    """The file without its broken questions, or None where the error cannot be isolated."""
    if _OTHER_BREAKS.search(text):
        return None
    items = _items(lines)
    if not items:
        return None
    starts = _line_starts(lines, {start for start, _ in items})
    blank = set()
    for start, end in items:
        blank.update(range(start, end))
    header = "\n".join("" if number in blank else line for number, line in enumerate(lines))
    try:
        root = compose(header)
    except (yaml.YAMLError, ValueError):
        return None  # the error (or another) is in the header: nothing to keep
    questions = _questions_entry(root)
    if questions is None:
        return None
    kept: list[Node] = []
    broken: list[tuple[int, int, Explained]] = []
    for start, end in items:
        try:
            piece = compose("\n".join(lines[start:end]))
        except yaml.MarkedYAMLError as exc:
            broken.append((start, end, explain(exc, lines, offset=start)))
            if len(broken) > MAX_BROKEN:
                return None  # not a slip in a few questions: report the file's first error
            continue
        except (yaml.YAMLError, ValueError):
            return None
        if not isinstance(piece, SequenceNode) or len(piece.value) != 1:
            return None
        _shift(piece, start, starts[start])
        kept.append(piece.value[0])
    if not _explains(error, broken):
        return None
    index, (key, old) = questions
    root.value[index] = (key, SequenceNode(SEQ, kept, old.start_mark, old.end_mark))
    return Recovered(root, [found for _, _, found in broken], len(kept))


def _items(lines: list[str]) -> list[tuple[int, int]]:
    """The line ranges [start, end) of the `questions:` list's items; [] where there is no
    single top-level `questions:` key holding a block list (or it has too many items)."""
    heads = [n for n, line in enumerate(lines) if _QUESTIONS.match(line)]
    if len(heads) != 1:
        return []
    number = heads[0] + 1
    while number < len(lines) and _blank(lines[number]):
        number += 1
    first = _ITEM.match(lines[number]) if number < len(lines) else None
    if first is None:
        return []
    indent = len(first.group(1))
    starts = []
    end = len(lines)
    for n in range(number, len(lines)):
        line = lines[n]
        if _blank(line):
            continue
        item = _ITEM.match(line)
        if item is not None and len(item.group(1)) == indent:
            starts.append(n)
            if len(starts) > MAX_DECK_QUESTIONS:
                return []  # the validator refuses the deck anyway; no point parsing pieces
            continue
        if not line[0].isspace():
            # The list is over at a key of the top level. A line between the margin and the
            # items' `-` stays in the item above it, which then fails to parse on its own.
            end = n
            break
    return [(s, e) for s, e in zip(starts, [*starts[1:], end], strict=True)]


def _blank(line: str) -> bool:
    stripped = line.strip()
    return not stripped or stripped.startswith("#")


def _line_starts(lines: list[str], wanted: set[int]) -> dict[int, int]:
    """The character offset in the file of each wanted line (one pass)."""
    offsets, at = {}, 0
    for number, line in enumerate(lines):
        if number in wanted:
            offsets[number] = at
        at += len(line) + 1
    return offsets


def _questions_entry(root: Node | None) -> tuple[int, tuple[ScalarNode, Node]] | None:
    if not isinstance(root, MappingNode):
        return None
    for index, (key, value) in enumerate(root.value):
        if isinstance(key, ScalarNode) and key.value == "questions":
            if isinstance(value, ScalarNode) and value.tag == NULL and value.value == "":
                return index, (key, value)
            return None
    return None


def _shift(root: Node, lines: int, characters: int) -> None:
    """Move a piece's marks to where its text stands in the file."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        node.start_mark = _moved(node.start_mark, lines, characters)
        node.end_mark = _moved(node.end_mark, lines, characters)
        if isinstance(node, MappingNode):
            stack.extend(part for pair in node.value for part in pair)
        elif isinstance(node, SequenceNode):
            stack.extend(node.value)


def _moved(mark: yaml.Mark | None, lines: int, characters: int) -> yaml.Mark | None:
    if mark is None:
        return None
    return yaml.Mark(mark.name, mark.index + characters, mark.line + lines, mark.column, None, None)


def _explains(error: yaml.MarkedYAMLError, broken: list[tuple[int, int, Explained]]) -> bool:
    """Whether the whole-file error lies in a question that also fails on its own."""
    marks = [m.line for m in (error.problem_mark, error.context_mark) if m is not None]
    return any(start <= line < end for start, end, _ in broken for line in marks)


__all__ = ["Recovered", "recover"]
