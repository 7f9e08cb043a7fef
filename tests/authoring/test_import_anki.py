"""`quizapp import` of Anki files, tested against files made by Anki's own library.

The `anki` package (a test-only dependency) builds a genuine collection, exports it as an
.apkg in both package formats and as "Notes in Plain Text", and reads the hand-written text
examples with Anki's own parser, so these tests hold the importer to what Anki writes and
reads, not to what we believe it does.
"""

from __future__ import annotations

import ast
import html
from pathlib import Path
from typing import Any

import pytest

from quizapp.authoring.importers.anki_text import parse_anki_text, read_notes
from quizapp.authoring.importers.common import report_order
from quizapp.bank import (
    Flashcard,
    Question,
    load_file,
)
from tests.authoring.helpers import cli

anki_collection = pytest.importorskip("anki.collection", reason="needs the anki test dependency")

DATA = Path(__file__).parent / "data" / "import"
EVERY_TYPE = Path(__file__).parent / "data" / "every_type.yaml"


def new_collection(folder: Path) -> Any:
    return anki_collection.Collection(str(folder / "collection.anki2"))


def add_vocab_notetype(col: Any) -> None:
    """A user's own note type with three fields, as people make them in Anki."""
    basic = col.models.current()
    model = col.models.new("Vocab")
    for name in ("Term", "Meaning", "Example"):
        col.models.add_field(model, col.models.new_field(name))
    template = col.models.new_template("Card 1")
    template["qfmt"], template["afmt"] = "{{Term}}", "{{FrontSide}}<hr>{{Meaning}}"
    col.models.add_template(model, template)
    col.models.add(model)
    col.models.set_current(basic)  # files without a note type mean Basic, as in a new profile


def add(col: Any, notetype: str, deck: str, fields: list[str], tags: list[str] = ()) -> int:
    note = col.new_note(col.models.by_name(notetype))
    for n, value in enumerate(fields):
        note.fields[n] = value
    note.tags = list(tags)
    col.add_note(note, col.decks.id(deck))
    return note.id


def export_notes_text(col: Any, out: Path, *, everything: bool) -> None:
    """Anki's "Notes in Plain Text" export: with HTML, guid, note type and deck columns, or
    the plainest form (no HTML, only tags)."""
    col.export_note_csv(
        out_path=str(out),
        limit=None,
        with_html=everything,
        with_tags=True,
        with_deck=everything,
        with_notetype=everything,
        with_guid=everything,
    )


