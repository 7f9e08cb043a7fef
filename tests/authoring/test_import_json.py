"""`quizapp import FILE.json`: quizapp's own JSON export comes back as the same decks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from quizapp.authoring.export import export_json
from quizapp.bank import bundled_bank_path, load_bank, load_file
from quizapp.bank.model import Deck
from tests.authoring.helpers import cli, comparable, comparable_any_option_order

EVERY_TYPE = Path(__file__).parent / "data" / "every_type.yaml"


def flashcard(**fields: object) -> dict[str, object]:
    """A flashcard question object as the JSON export writes it, with `fields` over it."""
    card = {"id": "q", "type": "flashcard", "difficulty": "easy", "tags": ["t"], "prompt": "P"}
    return {**card, "back": "B", "explanation": "E", **fields}


def export_every_type(tmp_path: Path) -> tuple[Deck, Path]:
    """The every-type fixture deck and its JSON export."""
    deck, _ = load_file(EVERY_TYPE)
    assert deck is not None
    exported = tmp_path / "every.json"
    exported.write_text(export_json(deck.questions, [deck]), encoding="utf-8")
    return deck, exported


def deck_fields(deck: Deck) -> tuple:
    return (deck.id, deck.title, deck.topic, deck.domain, deck.exam_weight, deck.description)


def test_the_bundled_bank_round_trips_through_json(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    exported = tmp_path / "bank.json"
    # --no-shuffle: the authoring round trip, every option back where the file wrote it.
    code, _, stderr = cli(
        capsys, "export", "--format", "json", "--no-shuffle", "--out", str(exported)
    )
    assert code == 0, stderr
    folder = tmp_path / "decks"
    folder.mkdir()
    code, stdout, stderr = cli(
        capsys, "import", str(exported), "--out", str(folder), "--no-default-bank"
    )
    assert code == 0, stderr
    assert stdout == ""
    original = load_bank([bundled_bank_path()])
    again = load_bank([folder])
    assert not again.errors
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        f"{d.id}.yaml" for d in original.decks
    )
    for deck in original.decks:
        back = again.deck(deck.id)
        assert back is not None
        assert deck_fields(back) == deck_fields(deck)
        assert [comparable(q) for q in back.questions] == [comparable(q) for q in deck.questions]
    assert (
        f"{len(original.questions)} question(s) imported to {len(original.decks)} deck file(s)"
        in stderr
    )


def test_one_deck_round_trips_every_field(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    deck, exported = export_every_type(tmp_path)
    out = tmp_path / "every.yaml"
    code, _, stderr = cli(capsys, "import", str(exported), "--out", str(out), "--no-default-bank")
    assert code == 0, stderr
    back, diagnostics = load_file(out)
    assert back is not None and not [d for d in diagnostics if d.severity == "error"]
    assert deck_fields(back) == deck_fields(deck)
    # Exported shuffled (the default): every field back, the options in another order.
    assert [comparable_any_option_order(q) for q in back.questions] == [
        comparable_any_option_order(q) for q in deck.questions
    ]
    # The question whose topic differs from the deck's keeps it; the others do not repeat it.
    text = out.read_text(encoding="utf-8")
    assert text.count("    topic: ") == sum(q.topic != deck.topic for q in deck.questions)


def test_options_override_one_decks_metadata(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    deck, exported = export_every_type(tmp_path)
    out = tmp_path / "renamed.yaml"
    code, _, stderr = cli(
        capsys, "import", str(exported), "--out", str(out), "--no-default-bank",
        "--deck-id", "renamed", "--title", "Renamed", "--weight", "0.25",
    )  # fmt: skip
    assert code == 0, stderr
    back, _ = load_file(out)
    assert back is not None
    assert (back.id, back.title, back.exam_weight, back.domain) == (
        "renamed",
        "Renamed",
        0.25,
        deck.domain,
    )


def test_several_decks_need_a_folder(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    exported = tmp_path / "bank.json"
    cli(capsys, "export", "--format", "json", "--out", str(exported))
    code, stdout, stderr = cli(capsys, "import", str(exported), "--no-default-bank")
    assert code == 2 and stdout == ""
    assert "holds 4 decks" in stderr and "--out FOLDER" in stderr
    code, _, stderr = cli(
        capsys, "import", str(exported), "--out", str(tmp_path), "--no-default-bank", "--title", "X"
    )
    assert code == 2 and "--title set one deck's metadata" in stderr
    assert not list(tmp_path.glob("*.yaml"))


def test_a_folder_target_is_not_overwritten_without_force(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    exported = tmp_path / "bank.json"
    cli(capsys, "export", "--format", "json", "--out", str(exported))
    folder = tmp_path / "decks"
    folder.mkdir()
    existing = folder / "positional-encoding.yaml"
    existing.write_text("mine\n", encoding="utf-8")
    code, _, stderr = cli(
        capsys, "import", str(exported), "--out", str(folder), "--no-default-bank"
    )
    assert code == 2 and "exists; add --force" in stderr
    assert existing.read_text(encoding="utf-8") == "mine\n"
    assert [p.name for p in folder.iterdir()] == ["positional-encoding.yaml"]  # nothing written
    code, _, stderr = cli(
        capsys, "import", str(exported), "--out", str(folder), "--no-default-bank", "--force"
    )
    assert code == 0, stderr
    assert load_file(existing)[0] is not None


def test_ids_already_in_the_bank_are_skipped(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    deck, exported = export_every_type(tmp_path)
    out = tmp_path / "again.yaml"
    code, _, stderr = cli(
        capsys, "import", str(exported), "--out", str(out), "--bank", str(EVERY_TYPE),
        "--no-default-bank", "--deck-id", "another",
    )  # fmt: skip
    assert code == 1
    skipped = [line for line in stderr.splitlines() if ": skipped: " in line]
    assert len(skipped) == len(deck.questions) and not out.exists()
    assert f"id 'et-single' is already used in {EVERY_TYPE}" in skipped[0]


def test_the_list_exported_before_format_existed_still_imports(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    deck, _ = load_file(EVERY_TYPE)
    assert deck is not None
    document = json.loads(export_json(deck.questions, [deck]))
    old = tmp_path / "old-export.json"
    old.write_text(json.dumps(document["questions"]), encoding="utf-8")
    out = tmp_path / "old.yaml"
    code, _, stderr = cli(capsys, "import", str(old), "--out", str(out), "--no-default-bank")
    assert code == 0, stderr
    back, _ = load_file(out)
    assert back is not None and back.id == "every-type"
    assert [q.id for q in back.questions] == [q.id for q in deck.questions]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"format": 2, "decks": [], "questions": []}', "format 2 is not a quizapp JSON export"),
        ('{"format": 1, "decks": {}, "questions": []}', "'decks' and 'questions' must be lists"),
        ("[" * 100_000 + "]" * 100_000, "nests too deeply"),
        ('[{"id": "a", "answer": NaN}]', "NaN is not a number JSON allows"),
        ("{", "is not valid JSON"),
        ('"text"', "is not a quizapp JSON export"),
        (
            '{"format": 1, "decks": [{"title": "no id"}], "questions": []}',
            "a deck needs at least an id",
        ),
    ],
)
def test_unusable_json_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str, message: str
) -> None:
    source = tmp_path / "bad.json"
    source.write_text(content, encoding="utf-8")
    code, stdout, stderr = cli(capsys, "import", str(source), "--no-default-bank")
    assert code == 2 and stdout == ""
    assert message in stderr and len(stderr.splitlines()) == 1


def test_malformed_question_objects_are_skipped(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    good = flashcard(id="ok", deck="d")
    document = {
        "format": 1,
        "decks": [{"id": "d", "title": "D", "topic": "d", "domain": "X", "exam_weight": 0.5}],
        "questions": [
            good,
            "not an object",
            {**good, "id": "bad-choices", "type": "single_choice", "choices": ["a", "b"]},
            {**good, "id": "bad-type", "type": "essay"},
        ],
    }
    source = tmp_path / "mixed.json"
    source.write_text(json.dumps(document), encoding="utf-8")
    out = tmp_path / "mixed.yaml"
    code, _, stderr = cli(capsys, "import", str(source), "--out", str(out), "--no-default-bank")
    assert code == 1
    skipped = [line for line in stderr.splitlines() if ": skipped: " in line]
    assert [line.split(": skipped: ")[0] for line in skipped] == [
        f"{source}: question 2",
        f"{source}: question 3 ('bad-choices')",
        f"{source}: question 4 ('bad-type')",
    ]
    assert "not a question object" in skipped[0]
    assert "not a quizapp question object" in skipped[1]
    back, _ = load_file(out)
    assert back is not None and [q.id for q in back.questions] == ["ok"]


def test_an_id_in_two_decks_of_one_file_is_written_once(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    question = flashcard(id="same")
    decks = [
        {"id": d, "title": d, "topic": d, "domain": "X", "exam_weight": 0.5} for d in ("a", "b")
    ]
    document = {
        "format": 1,
        "decks": decks,
        "questions": [{**question, "deck": "a"}, {**question, "deck": "b"}],
    }
    source = tmp_path / "two.json"
    source.write_text(json.dumps(document), encoding="utf-8")
    folder = tmp_path / "out"
    folder.mkdir()
    code, _, stderr = cli(capsys, "import", str(source), "--out", str(folder), "--no-default-bank")
    assert code == 1
    assert (
        f"{source}: question 2 ('same'): skipped: id 'same' is already used in {folder / 'a.yaml'}"
        in stderr
    )
    assert [p.name for p in folder.iterdir()] == ["a.yaml"]
    assert not load_bank([folder]).errors


def _one_deck_file(tmp_path: Path, **deck: object) -> Path:
    """A JSON export of one deck ("d", unless `deck` says otherwise) holding one flashcard."""
    fields = {"id": "d", "title": "D", "topic": "d", "domain": "X", "exam_weight": 0.5, **deck}
    question = flashcard(deck=fields["id"])
    source = tmp_path / "deck.json"
    document = {"format": 1, "decks": [fields], "questions": [question]}
    source.write_text(json.dumps(document), encoding="utf-8")
    return source


@pytest.mark.parametrize(
    ("deck", "where", "says"),
    [
        ({"id": "Bad Deck!"}, "decks[0].id", "deck id 'Bad Deck!' must be lowercase"),
        ({"title": ""}, "decks[0].title", "title must not be empty"),
        ({"topic": "Bad Topic"}, "decks[0].topic", "topic 'Bad Topic' must be lowercase"),
        ({"exam_weight": 0}, "decks[0].exam_weight", "exam_weight must be greater than 0"),
    ],
)
def test_bad_deck_metadata_in_the_file_names_the_file_and_key(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, deck: dict, where: str, says: str
) -> None:
    """The value came from the file, not from an option the user never gave."""
    source = _one_deck_file(tmp_path, **deck)
    code, stdout, stderr = cli(capsys, "import", str(source), "--no-default-bank")
    assert code == 2 and stdout == ""
    assert len(stderr.splitlines()) == 1 and "Traceback" not in stderr
    assert stderr.startswith(f"quizapp import: error: {source}: {where}: {says}"), stderr
    assert "--deck-id" not in stderr and "--title" not in stderr


def test_a_bad_option_over_the_file_still_names_the_option(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    source = _one_deck_file(tmp_path)
    code, _, stderr = cli(capsys, "import", str(source), "--no-default-bank", "--deck-id", "No!")
    assert code == 2
    assert stderr.startswith("quizapp import: error: --deck-id: deck id 'No!' must be"), stderr


def test_a_deck_id_the_bank_already_has_names_the_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    source = _one_deck_file(tmp_path, id="positional-encoding")
    code, _, stderr = cli(capsys, "import", str(source))
    assert code == 2 and len(stderr.splitlines()) == 1
    assert stderr.startswith(
        f"quizapp import: error: {source}: decks[0].id: deck id 'positional-encoding' "
        "is already used by "
    ), stderr


def test_a_deck_only_questions_name_is_traced_to_the_first_of_them(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """An export from before `format` is a bare list: the deck id is the questions' `deck`."""
    question = flashcard()
    source = tmp_path / "old.json"
    source.write_text(
        json.dumps([{**question, "deck": "other"}, {**question, "id": "r", "deck": "taken"}]),
        encoding="utf-8",
    )
    bank = tmp_path / "bank"
    bank.mkdir()
    (bank / "taken.yaml").write_text(
        "deck: {id: taken, title: T, topic: taken, domain: X, exam_weight: 0.5}\nquestions: []\n",
        encoding="utf-8",
    )
    folder = tmp_path / "out"
    folder.mkdir()
    code, _, stderr = cli(
        capsys,
        "import",
        str(source),
        "--no-default-bank",
        "--bank",
        str(bank),
        "--out",
        str(folder),
    )
    assert code == 2 and len(stderr.splitlines()) == 1, stderr
    assert stderr.startswith(
        f"quizapp import: error: {source}: questions[1].deck: deck id 'taken' is already used by"
    ), stderr
