"""`quizapp import` on the files spreadsheets really write: European Excel's semicolons and
decimal commas, Excel's UTF-16 "Unicode Text", Windows code pages, a teacher's own columns."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from quizapp.authoring.csv_import import DeckInfo, import_csv
from quizapp.authoring.export import CSV_BOM
from quizapp.bank import load_file
from quizapp.bank.model import NumericQuestion
from tests.authoring.helpers import cli, comparable_any_option_order, without_deck_notes

DATA = Path(__file__).parent / "data"
EVERY_TYPE = DATA / "every_type.yaml"

# What Excel with German regional settings writes under "CSV UTF-8 (durch Trennzeichen
# getrennt)": a byte-order mark, the list separator `;`, CRLF between rows, LF inside a
# quoted multi-line cell, decimal commas, and the teacher's own "Notes" column.
EUROPEAN_ROWS = [
    "id;type;prompt;explanation;difficulty;tags;answer;tolerance;unit;Notes",
    "eu-head-dim;numeric;Wie breit ist ein Kopf bei d_model = 512 und 8 Köpfen?;"
    "512 ÷ 8 = 64;easy;mha;64;0,5;dims;Kapitel 2",
    'eu-scale;numeric;"Womit wird QKᵀ skaliert,\nbei d_k = 64?";1 ÷ √64;medium;mha;0,125;;;',
    "eu-params;numeric;Parameter einer 1024×1024-Projektion?;—;hard;mha;1.048.576;;;",
    "eu-ambiguous;numeric;Wie viele Schritte?;E;easy;mha;1,500;;;",
    "eu-percent;numeric;Anteil?;E;easy;mha;50%;;;",
    "eu-no-explanation;numeric;Wie viele Köpfe?;;easy;mha;8;;;",
]
EUROPEAN_EXCEL = ("\r\n".join(EUROPEAN_ROWS) + "\r\n").encode("utf-8-sig")

# Excel's "Unicode Text": UTF-16 LE with a byte-order mark, tab-separated, CRLF.
UNICODE_TEXT_ROWS = [
    "id\ttype\tprompt\texplanation\tdifficulty\ttags\tback",
    "u-transpose\tflashcard\tWhat is Kᵀ?\tThe transpose: rows × columns swap — √ stays.\teasy\tt"
    "\tK transposed",
]
UNICODE_TEXT = "\r\n".join(UNICODE_TEXT_ROWS).encode("utf-16")  # BOM + little-endian here
assert UNICODE_TEXT.startswith(b"\xff\xfe")

# Excel's "CSV (Comma delimited)" on Windows: the ANSI code page, cp1252.
CP1252_TEXT = (
    "id,type,prompt,explanation,difficulty,tags,back\r\n"
    "w-cafe,flashcard,Café × 2 — why?,Because… it is,easy,t,Answer\r\n"
)
CP1252 = CP1252_TEXT.encode("cp1252")


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def loaded(path: Path) -> dict[str, object]:
    deck, diagnostics = load_file(path)
    assert deck is not None, diagnostics
    return {q.id: q for q in deck.questions}


# -- delimiters, encodings ------------------------------------------------------------------


def test_a_european_excel_file_imports_with_its_decimal_commas(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    source = write(tmp_path, "Fragen.csv", EUROPEAN_EXCEL)
    out = tmp_path / "fragen.yaml"
    code, _, stderr = cli(capsys, "import", str(source), "--out", str(out))
    assert code == 1  # three rows are rejected, the rest are written
    lines = without_deck_notes(stderr)
    assert (
        lines[0]
        == f"quizapp import: warning: {source}: ignoring a column quizapp does not use: 'Notes'"
    )
    # Spreadsheet rows, not file lines: row 3's prompt spans two lines.
    assert lines[1] == (
        f"{source}: row 5, question 'eu-ambiguous': answer: '1,500' could be 1500 or 1.5; "
        "write 1500, or 1.5 for the decimal"
    )
    assert lines[2].startswith(
        f"{source}: row 6, question 'eu-percent': answer: '50%' is a percentage"
    )
    assert (
        lines[3] == f"{source}: row 7, question 'eu-no-explanation': the explanation cell is empty"
    )
    assert "3 question(s) imported" in lines[4] and "3 row(s) rejected" in lines[4]
    questions = loaded(out)
    assert list(questions) == ["eu-head-dim", "eu-scale", "eu-params"]
    head, scale, params = (questions[i] for i in questions)
    assert isinstance(head, NumericQuestion) and head.answer.tolerance == 0.5
    assert isinstance(scale, NumericQuestion) and scale.answer.value == 0.125
    assert scale.prompt == "Womit wird QKᵀ skaliert,\nbei d_k = 64?"  # no CR, no BOM kept
    assert isinstance(params, NumericQuestion) and params.answer.value == 1048576
    assert head.prompt.startswith("Wie breit")  # the BOM is not part of the first cell


def test_delimiter_overrides_the_guess(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    source = write(tmp_path, "fragen.csv", EUROPEAN_EXCEL)
    code, _, stderr = cli(capsys, "import", str(source), "--delimiter", ",")
    assert code == 2 and stderr.count("\n") == 1
    assert "the header has a single column 'id;type;prompt;" in stderr
    assert "--delimiter" in stderr
    code, stdout, _ = cli(capsys, "import", str(source), "--delimiter", "semicolon")
    assert code == 1 and "id: eu-head-dim" in stdout
    # A tab-separated file named as such, and a delimiter that cannot be one.
    tabbed = write(tmp_path, "t.csv", "\n".join(UNICODE_TEXT_ROWS).encode())
    code, stdout, _ = cli(capsys, "import", str(tabbed), "--delimiter", "tab")
    assert code == 0 and "id: u-transpose" in stdout
    code, _, stderr = cli(capsys, "import", str(tabbed), "--delimiter", "ab")
    assert code == 2 and "not a delimiter" in stderr and stderr.count("\n") == 1


@pytest.mark.parametrize("delimiter", [",", ";", "\t"])
def test_the_delimiter_is_read_from_the_header(delimiter: str) -> None:
    header = delimiter.join(["id", "type", "prompt", "explanation", "difficulty", "tags", "back"])
    row = delimiter.join(["q", "flashcard", "P, with; both", "E", "easy", "t", "B"])
    if delimiter != "\t":
        row = row.replace("P, with; both", '"P, with; both"')
    result = import_csv(f"{header}\n{row}\n", deck=DeckInfo("d", "D", "d"))
    assert result.problems == [] and result.imported == ["q"]
    assert "prompt: P, with; both" in (result.text or "")


def test_excel_unicode_text_utf16_with_bom_imports(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    source = write(tmp_path, "unicode.txt", UNICODE_TEXT)
    out = tmp_path / "u.yaml"
    code, _, stderr = cli(capsys, "import", str(source), "--out", str(out))
    assert code == 0, stderr
    (card,) = loaded(out).values()
    assert card.prompt == "What is Kᵀ?"
    assert card.explanation == "The transpose: rows × columns swap — √ stays."


def test_utf16_without_a_bom_is_named_and_readable_with_encoding(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    source = write(tmp_path, "u.txt", "\r\n".join(UNICODE_TEXT_ROWS).encode("utf-16-le"))
    code, _, stderr = cli(capsys, "import", str(source))
    assert code == 2 and stderr.count("\n") == 1
    assert "looks like UTF-16 text without a byte-order mark" in stderr
    assert "--encoding utf-16-le" in stderr
    code, stdout, stderr = cli(capsys, "import", str(source), "--encoding", "utf-16-le")
    assert code == 0, stderr
    assert "What is Kᵀ?" in stdout


def test_a_cp1252_file_is_refused_with_the_fix_then_read_with_encoding(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    source = write(tmp_path, "windows.csv", CP1252)
    out = tmp_path / "w.yaml"
    code, stdout, stderr = cli(capsys, "import", str(source), "--out", str(out))
    assert code == 2 and stdout == "" and not out.exists()
    assert stderr.count("\n") == 1
    assert "is not UTF-8 text (byte 0xe9 on line 2)" in stderr
    assert "--encoding cp1252" in stderr and "CSV UTF-8" in stderr
    code, _, stderr = cli(capsys, "import", str(source), "--encoding", "cp1252", "--out", str(out))
    assert code == 0, stderr
    (card,) = loaded(out).values()
    assert (card.prompt, card.explanation) == ("Café × 2 — why?", "Because… it is")


@pytest.mark.parametrize(
    ("name", "message"),
    [("no-such-codec", "unknown encoding 'no-such-codec'"), ("base64", "not a text encoding")],
)
def test_encoding_names_are_checked(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, message: str
) -> None:
    source = write(tmp_path, "windows.csv", CP1252)
    code, _, stderr = cli(capsys, "import", str(source), "--encoding", name)
    assert code == 2 and message in stderr and stderr.count("\n") == 1


def test_a_utf8_file_read_as_cp1252_is_warned_about(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    source = write(tmp_path, "utf8.csv", CP1252_TEXT.encode("utf-8"))
    code, stdout, stderr = cli(capsys, "import", str(source), "--encoding", "cp1252")
    assert code == 0
    assert "reads as UTF-8 text" in stderr and "leave out --encoding" in stderr
    assert "CafÃ©" in stdout  # what was asked for, garbled, which is why it warns


def test_binary_input_is_still_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    source = write(tmp_path, "x.csv", bytes(range(256)) * 4)
    code, _, stderr = cli(capsys, "import", str(source))
    assert code == 2 and "is a binary file" in stderr


# -- columns --------------------------------------------------------------------------------


def test_extra_columns_are_ignored_with_one_warning(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    text = (
        "Chapter,id,type,prompt,explanation,difficulty,tags,back,Notes,,Comments\n"
        "2,q1,flashcard,P,E,easy,t,B,check,stray,ok\n"
        "3,q2,flashcard,P2,E,easy,t,B,,,\n"
    )
    source = write(tmp_path, "q.csv", text.encode())
    code, stdout, stderr = cli(capsys, "import", str(source))
    assert code == 0, stderr
    warnings = [line for line in stderr.splitlines() if "warning" in line]
    assert warnings == [
        f"quizapp import: warning: {source}: ignoring 4 columns quizapp does not use: "
        "'Chapter', 'Notes', 'Comments', column J (no name in the header)"
    ]
    assert "did you mean" not in stderr  # notes is not a misspelling of steps
    assert "id: q1" in stdout and "id: q2" in stdout and "check" not in stdout


def test_a_misspelled_column_is_refused_not_ignored(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    text = "id,type,prompt,explanation,difficulty,tags,answer,tolerence\nq,numeric,P,E,easy,t,5,1\n"
    source = write(tmp_path, "q.csv", text.encode())
    code, _, stderr = cli(capsys, "import", str(source))
    assert code == 2 and stderr.count("\n") == 1
    assert "unknown column 'tolerence' (did you mean 'tolerance'?)" in stderr


# -- numbers --------------------------------------------------------------------------------

NUMBER_HEADER = (
    "id,type,prompt,explanation,difficulty,tags,answer,tolerance,relative_tolerance,traps,trap_whys"
)


@pytest.mark.parametrize(
    ("cells", "expected"),
    [
        ('"1,048,576",,,', {"value": 1048576}),
        ("1 048 576,,,", {"value": 1048576}),
        ("1\u00a0048\u00a0576,,,", {"value": 1048576}),
        ("1\u202f048\u202f576,,,", {"value": 1048576}),
        ('"1,500",,,', {"value": 1500}),  # a comma-separated file: the comma groups thousands
        ("1.500,,,", {"value": 1.5}),  # ... and the point is decimal
        ('5,"0,5",,', {"value": 5, "tolerance": 0.5}),
        ('5,,"0,01",', {"value": 5, "relative_tolerance": 0.01}),
        ('5,,,"1,024|2 048"', {"value": 5, "traps": (1024, 2048)}),
        ("1e-5,,,", {"value": 1e-05}),
    ],
)
def test_spreadsheet_numbers_are_read(
    tmp_path: Path, cells: str, expected: dict[str, object]
) -> None:
    trap_whys = "a|b" if "traps" in expected else ""
    text = f"{NUMBER_HEADER}\nq,numeric,P,E,easy,t,{cells},{trap_whys}\n"
    result = import_csv(text, deck=DeckInfo("d", "D", "d"))
    assert result.problems == [], result.problems
    (question,) = loaded(write(tmp_path, "d.yaml", (result.text or "").encode())).values()
    assert isinstance(question, NumericQuestion)
    read = {
        "value": question.answer.value,
        "tolerance": question.answer.tolerance,
        "relative_tolerance": question.answer.relative_tolerance,
        "traps": tuple(t.value for t in question.traps) or None,
    }
    assert {k: v for k, v in read.items() if v is not None} == expected


@pytest.mark.parametrize(
    ("delimiter", "cell", "message"),
    [
        (";", "1,500", "answer: '1,500' could be 1500 or 1.5; write 1500, or 1.5 for the decimal"),
        (
            ";",
            "2.048",
            "answer: '2.048' could be 2048 or 2.048; write 2048, or 2.0480 for the decimal",
        ),
        ("\t", "1,500", "could be 1500 or 1.5"),
        (
            ",",
            "50 %",
            "answer: '50 %' is a percentage; write 50 and put % in the unit cell, or write the fraction 0.5",
        ),
        (",", "1 2 8", "answer: '1 2 8' is not a number"),
        (",", "12,34,567", "is not a number"),
    ],
)
def test_numbers_with_two_readings_or_none_are_refused(
    delimiter: str, cell: str, message: str
) -> None:
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=delimiter)
    writer.writerow(NUMBER_HEADER.split(","))
    writer.writerow(["q", "numeric", "P", "E", "easy", "t", cell, "", "", "", ""])
    result = import_csv(buffer.getvalue(), deck=DeckInfo("d", "D", "d"))
    [problem] = result.problems
    assert message in problem.message, problem.message
    assert problem.row == 2 and problem.question_id == "q"


def test_a_percentage_tolerance_says_which_column_to_use() -> None:
    text = f"{NUMBER_HEADER}\nq,numeric,P,E,easy,t,5,,1%,,\nr,numeric,P,E,easy,t,5,5%,,,\n"
    result = import_csv(text, deck=DeckInfo("d", "D", "d"))
    first, second = (p.message for p in result.problems)
    assert first == "relative_tolerance is a fraction: write 0.01 for 1%"
    assert "give relative_tolerance 0.05" in second


# -- exporting for a spreadsheet ------------------------------------------------------------


def test_export_csv_starts_with_a_bom_unless_told_not_to(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    with_bom, without = tmp_path / "a.csv", tmp_path / "b.csv"
    code, _, stderr = cli(
        capsys, "export", "--format", "csv", str(EVERY_TYPE), "--out", str(with_bom)
    )
    assert code == 0, stderr
    code, _, stderr = cli(
        capsys, "export", "--format", "csv", str(EVERY_TYPE), "--out", str(without), "--no-bom"
    )
    assert code == 0, stderr
    assert with_bom.read_bytes().startswith(b"\xef\xbb\xbfid,type,")
    assert without.read_bytes().startswith(b"id,type,")
    assert with_bom.read_bytes()[3:] == without.read_bytes()
    # And the export imports back to the same questions, BOM and all.
    out = tmp_path / "again.yaml"
    deck, _ = load_file(EVERY_TYPE)
    assert deck is not None
    code, _, stderr = cli(
        capsys,
        "import",
        str(with_bom),
        "--no-default-bank",
        "--deck-id",
        deck.id,
        "--topic",
        deck.topic,
        "--out",
        str(out),
    )
    assert code == 0, stderr
    again, _ = load_file(out)
    assert again is not None
    assert [comparable_any_option_order(q) for q in again.questions] == [
        comparable_any_option_order(q) for q in deck.questions
    ]


def test_export_csv_to_stdout_is_utf8_with_a_bom(
    capsysbinary: pytest.CaptureFixture[bytes],
) -> None:
    from quizapp.cli import main

    assert main(["export", "--format", "csv", str(EVERY_TYPE)]) == 0
    out, _ = capsysbinary.readouterr()
    assert out.startswith(CSV_BOM.encode() + b"id,type,")
    out.decode("utf-8")  # whatever the locale


def test_no_bom_is_for_csv_only(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, stderr = cli(capsys, "export", "--format", "json", "--no-bom", str(EVERY_TYPE))
    assert code == 2 and "--no-bom applies to --format csv only" in stderr
