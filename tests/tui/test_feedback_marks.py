"""Feedback on a choice question: every option of a multiple-choice question marked as picked
and right, picked and wrong, missed, or rightly left out; the key and the answer numbered and
ordered as the student saw the options."""

from __future__ import annotations

from quizapp.bank.answers import ChoiceAnswer
from quizapp.bank.grading import grade
from quizapp.bank.loader import load_bank
from quizapp.bank.model import ChoiceQuestion
from quizapp.tui.widgets.feedback import numbered_options, whys
from tests.conftest import CORPUS

BANK = load_bank([CORPUS / "good" / "every_type.yaml"])


def question(qid: str) -> ChoiceQuestion:
    found = BANK.questions[qid]
    assert isinstance(found, ChoiceQuestion)
    return found


def test_a_multiple_choice_marks_every_option_in_the_order_shown() -> None:
    multi = question("t-multi")  # A and B correct, C not
    shown = (2, 0, 1)  # the student saw C, A, B
    picked = frozenset({0})  # A only: B missed, C rightly left out
    result = grade(multi, ChoiceAnswer(picked))
    assert whys(multi, result, picked, shown) == [
        "- 1. **C** (✓ rightly left out): c",
        "- 2. **A** (✓ your pick, correct): a",
        "- 3. **B** (✗ missed: correct, not picked): b",
    ]
    assert numbered_options(multi, multi.correct_indices, shown) == "2. A; 3. B"
    assert numbered_options(multi, picked, shown) == "2. A"


def test_a_wrong_pick_is_marked_wrong_and_not_like_a_missed_option() -> None:
    multi = question("t-multi")
    picked = frozenset({0, 2})  # A right, C wrong, B missed
    marks = whys(multi, grade(multi, ChoiceAnswer(picked)), picked)
    assert marks == [
        "- 1. **A** (✓ your pick, correct): a",
        "- 2. **B** (✗ missed: correct, not picked): b",
        "- 3. **C** (✗ your pick, wrong): c",
    ]


def test_a_single_choice_shows_the_pick_and_the_key_only_numbered_as_shown() -> None:
    single = question("t-single")
    wrong = next(i for i, choice in enumerate(single.choices) if not choice.correct)
    [right] = single.correct_indices
    shown = tuple(reversed(range(len(single.choices))))
    lines = whys(single, grade(single, ChoiceAnswer(frozenset({wrong}))), frozenset({wrong}), shown)
    assert len(lines) == 2
    assert any("(✗ your pick, wrong)" in line for line in lines)
    assert any("(the correct answer)" in line for line in lines)
    number = shown.index(right) + 1
    assert numbered_options(single, single.correct_indices, shown) == (
        f"{number}. {single.choices[right].text}"
    )


def test_an_order_that_is_not_the_options_falls_back_to_the_banks() -> None:
    multi = question("t-multi")
    assert numbered_options(multi, multi.correct_indices, (5, 9)) == "1. A; 2. B"


def test_without_the_picks_a_review_shows_the_keys_whys_unmarked_and_unnumbered() -> None:
    multi = question("t-multi")
    result = grade(multi, ChoiceAnswer(frozenset({0})))
    assert whys(multi, result, None) == ["- **A** (correct): a", "- **B** (correct): b"]
