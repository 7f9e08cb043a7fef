"""`quizapp import FILE.xml`: Moodle XML questions become bank questions, every loss is named,
and hostile XML is refused in one line. The fixture is written in the shapes of Moodle's own
question/format/xml exports (not copied from them)."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from quizapp.authoring.importers import detect_format
from quizapp.authoring.importers.moodle_xml import MAX_XML_BYTES
from quizapp.bank import (
    ChoiceQuestion,
    NumericQuestion,
    OrderingQuestion,
    Question,
    TrueFalseQuestion,
    load_file,
)
from quizapp.cli import main
from tests.authoring.helpers import cli

DATA = Path(__file__).parent / "data" / "moodle"
EVERY_TYPE = DATA / "every_type.xml"
# (exit code, stderr lines, {deck file name: {question id: question}})
Imported = tuple[int, list[str], dict[str, dict[str, Question]]]


def line_of(marker: str, path: Path = EVERY_TYPE) -> int:
    """The line of the fixture where `marker` first appears (the report names it)."""
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), start=1):
        if marker in line:
            return number
    raise AssertionError(f"{marker!r} is not in {path}")


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Imported:
    """The fixture imported once through the real command: (exit code, stderr lines,
    {deck file name: {question id: question}})."""
    out = tmp_path_factory.mktemp("moodle")
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(["import", str(EVERY_TYPE), "--out", str(out), "--no-default-bank"])
    decks: dict[str, dict[str, Question]] = {}
    for path in sorted(out.glob("*.yaml")):
        deck, diagnostics = load_file(path)
        assert deck is not None, diagnostics
        assert not [d for d in diagnostics if d.severity == "error"]
        decks[path.name] = {q.id: q for q in deck.questions}
    return code, err.getvalue().splitlines(), decks


def _question(imported: Imported, qid: str) -> Question:
    for questions in imported[2].values():
        if qid in questions:
            return questions[qid]
    raise AssertionError(f"{qid} was not imported")


def test_top_categories_become_decks_and_deeper_levels_tags(imported: Imported) -> None:
    _, _, decks = imported
    # `$course$/top/Attention` (idnumber attention) and `$course$/Default for Course 101/Norms`.
    assert set(decks) == {"attention.yaml", "norms.yaml"}
    assert set(decks["attention.yaml"]) == {
        "softmax-rows",
        "heads-base",
        "own-matrices",
        "head-width",
    }
    assert set(decks["norms.yaml"]) == {"norms-layernorm-parameters", "pre-ln-order"}
    # `$course$/top/Attention/Projections` tags the questions after it; <tags> add theirs.
    assert _question(imported, "own-matrices").tags == ("projections", "exam-trap")
    assert _question(imported, "head-width").tags == ("projections",)
    assert _question(imported, "pre-ln-order").tags == ("norms",)
    deck, _ = load_file(Path(_question(imported, "softmax-rows").location.path))
    assert deck is not None and deck.description == "How **heads** split the work."


def test_true_false_keeps_the_key_and_each_answers_feedback(imported: Imported) -> None:
    q = _question(imported, "softmax-rows")  # idnumber "Softmax Rows", slugified
    assert isinstance(q, TrueFalseQuestion)
    assert q.answer is True
    assert q.why_true == "Right: softmax runs along each row."
    assert q.why_false == "Columns need not sum to 1; rows do."
    assert q.prompt == "Each row of the attention weights sums to **1**."  # HTML → Markdown
    assert q.explanation == "Softmax normalises each query's scores."


def test_single_choice_keys_the_full_credit_option_only(imported: Imported) -> None:
    q = _question(imported, "heads-base")
    assert isinstance(q, ChoiceQuestion) and q.type.value == "single_choice"
    assert [(c.text, c.correct, c.why) for c in q.choices] == [
        ("8", True, "Right: 512 / 64."),
        ("16", False, "That is the big model."),  # 50% in Moodle: wrong here, and said so
        ("4", False, None),
    ]
    assert q.prompt == "How many heads does the base model use?"  # the image is gone


def test_multi_select_keys_every_positive_fraction(imported: Imported) -> None:
    q = _question(imported, "own-matrices")
    assert isinstance(q, ChoiceQuestion) and q.type.value == "multiple_choice"
    assert [c.text for c in q.choices if c.correct] == ["`W_q`", "`W_k`", "`W_v`"]
    assert [c.why for c in q.choices] == ["Its own queries.", None, None, "Shared by all heads."]
    assert q.shuffle is False  # <shuffleanswers>false</shuffleanswers>
    assert q.explanation == "Each head has its own `W_q`, `W_k` and `W_v`; `W_o` is shared."


def test_numerical_keeps_key_tolerance_unit_and_traps(imported: Imported) -> None:
    q = _question(imported, "head-width")
    assert isinstance(q, NumericQuestion)
    assert (q.answer.value, q.answer.tolerance, q.answer.unit) == (64, 0.5, "dimensions")
    assert [(t.value, t.why) for t in q.traps] == [(4096, "That multiplies instead of dividing.")]


def test_short_answer_with_a_number_becomes_numeric_named_after_its_name(
    imported: Imported,
) -> None:
    q = _question(imported, "norms-layernorm-parameters")  # no idnumber: deck id + <name>
    assert isinstance(q, NumericQuestion)
    assert (q.answer.value, q.answer.tolerance) == (1024, None)
    assert [(t.value, t.why) for t in q.traps] == [(512, "That counts the gain only.")]


def test_ordering_reads_the_steps_in_their_numbered_order(imported: Imported) -> None:
    q = _question(imported, "pre-ln-order")
    assert isinstance(q, OrderingQuestion)
    assert [(s.text, s.why) for s in q.steps] == [
        ("Normalise the input", "Pre-LN normalises first."),
        ("Run attention or the MLP", None),
        ("Add the result to the input", None),
    ]


def test_unrepresentable_types_are_skipped_with_file_line_and_reason(imported: Imported) -> None:
    code, lines, _ = imported
    name = str(EVERY_TYPE)
    expected = {
        'type="match"': "a matching question: quizapp has no matching type",
        'type="matching"': "a matching question: quizapp has no matching type",
        'type="cloze"': "a cloze (embedded answers) question: quizapp has no cloze type",
        'type="essay"': "an essay question: quizapp has no free-text type",
        'type="multianswer"': "a cloze (embedded answers) question: quizapp has no cloze type",
        'type="description"': "a description (text shown between questions), not a question",
        'type="ddwtos"': "a drag-and-drop into text question: quizapp has no drag-and-drop type",
        "<text>Name the norm</text>": "a short-answer question: quizapp has no free-text type",
    }
    for marker, reason in expected.items():
        line = line_of(marker)
        if "Name the norm" in marker:
            line -= 2  # the report names the <question> element's line
        assert f"{name}:{line}: skipped: {reason}" in lines
    assert any(":" in line and "a simple calculated question" in line for line in lines)
    assert code == 1
    assert "6 question(s) imported to 2 deck file(s)" in lines[-2]
    assert lines[-2].endswith("; 9 item(s) skipped")
    notes = sum(1 for line in lines if ": note: " in line)
    assert (
        lines[-1] == f"quizapp import: 6 imported, 9 skipped, {notes} notes about dropped content"
    )


def test_every_loss_is_named_in_a_note(imported: Imported) -> None:
    _, lines, _ = imported
    first_choice = line_of('<question type="multichoice">')
    heads = f"{EVERY_TYPE}:{first_choice}: note: "
    notes = [line for line in lines if ": note: " in line]
    expected_fragments = [
        "img @@PLUGINFILE@@/heads.png is left out",
        "the file widths.csv embedded in the general feedback is left out",
        "partial credit (option 2 50%) is dropped",
        "1 hint(s) left out",
        "the correct feedback is left out",
        "the uneven weights (option 1 50%, option 2 30%, option 3 20%) are dropped",
        "the penalties (option 4 -100%) are dropped",
        "the default mark 2 is left out",
        "link to https://example.org/heads is left out (its text is kept)",
        "the answer 60 (50%) is left out",
        "the unit kilodimensions (× 0.001) is left out",
        "Moodle's partial grading (ABSOLUTE_POSITION) is dropped",
    ]
    for fragment in expected_fragments:
        assert any(fragment in note for note in notes), fragment
    assert any(note.startswith(heads) and "heads.png" in note for note in notes)


def test_xml_files_are_detected_as_moodle_xml(tmp_path: Path) -> None:
    assert detect_format(tmp_path / "bank.xml") == "moodle-xml"


def test_deck_options_refuse_a_file_of_several_categories(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _, err = cli(capsys, "import", str(EVERY_TYPE), "--deck-id", "x", "--no-default-bank")
    assert code == 2
    assert "holds 2 categories (attention, norms)" in err


# -- hostile XML ------------------------------------------------------------------------------

_LAUGHS = (
    '<?xml version="1.0"?>\n<!DOCTYPE lolz [\n <!ENTITY lol "lol">\n'
    + "".join(
        f' <!ENTITY lol{n} "{("&lol" + (str(n - 1) if n > 1 else "") + ";") * 10}">\n'
        for n in range(1, 10)
    )
    + ']>\n<quiz><question type="truefalse"><questiontext><text>&lol9;</text>'
    "</questiontext></question></quiz>\n"
)
_XXE = (
    '<?xml version="1.0"?>\n<!DOCTYPE quiz [<!ENTITY secret SYSTEM "file:///etc/passwd">]>\n'
    '<quiz><question type="truefalse"><questiontext><text>&secret;</text></questiontext>'
    "</question></quiz>\n"
)
_EXTERNAL_DTD = (
    '<?xml version="1.0"?>\n<!DOCTYPE quiz SYSTEM "http://example.org/q.dtd">\n<quiz/>\n'
)
_DEEP = "<quiz>" + "<a>" * 200 + "</a>" * 200 + "</quiz>\n"
_MALFORMED = '<?xml version="1.0"?>\n<quiz>\n  <question type="truefalse">\n</quiz>\n'


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (_LAUGHS, ":2: the file has a DOCTYPE, which quizapp never reads"),
        (_XXE, ":2: the file has a DOCTYPE, which quizapp never reads"),
        (_EXTERNAL_DTD, ":2: the file has a DOCTYPE, which quizapp never reads"),
        (_DEEP, ":1: refused: elements nest more than 32 deep"),
        (_MALFORMED, ":4: not well-formed XML (mismatched tag)"),
        ("<questions/>\n", ": not Moodle XML (the root element is <questions>, not <quiz>)"),
    ],
    ids=["billion-laughs", "external-entity", "external-dtd", "deep", "malformed", "not-quiz"],
)
def test_hostile_or_broken_xml_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str, expected: str
) -> None:
    source = tmp_path / "hostile.xml"
    source.write_text(content, encoding="utf-8")
    out = tmp_path / "out.yaml"
    code, stdout, err = cli(capsys, "import", str(source), "--out", str(out), "--no-default-bank")
    assert code == 2
    assert err.count("\n") == 1, err
    assert f"{source}{expected}" in err
    assert "root:" not in err and "passwd" not in stdout
    assert not out.exists()


def test_a_file_over_the_size_bound_is_refused_before_parsing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    source = tmp_path / "huge.xml"
    with source.open("wb") as handle:  # sparse: no 32 MiB written to disk
        handle.truncate(MAX_XML_BYTES + 1)
    code, _, err = cli(capsys, "import", str(source), "--no-default-bank")
    assert code == 2
    assert err.count("\n") == 1
    assert f"{source} is larger than 32 MiB" in err


def test_questions_outside_a_named_category_form_the_files_own_deck(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    question = (
        '<question type="truefalse"><name><text>{name}</text></name>'
        '<questiontext format="plain_text"><text>{name} holds.</text></questiontext>'
        '<answer fraction="100"><text>true</text></answer>'
        '<answer fraction="0"><text>false</text></answer></question>'
    )
    source = tmp_path / "week-one.xml"
    source.write_text(
        "<quiz>"
        + question.format(name="Before")
        + '<question type="category"><category><text>$course$/top</text></category></question>'
        + question.format(name="Under top")
        + '<other><question type="essay"/></other>'  # not <quiz>'s child: not a question
        + "</quiz>",
        encoding="utf-8",
    )
    out = tmp_path / "deck.yaml"
    code, _, err = cli(capsys, "import", str(source), "--out", str(out), "--no-default-bank")
    assert code == 0, err
    deck, _ = load_file(out)
    assert deck is not None and deck.id == "week-one"
    assert [q.id for q in deck.questions] == ["week-one-before", "week-one-under-top"]
    # No general feedback: the explanation says so, naming the file (not its path) and line.
    assert deck.questions[0].explanation == (
        "*No explanation came with this question (imported from Moodle XML, week-one.xml:1).*"
    )
