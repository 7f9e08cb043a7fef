"""Untrusted text on a terminal: which characters a bank may not hold, and how to show the rest.

Bank files, CSVs, computation arguments and file names come from other people. A control
character in them can act on the terminal that prints it (ESC starts sequences that retitle
the window, clear the screen or write the clipboard), and a bidirectional override makes text
read differently from what it is. The loader rejects these characters in bank text; every
place that prints untrusted text to a terminal passes it through `terminal_safe`, which turns
whatever remains into visible escapes.

Pure Python on purpose: the CLI imports it before deciding whether to load anything else.
"""

from __future__ import annotations

import re
import unicodedata

# The embedding overrides and isolates (LRE RLE PDF LRO RLO, LRI RLI FSI PDI): they reorder
# what follows them, which is how "Trojan Source" text reads one way and means another.
# The marks (U+200E LRM, U+200F RLM, U+061C ALM) are left alone: they only set the direction of
# neutral characters next to them, cannot hide or reorder words, and right-to-left writing needs them.
_BIDI = "\u202a-\u202e\u2066-\u2069"
# C0 controls except tab and newline (so CR too: YAML turns a raw CR into a line break, so a CR
# in a value can only come from a "\r" escape), DEL, and the C1 controls (0x9b is a one-byte CSI).
_FORBIDDEN_IN_BANK = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{_BIDI}]")
# On a terminal, the same, and lone surrogates: they stand for the undecodable bytes of a file
# name (0x9b among them, a CSI to an 8-bit terminal). A newline or CR in a one-line message
# would break its `path:line:col:` shape.
_SURROGATES = "\ud800-\udfff"
_UNSAFE_ON_TERMINAL = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{_BIDI}{_SURROGATES}]")
_UNSAFE_ON_ONE_LINE = re.compile(f"[\x00-\x08\x0a-\x1f\x7f-\x9f{_BIDI}{_SURROGATES}]")

# fmt: off
_C0_NAMES = (
    "NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS", "HT", "LF", "VT", "FF", "CR",
    "SO", "SI", "DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB", "CAN", "EM", "SUB", "ESC",
    "FS", "GS", "RS", "US",
)
# fmt: on


def forbidden_character(text: str) -> tuple[int, str] | None:
    """The index and character of the first character bank text may not hold, or None."""
    found = _FORBIDDEN_IN_BANK.search(text)
    return None if found is None else (found.start(), found.group())


def is_forbidden(character: str) -> bool:
    return _FORBIDDEN_IN_BANK.fullmatch(character) is not None


def describe_character(character: str) -> str:
    """`U+001B (ESC)`, `U+202E (RIGHT-TO-LEFT OVERRIDE)`, or just `U+009B`."""
    code = ord(character)
    name = _C0_NAMES[code] if code < 0x20 else "DEL" if code == 0x7F else None
    name = name or unicodedata.name(character, "")
    return f"U+{code:04X}" + (f" ({name})" if name else "")


def named_character(character: str) -> str:
    """`control character U+001B (ESC)` or `bidirectional override U+202E (...)`, for a message."""
    bidi = re.fullmatch(f"[{_BIDI}]", character) is not None
    kind = "bidirectional override" if bidi else "control character"
    return f"{kind} {describe_character(character)}"


BANK_TEXT_RULE = "bank text may not hold control characters or bidirectional overrides"


_SHORT_ESCAPES = {"\n": "\\n", "\r": "\\r"}


def _escape(match: re.Match[str]) -> str:
    if match.group() in _SHORT_ESCAPES:
        return _SHORT_ESCAPES[match.group()]
    code = ord(match.group())
    if 0xDC80 <= code <= 0xDCFF:  # how Python carries a byte of a name that is not UTF-8
        code -= 0xDC00
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def terminal_safe(text: object, *, multiline: bool = False) -> str:
    """`text` as a string that shows literally on a terminal and cannot act on it.

    Control characters and bidirectional overrides become visible escapes (`\\x1b`, `\\u202e`).
    Newlines stay only when `multiline` is asked for; tabs always stay.
    """
    shown = str(text)
    pattern = _UNSAFE_ON_TERMINAL if multiline else _UNSAFE_ON_ONE_LINE
    return pattern.sub(_escape, shown)


def error_line(prog: str, message: object) -> str:
    """`prog: error: message`, one line, safe to print whatever the message quotes."""
    return f"{prog}: error: {terminal_safe(message)}"


# Inline Markdown: emphasis, code, links and images, raw HTML and entities, strikethrough,
# table cells, and the escape character itself. Quoted inside a sentence, nothing else acts.
_MARKDOWN_INLINE = re.compile(r"([\\`*_\[\]<>&~|])")


def markdown_literal(text: str) -> str:
    """`text` escaped to read as itself inside Markdown (a word quoted in a summary)."""
    return _MARKDOWN_INLINE.sub(r"\\\1", text)
