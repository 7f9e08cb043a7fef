"""`quizapp export`: JSON and CSV that read back to the same questions, and a real Anki package."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from quizapp.authoring.anki_cards import anki_variants, variant_id
from quizapp.authoring.csv_import import DeckInfo, render_deck
from quizapp.authoring.export import (
    anki_deck_id,
    anki_guid,
    card_front,
    export_json,
    json_to_mapping,
    markdown_to_html,
    question_json,
)
from quizapp.bank import QuestionType, bundled_bank_path, load_bank, load_file
from quizapp.bank.display_order import ExportOrder
from quizapp.bank.model import Deck, OrderingQuestion
from tests.authoring.helpers import cli, comparable, comparable_any_option_order, query_apkg

DATA = Path(__file__).parent / "data"
EVERY_TYPE = DATA / "every_type.yaml"


def deck_info(deck: Deck) -> DeckInfo:
    return DeckInfo(
        deck.id, deck.title, deck.topic, deck.domain, deck.exam_weight, deck.description
    )


def fixture_deck() -> Deck:
    deck, diagnostics = load_file(EVERY_TYPE)
    assert deck is not None and not [d for d in diagnostics if d.severity == "error"]
    return deck


def test_the_fixture_covers_every_type() -> None:
    assert {q.type for q in fixture_deck().questions} == set(QuestionType)


# -- JSON -----------------------------------------------------------------------------------


def test_json_round_trips_every_type_field_by_field(tmp_path: Path) -> None:
    deck = fixture_deck()
    # --no-shuffle, the authoring round trip: the options come back in the file's order too.
    unshuffled = ExportOrder(shuffle=False)
    exported = json.loads(export_json(deck.questions, [deck], unshuffled))["questions"]
    assert [obj["id"] for obj in exported] == [q.id for q in deck.questions]
    path = tmp_path / "back.yaml"
    path.write_text(render_deck(deck_info(deck), [json_to_mapping(o) for o in exported]))
    again, diagnostics = load_file(path)
    assert again is not None, diagnostics
    assert [d for d in diagnostics if d.severity == "error"] == []
    assert [comparable(q) for q in again.questions] == [comparable(q) for q in deck.questions]


def test_json_round_trips_the_bundled_bank(tmp_path: Path) -> None:
    bank = load_bank([bundled_bank_path()])
    for deck in bank.decks:
        exported = json.loads(export_json(deck.questions, [deck]))["questions"]
        path = tmp_path / f"{deck.id}.yaml"
        path.write_text(render_deck(deck_info(deck), [json_to_mapping(o) for o in exported]))
        again, _ = load_file(path)
        assert again is not None
        # Shuffled options, as exported by default: the same questions, options in any order.
        assert [comparable_any_option_order(q) for q in again.questions] == [
            comparable_any_option_order(q) for q in deck.questions
        ]


def key_claims(question: object) -> list[str | None]:
    """The claims that prove a question's key, as written: per option, the question's own,
    per step (grading never reads them, so `comparable` leaves them out)."""
    claims = [getattr(c, "holds", None) for c in getattr(question, "choices", ())]
    claims += [getattr(question, "holds", None)]
    claims += [s.value for s in getattr(question, "steps", ())]
    return sorted(c.text for c in claims if c is not None)


def test_json_keeps_the_claims_that_prove_the_keys(tmp_path: Path) -> None:
    """`holds:` is the point of a proven key: a JSON round trip must not drop it silently."""
    bank = load_bank([bundled_bank_path()])
    proven = [q for q in bank.questions.values() if key_claims(q)]
    assert len(proven) >= 10  # the bundled bank ties keys; the check is not vacuous
    for deck in bank.decks:
        exported = json.loads(export_json(deck.questions, [deck]))["questions"]
        path = tmp_path / f"{deck.id}.yaml"
        path.write_text(render_deck(deck_info(deck), [json_to_mapping(o) for o in exported]))
        again, _ = load_file(path)
        assert again is not None
        assert [key_claims(q) for q in again.questions] == [key_claims(q) for q in deck.questions]


COMMON_KEYS = {
    "id",
    "type",
    "deck",
    "topic",
    "difficulty",
    "tags",
    "source",
    "pairs_with",
    "prompt",
    "explanation",
    "compute",
    "vary",
}
TYPE_KEYS = {
    "single_choice": {"choices", "shuffle"},
    "multiple_choice": {"choices", "shuffle"},
    "true_false": {"answer", "why_true", "why_false", "holds"},
    "numeric": {"answer", "traps"},
    "ordering": {"steps", "order_by_value"},
    "flashcard": {"back"},
}


def test_json_shape_is_stable_every_key_present() -> None:
    for question in fixture_deck().questions:
        obj = question_json(question)
        assert set(obj) == COMMON_KEYS | TYPE_KEYS[question.type.value], question.id
        if question.type is QuestionType.NUMERIC:
            assert set(obj["answer"]) == {
                "value",
                "from",
                "tolerance",
                "relative_tolerance",
                "unit",
            }
        if question.type is QuestionType.ORDERING:
            assert all(set(step) == {"text", "why", "value"} for step in obj["steps"])
        if "choices" in obj:
            assert all(set(c) == {"text", "correct", "why", "holds"} for c in obj["choices"])
        if obj["compute"] is not None:
            assert set(obj["compute"]) == {"name", "args", "expect"}
            assert all(set(c) == {"claim", "says"} for c in obj["compute"]["expect"])


def test_export_json_cli_writes_the_bundled_bank(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "bank.json"
    code, stdout, stderr = cli(capsys, "export", "--format", "json", "--out", str(out))
    assert code == 0, stderr
    assert stdout == ""
    document = json.loads(out.read_text(encoding="utf-8"))
    bank = load_bank([bundled_bank_path()])
    assert document["format"] == 1
    assert [d["id"] for d in document["decks"]] == [d.id for d in bank.decks]
    assert len(document["questions"]) == len(bank.questions)


def test_export_reports_broken_questions_and_exports_the_rest(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    text = EVERY_TYPE.read_text(encoding="utf-8").replace(
        "    prompt: Front?\n", "    prompt: Front?\n    bogus: 1\n"
    )
    broken = tmp_path / "broken.yaml"
    broken.write_text(text, encoding="utf-8")
    code, stdout, stderr = cli(capsys, "export", "--format", "json", str(broken))
    assert code == 1
    assert "unknown key 'bogus'" in stderr and "left out" in stderr
    assert [q["id"] for q in json.loads(stdout)["questions"]] == [
        q.id for q in fixture_deck().questions if q.id != "et-flashcard"
    ]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["export", "--format", "anki"], "give --out FILE.apkg"),
        (["export", "--format", "csv", "no/such/path"], "no such file or folder"),
        (["export", "--format", "xml"], "invalid choice"),
    ],
)
def test_export_usage_errors_are_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, _, stderr = cli(capsys, *argv)
    assert code == 2
    assert message in stderr and stderr.count("\n") == 1
    assert stderr.startswith("quizapp export: error: ")


# -- Anki -----------------------------------------------------------------------------------


def read_apkg(path: Path, tmp_path: Path) -> tuple[list[tuple[str, str, str]], dict[str, object]]:
    """(guid, tags, fields) of every note, and the decks table, from an .apkg."""
    notes, [(cards,)], [(decks,)] = query_apkg(
        path,
        tmp_path,
        "SELECT guid, tags, flds FROM notes ORDER BY id",
        "SELECT count(*) FROM cards",
        "SELECT decks FROM col",
    )
    assert cards == len(notes)
    return notes, json.loads(decks)


def test_anki_export_is_a_valid_package_with_one_note_per_question_and_variant(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "bank.apkg"
    code, _, stderr = cli(capsys, "export", "--format", "anki", "--out", str(out), "--no-eval")
    assert code == 0, stderr
    bank = load_bank([bundled_bank_path()])
    notes, decks = read_apkg(out, tmp_path)
    cards = {variant_id(v): q for q in bank.questions.values() for v in anki_variants(q)[0]}
    assert len(cards) > len(bank.questions)  # the bundled bank has varied questions
    assert len(notes) == len(cards)
    by_id = {fields.split("\x1f")[2]: (guid, tags) for guid, tags, fields in notes}
    assert set(by_id) == set(cards)
    assert len({guid for guid, _ in by_id.values()}) == len(cards)  # every guid its own
    for note_id, question in cards.items():
        guid, tags = by_id[note_id]
        assert guid == anki_guid(note_id)
        assert tags.split() == list(question.tags)
    for deck in bank.decks:
        anki_deck = decks[str(anki_deck_id(deck.id))]
        assert anki_deck["name"] == f"quizapp::{deck.id}"  # the id, which a retitle keeps
        assert deck.title in anki_deck["desc"]


def test_anki_reexport_keeps_every_id_so_anki_updates_instead_of_duplicating(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    first, second = tmp_path / "a.apkg", tmp_path / "b.apkg"
    for out in (first, second):
        code, _, stderr = cli(
            capsys, "export", "--format", "anki", str(EVERY_TYPE), "--out", str(out), "--no-eval"
        )
        assert code == 0, stderr
    notes_a, decks_a = read_apkg(first, tmp_path)
    notes_b, decks_b = read_apkg(second, tmp_path)
    assert [n[0] for n in notes_a] == [n[0] for n in notes_b]
    assert set(decks_a) == set(decks_b)
    assert anki_deck_id("every-type") == anki_deck_id("every-type") != anki_deck_id("other")
    assert (1 << 30) <= anki_deck_id("every-type") < (1 << 31)


def test_anki_cards_escape_html_and_hide_the_order(tmp_path: Path) -> None:
    from quizapp.authoring.export import card_back, write_anki

    deck = fixture_deck()
    single = next(q for q in deck.questions if q.id == "et-single")
    back = card_back(single)
    assert "&lt;html&gt; &amp;" in back and "<html>" not in back
    assert "<li>a list item</li>" in back
    ordering = next(q for q in deck.questions if isinstance(q, OrderingQuestion))
    front = card_front(ordering)
    positions = [front.index(step.text) for step in ordering.steps]
    assert positions != sorted(positions), "the front must not give the order away"
    derived = next(q for q in deck.questions if q.id == "et-numeric-from")
    assert "params_single_head" in card_back(derived)  # not computed: the key is named
    notes = sum(len(anki_variants(q)[0]) for q in deck.questions)
    assert write_anki([deck], tmp_path / "d.apkg", evaluate=False) == notes


@pytest.mark.slow
def test_anki_computes_derived_keys(tmp_path: Path) -> None:
    from quizapp.authoring.export import write_anki

    out = tmp_path / "d.apkg"
    write_anki([fixture_deck()], out)
    notes, _ = read_apkg(out, tmp_path)
    backs = {f.split("\x1f")[2]: f.split("\x1f")[1] for _, _, f in notes}
    assert "1,048,576" in backs["et-numeric-from"]  # 4 × 512 × 512, computed at export


def test_markdown_to_html_subset() -> None:
    assert markdown_to_html("Hello **bold** and `a**b**<c>`") == (
        "<p>Hello <strong>bold</strong> and <code>a**b**&lt;c&gt;</code></p>"
    )
    assert markdown_to_html("one\n\n<script>x</script>") == (
        "<p>one</p><p>&lt;script&gt;x&lt;/script&gt;</p>"
    )
    assert markdown_to_html("Intro:\n- a\n- *b*\n\n1. x\n2. y") == (
        "<p>Intro:</p><ul><li>a</li><li><em>b</em></li></ul><ol><li>x</li><li>y</li></ol>"
    )
    assert markdown_to_html("```\nif a < b:\n```") == "<pre><code>if a &lt; b:\n</code></pre>"
    assert markdown_to_html("3 * 4 * 5") == "<p>3 * 4 * 5</p>"


def test_the_cli_wires_the_authoring_commands(run_cli) -> None:
    """`python -m quizapp export` must reach this module (build_parser registers it)."""
    result = run_cli("export", "--format", "json", str(EVERY_TYPE))
    assert result.returncode == 0, result.stderr
    assert len(json.loads(result.stdout)["questions"]) == len(fixture_deck().questions)


def test_anki_fronts_do_not_give_the_answer_away_by_position() -> None:
    import re

    from quizapp.authoring.export import card_front
    from quizapp.bank import ChoiceQuestion, QuestionType, bundled_bank_path, load_bank

    singles = [
        q
        for q in load_bank([bundled_bank_path()]).questions.values()
        if isinstance(q, ChoiceQuestion) and q.type is QuestionType.SINGLE_CHOICE and q.shuffle
    ]
    first_is_correct = 0
    for question in singles:
        first = re.search(r"<li>(.*?)</li>", card_front(question)).group(1)
        correct = next(c for c in question.choices if c.correct)
        first_is_correct += correct.text[:20] in first
    assert singles and first_is_correct < len(singles) / 2


@pytest.mark.parametrize("format_name", ["csv", "gift"])
def test_a_format_that_cannot_carry_key_claims_says_so(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, format_name: str
) -> None:
    out = tmp_path / f"bank.{format_name}"
    code, _, stderr = cli(capsys, "export", "--format", format_name, "--out", str(out))
    assert code == 0, stderr
    assert f"lose the claims that prove their keys (holds:, value:), which {format_name}" in stderr
    json_out = tmp_path / "bank.json"
    code, _, stderr = cli(capsys, "export", "--format", "json", "--out", str(json_out))
    assert code == 0 and "lose the claims" not in stderr
