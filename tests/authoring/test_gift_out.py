"""`quizapp export --format gift`: what Moodle's GIFT importer reads, and what quizapp's own GIFT
import reads back as the same questions (within what GIFT carries)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from quizapp.authoring.anki_cards import anki_variant, variant_id
from quizapp.authoring.computation_note import computation_line
from quizapp.authoring.gift_out import export_gift
from quizapp.authoring.importers.common import build_deck, default_deck_info
from quizapp.authoring.importers.gift import parse_gift
from quizapp.bank import load_file
from quizapp.bank.discovery import bundled_bank_path
from quizapp.bank.display_order import ExportOrder
from quizapp.bank.loader import load_bank
from quizapp.bank.model import (
    ChoiceQuestion,
    Deck,
    NumericQuestion,
    Question,
    QuestionType,
    TrueFalseQuestion,
)
from tests.authoring.helpers import cli

DATA = Path(__file__).parent / "data"
SPECIALS = DATA / "gift" / "specials.yaml"
LEFT_OUT_TYPES = {QuestionType.ORDERING, QuestionType.FLASHCARD}


def _deck(path: Path) -> Deck:
    deck, diagnostics = load_file(path)
    assert deck is not None, diagnostics
    return deck


def _fake_computed(decks: list[Deck]) -> dict[str, dict[str, object]]:
    """A value for every `from:` key, so the writer's use of computed values is checked
    without running torch; the value differs per question so a mix-up shows. Keyed as
    derived_values keys them: by the written variant's id."""
    values: dict[str, dict[str, object]] = {}
    for n, question in enumerate(anki_variant(q) for d in decks for q in d.questions):
        if isinstance(question, NumericQuestion) and question.answer.from_value:
            values[variant_id(question)] = {question.answer.from_value: 1000 + n + 0.5}
    return values


def _reimport(text: str, tmp_path: Path) -> dict[str, Question]:
    source = parse_gift(text, "export.gift")
    assert not source.skipped, source.skipped
    built = build_deck(source, default_deck_info("export.gift"))
    assert not built.skipped, built.skipped
    assert built.text is not None
    path = tmp_path / "reimported.yaml"
    path.write_text(built.text, encoding="utf-8")
    return {q.id: q for q in _deck(path).questions}


def _as_gift_carries(question: Question, values: dict[str, object] | None) -> dict[str, Any]:
    """What GIFT keeps of a question: id, type, prompt, explanation (with the computation's
    line), options as a set with their whys, the true/false answer and whys, the numeric key
    with its absolute tolerance and traps. Texts lose surrounding white space (a YAML block's
    final line break)."""
    explanation = question.explanation.strip()
    if question.compute is not None:
        explanation += "\n\n" + computation_line(question.compute)
    out: dict[str, Any] = {
        "id": question.id,
        "type": question.type,
        "prompt": question.prompt,
        "explanation": explanation,
    }
    if isinstance(question, ChoiceQuestion):
        out["choices"] = sorted(
            (c.text.strip(), c.correct, c.why and c.why.strip()) for c in question.choices
        )
    elif isinstance(question, TrueFalseQuestion):
        out["answer"] = (question.answer, question.why_true, question.why_false)
    elif isinstance(question, NumericQuestion):
        a = question.answer
        key = a.value if a.value is not None else (values or {})[a.from_value or ""]
        tolerance = a.tolerance or 0
        if a.relative_tolerance is not None:
            tolerance = abs(key) * a.relative_tolerance
        out["answer"] = (pytest.approx(key), pytest.approx(tolerance))
        out["traps"] = [(t.value, t.why) for t in question.traps]
    return out


def _back(question: Question) -> dict[str, Any]:
    """A reimported question in the same terms; it has no compute, so its explanation is
    compared as it reads (the computation's line included)."""
    return _as_gift_carries(question, None) | {"explanation": question.explanation}


def test_the_shipped_bank_round_trips_through_gift(tmp_path: Path) -> None:
    bank = load_bank([bundled_bank_path()])
    computed = _fake_computed(bank.decks)
    exported = export_gift(bank.decks, derived=computed)
    back = _reimport(exported.text, tmp_path)
    originals = [anki_variant(q) for d in bank.decks for q in d.questions]
    carried = [q for q in originals if q.type not in LEFT_OUT_TYPES]
    assert exported.written == [q.id for q in carried] == list(back)
    assert len(carried) > 80 and any(q.vary for q in carried) and computed
    for question in carried:
        again = back[question.id]
        assert _back(again) == _as_gift_carries(question, computed.get(variant_id(question)))
        # Tags come back, and the deck's category adds the deck id.
        assert list(again.tags) == list(dict.fromkeys([*question.tags, question.deck_id]))
    left = {d.question_id: d.reason.split(":")[0] for d in exported.left_out}
    assert left == {
        q.id: "an ordering question" if q.type is QuestionType.ORDERING else "a flashcard"
        for q in originals
        if q.type in LEFT_OUT_TYPES
    }


