"""The characters bank text may not hold, and untrusted text made safe to print."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml

from quizapp.bank.literal import (
    describe_character,
    forbidden_character,
    markdown_literal,
    named_character,
    terminal_safe,
)

C0 = [chr(c) for c in range(0x20) if chr(c) not in "\t\n"]
C1 = [chr(c) for c in range(0x80, 0xA0)]
BIDI_OVERRIDES = [chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))]
FORBIDDEN = [*C0, "\x7f", *C1, *BIDI_OVERRIDES]
# Allowed: layout a text needs, the direction marks right-to-left writing needs, and letters.
ALLOWED = ["\t", "\n", "\u200e", "\u200f", "\u061c", "é", "ß", "Δ", "注", "🙂", " ", "\u00a0"]
# Anything a terminal could act on, or that would break a one-line message.
UNSAFE_ON_ONE_LINE = re.compile(
    r"[\x00-\x08\x0a-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)


@pytest.mark.parametrize("character", FORBIDDEN, ids=lambda c: f"U+{ord(c):04X}")
def test_every_forbidden_character_is_found_and_escaped(character: str) -> None:
    assert forbidden_character(f"ab{character}c") == (2, character)
    shown = terminal_safe(f"ab{character}c", multiline=True)
    assert character not in shown
    assert shown.startswith("ab\\") and shown.endswith("c")


@pytest.mark.parametrize("character", ALLOWED, ids=lambda c: f"U+{ord(c):04X}")
def test_allowed_characters_pass_unchanged(character: str) -> None:
    assert forbidden_character(f"a{character}b") is None
    assert terminal_safe(f"a{character}b", multiline=True) == f"a{character}b"


def test_escapes_are_readable() -> None:
    assert terminal_safe("\x1b]0;title\x07") == "\\x1b]0;title\\x07"
    assert terminal_safe("x\u202ey") == "x\\u202ey"
    assert terminal_safe("one\ntwo\rthree") == "one\\ntwo\\rthree"
    assert terminal_safe("one\ntwo\r", multiline=True) == "one\ntwo\\r"
    # A file name that is not UTF-8 arrives with its bytes as surrogates: shown as the bytes.
    assert terminal_safe(b"evil\x9b2J".decode("utf-8", "surrogateescape")) == "evil\\x9b2J"


def test_characters_are_named_by_code_point_and_name() -> None:
    assert describe_character("\x1b") == "U+001B (ESC)"
    assert describe_character("\x7f") == "U+007F (DEL)"
    assert describe_character("\x9b") == "U+009B"
    assert named_character("\x07") == "control character U+0007 (BEL)"
    assert named_character("\u202e") == "bidirectional override U+202E (RIGHT-TO-LEFT OVERRIDE)"


@given(st.text())
def test_nothing_unsafe_survives_terminal_safe(text: str) -> None:
    assert not UNSAFE_ON_ONE_LINE.search(terminal_safe(text))
    multiline = terminal_safe(text, multiline=True)
    assert not UNSAFE_ON_ONE_LINE.search(multiline.replace("\n", ""))
    assert multiline.count("\n") == text.count("\n")


@given(st.text(st.characters(blacklist_categories=("Cc", "Cs", "Cf"))))
def test_ordinary_text_is_shown_as_it_is(text: str) -> None:
    assert terminal_safe(text) == text


@given(st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E)))
def test_markdown_literal_renders_as_the_text_itself(text: str) -> None:
    # Inside a sentence (never at the start of a line), Markdown does nothing to the words.
    rendered = MarkdownIt().renderInline("word " + markdown_literal(text))
    assert rendered == escapeHtml("word " + text)
