"""`quizapp export --format anki`: the back numbers options as the front does, re-imports update
only what changed, deck names survive a retitle, new cards keep the bank's order.

Checked by reading the package's SQLite, and with the real Anki library when it is installed
(a test-only dependency; those tests skip without it)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from quizapp.authoring.anki_cards import (
    anki_variants,
    card_back,
    card_front,
    numbered_choices,
    variant_id,
)
from quizapp.authoring.anki_package import (
    ANKI_MODEL_DIGEST,
    ANKI_MODEL_ID,
    ANKI_MODEL_MTIME,
    CARD_FORMAT_MTIME,
    anki_deck_id,
    model_digest,
)
from quizapp.bank import ChoiceQuestion, bundled_bank_path, load_bank
from tests.authoring.helpers import cli, query_apkg

DATA = Path(__file__).parent / "data"
EVERY_TYPE = DATA / "every_type.yaml"
# A time after CARD_FORMAT_MTIME (and before now, as a bank file's time is), to date the
# fixture copies' files by.
LATER = CARD_FORMAT_MTIME + 600


@dataclass(frozen=True)
class Package:
    notes: dict[str, tuple[int, str, str]]  # question id: (mod, flds, tags)
    dues: list[tuple[int, str]]  # (new-card position, question id), in that order
    decks: dict[str, dict]
    model_mod: int


def read_package(path: Path, scratch: Path) -> Package:
    rows, cards, [(decks_json, models_json)] = query_apkg(
        path,
        scratch,
        "SELECT id, mod, flds, tags FROM notes",
        "SELECT nid, due FROM cards ORDER BY due",
        "SELECT decks, models FROM col",
    )
    by_note = {nid: flds.split("\x1f")[2] for nid, _, flds, _ in rows}
    return Package(
        notes={flds.split("\x1f")[2]: (mod, flds, tags) for _, mod, flds, tags in rows},
        dues=[(due, by_note[nid]) for nid, due in cards],
        decks=json.loads(decks_json),
        model_mod=json.loads(models_json)[str(ANKI_MODEL_ID)]["mod"],
    )


def note_ids(folder: Path) -> list[str]:
    """The notes an export of `folder` writes, in bank order: one per question, and one per
    variant of a varied question (the fixture has one)."""
    bank = load_bank([folder])
    return [
        variant_id(v) for deck in bank.decks for q in deck.questions for v in anki_variants(q)[0]
    ]


@pytest.fixture
def bank_copy(tmp_path: Path) -> Path:
    """A copy of the every-type fixture, its file dated LATER."""
    folder = tmp_path / "bank"
    folder.mkdir()
    path = folder / "every_type.yaml"
    shutil.copy(EVERY_TYPE, path)
    os.utime(path, (LATER, LATER))
    return path


def export(capsys: pytest.CaptureFixture[str], source: Path, out: Path, *extra: str) -> str:
    code, _, stderr = cli(
        capsys, "export", "--format", "anki", str(source), "--out", str(out), "--no-eval", *extra
    )
    assert code == 0, stderr
    return stderr


def edit(path: Path, old: str, new: str, when: int) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    os.utime(path, (when, when))


# -- the card -------------------------------------------------------------------------------


def test_the_back_numbers_the_correct_options_as_the_front_does() -> None:
    bank = load_bank([bundled_bank_path()])
    choice_questions = [q for q in bank.questions.values() if isinstance(q, ChoiceQuestion)]
    assert choice_questions
    for question in choice_questions:
        front_items = re.findall(r"<li>(.*?)</li>", card_front(question))
        back = card_back(question)
        numbered = numbered_choices(question)
        assert len(front_items) == len(numbered)
        for number, choice in numbered:
            assert choice.text[:15] in front_items[number - 1]  # option N is Nth on the front
            if choice.correct:
                assert f'<li value="{number}"><span class="correct">' in back, question.id
    # The example: the right answer is option 3 on the front, and "3." on the back.
    question = bank.questions["mha-purpose-subspaces"]
    assert isinstance(question, ChoiceQuestion)
    [(number, _)] = [(n, c) for n, c in numbered_choices(question) if c.correct]
    assert number != 1  # shuffled off the first place, so "1." would have been wrong
    assert re.search(rf'<li value="{number}"><span class="correct">', card_back(question))


# -- modification times -----------------------------------------------------------------------


def test_exporting_the_same_bank_twice_gives_the_same_bytes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, bank_copy: Path
) -> None:
    first, second = tmp_path / "a.apkg", tmp_path / "b.apkg"
    export(capsys, bank_copy, first)
    export(capsys, bank_copy, second)
    assert first.read_bytes() == second.read_bytes()
    package = read_package(first, tmp_path)
    assert {mod for mod, _, _ in package.notes.values()} == {LATER}  # the file's time
    assert package.model_mod == ANKI_MODEL_MTIME


def test_notes_are_never_dated_before_the_card_layout(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, bank_copy: Path
) -> None:
    os.utime(bank_copy, (CARD_FORMAT_MTIME - 10**6, CARD_FORMAT_MTIME - 10**6))
    out = tmp_path / "a.apkg"
    export(capsys, bank_copy, out)
    assert {mod for mod, _, _ in read_package(out, tmp_path).notes.values()} == {CARD_FORMAT_MTIME}


def test_against_the_previous_package_only_the_changed_note_is_newer(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, bank_copy: Path
) -> None:
    v1, v2 = tmp_path / "v1.apkg", tmp_path / "v2.apkg"
    export(capsys, bank_copy, v1)
    edit(bank_copy, "prompt: Front?", "prompt: Front, edited?", LATER + 100)
    stderr = export(capsys, bank_copy, v2, "--previous", str(v1))
    unchanged = len(note_ids(bank_copy)) - 1
    assert unchanged > 7  # the fixture's varied question is a note per variant
    assert f"1 changed, 0 new, {unchanged} unchanged" in stderr
    before, after = read_package(v1, tmp_path), read_package(v2, tmp_path)
    changed = {qid for qid in after.notes if after.notes[qid] != before.notes[qid]}
    assert changed == {"et-flashcard"}
    assert after.notes["et-flashcard"][0] == LATER + 100 > before.notes["et-flashcard"][0]
    for qid in after.notes.keys() - changed:
        assert after.notes[qid] == before.notes[qid]  # same time, same fields: Anki skips it


def test_a_change_is_newer_even_when_the_file_time_is_not(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, bank_copy: Path
) -> None:
    v1, v2 = tmp_path / "v1.apkg", tmp_path / "v2.apkg"
    export(capsys, bank_copy, v1)
    edit(bank_copy, "prompt: Front?", "prompt: Front, edited?", LATER - 500)  # a restored file
    export(capsys, bank_copy, v2, "--previous", str(v1))
    assert read_package(v2, tmp_path).notes["et-flashcard"][0] == LATER + 1


def test_force_over_the_last_export_compares_with_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, bank_copy: Path
) -> None:
    out = tmp_path / "deck.apkg"
    export(capsys, bank_copy, out)
    before = read_package(out, tmp_path)
    edit(bank_copy, "prompt: Front?", "prompt: Front, edited?", LATER + 100)
    edit(bank_copy, "title: Every type", "title: Every single type", LATER + 200)
    stderr = export(capsys, bank_copy, out, "--force")
    unchanged = len(note_ids(bank_copy)) - 1
    assert f"against {out}: 1 changed, 0 new, {unchanged} unchanged" in stderr
    after = read_package(out, tmp_path)
    assert [q for q in after.notes if after.notes[q][0] != before.notes[q][0]] == ["et-flashcard"]


@pytest.mark.parametrize(
    ("content", "message"),
    [(b"not a zip", "not a readable Anki package"), (None, "no collection.anki2")],
)
def test_an_unreadable_previous_package_is_a_usage_error(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    bank_copy: Path,
    content: bytes | None,
    message: str,
) -> None:
    previous = tmp_path / "old.apkg"
    if content is None:
        with zipfile.ZipFile(previous, "w") as archive:
            archive.writestr("something.txt", "x")
    else:
        previous.write_bytes(content)
    out = tmp_path / "new.apkg"
    code, _, stderr = cli(
        capsys, "export", "--format", "anki", str(bank_copy), "--out", str(out), "--no-eval",
        "--previous", str(previous),
    )  # fmt: skip
    assert code == 2 and message in stderr and stderr.count("\n") == 1
    assert not out.exists()
    code, _, stderr = cli(
        capsys, "export", "--format", "anki", str(bank_copy), "--out", str(out),
        "--previous", str(tmp_path / "missing.apkg"),
    )  # fmt: skip
    assert code == 2 and "no such file" in stderr


def test_previous_is_for_anki_only(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, stderr = cli(capsys, "export", "--format", "csv", "--previous", "x.apkg")
    assert code == 2 and "--previous applies to --format anki only" in stderr


# -- decks, positions, note type --------------------------------------------------------------


def test_the_deck_is_named_by_its_id_so_a_retitle_keeps_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, bank_copy: Path
) -> None:
    first, second = tmp_path / "a.apkg", tmp_path / "b.apkg"
    export(capsys, bank_copy, first)
    edit(bank_copy, "title: Every type", "title: All the types", LATER + 100)
    export(capsys, bank_copy, second)
    deck_key = str(anki_deck_id("every-type"))
    before, after = read_package(first, tmp_path), read_package(second, tmp_path)
    assert before.decks[deck_key]["name"] == after.decks[deck_key]["name"] == "quizapp::every-type"
    assert "Every type" in before.decks[deck_key]["desc"]
    assert "All the types" in after.decks[deck_key]["desc"]


def test_new_cards_are_positioned_in_bank_order(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, bank_copy: Path
) -> None:
    second = bank_copy.parent / "second.yaml"
    second.write_text(
        bank_copy.read_text(encoding="utf-8")
        .replace("id: every-type", "id: second-deck")
        .replace("  - id: et-", "  - id: second-"),
        encoding="utf-8",
    )
    out = tmp_path / "bank.apkg"
    export(capsys, bank_copy.parent, out)
    bank = load_bank([bank_copy.parent])
    questions = [q.id for deck in bank.decks for q in deck.questions]
    assert len(questions) == 16 and questions[8].startswith("second-")  # one deck, then the other
    order = note_ids(bank_copy.parent)  # a varied question's variants, one after another
    assert len(order) > 16 and order.index(next(o for o in order if "@" in o)) < 8
    assert read_package(out, tmp_path).dues == list(enumerate(order, start=1))


def test_the_note_type_digest_is_recorded_with_its_time() -> None:
    assert model_digest() == ANKI_MODEL_DIGEST, (
        "the Anki note type changed: set ANKI_MODEL_MTIME to now and ANKI_MODEL_DIGEST to "
        f"{model_digest()!r}, so that Anki replaces the students' copy"
    )


# -- with the real Anki library ---------------------------------------------------------------


@contextlib.contextmanager
def opened(collection: Path) -> Iterator[Any]:
    from anki.collection import Collection

    col = Collection(str(collection))
    try:
        yield col
    finally:
        col.close()


def anki_import(collection: Path, package: Path) -> dict[str, int]:
    from anki.collection import ImportAnkiPackageOptions, ImportAnkiPackageRequest

    with opened(collection) as col:
        request = ImportAnkiPackageRequest(
            package_path=str(package), options=ImportAnkiPackageOptions(with_scheduling=True)
        )
        log = col.import_anki_package(request).log
    return {
        "new": len(log.new),
        "updated": len(log.updated),
        "skipped": len(log.duplicate),
        "conflicting": len(log.conflicting),
    }


@pytest.fixture
def student(capsys: pytest.CaptureFixture[str], tmp_path: Path, bank_copy: Path) -> Path:
    """A fresh Anki collection into which the fixture's first export was imported."""
    pytest.importorskip("anki.collection")
    collection, first = tmp_path / "student.anki2", tmp_path / "first.apkg"
    export(capsys, bank_copy, first)
    assert anki_import(collection, first) == {
        "new": len(note_ids(bank_copy)),
        "updated": 0,
        "skipped": 0,
        "conflicting": 0,
    }
    return collection


