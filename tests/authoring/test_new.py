"""`quizapp new`: template questions that load, appended without ever corrupting a deck."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from quizapp.authoring.lint import lint
from quizapp.authoring.new import append_question, new_id, template
from quizapp.bank import QuestionType, bundled_bank_path, load_file
from tests.authoring.helpers import cli

TYPES = [t.value for t in QuestionType]
HEADER = "deck: {id: d, title: T, topic: t, domain: D, exam_weight: 1}\nquestions:\n"
CARD = (
    "  - id: existing\n    type: flashcard\n    prompt: P\n    explanation: E\n"
    "    difficulty: easy\n    tags: [t]\n    back: B\n"
)


def lint_problems(path: Path) -> tuple[list[str], list[str]]:
    report = lint([path], evaluate=False)
    errors = [d.format() for d in report.diagnostics if d.severity == "error"]
    warnings = [d.code for d in report.diagnostics if d.severity == "warning"]
    return errors, warnings


@pytest.mark.parametrize("qtype", TYPES)
def test_the_printed_template_loads_and_lints_clean(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, qtype: str
) -> None:
    code, stdout, stderr = cli(capsys, "new", "--type", qtype)
    assert code == 0, stderr
    assert f"  - id: new-{qtype.replace('_', '-')}-1\n" in stdout
    path = tmp_path / "deck.yaml"
    path.write_text(HEADER + stdout)
    errors, warnings = lint_problems(path)
    assert errors == []
    # The TODOs are there to be replaced; the compute block is live, so no no-compute.
    assert set(warnings) == {"todo-left"}
    # Each one at its own line, naming its field: not "somewhere" at the question's id.
    todo_lines = [
        n
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if "TODO" in line and not line.lstrip().startswith("#")
    ]
    report = lint([path], evaluate=False)
    said = [(d.line, d.message) for d in report.diagnostics if d.code == "todo-left"]
    assert [line for line, _ in said] == todo_lines
    assert all(message.endswith("still says TODO: write the real text") for _, message in said)
    assert any(message.startswith("'prompt' still says TODO") for _, message in said)
    deck, _ = load_file(path)
    assert deck is not None and deck.questions[0].type.value == qtype


# Real text for a template's TODOs: each different (one repeated would be a near-duplicate
# option), all of a length (a longest option would be a length cue), no absolute words.
FILLERS = [
    f"Filled-in text {n}: the {topic} of multi-head attention."
    for n, topic in enumerate(
        ["width", "heads", "projections", "parameters", "queries", "keys", "values", "scale"] * 3
    )
]


def filled(text: str) -> str:
    """The template as an author leaves it: every TODO's text replaced with real text."""
    fillers = iter(FILLERS)
    return re.sub(r"TODO:[^\"\n]*", lambda _: next(fillers), text)


@pytest.mark.parametrize("qtype", TYPES)
def test_the_template_lints_clean_and_strict_once_its_todos_are_written(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, qtype: str
) -> None:
    """Nothing else is left to do: the compute block runs, and its claim holds."""
    text = template(qtype, "q")
    assert re.search(r"^ +compute:", text, re.MULTILINE)  # live, not a commented example
    path = tmp_path / "deck.yaml"
    path.write_text(HEADER + filled(text))
    assert "TODO:" not in path.read_text()
    code, _, stderr = cli(capsys, "lint", "--strict", "--no-cache", str(path))
    assert code == 0, stderr
    assert "1 question(s) loaded: 0 error(s), 0 warning(s)" in stderr
    deck, _ = load_file(path)
    assert deck is not None and deck.questions[0].compute is not None