@pytest.fixture(scope="module")
def anki_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A collection made with Anki, and its exports: both package formats and two text ones."""
    folder = tmp_path_factory.mktemp("anki")
    col = new_collection(folder)
    add_vocab_notetype(col)
    ids = {
        "softmax": add(
            col,
            "Basic",
            "Transformers::Attention",
            [
                "What does <b>softmax</b> do to each row?",
                "Turns it into weights that sum to 1 &amp; keep their order<br>"
                "(a probability distribution)",
            ],
            ["attention", "Chapter::One"],
        ),
        "reversed": add(
            col,
            "Basic (and reversed card)",
            "Transformers::Attention",
            ["d_k", "the width of one head: d_model / n_heads"],
        ),
        "cloze": add(
            col, "Cloze", "Transformers::Attention", ["{{c1::Softmax}} normalises rows", ""]
        ),
        "image": add(col, "Basic", "Transformers::Attention", ['<img src="heads.png">', "8 heads"]),
        "vocab": add(
            col,
            "Vocab",
            "Transformers::Norms",
            ["RMSNorm", "LayerNorm without centring", "Used by <i>Llama</i>"],
        ),
        "sound": add(
            col,
            "Basic",
            "Transformers::Norms",
            [
                "Which axis does LayerNorm normalise over?",
                "The features of one token[sound:ln.mp3]",
            ],
            ["norms"],
        ),
        "script": add(
            col,
            "Basic",
            "Transformers::Norms",
            ["<script>alert(1)</script><style>b{}</style>Pre-LN or Post-LN at depth?", "Pre-LN"],
        ),
    }
    options = anki_collection.ExportAnkiPackageOptions
    files: dict[str, Any] = {"ids": ids, "folder": folder}
    for name, legacy in (("legacy.apkg", True), ("modern.apkg", False)):
        col.export_anki_package(
            out_path=str(folder / name),
            options=options(
                with_scheduling=False, with_deck_configs=False, with_media=True, legacy=legacy
            ),
            limit=None,
        )
        files[name] = folder / name
    for name, with_html in (("notes-html.txt", True), ("notes-plain.txt", False)):
        export_notes_text(col, folder / name, everything=with_html)
        files[name] = folder / name
    col.close()
    return files


def import_file(
    capsys: pytest.CaptureFixture[str], path: Path, out: Path, *extra: str
) -> tuple[int, str, dict[str, Question]]:
    code, _, stderr = cli(
        capsys, "import", str(path), "--out", str(out), "--no-default-bank", *extra
    )
    if not out.exists():
        return code, stderr, {}
    deck, diagnostics = load_file(out)
    assert deck is not None, diagnostics
    assert not [d for d in diagnostics if d.severity == "error"]  # it passes quizapp lint
    return code, stderr, {q.prompt: q for q in deck.questions}


def skipped_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if ": skipped: " in line]


# -- .apkg made by Anki ---------------------------------------------------------------------------


def test_an_anki_package_becomes_flashcards(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, anki_files: dict[str, Any]
) -> None:
    code, _, cards = import_file(capsys, anki_files["legacy.apkg"], tmp_path / "deck.yaml")
    assert code == 1  # two notes are skipped
    assert (
        set(cards)
        == {
            "What does **softmax** do to each row?",
            "d_k",
            "the width of one head: d_model / n_heads",  # the reverse card of "Basic (and reversed card)"
            "RMSNorm",
            "Which axis does LayerNorm normalise over?",
            "Pre-LN or Post-LN at depth?",
        }
    )
    assert all(isinstance(q, Flashcard) for q in cards.values())
    softmax = cards["What does **softmax** do to each row?"]
    assert softmax.back == (
        "Turns it into weights that sum to 1 & keep their order\n(a probability distribution)"
    )
    # Anki's tags, and the note's deck as a tag, since the package holds two decks.
    assert softmax.tags == ("attention", "chapter-one")
    assert "No explanation came with this question" in softmax.explanation
    vocab = cards["RMSNorm"]
    assert (vocab.back, vocab.explanation) == (
        "LayerNorm without centring",
        "**Example:** Used by *Llama*",
    )
    assert cards["Which axis does LayerNorm normalise over?"].back == "The features of one token"
    assert cards["Pre-LN or Post-LN at depth?"].back == "Pre-LN"


def test_anki_package_skips_are_reported_with_the_note_id(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, anki_files: dict[str, Any]
) -> None:
    _, stderr, _ = import_file(capsys, anki_files["legacy.apkg"], tmp_path / "deck.yaml")
    ids = anki_files["ids"]
    package = anki_files["legacy.apkg"]
    assert skipped_lines(stderr) == [
        f"{package}: note {ids['cloze']}: skipped: a Cloze note: quizapp has no cloze type",
        f"{package}: note {ids['image']}: skipped: the front holds no text but an image "
        "('heads.png') (images and sounds are not imported)",
    ]
    summary, counts = stderr.splitlines()[-2:]
    assert summary.endswith(
        f"6 question(s) imported to {tmp_path / 'deck.yaml'}; 2 item(s) skipped"
    )
    # The sound on the back and the script and style on the front are named in notes.
    assert counts == "quizapp import: 6 imported, 2 skipped, 2 notes about dropped content"


def test_the_newer_package_format_gives_the_same_cards(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, anki_files: dict[str, Any]
) -> None:
    """collection.anki21b (zstd, schema 18), as Anki 2.1.50+ exports by default."""
    same_deck = ("--deck-id", "anki")  # ids are made from the deck's
    legacy = import_file(capsys, anki_files["legacy.apkg"], tmp_path / "legacy.yaml", *same_deck)
    modern = import_file(capsys, anki_files["modern.apkg"], tmp_path / "modern.yaml", *same_deck)
    assert modern[0] == legacy[0] == 1

    def cards(found: dict[str, Question]) -> list[tuple[Any, ...]]:
        return sorted(
            (q.id, q.prompt, getattr(q, "back", None), q.explanation, q.tags)
            for q in found.values()
        )

    assert cards(modern[2]) == cards(legacy[2]) and len(modern[2]) == 6  # not the stub's note
    assert modern[1].replace("modern", "legacy") == legacy[1]


def test_a_one_deck_package_names_the_deck(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    col = new_collection(tmp_path)
    add(col, "Basic", "Course::Attention basics", ["Front side", "Back side"])
    package = tmp_path / "export.apkg"
    col.export_anki_package(
        out_path=str(package),
        options=anki_collection.ExportAnkiPackageOptions(legacy=True),
        limit=None,
    )
    col.close()
    code, _, cards = import_file(capsys, package, tmp_path / "deck.yaml")
    assert code == 0
    deck, _ = load_file(tmp_path / "deck.yaml")
    assert deck is not None
    assert (deck.id, deck.title) == ("attention-basics", "Attention basics")
    assert cards["Front side"].tags == ("attention-basics",)  # no tags: the deck's topic


# -- Notes in Plain Text made by Anki -------------------------------------------------------------


@pytest.mark.parametrize("name", ["notes-html.txt", "notes-plain.txt"])
def test_anki_text_exports_give_the_same_cards_as_the_package(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, anki_files: dict[str, Any], name: str
) -> None:
    _, _, from_package = import_file(capsys, anki_files["legacy.apkg"], tmp_path / "a.yaml")
    code, stderr, from_text = import_file(capsys, anki_files[name], tmp_path / "b.yaml")
    assert code == 1
    with_html = name == "notes-html.txt"
    if with_html:
        assert set(from_text) == set(from_package)
    else:  # Anki wrote the fields as plain text: the bold and the italic are gone, and
        # without a note type column the reversed note reads as Basic: no reverse card.
        reverse = "the width of one head: d_model / n_heads"
        assert {p.replace("**", "") for p in from_package} - {reverse} == set(from_text)
    for prompt, card in from_text.items():
        twin = (
            from_package[prompt]
            if with_html
            else from_package[next(p for p in from_package if p.replace("**", "") == prompt)]
        )
        # Anki's plain text also turns a line break into a space.
        assert card.back.replace("*", "").split() == twin.back.replace("*", "").split()
    # Without its note type (the plain export) the cloze note is known by its markup, and is
    # never a flashcard showing {{c1::...}}.
    reasons = [line.split(": skipped: ")[1] for line in skipped_lines(stderr)]
    assert reasons[0] == (
        "a Cloze note: quizapp has no cloze type"
        if with_html
        else "a cloze note (its text holds {{c1::...}} deletions): quizapp has no cloze type"
    )
    assert reasons[1] == (
        "the front holds no text but an image ('heads.png') (images and sounds are not imported)"
        if with_html
        else "the front holds no text (images and sounds are not imported)"
    )
    assert not any("{{c1::" in card.prompt for card in from_text.values())


# -- hand-written text files, read as Anki reads them ----------------------------------------------


TEXT_FILES = sorted(DATA.glob("*.txt"))


def test_there_is_a_text_example_for_each_header() -> None:
    headers = " ".join(path.read_text(encoding="utf-8") for path in TEXT_FILES)
    for header in (
        "#separator:tab",
        "#separator:comma",
        "#separator:Semicolon",
        "#separator:|",
        "#html:true",
        "#html:false",
        "#tags column:",
        "#deck:",
        "#deck column:",
        "#notetype:",
        "#notetype column:",
        "#columns:",
        "#tags:",
        "tags:",
    ):
        assert header in headers, header


@pytest.mark.parametrize("path", TEXT_FILES, ids=lambda p: p.name)
def test_hand_written_text_files_read_as_anki_reads_them(path: Path, tmp_path: Path) -> None:
    col = new_collection(tmp_path)
    add_vocab_notetype(col)
    metadata = col.get_csv_metadata(path=str(path), delimiter=None)
    col.import_csv(anki_collection.ImportCsvRequest(path=str(path), metadata=metadata))
    theirs = []
    for nid in sorted(col.find_notes("")):
        note = col.get_note(nid)
        fields = [html.unescape(f) if not metadata.is_html else f for f in note.fields]
        while fields and not fields[-1]:
            fields.pop()
        deck = col.decks.name(note.cards()[0].did) if note.cards() else None
        theirs.append((note.note_type()["name"], fields, sorted(note.tags), deck))
    col.close()
    ours = []
    for note in read_notes(path.read_text(encoding="utf-8"), path.name):
        fields = list(note.fields)
        if note.field_names and "Front" in note.field_names:  # #columns: placed them by name
            order = {
                name: value for name, value in zip(note.field_names, note.fields, strict=False)
            }
            fields = [order["Front"], order["Back"]]
        while fields and not fields[-1]:
            fields.pop()
        assert note.html == metadata.is_html
        ours.append((note.notetype or "Basic", fields, sorted(note.tags), note.deck or "Default"))
    assert ours == theirs


def test_hand_written_text_files_import(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    results = {p.name: parse_anki_text(p.read_text(encoding="utf-8"), p.name) for p in TEXT_FILES}
    comma = results["comma_html.txt"]
    assert [d.question["prompt"] for d in comma.drafts] == [
        "Scaled dot-product: why divide by **sqrt(d_k)**?",
        'A field with a comma, a "quote"\nand a second line',
    ]
    assert comma.drafts[1].question["back"] == "Back\nwith a break & an entity"
    assert comma.title == "Attention" and comma.drafts[0].question["tags"] == ["shared"]
    assert comma.drafts[1].where == "comma_html.txt:8"  # after the comment line
    columns = results["semicolon_columns.txt"].drafts[0].question
    assert (columns["prompt"], columns["back"]) == ("How wide is one head?", "d_model / n_heads")
    pipe = results["pipe_notetype_column.txt"]
    assert [s.format() for s in pipe.skipped] == [
        "pipe_notetype_column.txt:6: skipped: a Cloze note: quizapp has no cloze type"
    ]
    assert pipe.drafts[1].question["explanation"] == "Used by Llama"
    assert [d.question["tags"] for d in pipe.drafts] == [["heads"], ["norms"]]
    assert results["legacy_tags_line.txt"].drafts[0].question["tags"] == ["legacy"]
    tab = results["tab_plain.txt"]
    assert tab.drafts[1].question["tags"] == ["norms", "chapter-two"]
    for path in TEXT_FILES:  # and each one imports through the command, into a deck that lints
        out = tmp_path / f"{path.stem}.yaml"
        code, _, cards = import_file(capsys, path, out)
        assert code == (1 if results[path.name].skipped else 0), path.name
        assert len(cards) == len(results[path.name].drafts)


def test_reports_sort_by_file_then_position() -> None:
    wheres = ["b.apkg: note 20", "a.gift:10", "a.gift:9", "b.apkg: note 3"]
    assert sorted(wheres, key=report_order) == [
        "a.gift:9",
        "a.gift:10",
        "b.apkg: note 3",
        "b.apkg: note 20",
    ]


def test_the_anki_library_is_imported_by_tests_only() -> None:
    for path in (Path(__file__).resolve().parents[2] / "quizapp").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            assert not [n for n in names if n == "anki" or n.startswith("anki.")], path
