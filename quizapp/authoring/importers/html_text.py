"""HTML as Markdown text, safely: the HTML of Anki fields and GIFT `[html]` items.

Nothing in the HTML is interpreted: no script runs, nothing is fetched, no URL is kept. The
standard library's `html.parser` tokenizes it (entities become the characters they name),
`<script>`, `<style>` and similar elements lose their content, images and media become
nothing, and the text of every other element is kept. A few marks survive, written as the
Markdown quizapp itself reads: paragraphs, line breaks, lists, **bold**, *italic*, `code` and
code blocks. That is the subset `quizapp export --format anki` writes, so the cards of that
export read back as the Markdown they were made from.

`parse_html` gives the tree (`Element`), for callers that look for particular elements;
`to_markdown` renders a tree or any part of it; `html_to_markdown` does both.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser

# Elements that never have content, so a start tag does not open anything.
_VOID = frozenset(
    [
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "param",
        "source",
        "track",
        "wbr",
    ]
)
# Elements whose content is not text a reader sees.
_DROPPED = frozenset(
    ["script", "style", "head", "title", "template", "svg", "noscript", "iframe", "object"]
)
# A start tag of one of these closes an open element of the same name (`<li>a<li>b`).
_SELF_CLOSING_SIBLINGS = frozenset(["li", "p", "tr", "td", "th", "dt", "dd", "option"])
_BLOCKS = frozenset(
    [
        "p",
        "div",
        "section",
        "article",
        "header",
        "footer",
        "main",
        "nav",
        "aside",
        "address",
        "blockquote",
        "center",
        "figure",
        "figcaption",
        "details",
        "summary",
        "form",
        "fieldset",
        "dl",
        "dt",
        "dd",
        "table",
        "thead",
        "tbody",
        "tfoot",
        "tr",
        "caption",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
    ]
)
# Marks a list item's continuation line while the text is assembled (three spaces in the end).
# NUL: no text that reaches here holds one (the importers reject control characters).
_INDENT = "\x00"
MAX_DEPTH = 100  # deeper elements join their parent: nesting cannot exhaust the stack


@dataclass
class Element:
    tag: str
    classes: frozenset[str] = frozenset()
    children: list[Element | str] = field(default_factory=list)

    def find_all(self, wanted: Callable[[Element], bool]) -> Iterator[Element]:
        """Every element below this one (depth first, in document order) that `wanted` accepts."""
        stack: list[Element] = [self]
        while stack:
            node = stack.pop()
            if node is not self and wanted(node):
                yield node
            stack.extend(c for c in reversed(node.children) if isinstance(c, Element))

    def find(self, wanted: Callable[[Element], bool]) -> Element | None:
        return next(self.find_all(wanted), None)

    def text(self) -> str:
        """The plain text of the element, whitespace as written."""
        parts: list[str] = []
        stack: list[Element | str] = [self]
        while stack:
            node = stack.pop()
            if isinstance(node, str):
                parts.append(node)
            else:
                stack.extend(reversed(node.children))
        return "".join(parts)


def has_class(name: str, tag: str | None = None) -> Callable[[Element], bool]:
    return lambda e: name in e.classes and (tag is None or e.tag == tag)


class _TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("#root")
        self.stack: list[Element] = [self.root]
        self.dropping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._start(tag, attrs, closed=False)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._start(tag, attrs, closed=True)

    def _start(self, tag: str, attrs: list[tuple[str, str | None]], *, closed: bool) -> None:
        if tag in _DROPPED:
            if not closed:
                self.dropping += 1
            return
        if self.dropping:
            return
        if tag in _SELF_CLOSING_SIBLINGS and self.stack[-1].tag == tag and len(self.stack) > 1:
            self.stack.pop()
        classes = next((value or "" for name, value in attrs if name == "class"), "")
        element = Element(tag, frozenset(classes.split()))
        self.stack[-1].children.append(element)
        if not closed and tag not in _VOID and len(self.stack) < MAX_DEPTH:
            self.stack.append(element)

    def handle_endtag(self, tag: str) -> None:
        if tag in _DROPPED:
            self.dropping = max(0, self.dropping - 1)
            return
        if self.dropping:
            return
        for depth in range(len(self.stack) - 1, 0, -1):
            if self.stack[depth].tag == tag:
                del self.stack[depth:]
                return

    def handle_data(self, data: str) -> None:
        if not self.dropping:
            self.stack[-1].children.append(data)


def parse_html(text: str) -> Element:
    """The element tree of an HTML fragment (never raises: malformed HTML still parses)."""
    builder = _TreeBuilder()
    builder.feed(text)
    builder.close()
    return builder.root


# -- rendering --------------------------------------------------------------------------------

_SPACES = re.compile(r"[ \t\r\f\v\xa0]+")
_BLOCK_BREAK = "\n\n"


def _inline_text(text: str) -> str:
    # HTML whitespace collapses; a line break in the source stays a (soft) Markdown line break,
    # so that a paragraph written line by line reads back line by line.
    return _SPACES.sub(" ", text)


def _wrap(mark: str, inner: str) -> str:
    core = inner.strip()
    if not core:
        return inner
    lead = inner[: len(inner) - len(inner.lstrip())]
    trail = inner[len(inner.rstrip()) :]
    return f"{lead}{mark}{core}{mark}{trail}"


def _code_span(text: str) -> str:
    text = " ".join(text.split())
    if not text:
        return ""
    fence = "``" if "`" in text else "`"
    pad = " " if fence == "``" else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _render(node: Element | str, in_pre: bool = False) -> str:
    if isinstance(node, str):
        return node if in_pre else _inline_text(node)
    tag = node.tag
    if tag == "br":
        return "\n"
    if tag in ("hr", "img", "input", "wbr", "embed", "source", "track", "area"):
        return _BLOCK_BREAK if tag == "hr" else ""
    if tag == "pre":
        code = node.text().strip("\n")
        return f"{_BLOCK_BREAK}```\n{code}\n```{_BLOCK_BREAK}"
    if tag == "code" and not in_pre:
        return _code_span(node.text())
    if tag in ("ul", "ol"):
        return _render_list(node)
    if tag == "table":  # its rows, whatever groups them, as a Markdown table
        rows = "".join(_render(row) for row in node.find_all(lambda e: e.tag == "tr"))
        return f"{_BLOCK_BREAK}{_with_header_rule(rows)}{_BLOCK_BREAK}"
    inner = "".join(_render(child, in_pre) for child in node.children)
    if tag in ("b", "strong"):
        return _wrap("**", inner)
    if tag in ("i", "em"):
        return _wrap("*", inner)
    if tag in ("td", "th"):
        return " " + inner.strip() + " |"
    if tag == "tr":
        return "\n|" + inner.replace("\n", " ")
    if tag in _BLOCKS:
        return f"{_BLOCK_BREAK}{inner}{_BLOCK_BREAK}"
    return inner


def _marked_indent(line: str) -> str:
    """An item's line with its indent (from a list nested in it) as marks, which survive."""
    spaces = len(line) - len(line.lstrip(" "))
    return _INDENT * (spaces // 3) + line[spaces - spaces % 3 :]


def _with_header_rule(rows: str) -> str:
    """A table's rows with the `| --- |` line after the first, which makes them a Markdown
    table (the first row is its header, as in a `<thead>`)."""
    lines = rows.split("\n")
    for n, line in enumerate(lines):
        if line.startswith("|"):
            cells = max(line.count(" |"), 1)
            lines.insert(n + 1, "|" + " --- |" * cells)
            break
    return "\n".join(lines)


def _render_list(node: Element) -> str:
    items: list[str] = []
    for child in node.children:
        if isinstance(child, str):
            if child.strip():
                items.append(_inline_text(child).strip())
            continue
        body = to_markdown(child) if child.tag == "li" else _render(child).strip()
        if body:
            items.append(body)
    lines: list[str] = []
    for n, item in enumerate(items, start=1):
        marker = f"{n}. " if node.tag == "ol" else "- "
        first, *rest = [line for line in item.split("\n") if line.strip()]
        lines.append(marker + first)
        # Indented: a continuation of the item (a nested list, a second paragraph). The mark
        # stands for the indent until to_markdown has stripped the HTML's own whitespace.
        lines.extend(_INDENT + _marked_indent(line) for line in rest)
    return _BLOCK_BREAK + "\n".join(lines) + _BLOCK_BREAK


def to_markdown(node: Element | list[Element | str]) -> str:
    """The Markdown text of an element (or a list of nodes): paragraphs a blank line apart,
    lines stripped, no leading or trailing blank lines."""
    nodes = node if isinstance(node, list) else [node]
    raw = "".join(_render(n) for n in nodes)
    lines: list[str] = []
    in_fence = False
    for line in raw.split("\n"):
        if line.startswith("```"):
            in_fence = not in_fence
            lines.append(line)
        elif in_fence:
            lines.append(line)
        else:
            stripped = line.strip()
            depth = len(stripped) - len(stripped.lstrip(_INDENT))
            lines.append("   " * depth + stripped[depth:].strip())
    text = "\n".join(lines)
    return re.sub(r"\n{3,}", "\n\n", text).strip("\n")


def html_to_markdown(text: str) -> str:
    """An HTML fragment as Markdown text (see the module docstring)."""
    return to_markdown(parse_html(text))


def looks_like_html(text: str) -> bool:
    """Whether text is probably HTML: a tag or an entity in it (what Anki checks too)."""
    return bool(_HTML_HINT.search(text))


_HTML_HINT = re.compile(
    r"</?[a-zA-Z][^<>]*>|&(?:[a-zA-Z][a-zA-Z0-9]{1,31}|#\d{1,7}|#x[0-9a-fA-F]{1,6});"
)

__all__ = [
    "Element",
    "has_class",
    "html_to_markdown",
    "looks_like_html",
    "parse_html",
    "to_markdown",
]