def test_new_appends_every_type_to_a_copy_of_a_bundled_deck(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    source = bundled_bank_path() / "positional-encoding.yaml"
    deck_file = tmp_path / source.name
    shutil.copyfile(source, deck_file)
    original = deck_file.read_bytes()
    before, _ = load_file(deck_file)
    assert before is not None
    for qtype in TYPES:
        code, stdout, stderr = cli(capsys, "new", "--type", qtype, "--deck", str(deck_file))
        assert code == 0, stderr
        qid = f"{before.topic}-new-{qtype.replace('_', '-')}-1"
        line = int(stdout.split(":")[1])
        assert stdout == f"{deck_file}:{line}: added {qtype} question '{qid}'\n"
        assert deck_file.read_text(encoding="utf-8").splitlines()[line - 1].endswith(f"- id: {qid}")
    assert deck_file.read_bytes().startswith(original)  # nothing before the end was touched
    errors, warnings = lint_problems(deck_file)
    assert errors == []
    assert set(warnings) <= {"no-compute", "no-why", "todo-left"}
    after, _ = load_file(deck_file)
    assert after is not None
    assert len(after.questions) == len(before.questions) + len(TYPES)
    assert [q.type.value for q in after.questions[-len(TYPES) :]] == TYPES
    assert list(tmp_path.iterdir()) == [deck_file]  # no temporary file left behind


def test_ids_are_unique_across_the_file_and_the_bank(tmp_path: Path) -> None:
    deck_file = tmp_path / "deck.yaml"
    deck_file.write_text(HEADER + CARD)
    other = tmp_path / "other.yaml"
    other.write_text(
        HEADER.replace("id: d,", "id: other,") + CARD.replace("existing", "t-new-flashcard-1")
    )
    first = append_question(deck_file, "flashcard", reference_paths=[other])
    second = append_question(deck_file, "flashcard", reference_paths=[other])
    assert (first.id, second.id) == ("t-new-flashcard-2", "t-new-flashcard-3")
    assert new_id("x" * 100, "multiple_choice", set()).endswith("-new-multiple-choice-1")
    assert len(new_id("x" * 100, "multiple_choice", set())) <= 80


def test_an_explicit_id_is_checked(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    deck_file = tmp_path / "deck.yaml"
    deck_file.write_text(HEADER + CARD)
    original = deck_file.read_bytes()
    code, _, stderr = cli(
        capsys, "new", "--type", "numeric", "--deck", str(deck_file), "--id", "existing"
    )
    assert code == 2 and "--id 'existing' is already used in" in stderr
    code, _, stderr = cli(
        capsys, "new", "--type", "numeric", "--deck", str(deck_file), "--id", "Bad Id"
    )
    assert code == 2 and "must be lowercase" in stderr
    code, _, stderr = cli(capsys, "new", "--type", "numeric", "--id", "mha-purpose-subspaces")
    assert code == 2 and "already used" in stderr  # the bundled bank counts
    assert deck_file.read_bytes() == original
    code, stdout, _ = cli(
        capsys, "new", "--type", "numeric", "--deck", str(deck_file), "--id", "mine"
    )
    assert code == 0 and "'mine'" in stdout


NOT_DECKS = {
    "no-questions": "deck: {id: d, title: T, topic: t, domain: D, exam_weight: 1}\n",
    "not-a-mapping": "- just\n- a list\n",
    "plain-text": "Dear students,\nsee you Monday.\n",
    "broken-yaml": HEADER + "  - id: [unclosed\n",
    "questions-not-last": "questions:\n"
    + CARD
    + "deck: {id: d, title: T, topic: t, domain: D, exam_weight: 1}\n",
    "flow-questions": "deck: {id: d, title: T, topic: t, domain: D, exam_weight: 1}\nquestions: []\n",
    "bad-deck": "deck: {id: d}\nquestions:\n" + CARD,
    "empty": "",
}


@pytest.mark.parametrize("name", list(NOT_DECKS))
def test_new_refuses_a_file_that_is_not_a_deck_and_leaves_it_byte_identical(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    path = tmp_path / f"{name}.yaml"
    path.write_text(NOT_DECKS[name])
    original = path.read_bytes()
    code, stdout, stderr = cli(capsys, "new", "--type", "single_choice", "--deck", str(path))
    assert code == 2
    assert stdout == ""
    assert stderr.startswith("quizapp new: error: ") and stderr.count("\n") == 1
    assert path.read_bytes() == original
    assert list(tmp_path.iterdir()) == [path]


def test_new_starts_a_deck_file_that_does_not_exist_yet(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """`quizapp new --deck` is how a deck begins: the header named after the file, then the
    question; a second call appends to it."""
    path = tmp_path / "my_first-deck.yaml"
    code, stdout, stderr = cli(capsys, "new", "--type", "flashcard", "--deck", str(path))
    assert code == 0, stderr
    assert stdout.splitlines()[0] == f"{path}: started deck 'my_first-deck'"
    code, _, stderr = cli(capsys, "new", "--type", "true_false", "--deck", str(path))
    assert code == 0, stderr
    deck, diagnostics = load_file(path)
    assert deck is not None and [d for d in diagnostics if d.severity == "error"] == []
    assert (deck.id, deck.title, deck.topic) == ("my-first-deck", "My first deck", "my-first-deck")
    assert [q.type.value for q in deck.questions] == ["flashcard", "true_false"]


def test_a_deck_that_cannot_be_started_leaves_nothing_behind(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    missing_folder = tmp_path / "nowhere" / "x.yaml"
    code, _, stderr = cli(capsys, "new", "--type", "flashcard", "--deck", str(missing_folder))
    assert code == 2 and stderr.count("\n") == 1 and "nowhere" in stderr
    taken = tmp_path / "taken.yaml"
    code, _, stderr = cli(
        capsys, "new", "--type", "flashcard", "--deck", str(taken), "--id", "bad id!"
    )
    assert code == 2 and stderr.count("\n") == 1
    assert not taken.exists()  # the header written for it went again


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("no-trailing-newline", HEADER + CARD.rstrip("\n")),
        ("indentless-list", HEADER + CARD.replace("\n    ", "\n  ").replace("  - id", "- id")),
        ("empty-list", HEADER),
        ("trailing-comment", HEADER + CARD + "# end of the deck\n"),
        ("crlf", (HEADER + CARD).replace("\n", "\r\n")),
        ("bom", "\ufeff" + HEADER + CARD),
    ],
)
def test_new_appends_to_the_shapes_a_deck_file_takes(tmp_path: Path, name: str, text: str) -> None:
    path = tmp_path / "deck.yaml"
    path.write_bytes(text.encode("utf-8"))
    added = append_question(path, "ordering")
    deck, diagnostics = load_file(path)
    assert deck is not None, diagnostics
    assert deck.questions[-1].id == added.id == "t-new-ordering-1"
    assert [d for d in diagnostics if d.severity == "error"] == []
    content = path.read_bytes()
    assert content.startswith(text.encode("utf-8").rstrip(b"\r\n"))
    if name == "crlf":
        assert b"\n" not in content.replace(b"\r\n", b"")


def test_a_keep_block_at_the_end_is_not_changed_by_the_append(tmp_path: Path) -> None:
    # `|+` keeps trailing blank lines: a blank separator line would join the last answer.
    path = tmp_path / "deck.yaml"
    path.write_text(HEADER + CARD.replace("    back: B\n", "    back: |+\n      B\n"))
    append_question(path, "flashcard")
    deck, _ = load_file(path)
    assert deck is not None
    assert deck.questions[0].back == "B\n"
    assert len(deck.questions) == 2


def test_the_file_keeps_its_permissions(tmp_path: Path) -> None:
    path = tmp_path / "deck.yaml"
    path.write_text(HEADER + CARD)
    path.chmod(0o640)
    append_question(path, "true_false")
    assert path.stat().st_mode & 0o777 == 0o640


def test_an_unfinished_template_is_flagged_by_lint(tmp_path, capsys) -> None:
    from quizapp.authoring.lint import lint

    deck = tmp_path / "deck.yaml"
    deck.write_text(
        "deck: {id: d, title: T, topic: t, domain: D, exam_weight: 1}\nquestions:\n"
        "  - id: existing\n    type: flashcard\n    prompt: P\n    explanation: E\n"
        "    difficulty: easy\n    tags: [t]\n    back: B\n"
    )
    code, _, err = cli(
        capsys, "new", "--type", "single_choice", "--deck", str(deck), "--no-default-bank"
    )
    assert code == 0, err
    codes = [d.code for d in lint([deck]).diagnostics]
    assert "todo-left" in codes
