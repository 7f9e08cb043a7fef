"""Untrusted XML, parsed safely: the parser behind `quizapp import FILE.xml`.

A file over MAX_XML_BYTES is refused before a byte is parsed. defusedxml parses the rest with
any DOCTYPE refused outright, so no entity is ever declared or expanded (no "billion laughs")
and nothing external is fetched (no XXE, no DTD from the network). While parsing, elements
nested deeper than MAX_DEPTH or more than MAX_ELEMENTS of them stop it. Every refusal, like
malformed XML, is one ImportInputError line naming the file and line.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import DefusedXMLParser

from quizapp.authoring.importers.common import ImportInputError

MAX_XML_BYTES = 32 * 1024 * 1024  # embedded base64 files make real exports large
MAX_DEPTH = 32  # Moodle's own files nest about six deep
MAX_ELEMENTS = 2_000_000


class _TooBig(Exception):
    pass


class _LineTarget(ET.TreeBuilder):
    """Builds the tree, remembering each element's line and refusing deep or huge trees."""

    def __init__(self) -> None:
        super().__init__()
        self.parser: Any = None
        self.lines: dict[int, int] = {}
        self.depth = 0
        self.count = 0

    def start(self, tag: str, attrs: dict[str, str]) -> ET.Element:
        self.depth += 1
        self.count += 1
        if self.depth > MAX_DEPTH:
            raise _TooBig(f"elements nest more than {MAX_DEPTH} deep")
        if self.count > MAX_ELEMENTS:
            raise _TooBig(f"it has more than {MAX_ELEMENTS:,} elements")
        element = super().start(tag, attrs)
        self.lines[id(element)] = self.parser.CurrentLineNumber
        return element

    def end(self, tag: str) -> ET.Element:
        self.depth -= 1
        return super().end(tag)


def parse_xml(path: Path, root_tag: str = "quiz") -> tuple[ET.Element, dict[int, int]]:
    """The document's root and each element's line. Raises ImportInputError (one line)."""
    try:
        size = path.stat().st_size
        if size > MAX_XML_BYTES:
            raise ImportInputError(
                f"{path} is larger than {MAX_XML_BYTES // (1024 * 1024)} MiB; that is not "
                "a Moodle XML file quizapp imports"
            )
        with path.open("rb") as handle:
            raw = handle.read(MAX_XML_BYTES + 1)
    except OSError as exc:
        raise ImportInputError(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(raw) > MAX_XML_BYTES:  # it grew since stat
        raise ImportInputError(f"{path} is larger than {MAX_XML_BYTES // (1024 * 1024)} MiB")
    target = _LineTarget()
    parser = DefusedXMLParser(
        target=target, forbid_dtd=True, forbid_entities=True, forbid_external=True
    )
    target.parser = parser.parser
    try:
        parser.feed(raw)
        root = parser.close()
    except ET.ParseError as exc:
        line = exc.position[0] if exc.position else 0
        raise ImportInputError(f"{path}:{line}: not well-formed XML ({_reason(exc)})") from None
    except DefusedXmlException as exc:
        line = getattr(target.parser, "CurrentLineNumber", 0)
        what = "a DOCTYPE" if "DTD" in type(exc).__name__ else "an entity declaration"
        raise ImportInputError(
            f"{path}:{line}: the file has {what}, which quizapp never reads "
            "(entities could expand without bound or fetch files)"
        ) from None
    except _TooBig as exc:
        line = getattr(target.parser, "CurrentLineNumber", 0)
        raise ImportInputError(f"{path}:{line}: refused: {exc}") from None
    if root.tag != "quiz":
        raise ImportInputError(
            f"{path}: not Moodle XML (the root element is <{root.tag}>, not <quiz>)"
        )
    return root, target.lines


def _reason(exc: ET.ParseError) -> str:
    return str(exc).split(":", 1)[0]


__all__ = ["MAX_DEPTH", "MAX_ELEMENTS", "MAX_XML_BYTES", "parse_xml"]
