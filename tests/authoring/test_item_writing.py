"""Item-writing warnings: each fires on a small bank that has the cue, not on a close one without.

Every question here is otherwise clean (a computation, a why for every option), so the only
warnings lint can print are the item-writing ones under test.
"""

from __future__ import annotations

import json
from pathlib import Path

from quizapp.authoring.lint import lint
from quizapp.authoring.messages import example_choices, example_question, example_statement
from quizapp.bank import Diagnostic

DECK = "deck: {{id: {deck}, title: T, topic: t, domain: D, exam_weight: 1}}\nquestions:\n"


def single(qid: str, prompt: str, *options: str) -> str:
    return example_question(qid, "single_choice", prompt, example_choices(*options))


def multiple(qid: str, prompt: str, *options: str, keys: int) -> str:
    return example_question(qid, "multiple_choice", prompt, example_choices(*options, keys=keys))


def statement(qid: str, prompt: str, answer: bool) -> str:
    return example_question(qid, "true_false", prompt, example_statement(answer))


def write(tmp_path: Path, *questions: str, deck: str = "d", name: str = "deck.yaml") -> Path:
    path = tmp_path / name
    path.write_text(DECK.format(deck=deck) + "".join(questions), encoding="utf-8")
    return path


def findings(*paths: Path) -> list[Diagnostic]:
    report = lint(list(paths), evaluate=False)
    assert report.error_count == 0, [d.format() for d in report.diagnostics]
    return report.diagnostics


def codes(*paths: Path) -> list[str]:
    return [d.code for d in findings(*paths)]


