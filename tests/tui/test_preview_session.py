"""What a preview does to its session, without the app: a reload's edits reach every question
and keep the one on show, variants step and wrap, and the options' order toggles."""

from __future__ import annotations

from pathlib import Path

from quizapp.bank import load_bank, load_file
from quizapp.bank.grading import Grade
from quizapp.bank.model import Question
from quizapp.bank.session import QuizSession, SessionOptions
from quizapp.tui.components.preview_session import (
    apply_edits,
    carried_over,
    next_variant,
    order_label,
    toggle_order,
    variant_label,
    variant_number,
    with_variant,
)
from tests.conftest import CORPUS
from tests.tui.test_reload import HEADER, deck_text

VARIED = """\
  - id: {qid}
    type: flashcard
    prompt: "How wide is a head with d_model = {{d_model}} and {{n_heads}} heads?"
    back: "{{d_model}} / {{n_heads}}"
    explanation: Split, not copied.
    difficulty: easy
    tags: [basics]
    vary:
      d_model: {widths}
      n_heads: [4, 8]
"""


def questions(tmp_path: Path, text: str) -> list[Question]:
    path = tmp_path / "deck.yaml"
    path.write_text(text)
    deck, diagnostics = load_file(path)
    assert deck is not None, [d.format() for d in diagnostics]
    return list(deck.questions)


def session_on(qs: list[Question]) -> QuizSession:
    return QuizSession.start(qs, SessionOptions(shuffle=False, seed=7), "Preview")


def answer(session: QuizSession) -> None:
    session.record(Grade(correct=True, expected="k", given="k"), 1.0)


def ids(qs: list[Question]) -> list[str]:
    return [q.id for q in qs]


def test_a_reload_edits_the_answered_questions_and_keeps_the_one_on_show(
    tmp_path: Path,
) -> None:
    session = session_on(questions(tmp_path, deck_text("d", ["a", "b", "c", "d"])))
    answer(session)
    answer(session)  # a and b answered; c on show
    edited = deck_text("d", ["new", "a", "b", "c", "d"]).replace("Front of a", "Edited a")
    apply_edits(session, questions(tmp_path, edited))
    assert session.current is not None and session.current.id == "c"
    # The answered question shows its edit in the session's record of it (the summary, review)…
    assert session.attempts[0].question.prompt == "Edited a"
    assert session.questions[0].prompt == "Edited a"
    # …and a question added above the one on show comes after the rest, not instead of it.
    assert ids(session.questions) == ["a", "b", "c", "d", "new"]
    assert set(session.display_orders) == {"a", "b", "c", "d", "new"}


def test_a_deleted_question_on_show_gives_way_to_the_nearest_one_after_it(
    tmp_path: Path,
) -> None:
    session = session_on(questions(tmp_path, deck_text("d", ["a", "b", "c", "d"])))
    answer(session)  # b on show
    apply_edits(session, questions(tmp_path, deck_text("d", ["a", "d", "c"])))
    assert session.current is not None and session.current.id == "c"  # b and its place gone
    assert ids(session.questions) == ["a", "c", "d"]
    # Undo finds the answered question in the list again: one object per id.
    undone = session.undo()
    assert undone is not None and undone.id == "a" and session.current is undone


def test_a_reload_that_deletes_everything_ahead_ends_the_session(tmp_path: Path) -> None:
    session = session_on(questions(tmp_path, deck_text("d", ["a", "b"])))
    answer(session)
    apply_edits(session, questions(tmp_path, deck_text("d", ["a"])))
    assert session.finished and len(session.attempts) == 1


def test_variants_step_in_lint_order_wrap_round_and_are_named(tmp_path: Path) -> None:
    (base,) = questions(
        tmp_path,
        HEADER.format(deck="d", title="D") + VARIED.format(qid="v", widths="[256, 512, 1024]"),
    )
    first = with_variant(base, 1)
    assert variant_label(base, first) == "variant 1 of 6: d_model=256, n_heads=4"
    assert "d_model = 256 and 4 heads" in first.prompt
    second = next_variant(base, first)
    assert variant_label(base, second) == "variant 2 of 6: d_model=256, n_heads=8"
    last = with_variant(base, 6)
    assert variant_label(base, last) == "variant 6 of 6: d_model=1024, n_heads=8"
    assert variant_number(base, next_variant(base, last)) == 1
    plain = questions(tmp_path, deck_text("d", ["p"]))[0]
    assert variant_label(plain, plain) is None and with_variant(plain, 3) is plain


def test_a_reload_keeps_the_variant_shown_while_its_values_are_still_allowed(
    tmp_path: Path,
) -> None:
    head = HEADER.format(deck="d", title="D")
    (base,) = questions(tmp_path, head + VARIED.format(qid="v", widths="[256, 512, 1024]"))
    shown = with_variant(base, 4)  # d_model=512, n_heads=8
    (edited,) = questions(
        tmp_path,
        (head + VARIED.format(qid="v", widths="[128, 512]")).replace("Split", "Sliced"),
    )
    kept = carried_over(edited, shown)
    assert dict(kept.assignment) == {"d_model": 512, "n_heads": 8}
    assert kept.explanation == "Sliced, not copied."
    (narrowed,) = questions(tmp_path, head + VARIED.format(qid="v", widths="[128]"))
    assert variant_number(narrowed, carried_over(narrowed, shown)) == 1  # 512 is gone


def test_the_order_toggles_between_a_students_and_the_files() -> None:
    bank = load_bank([CORPUS / "good"])
    chosen = [bank.questions[i] for i in ("t-multi", "t-single", "t-order")]
    shuffled = {}
    # A seed whose t-multi order is not the file's, so the toggle has something to undo.
    for seed in range(50):
        session = QuizSession.start(chosen, SessionOptions(shuffle=False, seed=seed))
        if session.display_orders["t-multi"] != tuple(range(4)):
            shuffled = dict(session.display_orders)
            break
    assert shuffled
    multi = bank.questions["t-multi"]
    assert order_label(session, multi) == "options shuffled as for a student"
    toggle_order(session)
    assert session.display_orders["t-multi"] == tuple(range(len(multi.choices)))
    assert order_label(session, multi) == "options in file order"
    assert order_label(session, bank.questions["t-single"]) == (
        "options in file order (shuffle: false)"
    )
    steps = session.display_orders["t-order"]
    assert steps != tuple(range(len(steps)))  # steps in file order would be the key
    toggle_order(session)
    assert session.display_orders == shuffled  # the student's order again, the same one
