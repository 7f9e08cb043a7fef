"""`key-position`, `near-duplicate` with `pairs_with`, `unknown-pair`, and `--strict` on the
item-writing cues: each fires on a small hostile deck, at its line, and not on a clean one."""

from __future__ import annotations

import json
from pathlib import Path

from quizapp.authoring.messages import example_question, example_statement
from tests.authoring.test_item_writing import findings, line_of, statement, write

PROMPTS = [
    "Where does RoPE act?",
    "What does LayerNorm normalize over?",
    "How wide is each of 8 heads at d_model = 512?",
    "Which placement did the original Transformer use?",
    "What do residual connections give gradients?",
    "Which norm breaks at batch size one?",
    "What makes attention blind to word order?",
    "What does a learned position table lack past its rows?",
    "Which heads share one key projection in GQA?",
]
OPTIONS = ("Alpha option", "Bravo option", "Delta option", "Gamma option")


def keyed(qid: str, prompt: str, key_at: int, qtype: str = "single_choice", keys: int = 1) -> str:
    """A choice question whose `keys` keys start at position `key_at` (options of one length,
    so that no length cue muddles the count)."""
    lines = ["    choices:\n"]
    correct = {(key_at + k) % len(OPTIONS) for k in range(keys)}
    for index, text in enumerate(OPTIONS):
        flag = " correct: true," if index in correct else ""
        lines.append(f'      - {{text: "{text}",{flag} why: W}}\n')
    return example_question(qid, qtype, prompt, "".join(lines))


def test_keys_always_first_are_a_position_cue(tmp_path: Path) -> None:
    path = write(tmp_path, *(keyed(f"q{i}", p, 0) for i, p in enumerate(PROMPTS[:8])))
    found = findings(path)
    assert [d.code for d in found] == ["key-position"]
    assert found[0].line == line_of(path, "- id: q0")  # the deck's first question
    assert found[0].message.startswith(
        "deck 'd': a key is the first option in 8 of 8 single-choice questions (chance: about 2.0;"
    )
    assert "Bonferroni over 4 positions" in found[0].message


def test_keys_spread_over_positions_are_no_cue(tmp_path: Path) -> None:
    items = [keyed(f"q{i}", p, i % 4) for i, p in enumerate(PROMPTS)]
    assert findings(write(tmp_path, *items)) == []


def test_five_of_eight_at_one_position_is_chance(tmp_path: Path) -> None:
    # P(at least 5 of 8 at 1/4) = 0.027; times 4 positions tested: 0.11.
    positions = [2, 2, 2, 2, 2, 0, 1, 3]
    items = [
        keyed(f"q{i}", p, at) for i, (p, at) in enumerate(zip(PROMPTS[:8], positions, strict=True))
    ]
    assert findings(write(tmp_path, *items)) == []


def test_a_deck_below_eight_items_is_not_judged(tmp_path: Path) -> None:
    path = write(tmp_path, *(keyed(f"q{i}", p, 0) for i, p in enumerate(PROMPTS[:7])))
    assert findings(path) == []


def test_position_across_decks_too_small_alone(tmp_path: Path) -> None:
    items = [keyed(f"q{i}", p, 3) for i, p in enumerate(PROMPTS[:8])]
    first = write(tmp_path, *items[:4], deck="first", name="a.yaml")
    second = write(tmp_path, *items[4:], deck="second", name="b.yaml")
    found = findings(first, second)
    assert [d.code for d in found] == ["key-position"]
    assert found[0].message.startswith("across 2 decks: a key is the fourth option in 8 of 8")
    assert (found[0].path, found[0].line) == (str(first), line_of(first, "- id: q0"))


def test_multiple_choice_keys_always_the_first_two(tmp_path: Path) -> None:
    items = [
        keyed(f"m{i}", f"Select each true one, case {i}.", 0, "multiple_choice", keys=2)
        for i in range(8)
    ]
    found = findings(write(tmp_path, *items))
    assert "key-position" in [d.code for d in found]
    position = next(d for d in found if d.code == "key-position")
    assert "in 8 of 8 multiple-choice questions (chance: about 4;" in position.message


