"""A CSV carries its deck's settings (the `deck_*` columns): export then import gives back
the whole deck; a sheet without them says which defaults it got; a bad or conflicting
setting is a located error that writes nothing."""

from __future__ import annotations

import csv
import dataclasses
import io
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from quizapp.authoring.csv_import import (
    COLUMNS,
    DECK_COLUMNS,
    DeckInfo,
    DeckSettingError,
    import_csv,
)
from quizapp.authoring.export import export_csv
from quizapp.bank import Deck, bundled_bank_path, load_bank, load_file
from quizapp.bank.display_order import ExportOrder
from quizapp.bank.text_checks import normal_text
from tests.authoring.helpers import cli, comparable

DATA = Path(__file__).parent / "data"
EVERY_TYPE = DATA / "every_type.yaml"
SHEET_HEADER = "id,type,prompt,explanation,difficulty,tags,back"

# A deck whose every setting differs from the defaults, with texts a spreadsheet would run as
# formulas (= + - @), a multi-line description ending in a line break, and a `vary:` question.
GUARDED_DECK = """\
format: 1
deck:
  id: guarded-deck
  title: "=SUM(A1:A9) and friends"
  topic: guarded-topic
  domain: "+ Maths, with a comma"
  exam_weight: 0.25
  description: |
    - a list item, which starts with a minus
    @mentions and "quotes"
questions:
  - id: gd-varied
    type: numeric
    difficulty: medium
    tags: [varied]
    prompt: "How wide is each head at d_model = {d_model} with {n_heads} heads?"
    vary:
      d_model: [256, 512, 1024]
      n_heads: [4, 8]
    answer:
      from: head_dim
      tolerance: 0
    explanation: "`{d_model} / {n_heads}`."
    compute:
      name: head_split
      args: {d_model: "{d_model}", n_heads: "{n_heads}"}
  - id: gd-card
    type: flashcard
    topic: other-topic
    difficulty: easy
    tags: [t]
    prompt: Front
    back: Back
    explanation: Why
"""


def deck_settings(deck: Deck) -> tuple[object, ...]:
    return (deck.id, deck.title, deck.topic, deck.domain, deck.exam_weight, deck.description)


def deck_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("quizapp import: deck ")]


def export_then_import(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, bank_file: Path
) -> tuple[Deck, Path, str]:
    """`quizapp export --format csv` then `quizapp import` with no deck option: the deck
    read back, the CSV and the import's stderr."""
    exported = tmp_path / f"{bank_file.stem}-export.csv"
    code, _, stderr = cli(
        capsys, "export", "--format", "csv", "--no-shuffle", str(bank_file), "--out", str(exported)
    )
    assert code == 0, stderr
    out = tmp_path / "imported.yaml"
    code, _, stderr = cli(capsys, "import", str(exported), "--no-default-bank", "--out", str(out))
    assert code == 0, stderr
    again, diagnostics = load_file(out)
    assert again is not None, diagnostics
    assert [d for d in diagnostics if d.severity == "error"] == []
    return again, exported, stderr


# -- round trips ----------------------------------------------------------------------------


@pytest.mark.parametrize("source", ["every_type", "guarded"])
def test_export_then_import_keeps_the_deck_settings_and_every_variant(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, source: str
) -> None:
    bank_file = EVERY_TYPE
    if source == "guarded":
        bank_file = tmp_path / "guarded.yaml"
        bank_file.write_text(GUARDED_DECK, encoding="utf-8")
    deck, diagnostics = load_file(bank_file)
    assert deck is not None and deck.description, diagnostics
    varied = [q for q in deck.questions if q.vary]
    assert varied and all(len(values) > 1 for q in varied for values in q.vary.values())

    again, exported, stderr = export_then_import(capsys, tmp_path, bank_file)

    assert deck_settings(again) == deck_settings(deck)
    assert [comparable(q) for q in again.questions] == [comparable(q) for q in deck.questions]
    assert {q.id: q.vary for q in again.questions if q.vary} == {q.id: q.vary for q in varied}
    assert deck_lines(stderr) == []  # nothing left to a default: the CSV gave every setting
    if source == "guarded":
        # Every row carries the settings, formula triggers guarded as the other cells are.
        rows = list(csv.DictReader(io.StringIO(exported.read_text(encoding="utf-8-sig"))))
        assert {row["deck_title"] for row in rows} == {"'=SUM(A1:A9) and friends"}
        assert {row["deck_domain"] for row in rows} == {"'+ Maths, with a comma"}
        assert {row["deck_description"][:3] for row in rows} == {"'- "}
        assert {row["deck_exam_weight"] for row in rows} == {"0.25"}


