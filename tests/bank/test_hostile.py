"""Hostile and broken input: one located error, never a crash, a hang or a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from quizapp.bank import load_bank, load_file
from quizapp.bank.loader import MAX_FILE_BYTES

QUESTION = """\
  - id: q{n}
    type: flashcard
    prompt: P
    explanation: E
    difficulty: easy
    tags: [t]
    back: B
"""
HEADER = "deck: {id: d, title: T, topic: t, domain: D, exam_weight: 1}\nquestions:\n"


def write(tmp_path: Path, name: str, data: bytes | str) -> Path:
    path = tmp_path / name
    if isinstance(data, str):
        data = data.encode()
    path.write_bytes(data)
    return path


def only_error(path: Path):
    deck, diagnostics = load_file(path)
    assert deck is None
    errors = [d for d in diagnostics if d.severity == "error"]
    assert len(errors) == 1, [d.format() for d in errors]
    return errors[0]


def test_oversized_file_is_refused_before_parsing(tmp_path: Path) -> None:
    path = write(tmp_path, "big.yaml", "x: '" + "a" * (MAX_FILE_BYTES + 10) + "'\n")
    assert only_error(path).code == "file-too-large"


def test_billion_laughs_in_questions(tmp_path: Path) -> None:
    text = HEADER + "  - &q\n    id: q\n    type: flashcard\n    prompt: P\n    explanation: E\n"
    text += "    difficulty: easy\n    tags: [t]\n    back: B\n" + "  - *q\n" * 100_000
    assert only_error(write(tmp_path, "bomb.yaml", text)).code == "alias-expansion"


def test_nested_alias_bomb(tmp_path: Path) -> None:
    text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
    for i in range(1, 15):
        text += f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]\n"
    text += "deck: *a14\nquestions: *a14\n"
    assert only_error(write(tmp_path, "bomb.yaml", text)).code == "alias-expansion"


def test_small_legitimate_aliases_still_work(tmp_path: Path) -> None:
    text = HEADER + (
        "  - id: q1\n    type: flashcard\n    prompt: P\n    explanation: E\n"
        "    difficulty: easy\n    tags: &tags [shared]\n    back: B\n"
        "  - id: q2\n    type: flashcard\n    prompt: P\n    explanation: E\n"
        "    difficulty: easy\n    tags: *tags\n    back: B\n"
    )
    deck, _diagnostics = load_file(write(tmp_path, "ok.yaml", text))
    assert deck is not None and [q.tags for q in deck.questions] == [("shared",), ("shared",)]


@pytest.mark.parametrize("opener", ["[", "{a: "])
@pytest.mark.parametrize("depth", [500, 5000])
def test_deep_flow_nesting(tmp_path: Path, opener: str, depth: int) -> None:
    closer = "]" if opener == "[" else "}"
    error = only_error(write(tmp_path, "deep.yaml", "deck: " + opener * depth + closer * depth))
    assert error.code == "nesting-depth"


def test_deep_block_nesting(tmp_path: Path) -> None:
    text = "deck:\n" + "".join("  " * i + "- \n" for i in range(1, 1200))
    assert only_error(write(tmp_path, "deep.yaml", text)).code == "nesting-depth"


@pytest.mark.parametrize("depth", [60, 70])
def test_nesting_limit_is_ours_not_the_parsers(tmp_path: Path, depth: int) -> None:
    _deck, diagnostics = load_file(
        write(tmp_path, "deep.yaml", "deck: " + "[" * depth + "]" * depth)
    )
    codes = {d.code for d in diagnostics}
    assert ("nesting-depth" in codes) == (depth > 64)


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b"\x00\x01binary\xff", "binary-file"),
        (b"\x7fELF\x02\x01\x01\x00\x00", "binary-file"),
        ("deck: café\n".encode("latin-1"), "encoding"),
        (b"\xef\xbb\xbf", "empty-file"),  # a UTF-8 byte-order mark and nothing else
        (b"", "empty-file"),
        (b"   \n\n# only a comment\n", "empty-file"),
        (b"deck: \x07\n", "control-character"),
        (b"deck: \xef\xbf\xbe\n", "yaml-syntax"),  # U+FFFE: not a character YAML allows
        (b"{{{{", "yaml-syntax"),
        (b"- just\n- a list\n", "wrong-type"),
        (b"plain words", "wrong-type"),
        (b"--- a\n--- b\n", "yaml-syntax"),
        (b"*undefined_alias\n", "yaml-syntax"),
    ],
)
def test_broken_bytes(tmp_path: Path, data: bytes, code: str) -> None:
    assert only_error(write(tmp_path, "broken.yaml", data)).code == code


def test_the_fast_parser_is_used_when_pyyaml_has_it() -> None:
    import yaml

    from quizapp.bank import yaml12

    assert yaml.__with_libyaml__ == yaml12.HAVE_LIBYAML


def test_utf8_bom_is_accepted(tmp_path: Path) -> None:
    path = write(tmp_path, "bom.yaml", b"\xef\xbb\xbf" + (HEADER + QUESTION.format(n=1)).encode())
    deck, _ = load_file(path)
    assert deck is not None and deck.questions[0].id == "q1"


def test_unreadable_and_missing_paths(tmp_path: Path) -> None:
    bank = load_bank([tmp_path / "missing.yaml", tmp_path])
    assert [d.code for d in bank.errors] == ["not-found", "no-files"]


def test_a_directory_named_like_a_bank_file_is_skipped(tmp_path: Path) -> None:
    (tmp_path / "folder.yaml").mkdir()
    write(tmp_path, "real.yaml", HEADER + QUESTION.format(n=1))
    bank = load_bank([tmp_path])
    assert list(bank.questions) == ["q1"] and bank.errors == []


def test_duplicate_ids_across_files(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", HEADER + QUESTION.format(n=1))
    write(
        tmp_path,
        "b.yaml",
        HEADER.replace("id: d", "id: e") + QUESTION.format(n=1) + QUESTION.format(n=2),
    )
    bank = load_bank([tmp_path])
    assert sorted(bank.questions) == ["q1", "q2"]
    [error] = bank.errors
    assert error.code == "duplicate-id" and error.path.endswith("b.yaml") and error.line == 3
    assert "a.yaml:3:5" in error.message


def test_duplicate_deck_ids_across_files(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", HEADER + QUESTION.format(n=1))
    write(tmp_path, "b.yaml", HEADER + QUESTION.format(n=2))
    bank = load_bank([tmp_path])
    assert list(bank.questions) == ["q1"]
    assert [d.code for d in bank.errors] == ["duplicate-id"]


def test_too_many_errors_stop_early(tmp_path: Path) -> None:
    text = HEADER + "".join(f"  - id: q{n}\n    type: nope\n" for n in range(500))
    deck, diagnostics = load_file(write(tmp_path, "many.yaml", text))
    assert deck is None
    assert diagnostics[-1].code == "too-many-errors"
    assert len(diagnostics) < 500
