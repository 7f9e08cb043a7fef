"""Invisible characters and Unicode normal forms in banks (quizapp/bank/text_checks.py).

The rule is held to unicodedata code point by code point; each hostile case is a small bank
written here, checked through `lint` and the loader, and through the CLI for exit codes.
"""

from __future__ import annotations

import sys
import unicodedata
from pathlib import Path

import pytest

from quizapp.authoring.csv_import import DeckInfo, import_csv
from quizapp.authoring.importers.common import Draft, SourceResult, build_deck
from quizapp.authoring.lint import lint
from quizapp.bank import load_file
from quizapp.bank.diagnostics import Diagnostic
from quizapp.bank.text_checks import (
    comparison_key,
    invisible_characters,
    is_invisible,
    normal_text,
    shown_visibly,
)

ZWSP, ZWJ, RLO, BOM, VS16 = "\u200b", "\u200d", "\u202e", "\ufeff", "\ufe0f"
E_ACUTE_NFC, E_ACUTE_NFD = "\u00e9", "e\u0301"
PREPENDED_MARKS = {0x0600, 0x0601, 0x0602, 0x0603, 0x0604, 0x0605, 0x06DD, 0x070F}
PREPENDED_MARKS |= {0x0890, 0x0891, 0x08E2, 0x110BD, 0x110CD}
# Default-ignorable code points outside Cf (DerivedCoreProperties.txt), assigned ones.
IGNORABLE_NOT_FORMAT = {0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B, 0x180C, 0x180D, 0x180F}
IGNORABLE_NOT_FORMAT |= {0x3164, 0xFFA0, *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)}

DECK = "deck: {id: d, title: T, topic: t, domain: D, exam_weight: 1}\nquestions:\n"


def flashcard(qid: str = "q1", prompt: str = "P", explanation: str = "E") -> str:
    return (
        f"  - id: {qid}\n    type: flashcard\n    prompt: {prompt}\n"
        f"    explanation: {explanation}\n    difficulty: easy\n    tags: [t]\n    back: B\n"
    )


def single_choice(*options: str) -> str:
    lines = [
        "  - id: q1\n    type: single_choice\n    prompt: P\n    explanation: E\n"
        "    difficulty: easy\n    tags: [t]\n    choices:\n"
    ]
    for index, text in enumerate(options):
        correct = " correct: true," if index == 0 else ""
        lines.append(f'      - {{text: "{text}",{correct} why: W}}\n')
    return "".join(lines)


def write_bank(tmp_path: Path, questions: str) -> Path:
    path = tmp_path / "hostile.yaml"
    path.write_text(DECK + questions, encoding="utf-8")
    return path


def found(path: Path, code: str, *, strict: bool = False) -> list[Diagnostic]:
    report = lint([path], evaluate=False, strict=strict)
    return [d for d in report.diagnostics if d.code == code]


# -- the rule -------------------------------------------------------------------------------


def test_the_rule_is_category_cf_and_the_default_ignorables() -> None:
    for code in range(sys.maxunicode + 1):
        character = chr(code)
        category = unicodedata.category(character)
        expected = (category == "Cf" and code not in PREPENDED_MARKS) or (
            code in IGNORABLE_NOT_FORMAT
        )
        if category == "Cn":  # unassigned here: only the ignorable blocks may match
            continue
        assert is_invisible(character) == expected, f"U+{code:04X} ({category})"


def test_the_unassigned_default_ignorables_count_and_other_unassigned_do_not() -> None:
    for code in (0x2065, 0xFFF0, 0xFFF8, 0xE0000, 0xE0002, 0xE0FFF):
        assert is_invisible(chr(code)), f"U+{code:04X}"
    assert not is_invisible(chr(0x0378))  # unassigned, not ignorable


@pytest.mark.parametrize(
    "visible",
    ["a", " ", "\u00a0", "\u3000", "\u2800", "\u0600", "\u0301", E_ACUTE_NFC, "\U0001f600"],
)
def test_visible_characters_are_not_invisible(visible: str) -> None:
    assert not is_invisible(visible)
    assert invisible_characters(f"x{visible}y", in_id=True) == []


@pytest.mark.parametrize(
    "text",
    [
        "\U0001f469\u200d\U0001f4bb",  # woman, ZWJ, laptop
        "\u2764\ufe0f\u200d\U0001f525",  # heart, emoji selector, ZWJ, fire
        "\U0001f44d\U0001f3fd\u200d\U0001f525",  # a skin tone before the joiner
        "\u2764\ufe0f and \u2764\ufe0e",  # presentation selectors after a pictograph
        "1\ufe0f\u20e3",  # a keycap
    ],
)
def test_emoji_sequences_are_text_but_never_an_id(text: str) -> None:
    assert invisible_characters(text) == []
    assert invisible_characters(text, in_id=True) != []