def test_each_bundled_deck_exports_and_imports_back_whole(tmp_path: Path) -> None:
    bank = load_bank([bundled_bank_path()])
    assert bank.decks and not bank.errors
    for deck in bank.decks:
        text = export_csv(deck.questions, ExportOrder(shuffle=False), bank.decks)
        result = import_csv(text, deck=DeckInfo("default", "Default", "default"))
        assert result.problems == [] and result.text is not None and result.defaulted == []
        path = tmp_path / f"{deck.id}.yaml"
        path.write_text(result.text, encoding="utf-8")
        again, _ = load_file(path)
        assert again is not None
        assert deck_settings(again) == deck_settings(deck)
        assert [comparable(q) for q in again.questions] == [comparable(q) for q in deck.questions]


TEXT = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\ufeff"),
    min_size=1,
    max_size=40,
).filter(lambda s: s.strip() != "")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(title=TEXT, domain=TEXT, description=TEXT)
@example(title="'=1+2", domain=" - spaced ", description="@x\n\n- y\n")
def test_any_deck_text_round_trips(
    tmp_path_factory: pytest.TempPathFactory, title: str, domain: str, description: str
) -> None:
    folder = tmp_path_factory.mktemp("deck")
    source = folder / "source.yaml"
    source.write_text(
        "format: 1\ndeck: {id: d, title: T, topic: d, domain: D, exam_weight: 1}\nquestions:\n"
        "  - {id: q, type: flashcard, prompt: P, back: B, explanation: E, difficulty: easy, "
        "tags: [t]}\n",
        encoding="utf-8",
    )
    deck, _ = load_file(source)
    assert deck is not None
    deck = dataclasses.replace(deck, title=title, domain=domain, description=description)
    result = import_csv(export_csv(deck.questions, decks=[deck]), deck=DeckInfo("x", "X", "x"))
    assert result.deck is not None
    written = (result.deck.title, result.deck.domain, result.deck.description)
    assert written == (normal_text(title), normal_text(domain), normal_text(description))
    path = folder / "again.yaml"
    path.write_text(result.text or "", encoding="utf-8")
    again, diagnostics = load_file(path)
    assert again is not None, diagnostics
    assert (again.title, again.domain, again.description) == written


# -- a sheet without deck settings ----------------------------------------------------------


