"""Untrusted text on the command line's output: a hostile bank, CSV, argument or file name
never writes a control character to the terminal, and Rich markup in it prints as typed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.authoring.helpers import cli
from tests.conftest import REPO

ESC, BEL = b"\x1b", b"\x07"
# A deck whose first question has an ESC in its id and the second an OSC title sequence in
# an unknown key, the one place where the raw text is quoted back in the message.
HOSTILE_DECK = (
    "deck: {id: d, title: T, topic: t, domain: D, exam_weight: 1}\n"
    "questions:\n"
    '  - id: "q1\\e]0;pwned\\a"\n'
    "    type: flashcard\n"
    "    prompt: P\n"
    "    explanation: E\n"
    "    difficulty: easy\n"
    "    tags: [t]\n"
    "    back: B\n"
    "  - id: q2\n"
    "    type: flashcard\n"
    '    prompt: "\\e[2J"\n'
    "    explanation: E\n"
    "    difficulty: easy\n"
    "    tags: [t]\n"
    "    back: B\n"
    '    "\\e]0;pwned\\a": 1\n'
)


def run_bytes(*args: str | bytes) -> subprocess.CompletedProcess[bytes]:
    """`python -m quizapp ...` with the output kept as bytes, as the terminal would get them."""
    return subprocess.run(
        [sys.executable, "-m", "quizapp", *args],
        capture_output=True,
        timeout=180,
        cwd=REPO,
    )


def assert_no_control_bytes(output: bytes) -> None:
    # Tab and newline are layout; anything else below 0x20 (and DEL) could act on a terminal.
    assert not any((b < 0x20 and b not in b"\t\n") or b == 0x7F for b in output), output
    # C1 controls in UTF-8 (U+0080-U+009F) and the bidirectional overrides.
    text = output.decode("utf-8", "replace")
    assert not any("\x80" <= c <= "\x9f" or c in "\u202a\u202b\u202c\u202d\u202e" for c in text)


def test_lint_text_output_of_a_hostile_deck_holds_no_raw_control_character(
    tmp_path: Path,
) -> None:
    deck = tmp_path / "hostile.yaml"
    deck.write_text(HOSTILE_DECK, encoding="utf-8")
    result = run_bytes("lint", "--no-eval", str(deck))
    assert result.returncode == 1
    assert_no_control_bytes(result.stdout)
    assert_no_control_bytes(result.stderr)
    out = result.stdout.decode()
    assert f"{deck}:3:9: error: question id contains control character U+001B (ESC)" in out
    assert f"{deck}:12:13: error: prompt contains control character U+001B (ESC)" in out
    # The quoted key is shown, escaped, rather than sent to the terminal.
    assert "unknown key '\\x1b]0;pwned\\x07'" in out
    # JSON keeps the text as it is, escaped by JSON itself.
    payload = json.loads(run_bytes("lint", "--no-eval", "--format", "json", str(deck)).stdout)
    assert any("'\x1b]0;pwned\x07'" in d["message"] for d in payload["diagnostics"])


def test_a_file_name_with_escapes_is_printed_escaped(tmp_path: Path) -> None:
    deck = tmp_path / "evil\x1b]0;pwned\x07\u202e.yaml"
    deck.write_text(HOSTILE_DECK, encoding="utf-8")
    missing = tmp_path / "gone\x1b[2J.yaml"
    result = run_bytes("lint", "--no-eval", str(deck), str(missing))
    assert result.returncode == 1
    assert_no_control_bytes(result.stdout + result.stderr)
    out = result.stdout.decode()
    assert f"{tmp_path}/evil\\x1b]0;pwned\\x07\\u202e.yaml:3:9: error: " in out
    assert f"{tmp_path}/gone\\x1b[2J.yaml:1:1: error: no such file or folder [not-found]" in out


def test_a_file_name_that_is_not_utf8_is_printed_as_escaped_bytes(tmp_path: Path) -> None:
    missing = bytes(tmp_path) + b"/csi\x9b2J.yaml"  # 0x9b is CSI to an 8-bit terminal
    result = run_bytes("lint", missing)
    assert result.returncode == 1
    assert b"\x9b" not in result.stdout
    assert result.stdout.decode().startswith(f"{tmp_path}/csi\\x9b2J.yaml:1:1: error: ")


def test_compute_prints_markup_in_an_argument_literally() -> None:
    result = run_bytes(
        "compute",
        "permutation_demo",
        "sentence=[bold red]x[/] y",
        "swapped=y [bold red]x[/]",
        "--device",
        "cpu",
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout.decode()
    assert "sentence=[bold red]x[/] y" in " ".join(out.split())  # the title wraps
    assert "“[bold red]x[/] y”" in " ".join(out.split())  # quoted in the summary
    # The word table's first cell, shown literally (it wraps over two rows, before a │).
    assert " [bold    │" in out and " red]x[/] │" in out
    assert b"Error" not in result.stderr and b"Traceback" not in result.stderr


def test_compute_refusing_a_markup_argument_says_so_in_one_line() -> None:
    # Without `swapped`, the default one does not hold the same words: a clean refusal.
    result = run_bytes("compute", "permutation_demo", "sentence=[bold red]x[/] y")
    assert result.returncode == 2
    [line] = result.stderr.decode().splitlines()
    assert line.startswith("quizapp compute: error: swapped must use exactly the words")
    assert "'[bold', 'red]x[/]'" in line
    assert result.stdout == b""


def test_compute_refuses_control_characters_in_text_arguments() -> None:
    result = run_bytes("compute", "permutation_demo", "sentence=man \x1b]0;pwned\x07 bites")
    assert result.returncode == 2
    assert_no_control_bytes(result.stderr)
    assert result.stderr.decode() == (
        "quizapp compute: error: sentence contains control character U+001B (ESC)\n"
    )


@pytest.mark.parametrize(
    ("args", "shown"),
    [
        (["compute", "nope\x1b[2J"], "unknown computation 'nope\\x1b[2J'"),
        (["compute", "mha_params", "d\x1b[2J=1"], "no argument 'd\\x1b[2J'"),
        (["lint", "--format", "x\x1b[2J"], "invalid choice: 'x\\x1b[2J'"),
        (["import", "gone\x1b[2J.csv"], "gone\\x1b[2J.csv: no such file"),
        (["export", "--format", "csv", "gone\u202e.yaml"], "gone\\u202e.yaml: no such file"),
        (["drill", "--length", "1", "--theme", "x\x1b[2J"], "unknown theme 'x\\x1b[2J'"),
    ],
)
def test_one_line_errors_escape_what_they_quote(
    capsys: pytest.CaptureFixture[str], args: list[str], shown: str
) -> None:
    code, stdout, stderr = cli(capsys, *args)
    assert stdout == ""
    assert code == 2
    assert shown in stderr, stderr
    assert len(stderr.splitlines()) == 1
    assert_no_control_bytes(stderr.encode())


def test_a_csv_cell_with_an_escape_is_rejected_naming_its_row(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    source = tmp_path / "in.csv"
    source.write_text(
        "id,type,prompt,explanation,difficulty,tags,back\n"
        "good-1,flashcard,P,E,easy,t,B\n"
        'bad-1,flashcard,"retitle \x1b]0;pwned\x07",E,easy,t,B\n'
        "bad-2,flashcard,P,\u202eE,easy,t,B\n",
        encoding="utf-8",
    )
    out = tmp_path / "out.yaml"
    code, _, stderr = cli(capsys, "import", str(source), "--out", str(out), "--no-default-bank")
    assert code == 1
    lines = stderr.splitlines()
    assert lines[0].startswith(
        f"{source}: row 3, question 'bad-1': prompt contains control character U+001B (ESC)"
    )
    assert lines[1].startswith(
        f"{source}: row 4, question 'bad-2': explanation contains bidirectional override U+202E"
    )
    assert "1 question(s) imported" in lines[-2]  # after the deck settings left to defaults
    assert_no_control_bytes(stderr.encode())
    assert "\x1b" not in out.read_text(encoding="utf-8")


def test_the_app_says_why_a_hostile_history_path_failed_escaped(tmp_path: Path) -> None:
    """The app's last words, printed once it gives the terminal back, quote the --db path."""
    import os

    fifo = tmp_path / "h\x1b]0;pwned\x07\u202e.db"
    os.mkfifo(fifo)
    result = run_bytes("drill", "--db", str(fifo))
    assert result.returncode == 1
    # The app drew its first frame on stderr (its own escape codes); its error comes after.
    said = result.stderr[result.stderr.rindex(b"quizapp: error:") :]
    assert_no_control_bytes(said)
    assert f"{tmp_path}/h\\x1b]0;pwned\\x07\\u202e.db is a FIFO" in said.decode()
    assert b"Traceback" not in result.stderr