def test_real_anki_updates_only_the_changed_note_and_keeps_a_students_edit(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, bank_copy: Path, student: Path
) -> None:
    again = tmp_path / "again.apkg"
    export(capsys, bank_copy, again)  # a plain re-export: no --previous, nothing changed
    assert anki_import(student, again)["updated"] == 0

    # The student edits one note; the teacher edits another question.
    with opened(student) as col:
        [nid] = col.find_notes('"QuizappId:et-single"')
        note = col.get_note(nid)
        note["Back"] = note["Back"] + "<p>my own mnemonic</p>"
        col.update_note(note)
    edit(bank_copy, "prompt: Front?", "prompt: Front, edited?", LATER + 100)
    export(capsys, bank_copy, again, "--force")  # compared with the last export, which it replaces
    skipped = len(note_ids(bank_copy)) - 1
    assert anki_import(student, again) == {
        "new": 0,
        "updated": 1,
        "skipped": skipped,
        "conflicting": 0,
    }

    with opened(student) as col:
        notes = {col.get_note(n)["QuizappId"]: col.get_note(n) for n in col.find_notes("")}
        assert "Front, edited?" in notes["et-flashcard"]["Front"]
        assert "my own mnemonic" in notes["et-single"]["Back"]
        cards = [col.get_card(c) for c in col.find_cards("")]
        dues = sorted((card.due, col.get_note(card.nid)["QuizappId"]) for card in cards)
    assert dues == list(enumerate(note_ids(bank_copy), start=1))


def test_real_anki_keeps_the_cards_in_their_deck_after_a_retitle(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, bank_copy: Path, student: Path
) -> None:
    retitled = tmp_path / "retitled.apkg"
    edit(bank_copy, "title: Every type", "title: All the types", LATER + 100)
    export(capsys, bank_copy, retitled)
    anki_import(student, retitled)
    with opened(student) as col:
        decks = {d.name: d.id for d in col.decks.all_names_and_ids()}
        assert sorted(name for name in decks if name.startswith("quizapp")) == [
            "quizapp",
            "quizapp::every-type",
        ]
        assert len(col.find_cards('"deck:quizapp::every-type"')) == len(note_ids(bank_copy))
        assert "All the types" in col.decks.get(decks["quizapp::every-type"])["desc"]
