"""`quizapp import`: CSV rows become bank questions, checked by the loader itself."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from quizapp.authoring.csv_cells import guard_cell
from quizapp.authoring.csv_import import (
    COLUMNS,
    MODELINE,
    REQUIRED_COLUMNS,
    CsvInputError,
    DeckInfo,
    import_csv,
    split_items,
)
from quizapp.authoring.export import export_csv, join_items
from quizapp.bank import bundled_bank_path, load_bank, load_file
from quizapp.bank.display_order import ExportOrder
from quizapp.bank.text_checks import comparison_key, normal_text
from tests.authoring.helpers import (
    cli,
    comparable,
    comparable_any_option_order,
    without_deck_notes,
)

DATA = Path(__file__).parent / "data"
EVERY_TYPE = DATA / "every_type.yaml"
HEADER = "id,type,prompt,explanation,difficulty,tags,choices,correct,whys,answer,compute,steps,back"
GOOD_ROW = "good-1,flashcard,Front,Why,easy,t,,,,,,,Back"


def write_csv(tmp_path: Path, text: str, name: str = "deck.csv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# -- round trips ----------------------------------------------------------------------------


@pytest.mark.parametrize("shuffled", [False, True], ids=["no-shuffle", "shuffled"])
@pytest.mark.parametrize("source", ["bundled", "every_type"])
def test_export_then_import_gives_the_same_questions_field_by_field(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, source: str, shuffled: bool
) -> None:
    """--no-shuffle, the authoring round trip, gives back every field in the file's order; a
    default export shuffles the options, and its `correct` and `whys` cells follow them."""
    same = comparable_any_option_order if shuffled else comparable
    paths = [bundled_bank_path()] if source == "bundled" else [EVERY_TYPE]
    bank = load_bank(paths)
    assert bank.decks and not bank.errors
    for deck in bank.decks:
        text = export_csv(deck.questions, ExportOrder(shuffle=shuffled))
        exported = write_csv(tmp_path, text, f"{deck.id}.csv")
        out = tmp_path / f"{deck.id}.yaml"
        # The imported deck is compared alone, so its ids must not collide with the bank's.
        code, _, stderr = cli(
            capsys,
            "import",
            str(exported),
            "--no-default-bank",
            "--deck-id",
            deck.id,
            "--title",
            deck.title,
            "--topic",
            deck.topic,
            "--domain",
            deck.domain,
            "--weight",
            repr(deck.exam_weight),
            "--out",
            str(out),
        )
        assert code == 0, stderr
        again, diagnostics = load_file(out)
        assert again is not None, diagnostics
        assert [d for d in diagnostics if d.severity == "error"] == []
        assert (again.id, again.title, again.topic, again.domain, again.exam_weight) == (
            deck.id,
            deck.title,
            deck.topic,
            deck.domain,
            deck.exam_weight,
        )
        assert [same(q) for q in again.questions] == [same(q) for q in deck.questions]
        assert out.read_text(encoding="utf-8").startswith(MODELINE + "\n")


def test_the_export_csv_has_exactly_the_importer_columns() -> None:
    deck, _ = load_file(EVERY_TYPE)
    assert deck is not None
    header = next(csv.reader(io.StringIO(export_csv(deck.questions))))
    assert tuple(header) == COLUMNS
    assert set(REQUIRED_COLUMNS) <= set(COLUMNS)


def test_pipes_and_backslashes_survive_item_lists() -> None:
    items = ["a|b", "c\\", "\\|", "plain", "C:\\temp"]
    assert split_items(join_items(items)) == items
    assert split_items("A | B |C") == ["A", "B", "C"]
    assert split_items("C:\\temp|x\\|y") == ["C:\\temp", "x|y"]


def test_yaml_ambiguous_text_stays_text(tmp_path: Path) -> None:
    rows = [
        "q1,single_choice,yes,no,easy,t,1e5|0o17|on|null|~|.5,1,,,,,",
        "q2,flashcard,1e-5,true,easy,t,,,,,,,010",
    ]
    result = import_csv(
        "\n".join([HEADER, *rows]) + "\n",
        deck=DeckInfo("d", "D", "d"),
    )
    assert result.problems == []
    path = write_csv(tmp_path, result.text or "", "d.yaml")
    deck, _ = load_file(path)
    assert deck is not None
    q1, q2 = deck.questions
    assert (q1.prompt, q1.explanation) == ("yes", "no")
    assert [c.text for c in q1.choices] == ["1e5", "0o17", "on", "null", "~", ".5"]
    assert (q2.prompt, q2.explanation, q2.back) == ("1e-5", "true", "010")


TEXT = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\ufeff"),
    min_size=1,
    max_size=40,
).filter(lambda s: s.strip() != "")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(prompt=TEXT, options=st.lists(TEXT, min_size=2, max_size=4, unique_by=str.strip))
@example(prompt="'=1+2", options=["'-x", "a"])  # once found at random: no longer left to chance
@example(prompt="cafe\u0301", options=["e\u0301", "b\u200b"])  # NFD; an invisible character
def test_any_text_round_trips(
    tmp_path_factory: pytest.TempPathFactory, prompt: str, options: list[str]
) -> None:
    options = [o.strip() for o in options]
    if len({comparison_key(o) for o in options}) < len(options):
        return  # the loader rightly refuses options that read the same
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(
        ["id", "type", "prompt", "explanation", "difficulty", "tags", "choices", "correct"]
    )
    # Cells guarded as `quizapp export` writes them: a hand-written `'=x` is the spreadsheet's
    # text marker and reads back as `=x` (csv_cells.py), so a prompt that really starts `'=`
    # round-trips only guarded.
    row = ["q", "single_choice", prompt, prompt, "easy", "t", join_items(options), "1"]
    writer.writerow([guard_cell(cell) for cell in row])
    result = import_csv(buffer.getvalue(), deck=DeckInfo("d", "D", "d"))
    assert result.problems == [], result.problems
    path = tmp_path_factory.mktemp("rt") / "d.yaml"
    path.write_text(result.text or "", encoding="utf-8")
    deck, diagnostics = load_file(path)
    assert deck is not None, diagnostics
    (question,) = deck.questions
    assert question.prompt == normal_text(prompt)  # text is read in NFC
    assert [c.text for c in question.choices] == [normal_text(o) for o in options]


# -- rejected rows --------------------------------------------------------------------------

BAD_ROWS = [
    ("dup-in-bank", "mha-purpose-subspaces,flashcard,F,E,easy,t,,,,,,,B", "id is already used in"),
    ("two-correct", "r,single_choice,P,E,easy,t,A|B,1;2,,,,,", "exactly one correct choice, not 2"),
    ("no-correct", "r,multiple_choice,P,E,easy,t,A|B,,,,,,", "needs a correct choice"),
    (
        "correct-range",
        "r,single_choice,P,E,easy,t,A|B,3,,,,,",
        "correct: 3 is not an option number",
    ),
    (
        "correct-word",
        "r,single_choice,P,E,easy,t,A|B,first,,,,,",
        "'first' is not an option number",
    ),
    ("correct-alone", "r,flashcard,P,E,easy,t,,1,,,,,B", "correct is given but choices is empty"),
    ("whys-count", "r,single_choice,P,E,easy,t,A|B,1,x,,,,", "whys has 1 item but choices has 2"),
    ("empty-option", "r,single_choice,P,E,easy,t,A||B,1,,,,,", "option 2 is empty"),
    ("same-option", "r,single_choice,P,E,easy,t,A|a,1,,,,,", "the same choice appears twice"),
    ("one-option", "r,single_choice,P,E,easy,t,A,1,,,,,", "2 to 9 choices, not 1"),
    ("percent", "r,numeric,P,E,easy,t,,,,50%,,,", "answer: '50%' is a percentage; write 50"),
    ("not-a-number", "r,numeric,P,E,easy,t,,,,1 2 8,,,", "answer: '1 2 8' is not a number"),
    ("tf-answer", "r,true_false,P,E,easy,t,,,,maybe,,,", "answer must be true or false"),
    ("no-answer", "r,true_false,P,E,easy,t,,,,,,,", "the answer cell is empty"),
    ("bad-id", "Bad Id,flashcard,P,E,easy,t,,,,,,,B", "question id 'Bad Id' must be lowercase"),
    ("bad-tag", "r,flashcard,P,E,easy,Not A Tag!,,,,,,,B", "must be lowercase"),
    ("same-steps", "r,ordering,P,E,easy,t,,,,,,a|b|a,", "two steps read the same"),
    ("no-difficulty", "r,flashcard,P,E,,t,,,,,,,B", "the difficulty cell is empty (easy, medium"),
    ("no-explanation", "r,flashcard,P,,easy,t,,,,,,,B", ": the explanation cell is empty"),
    ("bad-difficulty", "r,flashcard,P,E,trivial,t,,,,,,,B", "difficulty 'trivial' is not valid"),
    ("type-typo", "r,single-choice,P,E,easy,t,A|B,1,,,,,", "did you mean 'single_choice'?"),
    ("no-back", "r,flashcard,P,E,easy,t,,,,,,,", "the back cell is empty"),
    ("no-steps", "r,ordering,P,E,easy,t,,,,,,,", "the steps cell is empty (an ordering question"),
    (
        "wrong-type-key",
        "r,flashcard,P,E,easy,t,,,,,,a|b,B",
        "the steps cell is for ordering questions only; leave it empty for a flashcard question",
    ),
    ("unknown-compute", "r,flashcard,P,E,easy,t,,,,,mha_param,,B", "did you mean 'mha_params'?"),
    ("bad-argument", "r,flashcard,P,E,easy,t,,,,,mha_params n_heads=7,,B", "not divisible"),
    ("compute-syntax", "r,flashcard,P,E,easy,t,,,,,mha_params d_model,,B", "key=value"),
    ("compute-quote", 'r,flashcard,P,E,easy,t,,,,,"mha_params a=""x",,B', "quote is not closed"),
    ("extra-cells", GOOD_ROW.replace("good-1", "r") + ",surplus", "the header has 13"),
]


@pytest.mark.parametrize(
    ("row", "reason"), [(r, m) for _, r, m in BAD_ROWS], ids=[i for i, _, _ in BAD_ROWS]
)
def test_each_bad_row_is_rejected_with_its_reason_and_the_rest_imported(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, row: str, reason: str
) -> None:
    path = write_csv(tmp_path, f"{HEADER}\n{GOOD_ROW}\n{row}\n")
    out = tmp_path / "out.yaml"
    code, stdout, stderr = cli(capsys, "import", str(path), "--out", str(out))
    assert code == 1
    assert stdout == ""
    line, *hint, summary, counts = without_deck_notes(stderr)
    assert hint == (
        [
            "quizapp import: 1 rejected row(s) have ids the bank already has: to "
            "import them as they are, import into another bank with --bank/--no-default-bank"
        ]
        if reason == "id is already used in"
        else []
    )
    assert line.startswith(f"{path}: row 3, question ") and reason in line, line
    assert "1 question(s) imported" in summary and "1 row(s) rejected" in summary
    assert counts == "quizapp import: 1 imported, 1 skipped, 0 notes about dropped content"
    deck, _ = load_file(out)
    assert deck is not None and [q.id for q in deck.questions] == ["good-1"]


def test_numeric_only_columns_are_refused_on_other_types() -> None:
    text = "id,type,prompt,explanation,difficulty,tags,back,unit,traps\nr,flashcard,P,E,easy,t,B,cm,3\n"
    result = import_csv(text, deck=DeckInfo("d", "D", "d"))
    [problem] = result.problems
    assert problem.message == "unit, traps apply to numeric questions only"


def test_duplicate_ids_within_the_csv_and_against_bank_paths(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    mine = tmp_path / "mine.yaml"
    mine.write_text(
        "deck: {id: mine, title: M, topic: mine, domain: D, exam_weight: 1}\n"
        "questions:\n  - {id: taken, type: flashcard, prompt: P, explanation: E, "
        "difficulty: easy, tags: [t], back: B}\n"
    )
    rows = [
        "a,flashcard,P,E,easy,t,,,,,,,B",
        "a,flashcard,P2,E,easy,t,,,,,,,B",
        "taken,flashcard,P,E,easy,t,,,,,,,B",
        "pe-why-needed,flashcard,P,E,easy,t,,,,,,,B",
    ]
    path = write_csv(tmp_path, "\n".join([HEADER, *rows]) + "\n")
    code, stdout, stderr = cli(capsys, "import", str(path), "--bank", str(mine))
    assert code == 1
    lines = stderr.splitlines()
    assert lines[0] == f"{path}: row 3, question 'a': duplicate id (first on row 2)"
    assert lines[1] == f"{path}: row 4, question 'taken': the id is already used in {mine}"
    assert lines[2].startswith(f"{path}: row 5, question 'pe-why-needed': the id is already used")
    # The way out, said once for every clash rather than on each row:
    assert lines[3] == (
        "quizapp import: 2 rejected row(s) have ids the bank already has: to import them as "
        "they are, import into another bank with --bank/--no-default-bank"
    )
    assert sum("--no-default-bank" in line for line in lines) == 1
    assert "id: a\n" in stdout
    # Without the bundled bank, only the --bank paths count.
    code, _, stderr = cli(capsys, "import", str(path), "--bank", str(mine), "--no-default-bank")
    assert code == 1 and "pe-why-needed" not in stderr


def test_rows_are_numbered_as_the_spreadsheet_numbers_them(tmp_path: Path) -> None:
    # The bad question is on file line 5 but spreadsheet row 4: the cell above spans 2 lines.
    text = f'{HEADER}\ngood-1,flashcard,"two\nlines",E,easy,t,,,,,,,B\n\nbad,flashcard,P,E,easy,t,,,,,,,\n'
    result = import_csv(text, deck=DeckInfo("d", "D", "d"))
    [problem] = result.problems
    assert (problem.row, problem.line, problem.question_id) == (4, 5, "bad")
    assert (
        problem.format("q.csv")
        == "q.csv: row 4, question 'bad': the back cell is empty (a flashcard question needs it)"
    )
    assert result.imported == ["good-1"] and result.rows == 2


def test_when_every_row_is_rejected_nothing_is_written(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = write_csv(tmp_path, f"{HEADER}\nbad,flashcard,P,E,easy,t,,,,,,,\n")
    out = tmp_path / "out.yaml"
    code, _, stderr = cli(capsys, "import", str(path), "--out", str(out))
    assert code == 1 and not out.exists()
    assert "no question imported" in stderr


def test_a_row_problem_is_one_line_even_with_newlines_in_cells(tmp_path: Path) -> None:
    text = f'{HEADER}\n"multi\nline",flashcard,P,E,easy,t,,,,,,,B\n'
    result = import_csv(text, deck=DeckInfo("d", "D", "d"))
    [problem] = result.problems
    assert "\n" not in problem.format("x.csv") and "multi\\nline" in problem.format("x.csv")


# -- unusable input -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "it has no header row"),
        (b"\n\n", "it has no header row"),
        (
            b"id,type,promt,explanation,difficulty,tags,colour\n",
            "unknown column 'promt' (did you mean 'prompt'?); rename it",
        ),
        (b"id,type,prompt\n", "missing required columns: explanation, difficulty, tags"),
        (b"a,b,c\n1,2,3\n", "the first row is not a header"),
        (b"id;type;prompt;explanation\n", "missing required columns: difficulty, tags"),
        (b"id|type|prompt|explanation\n", "the header has a single column 'id|type|prompt|"),
        (b"id,type,prompt,explanation,difficulty,tags,id\n", "column 'id' appears twice"),
        (b"id,type,prompt,explanation,difficulty,tags\nx,flashcard,caf\xe9\n", "not UTF-8"),
        (b"id,type,prompt,explanation,difficulty,tags\n", "has a header but no rows"),
    ],
)
def test_unusable_csv_is_a_usage_error_and_writes_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: bytes, message: str
) -> None:
    path = tmp_path / "in.csv"
    path.write_bytes(content)
    out = tmp_path / "out.yaml"
    code, stdout, stderr = cli(capsys, "import", str(path), "--out", str(out))
    assert code == 2
    assert stdout == "" and not out.exists()
    assert stderr.startswith("quizapp import: error: ") and stderr.count("\n") == 1
    assert message in stderr, stderr


def test_header_names_are_forgiving(tmp_path: Path) -> None:
    text = "ID,Type,Prompt,Explanation,Difficulty,Tags,Why True,why-false,Answer\n"
    text += "q,true_false,P,E,easy,t,trap,reason,no\n"
    result = import_csv("\ufeff" + text, deck=DeckInfo("d", "D", "d"))
    assert result.problems == [] and result.imported == ["q"]


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--deck-id", "Not An Id", "--deck-id: deck id 'Not An Id' must be lowercase"),
        ("--weight", "0", "--weight: must be a number greater than 0 and at most 1000, not 0"),
        ("--topic", "Bad Topic", "--topic: topic 'Bad Topic' must be lowercase"),
        ("--deck-id", "positional-encoding", "is already used by"),
    ],
)
def test_bad_deck_options_are_usage_errors(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, option: str, value: str, message: str
) -> None:
    path = write_csv(tmp_path, f"{HEADER}\n{GOOD_ROW}\n")
    code, stdout, stderr = cli(capsys, "import", str(path), option, value)
    assert code == 2 and stdout == ""
    assert message in stderr and stderr.count("\n") == 1


def test_out_is_not_overwritten_without_force(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = write_csv(tmp_path, f"{HEADER}\n{GOOD_ROW}\n")
    out = tmp_path / "out.yaml"
    out.write_text("precious\n")
    code, _, stderr = cli(capsys, "import", str(path), "--out", str(out))
    assert code == 2 and "--force" in stderr and out.read_text() == "precious\n"
    # With --force the file is replaced, and its own ids do not count against the import.
    code, _, stderr = cli(capsys, "import", str(path), "--out", str(out), "--force")
    assert code == 0, stderr
    code, _, stderr = cli(
        capsys, "import", str(path), "--out", str(out), "--force", "--bank", str(out)
    )
    assert code == 0, stderr
    deck, _ = load_file(out)
    assert deck is not None and deck.id == "deck" and deck.title == "Deck"


def test_import_without_out_prints_the_deck(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = write_csv(tmp_path, f"{HEADER}\n{GOOD_ROW}\n", "My Questions.csv")
    code, stdout, stderr = cli(capsys, "import", str(path))
    assert code == 0, stderr
    assert stdout.startswith(MODELINE + "\nformat: 1\ndeck:\n  id: my-questions\n")
    assert "1 question(s) imported" in stderr


def test_import_rejects_a_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, stderr = cli(capsys, "import", str(tmp_path / "none.csv"))
    assert code == 2 and "no such file" in stderr


def test_csv_input_error_is_raised_by_the_library() -> None:
    with pytest.raises(CsvInputError, match="unknown column 'tag'"):
        import_csv("id,type,prompt,explanation,difficulty,tag\n", deck=DeckInfo("d", "D", "d"))


def test_import_help_lists_every_column_and_the_real_defaults(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from quizapp.authoring import csv_import
    from quizapp.cli import authoring

    code, stdout, _ = cli(capsys, "import", "--help")
    assert code == 0
    epilog = stdout.split("columns (* = required):", 1)[1]
    for column in COLUMNS:
        assert f"\n{column} " in epilog, column
    assert authoring.DEFAULT_DOMAIN_HELP == csv_import.DEFAULT_DOMAIN
    assert float(authoring.DEFAULT_WEIGHT_HELP) == csv_import.DEFAULT_WEIGHT
    for column in COLUMNS:  # and the module docstring documents them too
        assert f"\n    {column} " in (csv_import.__doc__ or ""), column