def test_specials_are_escaped_and_read_back_unchanged(tmp_path: Path) -> None:
    deck = _deck(SPECIALS)
    exported = export_gift([deck])
    back = _reimport(exported.text, tmp_path)
    for question in deck.questions:
        assert _back(back[question.id]) == _as_gift_carries(question, None)
    assert exported.left_out == [] and exported.notes == []
    # Every special character escaped, as Moodle's own GIFT writer does (repchar), ':' too.
    assert "::gs-single::[markdown]Which is right\\: a \\= b, \\~c, \\#d" in exported.text


def test_multiple_choice_weights_sum_to_100_and_wrong_options_cost_everything() -> None:
    text = export_gift([_deck(SPECIALS)]).text
    block = text[text.index("::gs-multiple::") :].split("\n}")[0]
    weights = [float(w) for w in re.findall(r"^\t~%(-?[\d.]+)%", block, flags=re.MULTILINE)]
    assert sorted(weights) == [-100, -100, 33.33333, 33.33333, 33.33333]
    assert sum(w for w in weights if w > 0) == pytest.approx(100, abs=1e-4)
    assert "=" not in re.sub(r"\\=", "", block.split("{", 1)[1].split("####")[0])


def test_true_false_writes_the_wrong_answers_feedback_first() -> None:
    text = export_gift([_deck(DATA / "every_type.yaml")]).text
    line = next(ln for ln in text.splitlines() if ln.startswith("::et-true-false::"))
    # answer false: why_true is what a wrong answer (true) sees, why_false a right one.
    assert "{FALSE#The trap.#The reason.####It is false." in line


def test_options_are_shuffled_like_every_export_and_stably() -> None:
    deck = _deck(SPECIALS)
    question = next(q for q in deck.questions if q.id == "gs-multiple")
    assert isinstance(question, ChoiceQuestion)

    def written(order: ExportOrder) -> list[str]:
        block = text_of(export_gift([deck], order).text, "gs-multiple")
        return re.findall(r"^\t~%[-\d.]+%(\w+)", block, flags=re.MULTILINE)

    orders = [ExportOrder(shuffle=False), *(ExportOrder(seed=seed) for seed in range(4))]
    for order in orders:
        assert written(order) == [question.choices[i].text for i in order.of_choices(question)]
    assert len({tuple(written(order)) for order in orders}) > 1


def test_lossy_parts_are_notes_and_unwritable_questions_are_named(tmp_path: Path) -> None:
    deck = _deck(DATA / "every_type.yaml")
    exported = export_gift([deck])  # no computed values: the `from:` keys cannot be written
    left = {d.question_id: d.reason for d in exported.left_out}
    assert set(left) == {"et-ordering", "et-flashcard", "et-numeric-from", "et-numeric-varied"}
    assert "computation did not run" in left["et-numeric-from"]
    notes = {(d.question_id, d.reason.split(" ")[1]) for d in exported.notes}
    assert notes == {
        ("et-single", "false"),
        ("et-numeric-value", "relative"),
        ("et-numeric-value", "unit"),
    }
    assert "1e-07" in text_of(exported.text, "et-numeric-value")  # 1e-05 × 0.01


def text_of(gift: str, question_id: str) -> str:
    return gift[gift.index(f"::{question_id}::") :].split("\n\n")[0]


def test_the_command_reports_counts_and_never_overwrites_without_force(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "every.gift"
    every = str(DATA / "every_type.yaml")
    code, _, err = cli(capsys, "export", "--format", "gift", "--no-eval", every, "--out", str(out))
    assert code == 0, err
    assert "et-ordering: left out: an ordering question" in err
    assert "et-numeric-value: note: the unit 'units' is left out" in err
    assert err.splitlines()[-1] == (
        f"quizapp export: 4 question(s) exported to {out}; 4 left out "
        "(GIFT cannot hold them, see above)"
    )
    assert "$CATEGORY: $course$/top/every-type" in out.read_text(encoding="utf-8")
    before = out.read_bytes()
    code, _, err = cli(capsys, "export", "--format", "gift", "--no-eval", every, "--out", str(out))
    assert code == 2 and "--force" in err and out.read_bytes() == before
    code, _, _ = cli(
        capsys,
        "export",
        "--format",
        "gift",
        "--no-eval",
        str(SPECIALS),
        "--out",
        str(out),
        "--force",
    )
    assert code == 0 and "gs-single" in out.read_text(encoding="utf-8")
