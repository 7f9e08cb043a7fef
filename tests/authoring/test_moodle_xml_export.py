"""`quizapp export --format moodle-xml`: well-formed XML with every field Moodle's importer
reads, each question it cannot carry reported, and the round trip: the shipped bank exported
then imported gives back the same questions."""

from __future__ import annotations

import contextlib
import io
import math
from pathlib import Path

import pytest
from defusedxml.ElementTree import fromstring

from quizapp.authoring.anki_cards import anki_variant, variant_id
from quizapp.authoring.anki_package import derived_values
from quizapp.authoring.moodle_xml_out import COMPUTED_PREFIX, computation_line
from quizapp.bank import (
    ChoiceQuestion,
    Flashcard,
    NumericQuestion,
    OrderingQuestion,
    Question,
    TrueFalseQuestion,
    bundled_bank_path,
    load_bank,
    load_file,
)
from quizapp.bank.display_order import DEFAULT_EXPORT_ORDER, ExportOrder
from quizapp.cli import main
from tests.authoring.helpers import cli

EVERY_TYPE = Path(__file__).parent / "data" / "every_type.yaml"
HEADER = (
    "name",
    "questiontext",
    "generalfeedback",
    "defaultgrade",
    "penalty",
    "hidden",
    "idnumber",
)
BY_TYPE = {
    "multichoice": ("single", "shuffleanswers", "answernumbering", "answer"),
    "truefalse": ("answer",),
    "numerical": ("answer", "unitgradingtype", "showunits"),
    "ordering": ("layouttype", "selecttype", "selectcount", "gradingtype", "answer"),
}
# Moodle's grade list (question_bank::fraction_options_full), as it spells the fractions.
MOODLE_GRADES = {
    "100", "90", "83.33333", "80", "75", "70", "66.66667", "60", "50", "40", "33.33333",
    "30", "25", "20", "16.66667", "14.28571", "12.5", "11.11111", "10", "5", "0",
}  # fmt: skip


Exported = tuple[int, str, Path]


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, str, Path]:
    """The shipped bank exported once through the real command: (exit code, stderr, file)."""
    out = tmp_path_factory.mktemp("moodle-out") / "bank.xml"
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(["export", "--format", "moodle-xml", "--out", str(out)])
    return code, err.getvalue(), out


@pytest.fixture(scope="module")
def reimported(exported: Exported, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Question]:
    folder = tmp_path_factory.mktemp("moodle-back")
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(["import", str(exported[2]), "--out", str(folder), "--no-default-bank"])
    assert code == 0, err.getvalue()  # notes (dropped penalties) are not skips
    bank = load_bank([folder])
    assert not bank.errors
    return bank.questions


def test_export_is_well_formed_with_the_fields_moodle_requires(exported: Exported) -> None:
    code, _, out = exported
    assert code == 0
    root = fromstring(out.read_bytes())
    assert root.tag == "quiz"
    questions = root.findall("question")
    assert questions[0].get("type") == "category"
    for element in questions:
        qtype = element.get("type")
        if qtype == "category":
            assert element.findtext("category/text", "").startswith("$course$/top/")
            assert element.findtext("idnumber")
            continue
        assert qtype in BY_TYPE, qtype
        for child in HEADER + BY_TYPE[qtype]:
            assert element.find(child) is not None, (element.findtext("idnumber"), child)
        assert element.findtext("name/text") == element.findtext("idnumber")
        assert element.findtext("questiontext/text")
        assert element.find("questiontext").get("format") == "markdown"
        for answer in element.findall("answer"):
            assert answer.get("fraction") is not None and answer.find("text") is not None


def test_multi_select_fractions_are_moodle_grades_summing_to_100(exported: Exported) -> None:
    root = fromstring(exported[2].read_bytes())
    multis = [q for q in root.findall("question") if q.findtext("single") == "false"]
    assert multis
    for question in multis:
        fractions = [a.get("fraction", "") for a in question.findall("answer")]
        assert all(f.lstrip("-") in MOODLE_GRADES for f in fractions), fractions
        positive = sum(float(f) for f in fractions if float(f) > 0)
        negative = sum(float(f) for f in fractions if float(f) < 0)
        assert math.isclose(positive, 100, abs_tol=1e-3)
        assert math.isclose(negative, -100, abs_tol=1e-3)  # ticking every box scores 0


def test_flashcards_are_reported_by_id_and_the_count_is_said(exported: Exported) -> None:
    _, err, out = exported
    bank = load_bank([bundled_bank_path()])
    flashcards = [q.id for q in bank.questions.values() if isinstance(q, Flashcard)]
    assert flashcards
    for qid in flashcards:
        assert f"quizapp export: not written: {qid}: a flashcard" in err
    written = len(fromstring(out.read_bytes()).findall("question[@type!='category']"))
    not_written = err.count("quizapp export: not written: ")
    assert written + not_written == len(bank.questions)
    assert (
        f"quizapp export: {written} question(s) written to {out}; {not_written} not written" in err
    )


