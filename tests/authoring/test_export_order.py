"""Exports shuffle each question's options by its id (and --seed): the key not where the file
wrote it, the same file on every run, the file's order only with the authoring aid
--no-shuffle; steps stay in key order in CSV and JSON and are never in it on an Anki front."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest

from quizapp.authoring.csv_import.cells import split_items
from quizapp.bank import ChoiceQuestion, OrderingQuestion, bundled_bank_path, load_bank
from tests.authoring.helpers import cli
from tests.authoring.test_export import EVERY_TYPE, fixture_deck, read_apkg


def export(capsys: pytest.CaptureFixture[str], fmt: str, *extra: str) -> str:
    code, stdout, stderr = cli(capsys, "export", "--format", fmt, *extra)
    assert code == 0, stderr
    return stdout


def json_options(text: str) -> dict[str, list[str]]:
    """Each choice question's option texts, in the export's order."""
    questions = json.loads(text)["questions"]
    return {q["id"]: [c["text"] for c in q["choices"]] for q in questions if "choices" in q}


def csv_rows(text: str) -> dict[str, dict[str, str]]:
    return {row["id"]: row for row in csv.DictReader(io.StringIO(text.lstrip("\ufeff")))}


def test_a_json_export_shuffles_the_options_and_is_the_same_twice(
    capsys: pytest.CaptureFixture[str],
) -> None:
    bank = load_bank([bundled_bank_path()])
    first = export(capsys, "json")
    assert export(capsys, "json") == first  # stable: Anki's --previous and diffs rely on it
    options = json_options(first)
    written = {
        q.id: [c.text for c in q.choices]
        for q in bank.questions.values()
        if isinstance(q, ChoiceQuestion)
    }
    assert sorted(options) == sorted(written)
    moved = [qid for qid in written if options[qid] != written[qid]]
    assert len(moved) > len(written) / 2, "most options must leave the file's order"
    for qid, texts in options.items():
        assert sorted(texts) == sorted(written[qid])  # the same options, reordered
    assert json_options(export(capsys, "json", "--seed", "3")) != options
    assert json_options(export(capsys, "json", "--no-shuffle")) == written


def test_the_bundled_keys_sit_in_every_position_in_a_shuffled_export(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Read in file order, an export must not be a position cue whatever the bank's keys do."""
    questions = json.loads(export(capsys, "json"))["questions"]
    singles = [q for q in questions if q["type"] == "single_choice"]
    positions = [next(i for i, c in enumerate(q["choices"]) if c["correct"]) for q in singles]
    chance = sum(1 / len(q["choices"]) for q in singles) / len(singles)
    first = positions.count(0) / len(positions)
    assert len(set(positions)) >= 3
    assert first < chance + 0.2  # chance is about a quarter; the bank as written has them all 1st


def test_a_csv_export_shuffles_options_with_their_correct_and_whys(
    capsys: pytest.CaptureFixture[str],
) -> None:
    deck = fixture_deck()
    rows = csv_rows(export(capsys, "csv", str(EVERY_TYPE), "--seed", "5"))
    assert csv_rows(export(capsys, "csv", str(EVERY_TYPE), "--seed", "5")) == rows
    for question in deck.questions:
        row = rows[question.id]
        if isinstance(question, ChoiceQuestion):
            texts = split_items(row["choices"])
            whys = split_items(row["whys"]) if row["whys"] else [""] * len(texts)
            correct = {int(n) for n in row["correct"].split(";")}
            by_text = {c.text: c for c in question.choices}
            assert sorted(texts) == sorted(by_text)
            for n, (text, why) in enumerate(zip(texts, whys, strict=True), 1):
                assert (n in correct) == by_text[text].correct
                assert why == (by_text[text].why or "")
        if isinstance(question, OrderingQuestion):  # the order IS the key here
            assert split_items(row["steps"]) == [s.text for s in question.steps]
    unshuffled = csv_rows(export(capsys, "csv", str(EVERY_TYPE), "--no-shuffle"))
    for question in deck.questions:
        if isinstance(question, ChoiceQuestion):
            written = [c.text for c in question.choices]
            assert split_items(unshuffled[question.id]["choices"]) == written


def test_anki_fronts_follow_the_seed_and_no_shuffle_but_never_solve_the_steps(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    def fronts(name: str, *extra: str) -> dict[str, str]:
        out = tmp_path / name
        export(capsys, "anki", str(EVERY_TYPE), "--out", str(out), "--no-eval", *extra)
        notes, _ = read_apkg(out, tmp_path)
        return {fields.split("\x1f")[2]: fields.split("\x1f")[0] for _, _, fields in notes}

    def items(front: str) -> list[str]:
        return re.findall(r"<li>(.*?)</li>", front)

    deck = fixture_deck()
    multiple = next(q for q in deck.questions if q.id == "et-multiple")
    ordering = next(q for q in deck.questions if isinstance(q, OrderingQuestion))
    written = [c.text for c in multiple.choices]
    seeded = [items(fronts(f"s{seed}.apkg", "--seed", str(seed))[multiple.id]) for seed in range(6)]
    assert any(shown != written for shown in seeded)
    assert len({tuple(shown) for shown in seeded}) > 1  # the seed changes the order
    plain = fronts("plain.apkg", "--no-shuffle")
    assert items(plain[multiple.id]) == written
    steps = [s.text for s in ordering.steps]
    for front in (plain[ordering.id], fronts("default.apkg")[ordering.id]):
        assert sorted(items(front)) == sorted(steps) and items(front) != steps
