r"""Invisible characters in bank text and ids, and the one normal form bank text is kept in.

An invisible character makes text differ from what it shows: an id `attention\u200bheads`
reads as `attentionheads` and is another id, and two options that look the same can differ
(the "Trojan Source" problem). The loader reports each one where it is written: in an id,
topic, tag or name an error (the value is refused); in text a warning (an error under
`quizapp lint --strict`), because text rarely needs one and an author can always drop it.

**The rule** (docs/authoring.md, "Invisible characters"). A character is invisible when it is

- a format character (Unicode general category Cf): the zero-width space, joiners and
  non-joiner (U+200B to U+200D), the direction marks (U+200E, U+200F, U+061C), the
  invisible operators (U+2060 to U+2064), a byte-order mark inside text (U+FEFF), the soft
  hyphen (U+00AD), the Mongolian vowel separator (U+180E), tag characters (U+E0001,
  U+E0020 to U+E007F) and the rest of Cf, but for the prepended concatenation marks
  (U+0600 to U+0605, U+06DD, U+070F, U+0890, U+0891, U+08E2, U+110BD, U+110CD), which
  are visible signs; or
- one of the other characters Unicode calls default-ignorable, which show nothing: the
  combining grapheme joiner U+034F, the Hangul fillers U+115F, U+1160, U+3164 and U+FFA0,
  the Khmer inherent vowels U+17B4 and U+17B5, the Mongolian variation selectors U+180B to
  U+180F, the variation selectors U+FE00 to U+FE0F and U+E0100 to U+E01EF, and the
  unassigned default-ignorable code points (U+2065, U+FFF0 to U+FFF8, U+E0000 to U+E0FFF).

The bidirectional overrides and isolates (U+202A to U+202E, U+2066 to U+2069) are Cf too,
but literal.py already refuses them everywhere as control characters, which is stronger.

**Emoji are text.** In text (never in an id) two invisible characters are left alone where
emoji need them: a zero-width joiner between two pictographs (woman, ZWJ, laptop makes a technologist; a pictograph
here is a character of category So, after which an emoji presentation selector or a skin
tone modifier may stand), and the text and emoji presentation selectors U+FE0E and U+FE0F
right after a pictograph or a keycap's digit, `#` or `*`.

Text is kept in Unicode Normalization Form C, so an `é` typed as one character and one
typed as `e` plus a combining accent are the same text (`normal_text`). Two options or steps
are compared after NFC, without invisible characters, spacing or case (`comparison_key`).

Pure Python, no third-party import: the bank package never imports torch or textual.
"""

from __future__ import annotations

import re
import unicodedata

# Category Cf as of Unicode 15 (a superset of older versions: a code point unassigned in the
# running Python's Unicode is still matched), without the prepended concatenation marks.
# tests/bank/test_text_checks.py holds this list to unicodedata, code point by code point.
_FORMAT = (
    "\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f"
    "\ufeff\ufff9-\ufffb\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0001\U000e0020-\U000e007f"
)
# Default-ignorable code points outside Cf (DerivedCoreProperties.txt).
_IGNORABLE = (
    "\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180d\u180f\u2065\u3164\ufe00-\ufe0f\uffa0"
    "\ufff0-\ufff8\U000e0000\U000e0002-\U000e001f\U000e0080-\U000e0fff"
)
_INVISIBLE = re.compile(f"[{_FORMAT}{_IGNORABLE}]")

_ZWJ = "\u200d"
_PRESENTATION_SELECTORS = "\ufe0e\ufe0f"
_SKIN_TONES = re.compile("[\U0001f3fb-\U0001f3ff]")
_KEYCAP_BASES = "0123456789#*"


def is_invisible(character: str) -> bool:
    return _INVISIBLE.fullmatch(character) is not None


def normal_text(text: str) -> str:
    """`text` in Normalization Form C: how every text and id of a bank is kept."""
    return unicodedata.normalize("NFC", text)


def without_invisible(text: str) -> str:
    """`text` with every invisible character removed (those emoji use too)."""
    return _INVISIBLE.sub("", text)


def comparison_key(text: str) -> str:
    """What two options (or steps) of one question must not share: the text after NFC,
    without invisible characters, with spacing collapsed and case ignored."""
    return " ".join(without_invisible(normal_text(text)).split()).casefold()


def invisible_characters(text: str, *, in_id: bool = False) -> list[int]:
    """The index of each invisible character `text` may not hold (module docstring).

    In an id every invisible character counts; in text, those emoji sequences need do not.
    """
    if _INVISIBLE.search(text) is None:  # nearly every text: no Python-level loop at all
        return []
    found = []
    for match in _INVISIBLE.finditer(text):
        index = match.start()
        if in_id or not _part_of_emoji(text, index):
            found.append(index)
    return found


def _is_pictograph(character: str) -> bool:
    return unicodedata.category(character) == "So"


def _part_of_emoji(text: str, index: int) -> bool:
    character = text[index]
    before = text[index - 1] if index > 0 else ""
    after = text[index + 1] if index + 1 < len(text) else ""
    if character in _PRESENTATION_SELECTORS:
        return bool(before) and (_is_pictograph(before) or before in _KEYCAP_BASES)
    if character == _ZWJ:
        # A selector or a skin tone may stand between the pictograph and the joiner.
        if before in _PRESENTATION_SELECTORS or _SKIN_TONES.fullmatch(before or "x"):
            before = text[index - 2] if index > 1 else ""
        return bool(before and after) and _is_pictograph(before) and _is_pictograph(after)
    return False


def code_point(character: str) -> str:
    """`U+200B (ZERO WIDTH SPACE)`, or just the number for an unnamed code point."""
    name = unicodedata.name(character, "")
    return f"U+{ord(character):04X}" + (f" ({name})" if name else "")


def shown_visibly(text: str, limit: int | None = 40) -> str:
    """The first `limit` characters of `text` (all, for None) with each invisible character
    as an escape (`\\u200b`), so a message can quote an id that hides its spelling."""

    def escape(match: re.Match[str]) -> str:
        code = ord(match.group())
        return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"

    return _INVISIBLE.sub(escape, text[:limit])
