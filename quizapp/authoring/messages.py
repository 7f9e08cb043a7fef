"""Every code `quizapp lint` can print: its severity, what it means and how to fix it.

docs/authoring.md's "Lint messages" section is generated from this catalogue, and a test holds
it to the source: a code emitted anywhere in quizapp/ without an entry here fails, and so does
an entry whose code nothing emits. Each entry names a file under tests/bank/corpus/bad that
produces it, or carries a small question `example` that does (tests check both).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Severity = Literal["error", "warning"]
# When the problem is found: on every load of a bank (the app, `quizapp lint`), only by
# `quizapp lint` (it holds compute blocks to the registry), or only when lint runs the
# computations behind `from:` answers (skipped by `--no-eval`), or by `quizapp lint` reviewing
# how items are written, across each deck and the whole bank (quizapp/authoring/item_writing.py).
Stage = Literal["load", "lint", "eval", "review"]

CORPUS_DIR = "tests/bank/corpus/bad"

# The deck a question `example` is wrapped in to make a whole file.
EXAMPLE_DECK_HEADER = (
    "deck: {id: example, title: Example, topic: example, domain: Examples, exam_weight: 1}\n"
    "questions:\n"
)


def example_deck(questions: str) -> str:
    """A complete deck file around a YAML list of questions (`- id: ...`)."""
    return EXAMPLE_DECK_HEADER + questions


@dataclass(frozen=True)
class Message:
    code: str
    severity: Severity
    stage: Stage
    meaning: str  # Markdown: what the problem is and what it does to the bank
    fix: str  # Markdown: how to make it go away
    corpus: str | None = None  # a file in CORPUS_DIR that produces this code
    example: str | None = None  # or: a YAML list of questions that does, see example_deck()
    eval_timeout: float | None = None  # the `--eval-timeout` the example is linted with

    @property
    def corpus_path(self) -> str | None:
        return None if self.corpus is None else f"{CORPUS_DIR}/{self.corpus}"


_COMMON = "    prompt: P\n    explanation: E\n    difficulty: easy\n    tags: [t]\n"


def example_question(qid: str, qtype: str, prompt: str, body: str) -> str:
    """One complete question for an example: its own prompt, a computation, `body` after."""
    return (
        f"  - id: {qid}\n    type: {qtype}\n    prompt: {prompt}\n    explanation: E\n"
        f"    difficulty: easy\n    tags: [t]\n"
        f"    compute: {{name: mha_params, expect: [params_single_head == params_multi_head]}}\n"
        f"{body}"
    )


def example_choices(*options: str, keys: int = 1) -> str:
    """A `choices:` list whose first `keys` options are correct."""
    lines = ["    choices:\n"]
    for index, text in enumerate(options):
        correct = " correct: true," if index < keys else ""
        lines.append(f'      - {{text: "{text}",{correct} why: W}}\n')
    return "".join(lines)


def example_statement(answer: bool) -> str:
    return f"    answer: {str(answer).lower()}\n    why_true: W\n    why_false: W\n"


CATALOGUE: tuple[Message, ...] = (
    # -- finding and reading files ----------------------------------------------------------
    Message(
        "not-found",
        "error",
        "load",
        "A path given to `quizapp lint` or `--bank` does not exist.",
        "Check the path's spelling and the folder you run the command from.",
    ),
    Message(
        "no-files",
        "error",
        "load",
        "A folder given as a bank holds no `.yaml` or `.yml` file (folders are searched "
        "recursively).",
        "Point at the folder that holds the deck files, or give the files themselves.",
    ),
    Message(
        "unreadable",
        "error",
        "load",
        "The operating system refused to read the file (permissions, a broken link, a device).",
        "Make the file readable by the user running quizapp.",
    ),
    Message(
        "file-too-large",
        "error",
        "load",
        "The file is over 4 MiB (4,194,304 bytes); it is rejected before it is parsed.",
        "Split the deck: a bank is a folder of files, and a topic may span several decks.",
    ),
    Message(
        "binary-file",
        "error",
        "load",
        "The file contains a NUL byte: it is binary, not YAML text.",
        "Check that the right file is in the bank folder; save decks as plain text.",
        corpus="binary.yaml",
    ),
    Message(
        "encoding",
        "error",
        "load",
        "The file is not valid UTF-8 (often Latin-1 or Windows-1252 from an old editor).",
        "Save the file as UTF-8; the message names the line and column of the first bad byte.",
        corpus="latin1.yaml",
    ),
    # -- YAML itself ---------------------------------------------------------------------------
    Message(
        "yaml-syntax",
        "error",
        "load",
        "The file is not valid YAML, so nothing in it loads. Common causes: a tab used for "
        'indentation, an unclosed `[` or `"`, a `: ` inside an unquoted value, or several '
        "documents separated by `---` (a deck file holds exactly one).",
        "Go to the line and column given. Quote values that contain `: ` or start with a "
        "special character (`*`, `&`, `!`, `[`, `{`, `>`, `|`, `@`, `` ` ``); indent with spaces.",
        corpus="syntax_error.yaml",
    ),
    Message(
        "nesting-depth",
        "error",
        "load",
        "The YAML nests more than 64 levels deep. A deck nests about five, so this is a "
        "damaged or hostile file; it is rejected before a deep tree is built.",
        "Look for runaway brackets; a real deck never comes near the limit.",
        corpus="deep_nesting.yaml",
    ),
    Message(
        "alias-expansion",
        "error",
        "load",
        "The file's anchors (`&a`) and aliases (`*a`) expand into far more content than the "
        'file\'s size justifies (a "billion laughs" file). The whole file is rejected.',
        "Write the repeated content out instead of nesting aliases of aliases.",
        corpus="alias_bomb.yaml",
    ),
    Message(
        "too-many-errors",
        "error",
        "load",
        "The file had 100 errors; checking stopped there and the whole file is left out. "
        "The first 100 are still reported.",
        "Fix the first few: one structural slip (a wrong indentation, a missing `- `) often "
        "causes dozens of follow-on errors.",
    ),
    Message(
        "empty-file",
        "error",
        "load",
        "The file holds no YAML document at all (empty, or only comments).",
        "Write a deck in it, or remove it from the bank folder.",
        corpus="empty.yaml",
    ),
    Message(
        "unsupported-tag",
        "error",
        "load",
        "A value carries a YAML tag (`!!python/object`, `!!str`, `!custom`, ...). Bank files "
        "are untrusted input: no tag is honoured, so none is allowed.",
        "Remove the tag. To make a number a string, quote it instead of writing `!!str`.",
        corpus="python_tag.yaml",
    ),
    Message(
        "control-character",
        "error",
        "load",
        "A text or id holds a control character or a bidirectional override. "
        "Such a character can act on the terminal of whoever reads the bank, or make text read "
        "differently from what it says. Refused: every control character but tab and newline "
        "(ESC, BEL, CR, DEL, the C1 range U+0080 to U+009F), and the bidirectional overrides "
        "and isolates (U+202A to U+202E, U+2066 to U+2069). It counts "
        'whether it is typed raw or as a YAML escape such as `"\\e"`, `"\\x1b"` or '
        '`"\\u202e"`. The message names the character (`U+001B (ESC)`) and where it is in '
        "the text. The question is left out; the whole file is, when the character is in "
        "the deck's fields or typed raw (YAML itself refuses a raw control character). "
        "The direction marks U+200E and U+200F are allowed: right-to-left text needs them "
        "and they cannot reorder words. Wherever quizapp prints text from a bank, a CSV, an "
        "argument or a file name to a terminal, any such character left is shown as an "
        "escape (`\\x1b`, `\\u202e`) instead.",
        "Delete the character. A line break in a text is a real new line (use a `|` block); "
        "for emphasis use Markdown, not terminal colour codes.",
        corpus="control_escape_in_prompt.yaml",
    ),
    Message(
        "merge-key",
        "error",
        "load",
        "A mapping uses the YAML 1.1 merge key `<<: *anchor`, which YAML 1.2 does not have.",
        "Write the keys out in each question.",
        corpus="merge_key.yaml",
    ),
    Message(
        "duplicate-key",
        "error",
        "load",
        "A key appears twice in one mapping (or an argument twice in `compute.args`). Other "
        "YAML readers silently keep the last one; quizapp refuses to guess. The message names "
        "the line of the first.",
        "Delete one of the two, or merge them.",
        corpus="duplicate_key.yaml",
    ),
    # -- the shape of a deck ---------------------------------------------------------------------
    Message(
        "unknown-key",
        "error",
        "load",
        "A key that the format does not have at this place: a typo (the message suggests the "
        "closest key), a key of another question type (`choices` on a flashcard), or a key "
        "at the wrong level.",
        "Use the suggested key, or move the key where it belongs; the field tables in this "
        "guide list every key by place.",
        corpus="unknown_key.yaml",
    ),
    Message(
        "missing-key",
        "error",
        "load",
        "A required key is absent: `deck` or `questions` at the top, one of the deck's "
        "fields, a common question field, or a key the question's type requires (`choices`, "
        "`answer`, `steps`, `back`).",
        "Add the key the message names.",
        corpus="missing_key.yaml",
    ),
    Message(
        "wrong-type",
        "error",
        "load",
        "A value has the wrong shape: a list where a mapping belongs, a number where text "
        'belongs (`prompt: 42`), text where a number belongs (`value: "1,048,576"`), or '
        "something other than true/false for a boolean.",
        "Give the shape the message asks for. Quote text that YAML would read as a number "
        "or boolean (`'1.0'`, `'true'`); write numbers without thousands separators "
        "(`1048576` or `1_048_576`).",
        corpus="wrong_type_prompt.yaml",
    ),
    Message(
        "bad-value",
        "error",
        "load",
        "A value has the right type but is not allowed: an unknown `type` or `difficulty` "
        "(with a suggestion), an empty text, an empty `tags` or `questions` list, "
        "`exam_weight` of 0 or less, a negative tolerance, `.nan` or `.inf`, an unsupported "
        "`format`, or a trap equal to the answer. With evaluation on, lint also reports a "
        "trap equal to the answer a `from:` computation gives.",
        "Use one of the values the message lists, or a value in range. A trap that equals "
        "the key is not a wrong answer: remove it or correct it.",
        corpus="bad_difficulty.yaml",
    ),
    Message(
        "bad-id",
        "error",
        "load",
        "An id, topic, tag or compute name breaks its pattern: ids, topics and tags are "
        "lowercase letters and digits joined by single `-`, `_` or `.` (at most 80 "
        "characters); a compute name is a lowercase identifier such as `mha_params`.",
        "Rewrite it in that form, e.g. `Multi Head` → `multi-head`. Never change the id of a "
        "question students have reviewed: its history is keyed by the id.",
        corpus="bad_id.yaml",
    ),
    Message(
        "duplicate-id",
        "error",
        "load",
        "Two questions share an id (in one file or across the bank), or two files declare "
        "the same deck id. The first one keeps the id; the later one is left out.",
        "Give the later question or deck a new id. Ids are global to the whole bank, so "
        "prefixing them with the deck's topic (`mha-...`) avoids clashes.",
        corpus="duplicate_id_in_file.yaml",
    ),
    # -- question types ------------------------------------------------------------------------
    Message(
        "choice-count",
        "error",
        "load",
        "A `single_choice` or `multiple_choice` question has fewer than 2 or more than 9 "
        "choices (the keys 1-9 pick them).",
        "Give 2 to 9 choices; split a longer list into two questions.",
        corpus="one_choice.yaml",
    ),
    Message(
        "duplicate-choice",
        "error",
        "load",
        "Two choices of one question read the same (ignoring case and spacing), so the "
        "student cannot tell them apart.",
        "Reword or remove one of them.",
        corpus="duplicate_choice.yaml",
    ),
    Message(
        "correct-count",
        "error",
        "load",
        "A `single_choice` question does not have exactly one `correct: true` choice, or a "
        "`multiple_choice` question has none.",
        "Mark the right choice(s) `correct: true`; use `multiple_choice` when several are right.",
        corpus="single_choice_two_correct.yaml",
    ),
    Message(
        "bad-answer",
        "error",
        "load",
        "A numeric `answer` gives both or neither of `value` and `from`, both `tolerance` and "
        "`relative_tolerance`, or uses `from` in a question without a `compute` block.",
        "Give exactly one of `value` and `from`, at most one tolerance, and a `compute` block "
        "whenever the key comes `from` a computation.",
        corpus="numeric_both_value_and_from.yaml",
    ),
    Message(
        "ordering-steps",
        "error",
        "load",
        "An `ordering` question has fewer than 2 or more than 9 steps, or two steps that read "
        "the same (so more than one order would be right).",
        "Give 2 to 9 distinct steps, written in the correct order.",
        corpus="ordering_repeated_step.yaml",
    ),
    # -- parameterized questions (`vary:`) ------------------------------------------------------
    Message(
        "too-many-variants",
        "error",
        "load",
        "A question's `vary:` lists allow more than 1,000 combinations (the product of their "
        "lengths).",
        "Shorten the lists, or split the question into several with narrower ranges.",
    ),
    Message(
        "unknown-placeholder",
        "error",
        "load",
        "A text uses a `{name}` placeholder that the question's `vary:` does not list (or the "
        "question has no `vary:` at all).",
        "Add the name under `vary:`, fix its spelling, or write literal braces as `{{` and `}}`.",
    ),
    Message(
        "unused-vary",
        "warning",
        "load",
        "A name listed under `vary:` is used by no text and no compute argument, so varying it "
        "changes nothing the student sees.",
        'Use it as `{name}` in a text or as `"{name}"` in `compute.args`, or remove it.',
    ),
    Message(
        "todo-left",
        "warning",
        "lint",
        "A text of the question still contains TODO: a template from `quizapp new` (or a note to "
        "self) that was never finished.",
        "Write the real text in place of each TODO.",
    ),
    Message(
        "variants-unchecked",
        "warning",
        "lint",
        "The question has more variants than lint checks (64); only the first 64 were held "
        "to the registry and evaluated.",
        "Usually nothing: narrow the `vary:` lists if every variant must be checked.",
    ),
    # -- item writing: cues a test-wise student can use -------------------------------------
    Message(
        "key-longest",
        "warning",
        "review",
        "Across a deck's single-choice items, the key is the strictly longest option far more "
        "often than chance: with k options the key would be the longest one time in k. A "
        "student who picks the longest option scores without the content. Lint counts the "
        "items (those where one option is strictly longest) and warns when a one-sided exact "
        "test puts the count below a 5% chance, given at least 5 single-choice items. The "
        'message says how often, e.g. "in 24 of 27 single-choice items (chance: about 7)". '
        'The decks are also judged together ("across 3 decks") unless each was flagged on '
        "its own, since a cue spread thin over small decks shows only in the total. It is "
        "reported at the deck's first question.",
        "Even out option lengths: trim the key's qualifications, or give the distractors the "
        "same detail, until the key is the longest option no more often than chance.",
        example=(
            example_question(
                "q-rope",
                "single_choice",
                "Where does RoPE act?",
                example_choices(
                    "On Q and K in each layer", "On the token embeddings", "On the values"
                ),
            )
            + example_question(
                "q-ln-axis",
                "single_choice",
                "What does LayerNorm normalize over?",
                example_choices(
                    "One token's own features", "The batch, per feature", "The sequence"
                ),
            )
            + example_question(
                "q-head-width",
                "single_choice",
                "How wide is each of 8 heads at d_model = 512?",
                example_choices("64 dimensions per head", "512 dimensions", "8 dimensions"),
            )
            + example_question(
                "q-original-placement",
                "single_choice",
                "Which placement did the original Transformer use?",
                example_choices("Post-LN placement", "Pre-LN placement", "No LayerNorm"),
            )
            + example_question(
                "q-residual-gift",
                "single_choice",
                "What do residual connections give gradients?",
                example_choices(
                    "A direct path backward", "A normalized scale", "A second optimizer"
                ),
            )
        ),
    ),
    Message(
        "key-much-longer",
        "warning",
        "review",
        "A single-choice key is at least 1.5 times as long as the longest distractor (and at "
        "least 10 characters longer): its length alone marks it. Reported at the key.",
        "Shorten the key to the claim itself, or write distractors with the same detail.",
        example=example_question(
            "q-key-much-longer",
            "single_choice",
            "What does layer normalization normalize?",
            example_choices(
                "The activations, each token's vector of features flowing through the network",
                "The gradients",
                "The weights",
            ),
        ),
    ),
    Message(
        "rationale-in-key",
        "warning",
        "review",
        'Single-choice keys carry their own justification ("...: because ...", "..., so ...", '
        "a clause after a colon or dash) far more often than distractors do (one-sided "
        "Fisher's exact test below 5%, given at least 3 such keys). A student learns that "
        "the option which explains itself is right. Reported at the deck's first question; "
        "judged across decks too, like `key-longest`.",
        "Move the reasons into the option's `why` or the `explanation`; write keys as bare "
        "claims, or give distractors equally plausible reasons.",
        example=(
            example_question(
                "q-why-pe",
                "single_choice",
                "Why does a transformer need positional encoding?",
                example_choices(
                    "Attention compares content only, so order never enters it",
                    "To let attention skip the tokens that are far away",
                    "To keep activations at a stable scale in deep stacks",
                ),
            )
            + example_question(
                "q-why-residual",
                "single_choice",
                "What is the residual connection's main job?",
                example_choices(
                    "A path for gradients: they need not cross every layer",
                    "Keeping activations at mean 0 and variance 1",
                    "Telling the model where each token sits",
                ),
            )
            + example_question(
                "q-why-heads",
                "single_choice",
                "What lets two heads attend differently to one input?",
                example_choices(
                    "Their own projections, because each head learns its own W_q and W_k",
                    "Each head sees a different subset of the tokens in the sequence",
                    "Each head is given a different positional encoding than the others",
                ),
            )
        ),
    ),
    Message(
        "key-count-fixed",
        "warning",
        "review",
        "A deck's multiple-choice items (at least 4 of them) always have the same number of "
        "correct options, or never exactly one, or never all of them. A student who knows "
        'the pattern ("always two or three") can guess the last box from the others. '
        "Reported at the deck's first question; judged across decks too, like `key-longest`.",
        "Vary how many options are correct, from one up to all of them; a question with "
        "every option correct is a fair test of each.",
        example=(
            example_question(
                "q-mc-ln",
                "multiple_choice",
                "Select everything LayerNorm does to one token.",
                example_choices(
                    "Subtracts its mean", "Divides by its spread", "Uses batch statistics", keys=2
                ),
            )
            + example_question(
                "q-mc-pre-ln",
                "multiple_choice",
                "Select every true statement about Pre-LN.",
                example_choices(
                    "Norm before the sub-layer", "Clean residual path", "Original layout", keys=2
                ),
            )
            + example_question(
                "q-mc-rope",
                "multiple_choice",
                "Select every true statement about RoPE.",
                example_choices("Rotates Q and K", "Relative in the score", "Rotates V", keys=2),
            )
            + example_question(
                "q-mc-sinusoid",
                "multiple_choice",
                "Select every property of sinusoidal encoding.",
                example_choices(
                    "No trained parameters", "Added to embeddings", "A learned table", keys=2
                ),
            )
        ),
    ),
    Message(
        "absolute-word-false",
        "warning",
        "review",
        'A false true/false statement contains an absolute word ("always", "never", "only", '
        '"all", "none", "every", "any", "cannot", "impossible", "guaranteed", "completely", '
        '"however long", ...), and the deck\'s true statements use such words less often. '
        "Test-wise students reject absolute statements without knowing the content. When "
        "true statements are as often absolute as false ones, the word predicts nothing "
        "and lint says nothing.",
        'Make the statement false for a reason the student must know ("adding heads improves '
        'the model at no cost" rather than "always improves"), or write true statements '
        "that are absolute too.",
        example=example_question(
            "q-absolute",
            "true_false",
            "Adding heads always improves the model.",
            example_statement(False),
        ),
    ),
    Message(
        "hedge-true",
        "warning",
        "review",
        'A deck\'s hedged true/false statements ("usually", "often", "can", "may", '
        '"typically", "roughly", ...) are true far more often than its plain ones (one-sided '
        "Fisher's exact test below 5%, given at least 3 hedged true statements): a student "
        "learns that a careful-sounding statement is true. Reported at the deck's first "
        "question; judged across decks too, like `key-longest`.",
        "Write some false statements with hedges and some true ones plainly, so the wording "
        "carries no hint.",
        example=(
            example_question(
                "q-hedge-1",
                "true_false",
                "Some heads can end up doing little.",
                example_statement(True),
            )
            + example_question(
                "q-hedge-2",
                "true_false",
                "Pre-LN is usually the default for deep stacks.",
                example_statement(True),
            )
            + example_question(
                "q-hedge-3",
                "true_false",
                "Total compute is roughly that of one full-width head.",
                example_statement(True),
            )
            + example_question(
                "q-plain-1", "true_false", "RoPE rotates the values.", example_statement(False)
            )
            + example_question(
                "q-plain-2",
                "true_false",
                "LayerNorm uses batch statistics.",
                example_statement(False),
            )
            + example_question(
                "q-plain-3",
                "true_false",
                "Sinusoidal encodings are learned.",
                example_statement(False),
            )
            + example_question(
                "q-plain-4",
                "true_false",
                "The attention formula has a position term.",
                example_statement(False),
            )
        ),
    ),
    Message(
        "all-none-of-the-above",
        "warning",
        "review",
        'An option refers to the others: "all of the above", "none of the above", "both A '
        'and B". Spotting two correct options gives "all of the above" away, "none of the '
        'above" tests only what the answer is not, and quizapp shuffles options by default, so '
        '"above" may be below. Reported at the option.',
        "Write each option as a claim of its own; when several are right, make the question "
        "`multiple_choice` and mark each of them correct.",
        example=example_question(
            "q-none-above",
            "single_choice",
            "Which scheme do most modern LLMs use?",
            example_choices("RoPE", "Sinusoidal encoding", "None of the above"),
        ),
    ),
    Message(
        "near-duplicate-stem",
        "warning",
        "review",
        "A question's stem nearly repeats an earlier one's (compared word by word, ignoring "
        "case and punctuation but not numbers; 90% similar or more). Two such items test the "
        "same thing twice, or one gives the other away in an exam. Exam items are compared "
        "with each other and flashcards with each other. Reported at the later question, "
        "naming the earlier.",
        "Merge the two, or rewrite one so that it asks something the other does not.",
        example=(
            example_question(
                "q-ln-stats",
                "flashcard",
                "Over which numbers does LayerNorm compute its mean and variance?",
                "    back: One token's features.\n",
            )
            + example_question(
                "q-ln-stats-again",
                "flashcard",
                "Over which numbers does LayerNorm compute its mean and its variance?",
                "    back: The features of one token.\n",
            )
        ),
    ),
    # -- warnings --------------------------------------------------------------------------------
    Message(
        "no-compute",
        "warning",
        "load",
        "The question has no `compute` block: no live computation backs its explanation. "
        "The question still loads.",
        "Add a `compute` block naming the computation that demonstrates the point (see "
        "Computations), or accept the warning; `--strict` makes it an error.",
        example=("  - id: q-no-compute\n    type: flashcard\n" + _COMMON + "    back: B\n"),
    ),
    Message(
        "no-why",
        "warning",
        "load",
        "A choice has no `why`, or a `true_false` question lacks `why_true` or `why_false`: "
        "a student who picks that option is told only that it is wrong, not why.",
        "Write a `why` for every option: why it is right, or which trap it is.",
        example=(
            "  - id: q-no-why\n    type: single_choice\n"
            + _COMMON
            + "    compute: {name: mha_params, expect: [head_dim == 64]}\n"
            + "    choices:\n"
            + "      - {text: Right, correct: true, why: Because.}\n"
            + "      - {text: Wrong}\n"
        ),
    ),
    # -- checked by lint against the computation registry -----------------------------------
    Message(
        "unknown-computation",
        "error",
        "lint",
        "`compute.name` is not a computation in the registry. The message suggests the "
        "closest name.",
        "Use a name from the Computations section below (or `quizapp compute --list`).",
        example=(
            "  - id: q-unknown-computation\n    type: flashcard\n"
            + _COMMON
            + "    back: B\n    compute: {name: mha_param, expect: [head_dim == 64]}\n"
        ),
    ),
    Message(
        "bad-argument",
        "error",
        "lint",
        "An argument in `compute.args` is not one the computation takes, has the wrong type, "
        "is out of its bounds, is not one of its choices, or breaks a rule between arguments "
        "(`d_model` divisible by `n_heads`). The message points at the argument's own line.",
        "Check the computation's argument table in the Computations section; try the "
        "arguments with `quizapp compute NAME key=value ...`.",
        example=(
            "  - id: q-bad-argument\n    type: flashcard\n"
            + _COMMON
            + "    back: B\n"
            + "    compute:\n"
            + "      name: mha_params\n"
            + "      args: {d_model: 512, n_heads: 7}\n"
            + "      expect: [head_dim == 64]\n"
        ),
    ),
    Message(
        "unknown-value",
        "error",
        "lint",
        "A numeric answer's `from:`, or a name in one of the compute block's `expect` claims, "
        "is not a value the question's computation gives. For a claim, the message points at "
        "the claim and suggests the closest value.",
        "Use one of the values the message lists (each computation's values are listed in the "
        "Computations section).",
        example=(
            "  - id: q-unknown-value\n    type: numeric\n"
            + _COMMON
            + "    compute: {name: mha_params, expect: [head_dim == 64]}\n"
            + "    answer: {from: params_total}\n"
        ),
    ),
    Message(
        "computation-failed",
        "error",
        "eval",
        "Lint ran the computation behind a `from:` answer or an `expect` claim and it raised "
        "an exception, so the question has no key and no claim can be checked. The message "
        "gives the exception.",
        "Run it yourself with `quizapp compute NAME key=value ...` (set `QUIZAPP_DEBUG=1` for "
        "the traceback) and adjust the arguments; report it if the arguments are valid.",
    ),
    Message(
        "bad-derived-answer",
        "error",
        "eval",
        "The value a `from:` answer names is not a finite number (a boolean or a message, "
        "say), so it cannot be a numeric key.",
        "Name a numeric value of the computation, or ask a `true_false` question about a "
        "boolean one.",
        example=(
            "  - id: q-bad-derived-answer\n    type: numeric\n"
            + _COMMON
            + "    compute: {name: positional_extrapolation, expect: [sinusoidal_defined]}\n"
            + "    answer: {from: learned_message}\n"
        ),
    ),
    Message(
        "eval-budget",
        "warning",
        "eval",
        "Running the computations behind `from:` answers and `expect:` claims took longer than "
        "lint's budget (`--eval-timeout`, 10 s by default), so lint stopped running them: the "
        "answers and claims from the question named on were not checked. The message says how many were. Everything "
        "else was checked; the budget keeps a `vary:` that asks for hundreds of runs near the "
        "arguments' bounds from holding an editor or a CI job for minutes.",
        "Check everything once with `quizapp lint --eval-timeout 0` (no limit), or give a "
        "larger budget. If a question asks for more computing than its point needs, use "
        "smaller arguments or fewer `vary:` values.",
        example=(
            "  - id: q-eval-budget\n    type: numeric\n"
            + _COMMON
            + "    vary: {n_layers: [61, 62, 63, 64]}\n"
            + "    compute:\n      name: variance_drift\n"
            + '      args: {n_layers: "{n_layers}", d_model: 1024, n_tokens: 1024}\n'
            + "      expect: [residual_final > plain_final]\n"
            + "    answer: {from: residual_final}\n"
        ),
        eval_timeout=1,
    ),
    # -- claims (`expect:`) -------------------------------------------------------------------
    Message(
        "bad-claim",
        "error",
        "load",
        "An `expect` entry is not a claim quizapp can check safely. A claim is one line of at "
        "most 300 characters, read as an expression (never run as code) that may use only the "
        "computation's value names, numbers, `true` and `false`, "
        "`+ - * / // % **` (exponents at most 64), comparisons (`== != < <= > >=`, chained), "
        "`and`/`or`/`not` and `abs`, `min` and `max`, in at most 100 parts. Attributes, "
        "indexing, text, other calls, lambdas and comprehensions are refused, as is a claim "
        "that is not true or false (`a + b` alone). The list holds 1 to 16 claims; a `says` is "
        "one line of at most 200 characters.",
        "Rewrite the claim as a comparison of values, e.g. `abs(pooled_difference) < 1e-6` "
        "rather than `pooled_difference.abs() < 1e-6`; put words in `says`, not in a `#` "
        "comment. Check a claim from the shell with `quizapp compute NAME --expect 'CLAIM'`.",
        example=(
            "  - id: q-bad-claim\n    type: flashcard\n"
            + _COMMON
            + "    back: B\n"
            + "    compute:\n"
            + "      name: mha_params\n"
            + "      expect:\n"
            + "        - params_multi_head.bit_length() > 20\n"
        ),
    ),
    Message(
        "claim-missing",
        "warning",
        "lint",
        "The question names a computation but its `compute` block has no `expect` claims, so "
        "nothing checks that the computation shows what the explanation says. `--strict` "
        "makes it an error.",
        "Add an `expect:` list with at least one claim the computation bears out, e.g. "
        "`- params_single_head == params_multi_head`; see [Claims](#claims-expect).",
        example=(
            "  - id: q-claim-missing\n    type: flashcard\n"
            + _COMMON
            + "    back: B\n    compute: {name: mha_params}\n"
        ),
    ),
    Message(
        "claim-failed",
        "error",
        "eval",
        "Lint ran the computation with the question's arguments and a claim came out false: "
        "the computation does not show what the question says it shows. The message gives "
        "the claim and the values it read, e.g. `claim failed: residual_final > 1000 * "
        "plain_final (residual_final = 1.06, plain_final = 1.05)`. For a `vary:` question, "
        "each variant is checked and the message names the one that failed.",
        "Read the values: either the claim (and likely the explanation) is wrong, or the "
        "arguments are not the ones that show the point. Try them with `quizapp compute NAME "
        "key=value ... --expect 'CLAIM'`.",
        example=(
            "  - id: q-claim-failed\n    type: flashcard\n"
            + _COMMON
            + "    back: B\n"
            + "    compute:\n"
            + "      name: mha_params\n"
            + "      args: {d_model: 512, n_heads: 8}\n"
            + "      expect:\n"
            + "        - claim: params_multi_head < params_single_head\n"
            + "          says: Eight narrow heads cost fewer parameters than one wide head\n"
        ),
    ),
    Message(
        "claim-error",
        "error",
        "eval",
        "A claim could not be evaluated on the computation's values: a division by zero, a "
        "value that is text rather than a number, a number grown too large, or a claim that "
        "comes out as a number instead of true or false.",
        "Guard the arithmetic (compare `a > b * c` rather than `a / c > b`) and compare only "
        "numeric or true/false values.",
        example=(
            "  - id: q-claim-error\n    type: flashcard\n"
            + _COMMON
            + "    back: B\n"
            + "    compute:\n"
            + "      name: mha_params\n"
            + "      expect:\n"
            + "        - params_multi_head / (params_single_head - params_multi_head) > 1\n"
        ),
    ),
)

MESSAGES: dict[str, Message] = {message.code: message for message in CATALOGUE}

__all__ = [
    "CATALOGUE",
    "CORPUS_DIR",
    "EXAMPLE_DECK_HEADER",
    "MESSAGES",
    "Message",
    "Severity",
    "Stage",
    "example_choices",
    "example_deck",
    "example_question",
    "example_statement",
]
