"""Anki import names everything it leaves out, reads the newer package format safely, and the
Anki export keeps an explanation's structure.

The packages are made by Anki's own library (the `anki` test dependency), in both package
formats: collection.anki21 (legacy) and collection.anki21b (zstd, schema 18, Anki 2.1.50+).
"""

from __future__ import annotations

import html
import time
import zipfile
from pathlib import Path
from typing import Any

import pytest

from quizapp.authoring.export import write_anki
from quizapp.authoring.importers import apkg
from quizapp.authoring.importers.anki_text import parse_anki_text
from quizapp.authoring.importers.common import ImportInputError
from quizapp.bank import Flashcard, load_file
from tests.authoring.helpers import cli

anki_collection = pytest.importorskip("anki.collection", reason="needs the anki test dependency")
zstandard = pytest.importorskip("zstandard")


def add(col: Any, notetype: str, fields: list[str]) -> int:
    note = col.new_note(col.models.by_name(notetype))
    for n, value in enumerate(fields):
        note.fields[n] = value
    col.add_note(note, col.decks.id("Course::Losses"))
    return int(note.id)


@pytest.fixture(scope="module")
def lossy(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One note of each kind of loss, exported in both package formats."""
    folder = tmp_path_factory.mktemp("lossy")
    col = anki_collection.Collection(str(folder / "collection.anki2"))
    ids = {
        "image": add(
            col, "Basic", ["What do the heads attend to?", 'Other tokens<img src="map.png">']
        ),
        "sound": add(col, "Basic", ["Say 'softmax'[sound:softmax.mp3]", "soft-max"]),
        "link": add(
            col,
            "Basic",
            [
                "Who wrote it?",
                'Vaswani et al., <a href="https://arxiv.org/abs/1706.03762">2017</a>',
            ],
        ),
        "reversed": add(col, "Basic (and reversed card)", ["d_model", "the residual width"]),
        "optional-on": add(col, "Basic (optional reversed card)", ["GELU", "an activation", "y"]),
        "optional-off": add(col, "Basic (optional reversed card)", ["ReLU", "max(0, x)", ""]),
        "cloze": add(col, "Cloze", ["{{c1::Softmax}} normalises each row", "extra"]),
        "only-image": add(col, "Basic", ['<img src="only.png">', "a back"]),
    }
    files: dict[str, Any] = {"ids": ids}
    for name, legacy in (("legacy.apkg", True), ("modern.apkg", False)):
        col.export_anki_package(
            out_path=str(folder / name),
            options=anki_collection.ExportAnkiPackageOptions(legacy=legacy, with_media=False),
            limit=None,
        )
        files[name] = folder / name
    col.close()
    return files


@pytest.mark.parametrize("package", ["legacy.apkg", "modern.apkg"])
def test_every_loss_is_named_with_its_note_id(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, lossy: dict[str, Any], package: str
) -> None:
    source, ids = lossy[package], lossy["ids"]
    out = tmp_path / "deck.yaml"
    code, _, stderr = cli(capsys, "import", str(source), "--out", str(out), "--no-default-bank")
    assert code == 1  # two notes skipped
    lines = stderr.splitlines()

    def about(name: str) -> list[str]:
        return [line for line in lines if line.startswith(f"{source}: note {ids[name]}: ")]

    assert about("image") == [
        f"{source}: note {ids['image']}: note: the Back field: left out an image ('map.png'); "
        "the text kept: 'Other tokens'"
    ]
    assert about("sound") == [
        f"{source}: note {ids['sound']}: note: the Front field: left out a sound "
        "('softmax.mp3'); the text kept: \"Say 'softmax'\""
    ]
    [link] = about("link")
    assert (
        "note: the Back field: left out a link address ('https://arxiv.org/abs/1706.03762')" in link
    )
    assert "the text kept: 'Vaswani et al., 2017'" in link
    assert about("cloze") == [
        f"{source}: note {ids['cloze']}: skipped: a Cloze note: quizapp has no cloze type"
    ]
    assert about("only-image") == [
        f"{source}: note {ids['only-image']}: skipped: the front holds no text but an image "
        "('only.png') (images and sounds are not imported)"
    ]
    for name in ("reversed", "optional-on", "optional-off"):
        assert about(name) == []  # nothing of theirs is lost
    assert lines[-1] == "quizapp import: 8 imported, 2 skipped, 3 notes about dropped content"

    deck, _ = load_file(out)
    assert deck is not None
    sides = {(q.prompt, q.back) for q in deck.questions if isinstance(q, Flashcard)}
    assert len(sides) == len(deck.questions) == 8
    # A reversed card is a second flashcard, sides swapped; the optional reverse only when
    # its Add Reverse field is filled.
    assert {("d_model", "the residual width"), ("the residual width", "d_model")} <= sides
    assert {("GELU", "an activation"), ("an activation", "GELU")} <= sides
    assert ("ReLU", "max(0, x)") in sides and ("max(0, x)", "ReLU") not in sides
    assert not any("{{c1::" in prompt or "{{c1::" in back for prompt, back in sides)


def test_a_renamed_reversed_note_type_is_known_by_its_second_card_and_a_third_is_named(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Anki in another language names the note type otherwise; the package's templates say
    that the second card asks for the Back."""
    col = anki_collection.Collection(str(tmp_path / "collection.anki2"))
    model = col.models.by_name("Basic (and reversed card)")
    model["name"] = "Einfach (mit Rückseite)"
    spelling = col.models.new_template("Schreiben")
    spelling["qfmt"], spelling["afmt"] = "Spell: {{Front}}", "{{FrontSide}}<hr>{{Back}}"
    col.models.add_template(model, spelling)
    col.models.update_dict(model)
    nid = add(col, "Einfach (mit Rückseite)", ["Kopf", "head"])
    package = tmp_path / "renamed.apkg"
    col.export_anki_package(
        out_path=str(package),
        options=anki_collection.ExportAnkiPackageOptions(legacy=False),
        limit=None,
    )
    col.close()
    result = apkg.read_apkg(package, "renamed.apkg")
    assert [(d.question["prompt"], d.question["back"]) for d in result.drafts] == [
        ("Kopf", "head"),
        ("head", "Kopf"),
    ]
    # Its third card (a template of the user's own) makes no question, and the report says so.
    assert [n.format("note") for n in result.notes] == [
        f"renamed.apkg: note {nid}: note: the note's other cards ('Schreiben') are left out: "
        "quizapp makes one flashcard of a note, and a second of its reverse"
    ]


def test_cloze_markup_in_a_plain_text_export_is_never_a_flashcard() -> None:
    text = "#separator:tab\n#html:false\nWhat normalises rows?\tsoftmax\n{{c2::Softmax}} normalises rows\t\n"
    result = parse_anki_text(text, "notes.txt")
    assert [d.question["prompt"] for d in result.drafts] == ["What normalises rows?"]
    assert [s.format() for s in result.skipped] == [
        "notes.txt:4: skipped: a cloze note (its text holds {{c1::...}} deletions): "
        "quizapp has no cloze type"
    ]


# -- hostile packages ----------------------------------------------------------------------


def package_with(path: Path, collection: bytes) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("collection.anki2", b"the stub that says please update")
        archive.writestr("collection.anki21b", collection)
    return path


def test_a_zstd_frame_declaring_too_much_is_refused_before_unpacking(tmp_path: Path) -> None:
    # A frame header (single segment, 8-byte content size) declaring a terabyte, then junk.
    header = b"\x28\xb5\x2f\xfd" + b"\xe0" + (1 << 40).to_bytes(8, "little")
    package = package_with(tmp_path / "bomb.apkg", header + b"\x00" * 64)
    started = time.monotonic()
    with pytest.raises(
        ImportInputError, match=r"1,099,511,627,776 bytes unpacked; quizapp reads at most"
    ):
        apkg.read_apkg(package, "bomb.apkg")
    assert time.monotonic() - started < 5


def test_a_zstd_stream_that_expands_past_the_bound_is_stopped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A frame that does not declare its size is cut off at the bound, not unpacked in full
    (the bound is lowered here so that the test is quick; the real one is 256 MiB)."""
    monkeypatch.setattr(apkg, "MAX_COLLECTION_BYTES", 1024 * 1024)
    compressor = zstandard.ZstdCompressor(write_content_size=False).compressobj()
    bomb = b"".join(compressor.compress(b"\x00" * (1 << 20)) for _ in range(64))
    bomb += compressor.flush()
    assert len(bomb) < 64 * 1024  # 64 MiB of zeros in a few KiB
    package = package_with(tmp_path / "bomb.apkg", bomb)
    with pytest.raises(ImportInputError, match=r"more than 1,048,576 bytes unpacked"):
        apkg.read_apkg(package, "bomb.apkg")


def test_a_collection_that_is_not_zstd_is_refused_in_one_line(tmp_path: Path) -> None:
    package = package_with(tmp_path / "junk.apkg", b"SQLite format 3\x00 not compressed")
    with pytest.raises(ImportInputError, match=r"collection\.anki21b is not zstd data"):
        apkg.read_apkg(package, "junk.apkg")


# -- the export keeps the explanation's structure ------------------------------------------

STRUCTURED = """\
format: 1
deck:
  id: structured
  title: Structured
  topic: structured
  domain: Testing
  exam_weight: 0.5
questions:
  - id: st-table
    type: flashcard
    difficulty: easy
    tags: [structured]
    prompt: "Which scheme rotates `Q` and `K`?"
    back: "**RoPE**"
    explanation: |
      | scheme | where |
      | --- | --- |
      | **Sinusoidal** | added to embeddings |
      | RoPE | inside attention, on `QKᵀ` |

      ```python
      scores = q @ k.T / d_k ** 0.5  # <not a tag>
      ```

      - outer *one*
        - inner `two`
          1. innermost
      - outer three

      <script>alert(1)</script> <b onclick="x()">bold?</b> ![tracker](https://example.org/t.png)
"""


def test_the_anki_export_keeps_tables_code_and_nested_lists(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    source = tmp_path / "structured.yaml"
    source.write_text(STRUCTURED, encoding="utf-8")
    deck, diagnostics = load_file(source)
    assert deck is not None, diagnostics
    package = tmp_path / "structured.apkg"
    write_anki([deck], package, evaluate=False)
    col = anki_collection.Collection(str(tmp_path / "student.anki2"))
    col.import_anki_package(
        anki_collection.ImportAnkiPackageRequest(
            package_path=str(package), options=anki_collection.ImportAnkiPackageOptions()
        )
    )
    [nid] = col.find_notes("")
    back = col.get_note(nid)["Back"]
    col.close()
    explanation = back.split("<hr>", 1)[1]
    assert (
        "<table><thead><tr><th>scheme</th><th>where</th></tr></thead><tbody>"
        "<tr><td><strong>Sinusoidal</strong></td><td>added to embeddings</td></tr>"
        "<tr><td>RoPE</td><td>inside attention, on <code>QKᵀ</code></td></tr></tbody></table>"
    ) in explanation
    assert (
        '<pre><code class="language-python">scores = q @ k.T / d_k ** 0.5  # &lt;not a tag&gt;\n'
        "</code></pre>"
    ) in explanation
    assert (
        "<ul><li>outer <em>one</em><ul><li>inner <code>two</code><ol><li>innermost</li></ol>"
        "</li></ul></li><li>outer three</li></ul>"
    ) in explanation
    # Bank text is untrusted: no tag of its own reaches the card, and nothing is fetched.
    assert "<script" not in back and "<b " not in back and "<img" not in back
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in explanation
    assert html.escape("![tracker](https://example.org/t.png)", quote=True) in explanation