@pytest.mark.parametrize(
    ("text", "index"),
    [
        (f"a{ZWJ}b", 1),  # a joiner between letters
        (f"\U0001f469{ZWJ}", 1),  # a joiner with nothing after it
        (f"{ZWJ}\U0001f4bb", 0),
        (f"a{VS16}", 1),  # a selector after a letter
        (f"{VS16}x", 0),
        (f"a{ZWSP}b", 1),
        (f"ab{BOM}", 2),
        ("a\u00adb", 1),
        ("a\u2060b", 1),
        ("\u200ea", 0),
    ],
)
def test_invisible_characters_in_text_are_found_where_they_are(text: str, index: int) -> None:
    assert invisible_characters(text) == [index]


def test_normal_form_and_comparison_key() -> None:
    assert normal_text(f"caf{E_ACUTE_NFD}") == f"caf{E_ACUTE_NFC}"
    assert comparison_key(f"Caf{E_ACUTE_NFD} ") == comparison_key(f"caf{E_ACUTE_NFC}")
    assert comparison_key(f"so{ZWSP}ftmax") == comparison_key("softmax")
    assert comparison_key("softmax") != comparison_key("softmin")


def test_an_id_is_quoted_with_its_invisible_characters_escaped() -> None:
    assert shown_visibly(f"q1{ZWSP}x") == "q1\\u200bx"
    assert shown_visibly("tag\U000e0041") == "tag\\U000e0041"


# -- hostile banks --------------------------------------------------------------------------


def test_a_zero_width_space_in_an_id_is_an_error_at_its_column(tmp_path: Path) -> None:
    path = write_bank(tmp_path, flashcard(qid=f"q1{ZWSP}x") + flashcard(qid="q2"))
    (error,) = found(path, "invisible-in-id")
    assert (error.severity, error.line, error.column) == ("error", 3, 11)
    assert "U+200B (ZERO WIDTH SPACE)" in error.message
    assert "'q1\\u200bx'" in error.message  # the id's real spelling
    deck, _ = load_file(path)
    assert deck is not None and [q.id for q in deck.questions] == ["q2"]


def test_an_invisible_character_in_a_deck_id_refuses_the_file(tmp_path: Path) -> None:
    path = tmp_path / "deck.yaml"
    path.write_text(DECK.replace("id: d,", "id: d\u2063,") + flashcard(), encoding="utf-8")
    (error,) = found(path, "invisible-in-id")
    assert (error.line, error.column) == (1, 13)
    assert "deck id 'd\\u2063'" in error.message and "U+2063 (INVISIBLE SEPARATOR)" in error.message
    assert load_file(path)[0] is None


def test_a_printed_diagnostic_never_holds_an_invisible_character() -> None:
    quoted = Diagnostic(f"a{ZWSP}.yaml", 1, 1, "error", "bad-claim", f"claim 'x{ZWJ}y' fails")
    assert quoted.format() == "a\\u200b.yaml:1:1: error: claim 'x\\u200dy' fails [bad-claim]"
    assert quoted.as_dict()["message"] == f"claim 'x{ZWJ}y' fails"  # JSON escapes it itself


def test_an_invisible_character_written_as_an_escape_is_reported_at_its_value(
    tmp_path: Path,
) -> None:
    path = write_bank(tmp_path, flashcard(qid='"q1\\u2060x"'))
    (error,) = found(path, "invisible-in-id")
    assert (error.line, error.column) == (3, 9)
    assert "U+2060 (WORD JOINER)" in error.message


def test_an_rlo_in_a_prompt_is_refused_at_its_column(tmp_path: Path) -> None:
    path = write_bank(tmp_path, flashcard(prompt=f"Say {RLO}olleh"))
    (error,) = found(path, "control-character")
    assert (error.severity, error.line, error.column) == ("error", 5, 17)
    assert "U+202E (RIGHT-TO-LEFT OVERRIDE)" in error.message


def test_isolates_in_an_option_are_refused(tmp_path: Path) -> None:
    path = write_bank(tmp_path, single_choice("yes", "n\u2067o\u2069"))
    (error,) = found(path, "control-character")
    assert (error.line, error.column) == (11, 18)
    assert "U+2067 (RIGHT-TO-LEFT ISOLATE)" in error.message


def test_a_bom_inside_text_is_a_warning_and_an_error_when_strict(tmp_path: Path) -> None:
    path = write_bank(tmp_path, flashcard(explanation=f"Ex{BOM}plained"))
    (warning,) = found(path, "invisible-character")
    assert (warning.severity, warning.line, warning.column) == ("warning", 6, 20)
    assert "U+FEFF (ZERO WIDTH NO-BREAK SPACE)" in warning.message
    (strict,) = found(path, "invisible-character", strict=True)
    assert strict.severity == "error"
    deck, _ = load_file(path)
    assert deck is not None and len(deck.questions) == 1  # text is kept: a warning only


def test_an_emoji_sequence_in_a_prompt_is_not_reported(tmp_path: Path) -> None:
    path = write_bank(tmp_path, flashcard(prompt="Pair \U0001f469\u200d\U0001f4bb up"))
    assert found(path, "invisible-character") == []


