"""`quizapp import FILE.gift`: Moodle GIFT questions become bank questions, the rest are
reported. The example file is written from Moodle's documented grammar."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from quizapp.authoring.importers.common import build_deck, default_deck_info
from quizapp.authoring.importers.gift import parse_gift
from quizapp.bank import (
    ChoiceQuestion,
    NumericQuestion,
    QuestionType,
    TrueFalseQuestion,
    load_file,
)
from quizapp.cli import main
from tests.authoring.helpers import cli

DATA = Path(__file__).parent / "data" / "import"
EVERY_KIND = DATA / "every_kind.gift"


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, str, dict]:
    """The example imported once through the real command: (exit code, stderr, questions)."""
    out = tmp_path_factory.mktemp("gift") / "every-kind.yaml"
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(["import", str(EVERY_KIND), "--out", str(out), "--no-default-bank"])
    deck, diagnostics = load_file(out)
    assert deck is not None, diagnostics
    assert not [d for d in diagnostics if d.severity == "error"]
    return code, err.getvalue(), {q.id: q for q in deck.questions}


def test_each_kind_becomes_its_quizapp_type(imported: tuple[int, str, dict]) -> None:
    _, _, questions = imported
    kinds = {qid: q.type for qid, q in questions.items()}
    assert kinds == {
        "heads-base": QuestionType.SINGLE_CHOICE,
        "every-kind-why-several-heads": QuestionType.MULTIPLE_CHOICE,
        "every-kind-softmax-rows": QuestionType.TRUE_FALSE,
        "every-kind-order-blind": QuestionType.TRUE_FALSE,
        "every-kind-head-width": QuestionType.NUMERIC,
        "every-kind-head-width-range": QuestionType.NUMERIC,
        "every-kind-head-width-answers": QuestionType.NUMERIC,
        "every-kind-missing-word": QuestionType.SINGLE_CHOICE,
        "every-kind-html-question": QuestionType.SINGLE_CHOICE,
        "every-kind-escapes": QuestionType.SINGLE_CHOICE,
    }


def test_multiple_choice_keeps_the_right_option_whys_and_general_feedback(
    imported: tuple[int, str, dict],
) -> None:
    q = imported[2]["heads-base"]
    assert isinstance(q, ChoiceQuestion)
    assert [(c.text, c.correct, c.why) for c in q.choices] == [
        ("8", True, "Right: 512 dimensions split into heads of 64."),
        ("4", False, "That is half of them."),
        ("16", False, "Twice too many."),
    ]
    assert q.explanation == "The base model has d_model 512 and 8 heads of 64 dimensions each."
    assert q.tags == ("exam-trap", "attention-heads")  # [tag:...] and the category


def test_weights_make_a_multiple_answer_question(imported: tuple[int, str, dict]) -> None:
    q = imported[2]["every-kind-why-several-heads"]
    assert isinstance(q, ChoiceQuestion)
    assert [c.correct for c in q.choices] == [True, True, False]
    assert q.choices[2].why == "The classic trap: the count stays the same."
    assert "No explanation came with this question" in q.explanation
    assert "every_kind.gift:16" in q.explanation


def test_true_false_feedback_goes_to_the_answer_it_follows(
    imported: tuple[int, str, dict],
) -> None:
    q = imported[2]["every-kind-softmax-rows"]
    assert isinstance(q, TrueFalseQuestion)
    assert q.answer is True
    # GIFT: the first feedback is shown to a wrong answer (here: false), the second to a right one.
    assert q.why_true == "Yes: softmax normalises every row."
    assert q.why_false == "Look at what softmax normalises again."
    assert imported[2]["every-kind-order-blind"].answer is False


def test_numeric_tolerance_range_and_several_answers(imported: tuple[int, str, dict]) -> None:
    questions = imported[2]
    width = questions["every-kind-head-width"]
    assert isinstance(width, NumericQuestion)
    assert (width.answer.value, width.answer.tolerance) == (64, 0.5)
    ranged = questions["every-kind-head-width-range"]
    assert (ranged.answer.value, ranged.answer.tolerance) == (64, 4)
    several = questions["every-kind-head-width-answers"]
    assert several.answer.value == 64 and not several.answer.tolerance
    assert [(t.value, t.why) for t in several.traps] == [
        (512, "That is d_model itself, not one head.")
    ]
    assert several.prompt == "What is the *per-head* width for d_model 512 and 8 heads?"
    assert several.explanation == (
        "Each head works in d_model / n_heads dimensions.\n\nExactly 512 / 8."
    )


def test_missing_word_html_and_escapes(imported: tuple[int, str, dict]) -> None:
    questions = imported[2]
    assert questions["every-kind-missing-word"].prompt == (
        "The scaling factor divides the scores by the square root of _____ before the softmax."
    )
    html = questions["every-kind-html-question"]
    assert html.prompt == "Which **normalisation** does the *Pre-LN* block apply first?"
    escapes = questions["every-kind-escapes"]
    assert escapes.prompt == "Which one is written {with braces}: a set, a dict or a list?"
    assert escapes.choices[0].text == "a set = {1, 2}"


def test_every_skipped_item_is_reported_once_with_its_line_and_reason(
    imported: tuple[int, str, dict],
) -> None:
    code, stderr, _ = imported
    assert code == 1  # something was skipped
    skipped = [line for line in stderr.splitlines() if ": skipped: " in line]
    reasons = {int(line.split(":")[1]): line.split(": skipped: ")[1] for line in skipped}
    assert len(skipped) == len(reasons) == 8
    lines = EVERY_KIND.read_text(encoding="utf-8").splitlines()
    titles = {n: lines[n - 1].split("::")[1] for n in reasons if lines[n - 1].startswith("::")}
    assert titles == {
        53: "Short answer",
        56: "Lowercase true",
        58: "Matching",
        64: "Essay",
        68: "Two right",
        71: "Too many",
        73: "Unclosed",
    }
    assert reasons[53].startswith("a short-answer question: quizapp has no free-text type")
    assert "not 'true'" in reasons[56]
    assert reasons[58].startswith("a matching question")
    assert reasons[64].startswith("an essay question")
    assert reasons[66].startswith("a description")
    assert "2 options are marked =" in reasons[68]
    assert reasons[71] == "a question needs 2 to 9 choices, not 10"  # lint's own message
    assert "no closing }" in reasons[73]
    notes = {
        int(line.split(":")[1]): line.split(": note: ")[1]
        for line in stderr.splitlines()
        if ": note: " in line
    }
    assert sorted(notes) == [8, 16, 32]
    assert notes[8] == "the title 'Heads in the base model' is left out: [id:heads-base] names it"
    assert notes[16].startswith("the penalty of option 3 (-100%): quizapp scores a multiple-choice")
    assert "50% credit" in notes[32]
    summary, counts = stderr.splitlines()[-2:]
    assert summary.startswith("quizapp import: 10 question(s) imported to ")
    assert summary.endswith("; 8 item(s) skipped")
    assert counts == "quizapp import: 10 imported, 8 skipped, 3 notes about dropped content"


# -- the grammar, item by item ------------------------------------------------------------------


def one(text: str) -> dict:
    result = parse_gift(text, "t.gift")
    assert not result.skipped, result.skipped
    assert len(result.drafts) == 1
    return result.drafts[0].question


def skipped(text: str) -> str:
    result = parse_gift(text, "t.gift")
    assert not result.drafts
    assert len(result.skipped) == 1
    return result.skipped[0].reason


def test_comments_and_blank_lines_separate_questions() -> None:
    result = parse_gift("// c\nQ1{T}\n\n// c2\n\n\nQ2{F}\n", "t.gift")
    assert [d.question["prompt"] for d in result.drafts] == ["Q1", "Q2"]
    assert [d.where for d in result.drafts] == ["t.gift:2", "t.gift:7"]


def test_a_backslash_escapes_itself() -> None:
    # `\\{` is a backslash followed by a real brace: the block opens there.
    assert one(r"Path C:\\{T}")["prompt"] == "Path C:\\"
    assert one(r"Line\none{T}")["prompt"] == "Line\none"


def test_feedback_formats_default_to_the_question_text_format() -> None:
    q = one("[html]<b>Q</b>{=<i>a</i>#<b>why</b> ~b}")
    assert q["prompt"] == "**Q**"
    assert q["choices"][0] == {"text": "*a*", "correct": True, "why": "**why**"}
    q = one("[html]<b>Q</b>{=[plain]<i>a</i> ~b}")
    assert q["choices"][0]["text"] == "<i>a</i>"  # its own format, kept as written


def test_html_in_moodles_default_format_is_read_as_html_but_plain_stays_plain() -> None:
    assert one("Is <b>this</b> &amp; that bold?{T}")["prompt"] == "Is **this** & that bold?"
    assert one("Is a < b and c > d?{T}")["prompt"] == "Is a < b and c > d?"
    assert one("[plain]Is <b>this</b> bold?{T}")["prompt"] == "Is <b>this</b> bold?"
    assert one("[markdown]Is *this* <b>bold</b>?{T}")["prompt"] == "Is *this* <b>bold</b>?"


def test_html_is_reduced_to_text_never_interpreted() -> None:
    q = one(
        '[html]<script>alert(1)</script><img src=x onerror="y">Q &amp; <a href="javascript:z">A</a>{T}'
    )
    assert q["prompt"] == "Q & A"


@pytest.mark.parametrize(
    ("answers", "value", "tolerance"),
    [
        ("#5", 5, None),
        ("#-5:1", -5, 1),
        ("#-5..-1", -3, 2),
        ("#1.5..2.5", 2, 0.5),
        ("#1e3:10", 1000, 10),
    ],
)
def test_numeric_forms(answers: str, value: float, tolerance: float | None) -> None:
    q = one("Q{" + answers + "}")
    assert q["answer"].get("value") == value
    assert q["answer"].get("tolerance") == tolerance


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("Q{#abc}", "'abc' is not a number"),
        ("Q{#5..1}", "ends below its start"),
        ("Q{#*}", "anything is right"),
        ("Q{#=%50%5}", "no numeric answer gets full credit"),
        ("Q{~%0%a ~%-50%b}", "none is correct"),
        ("::Untitled Q{T}", "the title has no closing ::"),
        ("Q} and {T", "a } with no { before it"),
        ("{T}", "the question has no text"),
        ("Q{=a ~}", "option 2 is empty"),
    ],
)
def test_malformed_items_are_skipped_with_the_reason(text: str, reason: str) -> None:
    assert reason in skipped(text)


def test_partial_credit_in_a_single_answer_question_is_a_note() -> None:
    result = parse_gift("Q{=a ~%50%b ~c}", "t.gift")
    assert [c.get("correct", False) for c in result.drafts[0].question["choices"]] == [
        True,
        False,
        False,
    ]
    assert len(result.notes) == 1 and "50% partial credit" in result.notes[0].reason


def test_control_characters_reject_the_question(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    source = tmp_path / "ctl.gift"
    source.write_text("Bell\x07 rings{T}\n\nFine{F}\n", encoding="utf-8")
    out = tmp_path / "ctl.yaml"
    code, _, stderr = cli(capsys, "import", str(source), "--out", str(out), "--no-default-bank")
    assert code == 1
    assert f"{source}:1: skipped: the prompt contains the control character U+0007" in stderr
    deck, _ = load_file(out)
    assert deck is not None and [q.prompt for q in deck.questions] == ["Fine"]


def test_the_guides_gift_example_imports_as_it_says() -> None:
    guide = (Path(__file__).parents[2] / "docs" / "authoring.md").read_text(encoding="utf-8")
    section = guide[guide.index("**Moodle GIFT.**") :]
    start = section.index("```text\n") + len("```text\n")
    example = section[start : section.index("\n```", start)]
    result = parse_gift(example, "guide.gift")
    assert not result.skipped
    heads, softmax, width = (d.question for d in result.drafts)
    assert heads["type"] == "single_choice" and heads["tags"] == ["exam-trap"]
    assert heads["choices"][0]["why"] == "Right: 512 / 64 = 8."
    assert heads["explanation"] == "d_model 512 is split into 8 heads of 64."
    assert (softmax["answer"], softmax["why_true"], softmax["why_false"]) == (
        True,
        "Yes.",
        "Check what softmax normalises.",
    )
    assert width["answer"] == {"value": 64, "tolerance": 0.5}


# -- nothing dropped without a word (issue 22) -----------------------------------------------

LOSSES = Path(__file__).parent / "data" / "gift" / "losses.gift"


def _line_of(title: str) -> int:
    lines = LOSSES.read_text(encoding="utf-8").splitlines()
    return next(n for n, line in enumerate(lines, 1) if line.startswith(f"::{title}::"))


@pytest.fixture(scope="module")
def losses(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, dict[int, list[str]], dict]:
    """The losses fixture imported through the command: (exit code, report lines by line
    number as 'note: ...' or 'skipped: ...', the questions by id)."""
    out = tmp_path_factory.mktemp("losses") / "losses.yaml"
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(["import", str(LOSSES), "--out", str(out), "--no-default-bank"])
    report: dict[int, list[str]] = {}
    for line in err.getvalue().splitlines():
        if line.startswith(f"{LOSSES}:"):
            number, _, rest = line[len(f"{LOSSES}:") :].partition(": ")
            report.setdefault(int(number), []).append(rest)
    deck, diagnostics = load_file(out)
    assert deck is not None, diagnostics
    return code, report, {q.id: q for q in deck.questions}


def test_negative_weights_are_reported_as_the_scoring_they_become(losses: tuple) -> None:
    _, report, questions = losses
    multi = questions["losses-penalty-multi"]
    assert [c.correct for c in multi.choices] == [True, True, False, False]
    assert multi.tags == ("import-losses",)  # the category written right above it
    assert report[_line_of("Penalty multi")] == [
        "note: the penalty of option 3 (-50%), option 4 (-100%): quizapp scores a "
        "multiple-choice answer all or nothing, so picking a penalised option makes the "
        "answer wrong and picking only some right ones earns nothing (Moodle gives partial "
        "credit for both)"
    ]
    [single] = report[_line_of("Penalty single")]
    assert single.startswith("note: the penalty of option 2 (-50%) is left out")


def test_html_media_links_and_files_are_each_named(losses: tuple) -> None:
    _, report, questions = losses
    assert report[_line_of("Media")] == [
        "note: the question text: a file Moodle keeps beside the question ('heads.png'), "
        "not in this file",
        "note: the question text: left out of the HTML: an image",
        "note: the question text: left out of the HTML: a link address "
        "('https://example.org/heads'); the link text is kept",
        "note: the question text: left out of the HTML: a superscript mark; the marked text "
        "is kept, plain",
        "note: the question text: left out of the HTML: a script",
        "note: option 1's feedback: left out of the HTML: a sound",
    ]
    media = questions["losses-media"]
    assert "heads.png" not in media.prompt and "example.org" not in media.prompt
    assert media.choices[0].why == "Listen again."


def test_unknown_formats_bad_ids_and_literal_placeholders_are_reported(losses: tuple) -> None:
    code, report, questions = losses
    assert code == 1
    [unknown] = report[_line_of("Unknown format")]
    assert unknown.startswith("note: the question text: [latex] is not a GIFT text format")
    assert questions["losses-unknown-format"].prompt.startswith("[latex]Is $d_k$")
    [bad_id] = report[_line_of("Bad id")]
    assert bad_id.startswith("note: [id:Not Valid!] is not a quizapp id")
    assert "losses-bad-id" in questions
    [placeholder] = report[_line_of("Literal placeholder")]
    assert placeholder.startswith("skipped: the text holds the literal {d_k}, which quizapp")


def test_every_gift_escape_reads_as_the_character(losses: tuple) -> None:
    _, report, questions = losses
    escapes = questions["losses-all-escapes"]
    assert escapes.prompt == "Escapes { } = ~ # : and \\ read as written"
    assert [(c.text, c.why) for c in escapes.choices] == [
        ("a~b", None),
        ("c#d", "why = e"),
        ("f:g", None),
    ]
    assert _line_of("All escapes") not in report


def _question_starts(path: Path) -> set[int]:
    """The line each question of a GIFT file starts on, found without the importer: the first
    line of each run between blank lines that is neither a comment nor a $CATEGORY."""
    starts: set[int] = set()
    in_block = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        text = line.strip()
        if not text:
            in_block = False
        elif not in_block and not text.startswith("//"):
            in_block = True
            if not text.startswith("$CATEGORY:"):
                starts.add(number)
            else:
                in_block = False  # the line after it may start a question
    return starts


@pytest.mark.parametrize(
    "path", [EVERY_KIND, LOSSES, Path(__file__).parent / "data" / "gift" / "moodle_shapes.gift"]
)
def test_every_question_in_the_file_is_imported_or_reported(path: Path) -> None:
    source = parse_gift(path.read_text(encoding="utf-8"), "t.gift")
    built = build_deck(source, default_deck_info("t.gift"))
    imported = {draft.where for draft in source.drafts} - {s.where for s in built.skipped}
    reported = {s.where for s in built.skipped}
    assert not imported & reported
    assert {int(w.split(":")[1]) for w in imported | reported} == _question_starts(path)
    assert len(imported) == len(built.imported) > 0
