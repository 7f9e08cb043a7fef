"""Markdown to HTML, just enough for Anki cards: paragraphs, `-` and `1.` lists, fenced code,
`code`, **bold** and *italic*. Everything else is HTML-escaped, so no bank text can inject
markup into a card."""

from __future__ import annotations

import html
import re

_LIST_ITEM = re.compile(r"^\s{0,3}(?:(?P<bullet>[-*+])|(?P<number>\d{1,9})[.)])\s+(?P<text>.*)$")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.DOTALL)
_BOLD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*|__(?=\S)(.+?)(?<=\S)__", re.DOTALL)
_ITALIC = re.compile(r"(?<![*\w])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![*\w])", re.DOTALL)


def inline_html(text: str) -> str:
    """Escape `text` for HTML and render `code`, **bold** and *italic*."""
    parts: list[str] = []
    last = 0
    for match in _CODE_SPAN.finditer(text):
        parts.append(_emphasis(html.escape(text[last : match.start()], quote=False)))
        parts.append(f"<code>{html.escape(match.group(2).strip(), quote=False)}</code>")
        last = match.end()
    parts.append(_emphasis(html.escape(text[last:], quote=False)))
    return "".join(parts)


def _emphasis(escaped: str) -> str:
    escaped = _BOLD.sub(lambda m: f"<strong>{m.group(1) or m.group(2)}</strong>", escaped)
    return _ITALIC.sub(r"<em>\1</em>", escaped)


def markdown_to_html(text: str) -> str:
    """A small Markdown subset as HTML: paragraphs, `-`/`1.` lists, fenced code, inline marks.

    Everything is HTML-escaped first, so no text can inject markup.
    """
    out: list[str] = []
    paragraph: list[str] = []
    items: list[str] = []
    list_kind: str | None = None
    lines = text.replace("\r\n", "\n").split("\n")

    def flush_paragraph() -> None:
        if paragraph:
            out.append(f"<p>{inline_html(chr(10).join(paragraph))}</p>")
            paragraph.clear()

    def flush_list() -> None:
        nonlocal list_kind
        if items:
            body = "".join(f"<li>{inline_html(item)}</li>" for item in items)
            out.append(f"<{list_kind}>{body}</{list_kind}>")
            items.clear()
        list_kind = None

    i = 0
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith("```"):
            flush_paragraph()
            flush_list()
            fence = line.lstrip()[:3]
            code: list[str] = []
            i += 1
            while i < len(lines) and not lines[i].lstrip().startswith(fence):
                code.append(lines[i])
                i += 1
            out.append(f"<pre><code>{html.escape(chr(10).join(code), quote=False)}</code></pre>")
            i += 1
            continue
        if not line.strip():
            flush_paragraph()
            flush_list()
        elif match := _LIST_ITEM.match(line):
            flush_paragraph()
            kind = "ul" if match.group("bullet") else "ol"
            if list_kind is not None and kind != list_kind:
                flush_list()
            list_kind = kind
            items.append(match.group("text"))
        elif items and line.startswith((" ", "\t")):
            items[-1] += "\n" + line.strip()  # a continuation of the list item
        else:
            flush_list()
            paragraph.append(line.strip())
        i += 1
    flush_paragraph()
    flush_list()
    return "".join(out)


__all__ = ["inline_html", "markdown_to_html"]