def _original_questions() -> tuple[dict[str, Question], dict[str, dict[str, object]]]:
    bank = load_bank([bundled_bank_path()])
    shown = {qid: anki_variant(q) for qid, q in bank.questions.items()}
    return shown, derived_values(list(shown.values()))


def test_round_trip_gives_back_the_same_questions(
    exported: Exported, reimported: dict[str, Question]
) -> None:
    originals, derived = _original_questions()
    assert reimported, "nothing came back"
    for qid, back in reimported.items():
        q = originals[qid]
        assert back.type == q.type, qid
        assert back.prompt == q.prompt, qid
        assert set(back.tags) == set(q.tags), qid
        explanation = q.explanation.rstrip()
        if q.compute is not None:
            key = q.answer.from_value if isinstance(q, NumericQuestion) else None
            explanation += "\n\n" + computation_line(q.compute, key)
        assert back.explanation == explanation, qid
        if isinstance(q, ChoiceQuestion):
            assert isinstance(back, ChoiceQuestion)
            order = DEFAULT_EXPORT_ORDER.of_choices(q)  # the export's shuffled order
            expected = [(q.choices[i].text, q.choices[i].correct, q.choices[i].why) for i in order]
            assert [(c.text, c.correct, c.why) for c in back.choices] == expected, qid
            assert back.shuffle == q.shuffle
        elif isinstance(q, TrueFalseQuestion):
            assert isinstance(back, TrueFalseQuestion)
            assert (back.answer, back.why_true, back.why_false) == (
                q.answer,
                q.why_true,
                q.why_false,
            )
        elif isinstance(q, NumericQuestion):
            assert isinstance(back, NumericQuestion)
            a = q.answer
            if a.value is None and variant_id(q) not in derived:
                # The export computed it in its own budget; this run's ran out on a busy
                # machine: compute it alone, with the whole budget to itself.
                derived.update(derived_values([q]))
            value = a.value if a.value is not None else derived[variant_id(q)][a.from_value or ""]
            tolerance = a.tolerance or None
            if a.relative_tolerance:
                tolerance = abs(value) * a.relative_tolerance
            assert back.answer.value == pytest.approx(value), qid
            assert back.answer.tolerance == pytest.approx(tolerance), qid
            assert back.answer.unit == a.unit, qid
            assert [(t.value, t.why) for t in back.traps] == [(t.value, t.why) for t in q.traps]
        elif isinstance(q, OrderingQuestion):
            assert isinstance(back, OrderingQuestion)
            assert [(s.text, s.why) for s in back.steps] == [(s.text, s.why) for s in q.steps]
        else:
            raise AssertionError(f"{qid}: a {q.type.value} came back")


def test_round_trip_keeps_every_written_question_and_the_decks(
    exported: Exported, reimported: dict[str, Question]
) -> None:
    root = fromstring(exported[2].read_bytes())
    written = [q.findtext("idnumber") for q in root.findall("question[@type!='category']")]
    assert sorted(reimported) == sorted(written)
    bank = load_bank([bundled_bank_path()])
    decks = {qid: q.deck_id for qid, q in bank.questions.items()}
    assert all(back.deck_id == decks[qid] for qid, back in reimported.items())
    computed = [q for q in reimported.values() if COMPUTED_PREFIX in q.explanation]
    assert any(isinstance(q, NumericQuestion) for q in computed)  # a computed key as a number


def test_no_eval_leaves_out_computed_keys_and_says_so(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "every.xml"
    code, _, err = cli(
        capsys, "export", "--format", "moodle-xml", "--no-eval", str(EVERY_TYPE), "--out", str(out)
    )
    assert code == 0
    assert "not written: et-numeric-from: its key `params_single_head` is computed by" in err
    assert "not written: et-flashcard: a flashcard" in err
    ids = [q.findtext("idnumber") for q in fromstring(out.read_bytes()).findall("question")]
    assert "et-numeric-value" in ids and "et-numeric-from" not in ids
    assert "et-ordering" in ids and "et-flashcard" not in ids


@pytest.mark.parametrize(
    ("flags", "order"),
    [((), ExportOrder()), (("--seed", "7"), ExportOrder(seed=7)), (("--no-shuffle",), None)],
    ids=["default", "seed", "no-shuffle"],
)
def test_options_are_listed_in_the_export_order(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    flags: tuple[str, ...],
    order: ExportOrder | None,
) -> None:
    out = tmp_path / "every.xml"
    argv = ("export", "--format", "moodle-xml", "--no-eval", str(EVERY_TYPE), "--out", str(out))
    assert cli(capsys, *argv, *flags)[0] == 0
    deck, _ = load_file(EVERY_TYPE)
    assert deck is not None
    root = fromstring(out.read_bytes())
    for question in deck.questions:
        if not isinstance(question, ChoiceQuestion):
            continue
        element = root.find(f"question[idnumber='{question.id}']")
        assert element is not None
        written = [a.findtext("text") for a in element.findall("answer")]
        indexes = range(len(question.choices)) if order is None else order.of_choices(question)
        assert written == [question.choices[i].text for i in indexes]
        assert element.findtext("shuffleanswers") == ("true" if question.shuffle else "false")
