"""A parameterized question (`vary:`) in the exports: Anki writes every variant as its own
note (up to a cap, naming the rest on stderr); GIFT and Moodle XML write one variant and name
the ones they leave out, in the same words."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from quizapp.authoring.anki_cards import MAX_NOTES_PER_QUESTION
from quizapp.authoring.anki_package import anki_guid
from tests.authoring.helpers import cli, query_apkg

DECK = """\
format: 1
deck:
  id: varied
  title: Varied
  topic: varied
  domain: Testing
  exam_weight: 0.5
questions:
  - id: small-varied
    type: true_false
    difficulty: easy
    tags: [t]
    prompt: "Is {width} wider than {height}?"
    vary:
      width: [3, 5]
    answer: true
    explanation: "Compare {width} with 2."
  - id: wide-varied
    type: true_false
    difficulty: easy
    tags: [t]
    prompt: "Is {a} + {b} positive?"
    vary:
      a: [A_VALUES]
      b: [1, 2, 3, 4, 5]
    answer: true
    explanation: "Both are positive."
"""


def write_bank(folder: Path, a_values: int) -> Path:
    path = folder / "varied.yaml"
    text = DECK.replace("{height}", "2").replace(
        "A_VALUES", ", ".join(str(n) for n in range(1, a_values + 1))
    )
    path.write_text(text, encoding="utf-8")
    return path


def anki_notes(out: Path, scratch: Path) -> dict[str, str]:
    """QuizappId: guid of every note in the package."""
    [rows] = query_apkg(out, scratch, "SELECT guid, flds FROM notes")
    return {fields.split("\x1f")[2]: guid for guid, fields in rows}


def test_anki_writes_one_note_per_variant_with_distinct_stable_ids(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bank = write_bank(tmp_path, a_values=2)
    first, second = tmp_path / "a.apkg", tmp_path / "b.apkg"
    for out in (first, second):
        code, _, stderr = cli(capsys, "export", "--format", "anki", str(bank), "--out", str(out))
        assert code == 0, stderr
        assert "left out" not in stderr
    notes = anki_notes(first, tmp_path)
    assert set(notes) == {
        "small-varied@width=3",
        "small-varied@width=5",
        *(f"wide-varied@a={a},b={b}" for a in (1, 2) for b in range(1, 6)),
    }
    assert all(guid == anki_guid(note_id) for note_id, guid in notes.items())
    assert len(set(notes.values())) == len(notes)  # distinct
    assert anki_notes(second, tmp_path) == notes  # stable: a re-export updates, not duplicates


def test_anki_names_the_variants_past_its_cap_on_stderr(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    a_values = 13  # 13 x 5 = 65 variants, one more than the cap
    assert a_values * 5 == MAX_NOTES_PER_QUESTION + 1
    bank, out = write_bank(tmp_path, a_values), tmp_path / "d.apkg"
    code, _, stderr = cli(capsys, "export", "--format", "anki", str(bank), "--out", str(out))
    assert code == 0, stderr
    wide = [n for n in anki_notes(out, tmp_path) if n.startswith("wide-varied@")]
    assert len(wide) == MAX_NOTES_PER_QUESTION
    assert "wide-varied@a=13,b=5" not in wide
    expected = (
        "quizapp export: note: wide-varied: a parameterized question: 64 of 65 variants "
        "written; left out: a=13, b=5"
    )
    assert expected in stderr
    assert "small-varied" not in stderr  # every variant of it was written


@pytest.mark.parametrize("format_name", ["gift", "moodle-xml"])
def test_gift_and_moodle_write_one_variant_and_name_those_left_out(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, format_name: str
) -> None:
    bank = write_bank(tmp_path, a_values=2)
    out = tmp_path / f"out.{format_name}"
    code, _, stderr = cli(capsys, "export", "--format", format_name, str(bank), "--out", str(out))
    assert code == 0, stderr
    [small] = [line for line in stderr.splitlines() if "small-varied" in line]
    written = re.search(r"1 of 2 variants written \(width=(\d)\); left out: width=(\d)$", small)
    assert written is not None, small
    assert {written[1], written[2]} == {"3", "5"}
    [wide] = [line for line in stderr.splitlines() if "wide-varied" in line]
    assert "1 of 10 variants written (a=" in wide and wide.endswith("; and 4 more")
