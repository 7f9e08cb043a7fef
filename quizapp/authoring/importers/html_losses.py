"""What converting an HTML fragment to the bank's text leaves out, in words for the report.

`html_text.html_to_markdown` keeps the text a reader sees and a few marks; everything else is
dropped on purpose (nothing is fetched or run). An import must still say what was dropped, so
this lists it: media (images, sounds, video, embedded frames and objects), links (the text is
kept, the address is not), scripts and styles, form controls, and the formatting that carries
meaning (sub- and superscript, strike-through, underline). Plain layout (`div`, `span`,
`font`) is not worth a line. Files Moodle keeps beside a question (`@@PLUGINFILE@@/...`) are
named too, wherever they appear.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

# tag -> what the report calls it
_MEDIA = {
    "img": "image",
    "audio": "sound",
    "video": "video",
    "source": "media source",
    "track": "media track",
    "embed": "embedded object",
    "object": "embedded object",
    "iframe": "embedded frame",
    "svg": "SVG drawing",
    "canvas": "canvas",
    "area": "image-map area",
    "math": "MathML formula",
}
_CODE = {"script": "script", "style": "style sheet"}
_CONTROLS = {"input", "select", "button", "textarea", "form"}
_MARKS = {
    "sub": "subscript",
    "sup": "superscript",
    "s": "strike-through",
    "strike": "strike-through",
    "del": "strike-through",
    "u": "underline",
    "ins": "underline",
    "mark": "highlight",
}
PLUGINFILE = re.compile(r"@@PLUGINFILE@@/([^\s\"'<>)]*)")
_MAX_NAMED = 3  # addresses and file names quoted per kind; the rest are counted


class _LossFinder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.counts: dict[str, int] = {}
        self.addresses: list[str] = []

    def _count(self, what: str) -> None:
        self.counts[what] = self.counts.get(what, 0) + 1

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag in _MEDIA:
            self._count(_MEDIA[tag])
        elif tag in _CODE:
            self._count(_CODE[tag])
        elif tag in _CONTROLS:
            self._count("form control")
        elif tag in _MARKS:
            self._count(f"{_MARKS[tag]} mark")
        elif tag == "a" and values.get("href"):
            self._count("link address")
            self.addresses.append(str(values["href"]))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)


def _counted(count: int, what: str) -> str:
    """ "an image", "2 images", "a link address", "3 link addresses"."""
    if count == 1:
        return ("an " if what[0] in "aeiou" else "a ") + what
    return f"{count} {what}{'es' if what.endswith('s') else 's'}"


def _quoted(items: list[str]) -> str:
    shown = ", ".join(repr(item) for item in items[:_MAX_NAMED])
    more = len(items) - _MAX_NAMED
    return shown + (f" and {more} more" if more > 0 else "")


def html_losses(html: str) -> list[str]:
    """What `html_to_markdown(html)` leaves out, one phrase per kind ("an image", "2 link
    addresses ('https://a', 'https://b'); their text is kept"); empty when nothing is lost."""
    finder = _LossFinder()
    finder.feed(html)
    finder.close()
    phrases: list[str] = []
    for what, count in finder.counts.items():
        phrase = _counted(count, what)
        if what == "link address":
            phrase += f" ({_quoted(finder.addresses)}); the link text is kept"
        elif what.endswith(" mark"):
            phrase += "; the marked text is kept, plain"
        phrases.append(phrase)
    return phrases


def file_references(text: str) -> list[str]:
    """A phrase naming the files Moodle keeps beside the question that `text` refers to
    (`@@PLUGINFILE@@/name`); a GIFT file does not hold them. Empty when there are none."""
    names = [m.group(1) or "(unnamed)" for m in PLUGINFILE.finditer(text)]
    if not names:
        return []
    what = "a file" if len(names) == 1 else f"{len(names)} files"
    return [f"{what} Moodle keeps beside the question ({_quoted(names)}), not in this file"]


__all__ = ["PLUGINFILE", "file_references", "html_losses"]
