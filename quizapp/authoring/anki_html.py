"""Markdown to HTML for Anki cards, as the TUI shows the same text.

The TUI renders bank text with Textual's Markdown widget, which parses it with markdown-it-py;
the cards are rendered by the same parser, so an explanation keeps its structure in Anki:
paragraphs, tables (GitHub's pipe tables, with their column alignment), fenced code, nested
and numbered lists, block quotes, headings, `code`, **bold**, *italic* and ~~strike-through~~.

Bank text is untrusted, and a card is HTML that Anki's web view shows. So raw HTML is never
passed through: markdown-it's `html` option is off, and every `<`, `>`, `&` and quote in the
text comes out escaped, as the text it is. An image (`![alt](src)`) is written as that text,
not as an `<img>`, so a card never fetches anything when it is shown; and a link keeps its
address only when it is http(s) or mailto (markdown-it already refuses `javascript:` and the
like; any other link is shown as its Markdown).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.renderer import RendererProtocol
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

_SAFE_LINK = re.compile(r"(?i)^(?:https?:|mailto:)")
# markdown-it puts a newline after each block tag. Inside text, `<` and `>` are always escaped,
# so `>` then a newline then `<` only ever falls between two tags: dropped, the card's HTML
# stays one line per field, as before.
_BETWEEN_TAGS = re.compile(r">\n+(?=<)")


def _parser() -> MarkdownIt:
    parser = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    parser.enable(["table", "strikethrough"])
    plain_validate = parser.validateLink
    parser.validateLink = lambda url: bool(_SAFE_LINK.match(url)) and plain_validate(url)

    def image_as_text(
        renderer: RendererProtocol,
        tokens: Sequence[Token],
        index: int,
        options: OptionsDict,
        env: EnvType,
    ) -> str:
        token = tokens[index]
        alt = "".join(child.content for child in token.children or [])
        return escapeHtml(f"![{alt}]({token.attrGet('src') or ''})")

    parser.add_render_rule("image", image_as_text)
    return parser


_MARKDOWN = _parser()


def markdown_to_html(text: str) -> str:
    """`text` (the bank's Markdown) as the HTML of an Anki field. No markup in the text passes
    through: it is all escaped, and only what the Markdown says becomes tags."""
    rendered = _MARKDOWN.render(text.replace("\r\n", "\n"))
    return _BETWEEN_TAGS.sub(">", rendered).strip("\n")


def inline_html(text: str) -> str:
    """One line of text (an option, a step, a unit) as inline HTML: `code`, **bold**,
    *italic* and the rest of the inline marks, escaped like markdown_to_html."""
    return _MARKDOWN.renderInline(text.replace("\r\n", "\n")).strip("\n")


__all__ = ["inline_html", "markdown_to_html"]