def test_text_is_loaded_in_nfc(tmp_path: Path) -> None:
    path = write_bank(tmp_path, flashcard(prompt=f"Caf{E_ACUTE_NFD}"))
    deck, _ = load_file(path)
    assert deck is not None and deck.questions[0].prompt == f"Caf{E_ACUTE_NFC}"


def test_options_equal_in_nfc_are_one_option_twice(tmp_path: Path) -> None:
    path = write_bank(tmp_path, single_choice(f"caf{E_ACUTE_NFC}", f"caf{E_ACUTE_NFD}"))
    (error,) = found(path, "duplicate-choice")
    assert (error.line, error.column) == (11, 9)
    assert "first at line 10, column 9" in error.message


def test_options_that_differ_only_in_invisible_characters_are_one_option_twice(
    tmp_path: Path,
) -> None:
    path = write_bank(tmp_path, single_choice("softmax", f"soft{ZWSP}max", "argmax"))
    (error,) = found(path, "duplicate-choice")
    assert "first at line 10, column 9" in error.message
    assert "invisible characters are all that tell them apart" in error.message


def test_steps_that_differ_only_in_invisible_characters_are_refused(tmp_path: Path) -> None:
    question = (
        "  - id: q1\n    type: ordering\n    prompt: P\n    explanation: E\n"
        f"    difficulty: easy\n    tags: [t]\n    steps: [embed, 'em{ZWSP}bed']\n"
    )
    (error,) = found(write_bank(tmp_path, question), "ordering-steps")
    assert "first at line 9, column 13" in error.message


def test_a_key_or_a_type_with_an_invisible_character_is_quoted_with_it_escaped(
    tmp_path: Path,
) -> None:
    question = (
        flashcard()
        .replace("    back: B", f"    ba{ZWSP}ck: B")
        .replace("type: flashcard", f"type: flash{ZWSP}card")
    )
    path = write_bank(tmp_path, question)
    (unknown,) = found(path, "unknown-key")
    assert "'ba\\u200bck'" in unknown.message and "did you mean 'back'" in unknown.message
    (bad_type,) = [d for d in found(path, "bad-value") if "type" in d.message]
    assert "'flash\\u200bcard'" in bad_type.message


# -- exit codes, and the app's own loader ---------------------------------------------------


def test_lint_exit_codes_for_an_id_and_for_text(run_cli, tmp_path: Path) -> None:
    in_text = write_bank(tmp_path, flashcard(prompt=f"Zero{ZWSP}width"))
    default = run_cli("lint", "--no-eval", str(in_text))
    strict = run_cli("lint", "--no-eval", "--strict", str(in_text))
    assert default.returncode == 0, default.stdout
    assert strict.returncode == 1
    assert f"{in_text}:5:17: error: prompt holds an invisible character, U+200B" in strict.stdout

    in_id = tmp_path / "id.yaml"
    in_id.write_text(DECK + flashcard(qid=f"q1{ZWSP}x"), encoding="utf-8")
    result = run_cli("lint", "--no-eval", str(in_id))
    assert result.returncode == 1
    assert f"{in_id}:3:11: error: question id 'q1\\u200bx'" in result.stdout
    assert ZWSP not in result.stdout  # never printed raw, where it would hide again


def test_the_app_refuses_a_bank_whose_only_id_hides_its_spelling(run_cli, tmp_path: Path) -> None:
    path = write_bank(tmp_path, flashcard(qid=f"q1{ZWSP}x"))
    result = run_cli("--no-default-bank", "--bank", str(path))
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    (located,) = [line for line in result.stderr.splitlines() if "invisible-in-id" in line]
    assert located.startswith(f"{path}:3:11: error:")
    assert "U+200B (ZERO WIDTH SPACE)" in located


# -- importers --------------------------------------------------------------------------------


def test_csv_import_writes_text_in_nfc() -> None:
    header = "id,type,prompt,explanation,difficulty,tags,back"
    result = import_csv(
        f"{header}\nq1,flashcard,Caf{E_ACUTE_NFD},E,easy,t,B\n", deck=DeckInfo("d", "D", "d")
    )
    assert result.text is not None and result.problems == []
    assert f"Caf{E_ACUTE_NFC}" in result.text and E_ACUTE_NFD not in result.text


def test_every_other_importer_writes_text_in_nfc() -> None:
    question = {"type": "flashcard", "prompt": f"Caf{E_ACUTE_NFD}", "explanation": "E"}
    source = SourceResult(
        drafts=[Draft("f:1", {**question, "back": f"r{E_ACUTE_NFD}sum{E_ACUTE_NFD}"})]
    )
    built = build_deck(source, DeckInfo("d", "D", "d"))
    assert built.text is not None and built.skipped == []
    assert E_ACUTE_NFD not in built.text and f"Caf{E_ACUTE_NFC}" in built.text