def test_an_old_layout_sheet_imports_and_names_every_default(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "My deck.csv"
    path.write_text(f"{SHEET_HEADER},Description\nq1,flashcard,P,E,easy,t,B,mine\n")
    out = tmp_path / "out.yaml"
    code, _, stderr = cli(capsys, "import", str(path), "--no-default-bank", "--out", str(out))
    assert code == 0, stderr
    assert deck_lines(stderr) == [
        "quizapp import: deck id: 'my-deck' (from the file name; the CSV gives none: set it "
        "with --deck-id or a deck_id column)",
        "quizapp import: deck title: 'My deck' (from the file name; the CSV gives none: set it "
        "with --title or a deck_title column)",
        "quizapp import: deck topic: 'my-deck' (the deck id; the CSV gives none: set it with "
        "--topic or a deck_topic column)",
        "quizapp import: deck domain: 'General' (the default; the CSV gives none: set it with "
        "--domain or a deck_domain column)",
        "quizapp import: deck exam weight: 0.1 (the default; the CSV gives none: set it with "
        "--weight or a deck_exam_weight column)",
        "quizapp import: deck description: none (the CSV gives none: set it in a "
        "deck_description column)",
    ]
    # A sheet's own "Description" column is still its own, ignored with the usual warning.
    assert "ignoring a column quizapp does not use: 'Description'" in stderr
    deck, _ = load_file(out)
    assert deck is not None
    assert deck_settings(deck) == ("my-deck", "My deck", "my-deck", "General", 0.1, None)


def test_only_what_neither_an_option_nor_a_column_gives_is_named(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "part.csv"
    path.write_text(
        f"{SHEET_HEADER},Deck Title,deck-domain\nq1,flashcard,P,E,easy,t,B,Intro,\n"
        "q2,flashcard,P,E,easy,t,B,,Basics\n"
    )
    out = tmp_path / "out.yaml"
    code, _, stderr = cli(
        capsys, "import", str(path), "--no-default-bank", "--weight", "0.5", "--out", str(out)
    )
    assert code == 0, stderr
    named = [line.split(":")[1].strip() for line in deck_lines(stderr)]
    assert named == ["deck id", "deck topic", "deck description"]
    deck, _ = load_file(out)
    assert deck is not None
    assert deck_settings(deck) == ("part", "Intro", "part", "Basics", 0.5, None)


def test_the_default_topic_is_the_deck_id_the_csv_gives(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "file-name.csv"
    path.write_text(f"{SHEET_HEADER},deck_id\nq1,flashcard,P,E,easy,t,B,sheet-deck\n")
    code, stdout, stderr = cli(capsys, "import", str(path), "--no-default-bank")
    assert code == 0, stderr
    assert "  id: sheet-deck\n  title: File name\n  topic: sheet-deck\n" in stdout
    assert "quizapp import: deck topic: 'sheet-deck' (the deck id;" in stderr


def test_the_weight_is_read_as_a_spreadsheet_shows_it() -> None:
    """A decimal comma (semicolon-separated, as Excel writes in such a locale) and a decimal
    point are the same weight, not a conflict."""
    text = (
        "id;type;prompt;explanation;difficulty;tags;back;deck_exam_weight\n"
        "q1;flashcard;P;E;easy;t;B;0,25\nq2;flashcard;P;E;easy;t;B;0.25\n"
    )
    result = import_csv(text, deck=DeckInfo("d", "D", "d"))
    assert result.deck is not None and result.deck.exam_weight == 0.25
    assert "exam_weight: 0.25\n" in (result.text or "")


def test_an_option_replaces_the_column_on_every_row(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """--title wins over deck_title, whose cells are then not read (so they may disagree)."""
    path = tmp_path / "d.csv"
    path.write_text(
        f"{SHEET_HEADER},deck_title,deck_id\nq1,flashcard,P,E,easy,t,B,One,sheet-deck\n"
        "q2,flashcard,P,E,easy,t,B,Two, sheet-deck \n"
    )
    code, stdout, stderr = cli(capsys, "import", str(path), "--no-default-bank", "--title", "Mine")
    assert code == 0, stderr
    assert "  id: sheet-deck\n  title: Mine\n" in stdout


# -- bad settings ---------------------------------------------------------------------------

BAD_SETTINGS = [
    (
        "title-conflict",
        "deck_title",
        ["Intro", "", "Other"],
        ":4: deck_title: 'Other' differs from 'Intro' on row 2 (line 2); a deck has one "
        "title: make the cells the same, or leave all but one empty (or give --title to set "
        "it for every row)",
    ),
    (
        "weight-conflict",
        "deck_exam_weight",
        ["0.2", "0.3", "0.2"],
        ":3: deck_exam_weight: 0.3 differs from 0.2 on row 2",
    ),
    (
        "description-conflict",
        "deck_description",
        ["A deck.", "A deck. ", "Another deck."],
        ":4: deck_description: 'Another deck.' differs from 'A deck.' on row 2 (line 2); a "
        "deck has one description: make the cells the same, or leave all but one empty",
    ),
    (
        "two-decks",
        "deck_id",
        ["one", "two", "two"],
        ":3: deck_id: 'two' differs from 'one' on row 2 (line 2); the CSV holds the rows of "
        "more than one deck",
    ),
    (
        "weight-zero",
        "deck_exam_weight",
        ["0", "0", "0"],
        ":2: deck_exam_weight: exam_weight must be greater than 0",
    ),
    (
        "weight-too-large",
        "deck_exam_weight",
        ["2000", "", ""],
        ":2: deck_exam_weight: exam_weight must be a number greater than 0 and at most 1000, "
        "not 2000",
    ),
    (
        "weight-percent",
        "deck_exam_weight",
        ["", "50%", ""],
        ":3: deck_exam_weight: '50%' is a percentage; an exam weight is a plain number (the "
        "bundled decks' weights sum to 1): write 0.5",
    ),
    (
        "weight-word",
        "deck_exam_weight",
        ["heavy", "", ""],
        ":2: deck_exam_weight: 'heavy' is not a number",
    ),
    (
        "title-too-long",
        "deck_title",
        ["x" * 20_001, "", ""],
        ":2: deck_title: title is 20,001 characters; a text is at most 20,000",
    ),
    (
        "title-escape",
        "deck_title",
        ["Intro\x1b[2J", "", ""],
        ":2: deck_title: title contains control character U+001B (ESC)",
    ),
    (
        "bad-deck-id",
        "deck_id",
        ["Not An Id", "", ""],
        ":2: deck_id: deck id 'Not An Id' must be lowercase",
    ),
    (
        "taken-deck-id",
        "deck_id",
        ["multi-head-attention", "", ""],
        ":2: deck_id: deck id 'multi-head-attention' is already used by",
    ),
]


@pytest.mark.parametrize(
    ("column", "cells", "message"),
    [(c, v, m) for _, c, v, m in BAD_SETTINGS],
    ids=[i for i, _, _, _ in BAD_SETTINGS],
)
def test_a_bad_or_conflicting_setting_is_a_located_error_that_writes_nothing(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    column: str,
    cells: list[str],
    message: str,
) -> None:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([*SHEET_HEADER.split(","), column])
    for n, cell in enumerate(cells, start=1):
        writer.writerow([f"q{n}", "flashcard", "P", "E", "easy", "t", "B", cell])
    path = tmp_path / "deck.csv"
    path.write_text(buffer.getvalue(), encoding="utf-8")
    out = tmp_path / "out.yaml"
    code, stdout, stderr = cli(capsys, "import", str(path), "--out", str(out))
    assert code == 1
    assert stdout == "" and not out.exists()
    assert stderr.count("\n") == 1 and "Traceback" not in stderr
    assert stderr.startswith(f"quizapp import: error: {path}{message}"), stderr


def test_the_library_raises_a_deck_setting_error_naming_file_and_line() -> None:
    text = (
        f"{SHEET_HEADER},deck_domain\nq1,flashcard,P,E,easy,t,B,A\n\nq2,flashcard,P,E,easy,t,B,B\n"
    )
    with pytest.raises(DeckSettingError, match=r"^s\.csv:4: deck_domain: 'B' differs from 'A'"):
        import_csv(text, deck=DeckInfo("d", "D", "d"), path="s.csv")


def test_a_misspelled_deck_column_is_refused_with_a_did_you_mean(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "d.csv"
    path.write_text(f"{SHEET_HEADER},deck_titel\nq1,flashcard,P,E,easy,t,B,Intro\n")
    code, _, stderr = cli(capsys, "import", str(path))
    assert code == 2 and "unknown column 'deck_titel' (did you mean 'deck_title'?)" in stderr


def test_the_deck_columns_come_after_the_question_columns() -> None:
    assert COLUMNS[-len(DECK_COLUMNS) :] == tuple(DECK_COLUMNS)