def line_of(path: Path, text: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


# -- key-longest --------------------------------------------------------------------------------

PROMPTS = [
    "Where does RoPE act?",
    "What does LayerNorm normalize over?",
    "How wide is each of 8 heads at d_model = 512?",
    "Which placement did the original Transformer use?",
    "What do residual connections give gradients?",
]


def longest_key_items(longest: int, prefix: str = "q") -> list[str]:
    """Five single-choice items; in the first `longest` the key is the longest option (but not
    by enough to be far longer), in the rest a distractor is."""
    items = []
    for index, prompt in enumerate(PROMPTS):
        key, other, longer = "Key option A", "Other opt B", "Longer option C"
        if index < longest:
            items.append(single(f"{prefix}{index}", prompt, key, other, "Short C"))
        else:
            items.append(single(f"{prefix}{index}", prompt, key, other, longer))
    return items


def test_key_longest_far_beyond_chance(tmp_path: Path) -> None:
    path = write(tmp_path, *longest_key_items(5))
    found = findings(path)
    assert [d.code for d in found] == ["length-cue"]
    assert found[0].message == (
        "deck 'd': the key is the longest option in 5 of 5 single-choice items (chance: about "
        "1.7; exact binomial test)"
    )
    assert found[0].line == line_of(path, "- id: q0")  # the deck's first question


def test_key_longest_four_of_five_is_still_unlikely(tmp_path: Path) -> None:
    # P(at least 4 of 5 at 1/3) = 11/243 = 0.045 < 0.05.
    assert codes(write(tmp_path, *longest_key_items(4))) == ["length-cue"]


def test_key_longest_three_of_five_is_chance(tmp_path: Path) -> None:
    # P(at least 3 of 5 at 1/3) = 51/243 = 0.21.
    assert codes(write(tmp_path, *longest_key_items(3))) == []


def test_key_longest_needs_five_items(tmp_path: Path) -> None:
    assert codes(write(tmp_path, *longest_key_items(5)[:4])) == []


def test_key_longest_ignores_items_without_a_strictly_longest_option(tmp_path: Path) -> None:
    items = [single(f"q{i}", prompt, "Alpha", "Bravo", "Delta") for i, prompt in enumerate(PROMPTS)]
    assert codes(write(tmp_path, *items)) == []  # the key ties: nothing to cue


def test_key_longest_across_decks_too_small_alone(tmp_path: Path) -> None:
    items = longest_key_items(5)
    first = write(tmp_path, *items[:3], deck="first", name="a.yaml")
    second = write(tmp_path, *items[3:], deck="second", name="b.yaml")
    found = findings(first, second)
    assert [d.code for d in found] == ["length-cue"]
    assert found[0].message.startswith("across 2 decks: the key is the longest option in 5 of 5")
    assert (found[0].path, found[0].line) == (str(first), line_of(first, "- id: q0"))


def shortest_key_items(shortest: int) -> list[str]:
    """Five single-choice items; in the first `shortest` the key is the shortest option."""
    items = []
    for index, prompt in enumerate(PROMPTS):
        key, other = "Key option A", "Other option B"
        third = "Option C, long" if index < shortest else "Short C"
        items.append(single(f"q{index}", prompt, key, other, third))
    return items


def test_key_shortest_far_beyond_chance(tmp_path: Path) -> None:
    path = write(tmp_path, *shortest_key_items(5))
    found = findings(path)
    assert [d.code for d in found] == ["length-cue"]
    assert found[0].message == (
        "deck 'd': the key is the shortest option in 5 of 5 single-choice items (chance: about "
        "1.7; exact binomial test)"
    )
    assert found[0].line == line_of(path, "- id: q0")


def test_key_shortest_three_of_five_is_chance(tmp_path: Path) -> None:
    assert codes(write(tmp_path, *shortest_key_items(3))) == []


# -- length-cue: one key far longer or shorter ------------------------------------------------


def test_key_much_longer_points_at_the_key(tmp_path: Path) -> None:
    key = "The activations: each token's vector of features"  # 48 characters
    path = write(tmp_path, single("q", "What does LayerNorm normalize?", key, "The gradients"))
    found = findings(path)
    assert [d.code for d in found] == ["length-cue"]
    assert found[0].message == (
        "the key is 48 characters, 3.7× the longest distractor (13): its length gives it away"
    )
    assert found[0].line == line_of(path, key)


def test_key_not_much_longer(tmp_path: Path) -> None:
    slightly = single(
        "q1", "What does LayerNorm normalize?", "Each token's features", "The gradients"
    )
    short = single("q2", "Which scheme does Llama use?", "RoPE rotations", "Sinusoids")
    # 21 vs 13 characters is 1.6× but only 8 longer; 14 vs 9 likewise.
    assert codes(write(tmp_path, slightly, short)) == []


def test_key_much_shorter_points_at_the_key(tmp_path: Path) -> None:
    distractors = ("The gradients of every layer, summed", "The weights of every projection")
    path = write(tmp_path, single("q", "What does LayerNorm normalize?", "Features", *distractors))
    found = findings(path)
    assert [d.code for d in found] == ["length-cue"]
    assert found[0].message == (
        "the key is 8 characters, 3.9× shorter than the shortest distractor (31): its length "
        "gives it away"
    )
    assert found[0].line == line_of(path, "Features")


def test_key_not_much_shorter(tmp_path: Path) -> None:
    # 8 against 12 characters: 1.5× but only 4 shorter.
    path = write(
        tmp_path, single("q", "What does LayerNorm normalize?", "Features", "The gradient")
    )
    assert codes(path) == []


# -- rationale-in-key ---------------------------------------------------------------------------


def reasoned_items(reasoned_distractors: bool) -> list[str]:
    distractor = (
        "Each head sees other tokens, because the sequence is split"
        if reasoned_distractors
        else "Each head sees a different subset of the tokens at once"
    )
    return [
        single(
            f"q{i}",
            prompt,
            f"Key claim {i}, because the lesson says exactly that",
            distractor,
            "A distractor with no reason given for it here",
        )
        for i, prompt in enumerate(PROMPTS[:3])
    ]


def test_rationale_in_key(tmp_path: Path) -> None:
    found = findings(write(tmp_path, *reasoned_items(False)))
    assert [d.code for d in found] == ["rationale-in-key"]
    assert found[0].message == (
        'deck \'d\': 3 of 3 keys argue for themselves ("because", "so", a clause after a '
        "colon or dash), against 0 of 6 distractors"
    )


def test_rationale_in_distractors_too(tmp_path: Path) -> None:
    assert codes(write(tmp_path, *reasoned_items(True))) == []


# -- key-count-fixed ----------------------------------------------------------------------------

MC_PROMPTS = [
    "Select everything LayerNorm does.",
    "Select every true statement about Pre-LN.",
    "Select every true statement about RoPE.",
    "Select every property of sinusoidal encoding.",
]


def mc_items(*key_counts: int) -> list[str]:
    return [
        multiple(f"m{i}", prompt, "First", "Second", "Third", "Fourth", keys=keys)
        for i, (prompt, keys) in enumerate(zip(MC_PROMPTS, key_counts, strict=True))
    ]


def test_key_count_never_varies(tmp_path: Path) -> None:
    found = findings(write(tmp_path, *mc_items(2, 2, 2, 2)))
    assert [d.code for d in found] == ["key-count-fixed"]
    assert found[0].message == (
        "deck 'd': all 4 multiple-choice items have exactly 2 keys, so the count itself is a clue"
    )


def test_key_count_never_one(tmp_path: Path) -> None:
    found = findings(write(tmp_path, *mc_items(2, 3, 2, 3)))
    assert [d.message for d in found] == [
        "deck 'd': the 4 multiple-choice items have 2 to 3 keys, never one, so the count "
        "itself is a clue"
    ]


def test_key_count_never_all_is_no_cue(tmp_path: Path) -> None:
    # Every option correct is `all-correct`'s cue; never so is what it asks for.
    assert codes(write(tmp_path, *mc_items(1, 2, 1, 2))) == []


def test_all_correct_points_at_the_question(tmp_path: Path) -> None:
    path = write(tmp_path, *mc_items(1, 2, 4, 2))
    found = findings(path)
    assert [d.code for d in found] == ["all-correct"]
    assert found[0].line == line_of(path, "- id: m2")
    assert found[0].message == (
        "all 4 options are correct: ticking everything scores without knowing any of them"
    )


def test_key_count_needs_four_items(tmp_path: Path) -> None:
    assert codes(write(tmp_path, *mc_items(2, 2, 2, 2)[:3])) == []


# -- absolute-word-false ------------------------------------------------------------------------


def test_absolute_word_in_a_false_statement(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        statement("t1", "Adding heads always improves the model.", False),
        statement("t2", "Each head has its own projections.", True),
    )
    found = findings(path)
    assert [d.code for d in found] == ["absolute-word-false"]
    assert found[0].line == line_of(path, "- id: t1")
    assert found[0].message == (
        'the false statement says "always", and an absolute word alone gives a false '
        "statement away (1 of 1 false statements in this deck use one, 0 of 1 true ones)"
    )


def test_every_absolute_word_is_named(tmp_path: Path) -> None:
    prompt = "Learned embeddings represent any position, however  long the sequence."
    found = findings(write(tmp_path, statement("t", prompt, False)))
    assert found[0].message.startswith('the false statement says "any" and "however long",')


def test_absolute_words_in_true_statements_as_often(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        statement("t1", "Adding heads always improves the model.", False),
        statement("t2", "LayerNorm always uses the token's own statistics.", True),
    )
    assert codes(path) == []


def test_absolute_words_match_whole_words_only(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        statement("t1", "Hallways of heads are overall unanimous.", False),
        statement("t2", "Each head has its own projections.", True),
    )
    assert codes(path) == []


# -- hedge-true ---------------------------------------------------------------------------------

HEDGED = [
    "Some heads can end up doing little.",
    "Pre-LN is usually the default for deep stacks.",
    "Total compute is roughly that of one full-width head.",
]
PLAIN = [
    "RoPE rotates the values.",
    "LayerNorm uses batch statistics.",
    "Sinusoidal encodings are learned.",
    "The attention formula has a position term.",
]


def test_hedged_statements_are_the_true_ones(tmp_path: Path) -> None:
    items = [statement(f"h{i}", p, True) for i, p in enumerate(HEDGED)]
    items += [statement(f"p{i}", p, False) for i, p in enumerate(PLAIN)]
    found = findings(write(tmp_path, *items))
    assert [d.code for d in found] == ["hedge-true"]
    assert found[0].message == (
        'deck \'d\': 3 of 3 hedged true/false statements ("can", "roughly", "usually") are '
        "true, against 0 of 4 plain ones"
    )


def test_hedges_in_false_statements_too(tmp_path: Path) -> None:
    items = [statement(f"h{i}", p, True) for i, p in enumerate(HEDGED)]
    items += [statement("hf", "RoPE can rotate the values.", False)]
    items += [statement(f"p{i}", p, False) for i, p in enumerate(PLAIN)]
    assert codes(write(tmp_path, *items)) == []


# -- all-none-of-the-above ----------------------------------------------------------------------


def test_an_option_that_points_at_the_others(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        single(
            "q1", "Which scheme do most modern LLMs use?", "RoPE", "Sinusoids", "None of the above"
        ),
        multiple("q2", "Select each learned part.", "W_q", "W_k", "Both A and B", "W_x", keys=3),
    )
    found = findings(path)
    assert [(d.code, d.line) for d in found] == [
        ("all-none-of-the-above", line_of(path, "None of the above")),
        ("all-none-of-the-above", line_of(path, "Both A and B")),
    ]
    assert found[0].message == (
        'the option "None of the above" refers to the other options: it can be answered from '
        "partial knowledge, and the app shuffles the options"
    )


def test_options_that_only_sound_alike(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        single("q1", "Where does RoPE act?", "Above the embeddings", "On both i and j", "Q and K"),
    )
    assert codes(path) == []


# -- near-duplicate ------------------------------------------------------------------------------


def test_a_stem_that_nearly_repeats_an_earlier_one(tmp_path: Path) -> None:
    first = write(
        tmp_path,
        statement(
            "t1", "Pre-LN applies LayerNorm before each sub-layer and its residual add.", True
        ),
        deck="first",
        name="a.yaml",
    )
    second = write(
        tmp_path,
        statement(
            "t2", "Pre-LN applies LayerNorm after each sub-layer and its residual add.", False
        ),
        deck="second",
        name="b.yaml",
    )
    found = findings(first, second)
    assert [(d.code, d.path) for d in found] == [("near-duplicate", str(second))]
    assert (found[0].line) == line_of(second, "- id: t2")
    assert found[0].message == (
        f"the stem nearly repeats that of 't1' ({first}:{line_of(first, '- id: t1')}:5); merge "
        "them, make them ask different things, or mark the pair with pairs_with: [t1]"
    )


def test_a_flashcard_may_restate_an_exam_item(tmp_path: Path) -> None:
    prompt = "Over which numbers does LayerNorm compute its mean and variance?"
    card = example_question("c", "flashcard", prompt, "    back: One token's features.\n")
    path = write(tmp_path, statement("t", prompt, True), card)
    assert codes(path) == []


# -- output -------------------------------------------------------------------------------------


def test_json_output_carries_the_codes_and_strict_fails(run_cli, tmp_path: Path) -> None:
    path = write(tmp_path, *longest_key_items(5), *mc_items(2, 2, 2, 2))
    plain = run_cli("lint", "--format", "json", str(path))
    assert plain.returncode == 0, plain.stderr
    payload = json.loads(plain.stdout)
    assert sorted(d["code"] for d in payload["diagnostics"]) == ["key-count-fixed", "length-cue"]
    assert {d["severity"] for d in payload["diagnostics"]} == {"warning"}
    strict = run_cli("lint", "--strict", str(path))
    assert strict.returncode == 1
    assert "error: deck 'd': the key is the longest option in 5 of 5" in strict.stdout
