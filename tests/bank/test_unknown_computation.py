"""A question whose computation does not exist is not loaded where the bank is held to the
registry's names (the app, a preview, lint), and is reported where its name is written."""

from __future__ import annotations

from pathlib import Path

from quizapp.bank import load_bank
from quizapp.bank.cache import load_bank_cached

HEADER = "deck: {id: d, title: T, topic: t, domain: D, exam_weight: 1}\nquestions:\n"
NAMES = frozenset({"mha_params", "rope_relative"})


def card(qid: str, computation: str) -> str:
    return (
        f"  - id: {qid}\n    type: flashcard\n    prompt: P\n    explanation: E\n"
        f"    difficulty: easy\n    tags: [t]\n    back: B\n"
        f"    compute:\n      name: {computation}\n"
    )


def write_deck(folder: Path) -> Path:
    path = folder / "deck.yaml"
    path.write_text(HEADER + card("q-typo", "mha_param") + card("q-good", "mha_params"))
    return path


def test_held_to_the_names_the_question_is_an_error_and_left_out(tmp_path: Path) -> None:
    bank = load_bank([write_deck(tmp_path)], NAMES)
    assert list(bank.questions) == ["q-good"]
    (error,) = bank.errors
    assert (error.line, error.column, error.code) == (11, 13, "unknown-computation")
    assert "unknown computation 'mha_param' (did you mean 'mha_params'?)" in error.message
    assert bank.computations == NAMES  # what a reload holds the file to again


def test_without_names_the_bank_cannot_tell_and_loads_it(tmp_path: Path) -> None:
    assert list(load_bank([write_deck(tmp_path)]).questions) == ["q-typo", "q-good"]


def test_the_cache_asks_for_the_names_only_on_a_miss(tmp_path: Path) -> None:
    path, cache = write_deck(tmp_path), tmp_path / "cache"
    asked: list[int] = []

    def names() -> frozenset[str]:
        asked.append(1)
        return NAMES

    # A bank cached without the check is not served where the check is asked for.
    assert "q-typo" in load_bank_cached([path], cache).questions
    assert list(load_bank_cached([path], cache, names).questions) == ["q-good"]
    assert list(load_bank_cached([path], cache, names).questions) == ["q-good"]
    assert len(asked) == 1