def test_statements_all_true_are_a_position_cue(tmp_path: Path) -> None:
    prompts = [p.replace("?", " is asked.") for p in PROMPTS[:8]]
    found = findings(write(tmp_path, *(statement(f"t{i}", p, True) for i, p in enumerate(prompts))))
    assert [d.code for d in found] == ["key-position"]
    assert 'the answer is "true" in 8 of 8 true/false statements' in found[0].message
    balanced = [statement(f"t{i}", p, i % 2 == 0) for i, p in enumerate(prompts)]
    assert findings(write(tmp_path, *balanced, name="balanced.yaml")) == []


# -- near-duplicate and pairs_with -------------------------------------------------------------

STEM = "Over which numbers does LayerNorm compute its mean and variance?"
AGAIN = "Over which numbers does LayerNorm compute its mean and its variance?"


def card(qid: str, prompt: str, pairs: str = "") -> str:
    body = (f"    pairs_with: [{pairs}]\n" if pairs else "") + "    back: One token's features.\n"
    return example_question(qid, "flashcard", prompt, body)


def test_a_marked_pair_is_not_a_near_duplicate(tmp_path: Path) -> None:
    assert findings(write(tmp_path, card("a", STEM), card("b", AGAIN, pairs="a"))) == []
    # Marked on the earlier one works the same.
    assert (
        findings(write(tmp_path, card("a", STEM, pairs="b"), card("b", AGAIN), name="x.yaml")) == []
    )


def test_a_marked_pair_does_not_hide_a_third_copy(tmp_path: Path) -> None:
    path = write(tmp_path, card("a", STEM), card("b", AGAIN, pairs="a"), card("c", STEM + " "))
    found = findings(path)
    assert [(d.code, d.line) for d in found] == [("near-duplicate", line_of(path, "- id: c"))]
    assert "nearly repeats that of 'a'" in found[0].message


def test_pairs_with_an_unknown_id(tmp_path: Path) -> None:
    path = write(tmp_path, card("a", STEM, pairs="a-typo"), card("b", "What is RoPE?", pairs="b"))
    found = findings(path)
    assert [(d.code, d.line) for d in found] == [
        ("unknown-pair", line_of(path, "pairs_with: [a-typo]")),
        ("unknown-pair", line_of(path, "pairs_with: [b]")),
    ]
    assert found[0].message == "pairs_with names 'a-typo', which is no question of this bank"
    assert found[1].message == "pairs_with names 'b', which is the question itself"


def test_pairs_with_must_be_a_list_of_ids(tmp_path: Path) -> None:
    from quizapp.authoring.lint import lint

    path = write(tmp_path, card("a", STEM, pairs="Not An Id"))
    report = lint([path], evaluate=False)
    assert [d.code for d in report.diagnostics if d.severity == "error"] == ["bad-id"]


# -- --strict ----------------------------------------------------------------------------------


def test_strict_makes_every_new_cue_an_error(run_cli, tmp_path: Path) -> None:
    items = [keyed(f"q{i}", p, 0) for i, p in enumerate(PROMPTS[:8])]
    items.append(keyed("m", "Select each learned part.", 0, "multiple_choice", keys=4))
    items += [card("a", STEM), card("b", AGAIN), card("c", "What is RoPE?", pairs="gone")]
    path = write(tmp_path, *items)
    plain = run_cli("lint", "--no-eval", "--format", "json", str(path))
    assert plain.returncode == 0, plain.stderr
    payload = json.loads(plain.stdout)
    codes = sorted(d["code"] for d in payload["diagnostics"])
    assert codes == ["all-correct", "key-position", "near-duplicate", "unknown-pair"]
    strict = run_cli("lint", "--no-eval", "--strict", "--format", "json", str(path))
    assert strict.returncode == 1
    assert {d["severity"] for d in json.loads(strict.stdout)["diagnostics"]} == {"error"}


def test_statement_helper_is_clean(tmp_path: Path) -> None:
    """The helpers above add no cue of their own: one question of each is clean."""
    path = write(
        tmp_path,
        keyed("q", PROMPTS[0], 1),
        example_question("t", "true_false", "RoPE rotates keys.", example_statement(True)),
    )
    assert findings(path) == []
