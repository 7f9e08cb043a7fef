"""quizapp's own Anki export comes back as itself: through quizapp's importer, and through
Anki itself (imported into a real collection and exported again). Moved out of
test_import_anki.py, whose helpers it shares, to keep each file readable."""

from __future__ import annotations

from pathlib import Path

import pytest

from quizapp.authoring.anki_cards import anki_variants
from quizapp.authoring.export import markdown_to_html, write_anki
from quizapp.authoring.importers.common import tag_of
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
from quizapp.bank.model import Deck
from tests.authoring.helpers import cli
from tests.authoring.test_import_anki import (
    EVERY_TYPE,
    export_notes_text,
    import_file,
    new_collection,
    skipped_lines,
)

anki_collection = pytest.importorskip("anki.collection", reason="needs the anki test dependency")


def same_markdown(a: str | None, b: str | None) -> bool:
    """Equal as the card shows them: the same HTML from quizapp's own Markdown renderer."""
    if a is None or b is None:
        return a is b
    return markdown_to_html(a) == markdown_to_html(b)


def assert_comes_back(original: Question, back: Question, deck_tag: str | None) -> None:
    from quizapp.authoring.export import anki_variant

    shown = anki_variant(original)  # a varied question is exported as one variant
    assert type(back) is type(shown) and back.type == shown.type, shown.id
    assert same_markdown(back.prompt, shown.prompt), shown.id
    assert same_markdown(back.explanation, shown.explanation), shown.id
    assert back.source == shown.source
    assert back.tags == tuple(dict.fromkeys([*shown.tags, *([deck_tag] if deck_tag else [])]))
    if isinstance(shown, ChoiceQuestion):
        assert isinstance(back, ChoiceQuestion)

        def options(q: ChoiceQuestion) -> list[tuple[str, bool, str | None]]:
            return sorted(
                (markdown_to_html(c.text), c.correct, c.why and markdown_to_html(c.why))
                for c in q.choices
            )

        assert options(back) == options(shown), shown.id
    elif isinstance(shown, TrueFalseQuestion):
        assert isinstance(back, TrueFalseQuestion)
        assert back.answer == shown.answer
        kept = "why_true" if shown.answer else "why_false"  # the card shows the right answer's why
        assert same_markdown(getattr(back, kept), getattr(shown, kept)), shown.id
    elif isinstance(shown, NumericQuestion):
        assert isinstance(back, NumericQuestion)
        assert back.answer.value == pytest.approx(shown.answer.value, rel=1e-5)
        assert back.answer.unit == shown.answer.unit
        assert (back.answer.tolerance or 0) == (shown.answer.tolerance or 0)
        assert back.answer.relative_tolerance == pytest.approx(shown.answer.relative_tolerance)
        assert len(back.traps) == len(shown.traps)
        for ours, theirs in zip(back.traps, shown.traps, strict=True):
            assert (ours.value, ours.why) == (pytest.approx(theirs.value, rel=1e-5), theirs.why)
    elif isinstance(shown, OrderingQuestion):
        assert isinstance(back, OrderingQuestion)
        assert [(s.text, s.why and markdown_to_html(s.why)) for s in back.steps] == [
            (s.text, s.why and markdown_to_html(s.why)) for s in shown.steps
        ]
    else:
        assert isinstance(back, Flashcard) and isinstance(shown, Flashcard)
        assert same_markdown(back.back, shown.back), shown.id


def round_trip(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, decks: list[Deck], package: Path
) -> tuple[int, str, dict[str, Question]]:
    write_anki(decks, package, evaluate=False)
    out = tmp_path / "back.yaml"
    code, _, stderr = cli(capsys, "import", str(package), "--out", str(out), "--no-default-bank")
    deck, diagnostics = load_file(out)
    assert deck is not None and not [d for d in diagnostics if d.severity == "error"]
    return code, stderr, {q.id: q for q in deck.questions}


def test_quizapp_export_comes_back_as_itself(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    deck, _ = load_file(EVERY_TYPE)
    assert deck is not None
    code, stderr, back = round_trip(capsys, tmp_path, [deck], tmp_path / "every.apkg")
    # Without --eval the export names a `from:` key's computation instead of a number: those
    # cards (one per variant of a varied question) cannot come back, and say so. Everything
    # else does, under its own id.
    derived = [q for q in deck.questions if isinstance(q, NumericQuestion) and q.answer.from_value]
    assert set(back) == {q.id for q in deck.questions} - {q.id for q in derived}
    cards = sum(len(anki_variants(q)[0]) for q in derived)
    assert cards > len(derived)  # the fixture has a varied computed key
    assert code == 1 and len(skipped_lines(stderr)) == cards
    assert all("the export could not compute it" in line for line in skipped_lines(stderr))
    for question in deck.questions:
        if question.id in back:
            assert_comes_back(question, back[question.id], None)


def test_the_bundled_bank_comes_back_from_its_anki_export(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bank = load_bank([bundled_bank_path()])
    _, _, back = round_trip(capsys, tmp_path, bank.decks, tmp_path / "bank.apkg")
    compared = 0
    for deck in bank.decks:
        for question in deck.questions:
            if question.id in back:
                # Anki decks are named quizapp::<deck id>, and each note is tagged by its deck.
                assert_comes_back(question, back[question.id], tag_of(deck.id))
                compared += 1
    assert compared >= 0.75 * len(bank.questions)  # all but the computed keys


def test_quizapp_cards_come_back_through_anki_itself(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Imported into a real Anki collection and exported again (package and text), quizapp's
    cards still read back as the same questions."""
    deck, _ = load_file(EVERY_TYPE)
    assert deck is not None
    ours = tmp_path / "ours.apkg"
    write_anki([deck], ours, evaluate=False)
    col = new_collection(tmp_path)
    col.import_anki_package(
        anki_collection.ImportAnkiPackageRequest(
            package_path=str(ours), options=anki_collection.ImportAnkiPackageOptions()
        )
    )
    col.export_anki_package(
        out_path=str(tmp_path / "again.apkg"),
        options=anki_collection.ExportAnkiPackageOptions(legacy=True),
        limit=None,
    )
    export_notes_text(col, tmp_path / "again.txt", everything=True)
    col.close()
    first = import_file(capsys, ours, tmp_path / "1.yaml")[2]
    for again in ("again.apkg", "again.txt"):
        _, stderr, cards = import_file(capsys, tmp_path / again, tmp_path / f"{again}.yaml")
        assert set(cards) == set(first), again
        for prompt, card in cards.items():
            assert card.id == first[prompt].id
            assert_comes_back(first[prompt], card, None)
        computed = [q for q in deck.questions if isinstance(q, NumericQuestion) and q.compute]
        # the computed keys' cards, one per variant, as before
        skipped = sum(len(anki_variants(q)[0]) for q in computed if q.answer.from_value)
        assert len(skipped_lines(stderr)) == skipped, stderr
